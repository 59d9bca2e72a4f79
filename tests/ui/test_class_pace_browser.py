"""The teacher holds the pace and the answer (issue 49 item 2), in real Chromium on the whole
app: a teacher's page and a student's. While the class is held the student's page shows the
step's question and choices, and no Reveal, no "Next step", no "All steps", no step list, and
what gives the answer away stays covered until the teacher reveals; then the answer opens. The
teacher hides the counts until the reveal, sees who answered (a nickname as text), resets the
votes; "Let students explore" gives the student Next step, "Follow again" brings them back,
"Hold the class" brings every student back."""

from __future__ import annotations

import pytest

from tests.ui.test_class_browser import REVEALED, SHOWN_STEP, WAIT, a_class, teacher_sets_up
from tests.ui.test_start_here_browser import path, phrase  # noqa: F401 (path: a fixture)

NICK = "<i>Zoë</i>"
# the shown step's bar: the Reveal, Next step and All steps a person could press, the answer
BAR = """() => {
  const s = [...document.querySelectorAll('.ae-step-bar .ae-step')]
    .find((x) => x.offsetParent !== null);
  if (!s) return null;
  const bar = s.closest('.ae-step-bar');
  const seen = (el) => !!el && el.checkVisibility({ checkVisibilityCSS: true });
  const buttons = [...bar.querySelectorAll('button')].filter(seen).map((b) => b.innerText.trim());
  const answer = s.querySelector('.ae-step-reveal > p');
  return { step: Number(s.dataset.step), reveal: seen(s.querySelector('summary')),
           buttons, answer: seen(answer), question: seen(s.querySelector('.ae-step-question')),
           hidden: s.dataset.hidden };
}"""
# each element the step hides: covered (the cover's text) or not (null)
COVERS = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
  const c = getComputedStyle(el, '::after').content;
  return c && c !== 'none' ? c : null; })"""
HELD = "() => document.documentElement.classList.contains('ae-class-held')"
STEP_LIST = "() => getComputedStyle(document.querySelector('#start-step')).display"


def answers_say(teacher, text: str) -> None:
    teacher.wait_for_function("(t) => document.querySelector('#class-answers')"
                              "?.innerText.includes(t)", arg=text, timeout=WAIT)


def pick(student, choice: str) -> None:
    student.locator("#class-choices button", has_text=choice).click()
    student.wait_for_function("(p) => [...document.querySelectorAll('#class-choices button')]"
                              ".some((b) => b.innerText === p && "
                              "b.getAttribute('aria-pressed') === 'true')", arg=choice,
                              timeout=WAIT)


@pytest.fixture(scope="module")
def held(browser, app_url):  # noqa: F811
    with a_class(browser, app_url, 1) as (teacher, students):
        student = students[0]
        student.locator("#class-nickname").fill(NICK)
        student.locator("#class-nickname-set").click()
        student.wait_for_function("() => document.querySelector('#class-nickname-set')"
                                  "?.innerText === 'Saved'", timeout=WAIT)
        yield teacher, student


def test_a_held_student_sees_the_question_and_choices_and_no_answer(held):
    teacher, student = held
    teacher.locator("#class-hide-counts").check()
    teacher_sets_up(teacher, 2)  # the guesses ("coat 63 %") give step 2's answer away
    student.wait_for_function(f"() => ({SHOWN_STEP})() === 2", timeout=WAIT)
    student.wait_for_selector("#class-choices button", timeout=WAIT)
    bar = student.evaluate(BAR)
    assert bar["question"] and not bar["reveal"] and not bar["answer"]
    assert "Next step →" not in bar["buttons"] and "All steps" not in bar["buttons"]
    assert student.evaluate(HELD) and student.evaluate(STEP_LIST) == "none"
    assert bar["hidden"]  # the step says what it hides; every part of it is covered
    student.wait_for_function(f"(sel) => ({COVERS})(sel).length > 0", arg=bar["hidden"],
                              timeout=WAIT)
    covers = student.evaluate(COVERS, bar["hidden"])
    assert covers and all(c and "teacher reveals" in c for c in covers)
    # the teacher's own page keeps its Reveal and Next
    mine = teacher.evaluate(BAR)
    assert mine["reveal"] and "Next step →" in mine["buttons"]


def test_hidden_counts_show_who_answered_then_the_reveal_opens_the_answer(held, path):  # noqa: F811
    teacher, student = held
    # the answer is in neither page before the reveal (not even in the student's HTML)
    words = phrase(path[1].answer)
    assert words not in student.content() and words not in teacher.content()
    choice = student.locator("#class-choices button").first.inner_text()
    pick(student, choice)
    answers_say(teacher, "1 of 1 answered")
    answers_say(teacher, "Counts hidden until the reveal")
    assert not teacher.locator("#class-answers .ae-class-row").count()
    # who answered: the nickname as text, never markup
    teacher.wait_for_function("(n) => document.querySelector('#class-who')?.textContent"
                              ".includes(n)", arg=NICK, timeout=WAIT)
    assert not teacher.locator("#class-who i").count()
    # the reveal: the student's answer opens, the covers go, the counts show
    teacher.locator(".ae-step-bar .ae-step details summary").filter(visible=True).click()
    student.wait_for_function(REVEALED, timeout=WAIT)
    student.wait_for_function(f"() => ({BAR})().answer", timeout=WAIT)
    assert words in student.content()
    hidden = student.evaluate(BAR)["hidden"]
    assert not any(student.evaluate(COVERS, hidden))
    assert not student.locator("#class-choices button").count()
    teacher.wait_for_function("() => document.querySelectorAll("
                              "'#class-answers .ae-class-row').length > 0", timeout=WAIT)
    assert not teacher.locator("#class-hidden").count()
    rows = teacher.locator("#class-answers .ae-class-row", has_text=choice).inner_text()
    assert rows.split()[-1] == "1"


def test_the_teacher_resets_the_votes_and_the_student_votes_again(held):
    teacher, student = held
    teacher_sets_up(teacher, 3)
    student.wait_for_function(f"() => ({SHOWN_STEP})() === 3", timeout=WAIT)
    student.wait_for_selector("#class-choices button", timeout=WAIT)
    assert not student.evaluate(BAR)["answer"]  # step 3 is held again
    choice = student.locator("#class-choices button").first.inner_text()
    pick(student, choice)
    answers_say(teacher, "1 of 1 answered")
    teacher.locator("#class-reset").click()
    answers_say(teacher, "0 of 1 answered")
    student.wait_for_function("() => { const b = [...document.querySelectorAll("
                              "'#class-choices button')]; return b.length > 0 && "
                              "b.every((x) => x.getAttribute('aria-pressed') === 'false'); }",
                              timeout=WAIT)
    pick(student, choice)
    answers_say(teacher, "1 of 1 answered")


def test_let_students_explore_gives_next_step_and_follow_again_brings_them_back(held):
    teacher, student = held
    teacher.locator("#class-release").click()
    teacher.wait_for_function("() => document.querySelector('#class-release')"
                              "?.getAttribute('aria-pressed') === 'true'", timeout=WAIT)
    student.wait_for_function(f"() => !({HELD})()", timeout=WAIT)
    student.wait_for_function("() => document.querySelector('#class-status')?.innerText"
                              ".includes('lets you explore')", timeout=WAIT)
    bar = student.evaluate(BAR)
    assert bar["reveal"] and "Next step →" in bar["buttons"] and "All steps" in bar["buttons"]
    student.locator(".ae-step-bar button", has_text="Next step →").filter(visible=True).click()
    student.wait_for_function(f"() => ({SHOWN_STEP})() === 4", timeout=WAIT)
    assert teacher.evaluate(SHOWN_STEP) == 3  # the student ran ahead, the teacher did not
    student.locator("#class-toggle", has_text="Follow again").click()
    student.wait_for_function(f"() => ({SHOWN_STEP})() === 3", timeout=WAIT)
    # and the teacher holds the class again: everyone follows, held
    student.locator("#class-toggle", has_text="Explore on my own").click()
    teacher.locator("#class-release").click()
    student.wait_for_function(HELD, timeout=WAIT)
    student.wait_for_function("() => document.querySelector('#class-status')?.innerText"
                              " === 'Following the teacher'", timeout=WAIT)
    assert "Next step →" not in student.evaluate(BAR)["buttons"]
