"""Class mode in real Chromium (issue 43): a teacher's page and three students' pages on the
whole app. The students follow the teacher's step, answer its question and the teacher sees
the counts; the reveal reaches them; one steps away and comes back; a second class sees
none of it."""

from __future__ import annotations

import contextlib
import re

import pytest

from tests.server import GRID_DRAWN

WAIT = 60000  # a loaded 2-core machine answers late
LAPTOP = dict(viewport={"width": 1366, "height": 900})
SHOWN_STEP = """() => { const s = [...document.querySelectorAll('.ae-step-bar .ae-step')]
  .find((x) => x.offsetParent !== null); return s ? Number(s.dataset.step) : null; }"""
REVEALED = """() => { const s = [...document.querySelectorAll('.ae-step-bar .ae-step')]
  .find((x) => x.offsetParent !== null); return !!(s && s.querySelector('details[open]')); }"""


def open_page(browser, url):  # noqa: F811
    context = browser.new_context(**LAPTOP)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(GRID_DRAWN, timeout=WAIT)
    return context, page


def teacher_sets_up(page, n: int) -> None:
    page.locator('#tabs button[role="tab"]', has_text="Start here").first.click()
    page.locator("#start-step input").nth(n - 1).check()
    page.wait_for_function(  # the radio's change has run (it remakes the step's link)
        "(n) => (document.querySelector('#start-link textarea, #start-link input') || {})"
        ".value?.endsWith('?step=' + n)", arg=n, timeout=WAIT)
    page.locator("#start-setup").click()
    page.wait_for_function(f"() => ({SHOWN_STEP})() === {n}", timeout=WAIT)


def close_join_screen(page) -> None:
    """A class just opened shows the projector's join screen over the whole page (issue 49
    item 3): the teacher starts the class (Esc closes it) before leading."""
    page.wait_for_selector("#class-join-screen", state="visible", timeout=WAIT)
    page.keyboard.press("Escape")
    page.wait_for_selector("#class-join-screen", state="hidden", timeout=WAIT)


def step_of(page) -> int | None:
    return page.evaluate(SHOWN_STEP)


@contextlib.contextmanager
def a_class(browser, app_url, students: int, prepare=None):  # noqa: F811
    """A teacher's page that opened a class (``prepare(teacher)`` first, e.g. to listen for
    dialogs) and ``students`` pages that joined by its link and follow it; closed after."""
    contexts = []
    try:
        context, teacher = open_page(browser, app_url + "?teach=1")
        contexts.append(context)
        if prepare is not None:
            prepare(teacher)
        teacher.wait_for_function("() => /^[A-Z2-9]{6}$/.test(document.querySelector("
                                  "'#class-code')?.textContent || '')", timeout=WAIT)
        close_join_screen(teacher)
        join = teacher.locator("#class-link").get_attribute("href")
        pages = []
        for _ in range(students):
            context, page = open_page(browser, join)
            contexts.append(context)
            page.wait_for_function("() => document.querySelector('#class-follow')"
                                   "?.innerText.includes('Following the teacher')",
                                   timeout=WAIT)
            pages.append(page)
        yield teacher, pages
    finally:
        for context in contexts:
            context.close()


@pytest.fixture(scope="module")
def lesson(browser, app_url):  # noqa: F811
    with a_class(browser, app_url, 3) as (teacher, students):
        yield teacher, students


def test_the_teacher_opens_a_class_with_a_code_a_link_and_a_qr_code(lesson, app_url):  # noqa: F811
    teacher, _ = lesson
    code = teacher.locator("#class-code").inner_text()
    assert teacher.locator("#class-link").get_attribute("href").endswith("?class=" + code)
    assert "teach=1" not in teacher.url  # the address no longer opens another class
    qr = teacher.locator("#class-qr")
    teacher.wait_for_function("() => document.querySelector('#class-qr').naturalWidth > 0",
                              timeout=WAIT)
    assert qr.is_visible()


def test_students_follow_a_step_answer_it_and_see_the_reveal(lesson):
    teacher, students = lesson
    teacher_sets_up(teacher, 3)
    for page in students:
        page.wait_for_function(f"() => ({SHOWN_STEP})() === 3", timeout=WAIT)
        page.wait_for_selector("#class-choices button", timeout=WAIT)
    picks = ["No, it loses the list", "No, it loses the list", "Yes, still the next word"]
    for page, pick in zip(students, picks, strict=True):
        page.locator("#class-choices button", has_text=pick).click()
        page.wait_for_function("(p) => [...document.querySelectorAll('#class-choices button')]"
                               ".some((b) => b.innerText === p && "
                               "b.getAttribute('aria-pressed') === 'true')", arg=pick,
                               timeout=WAIT)
    teacher.wait_for_function("() => document.querySelector('#class-answers')"
                              "?.innerText.includes('3 of 3 answered')", timeout=WAIT)
    rows = teacher.locator("#class-answers .ae-class-row").all_inner_texts()
    counts = {re.sub(r"\s+\d+$", "", r.strip()): int(r.split()[-1]) for r in rows}
    assert counts["No, it loses the list"] == 2 and counts["Yes, still the next word"] == 1
    # the reveal: the teacher opens the answer, every student's opens
    teacher.locator(".ae-step-bar .ae-step details summary").filter(visible=True).click()
    for page in students:
        page.wait_for_function(REVEALED, timeout=WAIT)
        assert not page.locator("#class-choices button").count()  # no more predicting


def test_a_student_steps_away_and_comes_back(lesson):
    teacher, students = lesson
    away = students[0]
    away.locator("#class-toggle").click()
    assert "on your own" in away.locator("#class-follow").inner_text()
    teacher_sets_up(teacher, 4)
    for page in students[1:]:
        page.wait_for_function(f"() => ({SHOWN_STEP})() === 4", timeout=WAIT)
    assert step_of(away) == 3  # still where the student chose to stay
    away.locator("#class-toggle").click()  # Follow again
    away.wait_for_function(f"() => ({SHOWN_STEP})() === 4", timeout=WAIT)
    assert "Following the teacher" in away.locator("#class-follow").inner_text()


def test_a_second_class_sees_none_of_it(lesson, browser, app_url):  # noqa: F811
    teacher, students = lesson
    context, other = open_page(browser, app_url + "?teach=1")
    try:
        other.wait_for_function("() => /^[A-Z2-9]{6}$/.test(document.querySelector("
                                "'#class-code')?.textContent || '')", timeout=WAIT)
        close_join_screen(other)
        assert other.locator("#class-code").inner_text() != \
            teacher.locator("#class-code").inner_text()
        teacher_sets_up(other, 4)  # the same step as the first class: its own counts
        other.wait_for_function("() => document.querySelector('#class-answers')"
                                "?.innerText.includes('0 of 0 answered')", timeout=WAIT)
        teacher_sets_up(other, 6)
        other.wait_for_timeout(2000)
        assert all(step_of(page) == 4 for page in students)  # still the first class's step
    finally:
        context.close()


def test_ending_the_class_tells_every_student(lesson):
    """The teacher ends it: each student's bar says so and stops following; no page is left
    waiting (an unknown class, as after a server restart, also stops the following)."""
    teacher, students = lesson
    teacher.locator("#class-end").click()
    teacher.wait_for_function("() => document.querySelector('#class-answers')"
                              "?.innerText.includes('ended')", timeout=WAIT)
    for page in students:
        page.wait_for_function("() => document.querySelector('#class-status')"
                               "?.innerText.includes('This class has ended')", timeout=WAIT)
        assert page.locator("#class-toggle").is_hidden()
