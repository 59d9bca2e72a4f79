"""Joining a class (issue 49 item 3) in real Chromium on the whole app. The teacher's new
class opens on the projector's join screen (the code's letters at least 120 px high and the QR
code at least 40 % of the height, at 1920×1080), which closes and comes back on the J key; a
student on a phone opens ``?join``, types the code in lowercase with spaces and follows the
class; an unknown code and an ended class each say which, with the box to try again, and no
page error anywhere. ``AE_SCREENSHOTS=DIR`` saves the screens to look at."""

from __future__ import annotations

import os
import pathlib

import pytest

from tests.server import GRID_DRAWN
from tests.ui.test_class_browser import WAIT

PROJECTOR = dict(viewport={"width": 1920, "height": 1080})
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
CODE_SHOWN = "() => /^[A-Z2-9]{6}$/.test(document.querySelector('#class-code')?.textContent || '')"
# an element's box, and the height of its text's glyphs as drawn in its own font
MEASURE = """(sel) => { const e = document.querySelector(sel), cs = getComputedStyle(e);
  const c = document.createElement('canvas').getContext('2d');
  c.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const m = c.measureText(e.textContent), r = e.getBoundingClientRect();
  return { glyphs: m.actualBoundingBoxAscent + m.actualBoundingBoxDescent,
           height: r.height, width: r.width, top: r.top, left: r.left }; }"""
SCREEN_SHOWN = "() => !!document.querySelector('#class-join-screen')?.checkVisibility()"
FOLLOWING = ("() => document.querySelector('#class-follow')"
             "?.innerText.includes('Following the teacher')")


def shot(page, name: str) -> None:
    folder = os.environ.get("AE_SCREENSHOTS")
    if folder:
        pathlib.Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(pathlib.Path(folder) / f"{name}.png"))


def open_page(browser, url: str, errors: list, **context):  # noqa: F811
    """A new context's page at ``url``, its page errors recorded in ``errors``."""
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function(GRID_DRAWN, timeout=WAIT)
    return ctx, page


@pytest.fixture(scope="module")
def opened(browser, app_url):  # noqa: F811
    """A teacher's page that opened a class at 1920×1080, its code, and its page errors."""
    errors: list = []
    ctx, teacher = open_page(browser, app_url + "?teach=1", errors, **PROJECTOR)
    try:
        teacher.wait_for_function(CODE_SHOWN, timeout=WAIT)
        yield teacher, teacher.locator("#class-code").inner_text(), errors
    finally:
        ctx.close()


def test_a_new_class_opens_on_a_join_screen_the_back_row_reads(opened):
    teacher, code, errors = opened
    teacher.wait_for_function(SCREEN_SHOWN, timeout=WAIT)
    teacher.wait_for_function("() => document.querySelector('#class-join-qr').naturalWidth > 0",
                              timeout=WAIT)
    assert teacher.locator("#class-join-code").inner_text() == code
    letters = teacher.evaluate(MEASURE, "#class-join-code")
    assert letters["glyphs"] >= 120, letters
    qr = teacher.locator("#class-join-qr").bounding_box()
    assert qr["height"] >= 0.4 * 1080 and qr["width"] >= 0.4 * 1080, qr
    address = teacher.locator("#class-join-address")
    assert address.inner_text().endswith("?join")
    assert teacher.evaluate(MEASURE, "#class-join-address")["glyphs"] >= 30
    # opened on the serving machine (127.0.0.1), served on loopback only: the screen says
    # no student can open that address, and how to open the class to the room
    note = teacher.locator("#class-join-note")
    note.wait_for(state="visible", timeout=WAIT)
    assert "--host 0.0.0.0" in note.inner_text()
    assert "--host 0.0.0.0" in teacher.locator("#class-link-note").inner_text()
    for box in (qr, teacher.locator("#class-join-code").bounding_box()):  # all on screen
        assert box["x"] >= 0 and box["y"] >= 0
        assert box["x"] + box["width"] <= 1920 and box["y"] + box["height"] <= 1080
    shot(teacher, "join_screen_1920x1080")
    assert not errors


def test_the_join_screen_closes_and_comes_back_on_its_key(opened):
    teacher, _, errors = opened
    teacher.wait_for_function(SCREEN_SHOWN, timeout=WAIT)
    teacher.locator("#class-join-start").click()
    teacher.wait_for_function(f"() => !({SCREEN_SHOWN})()", timeout=WAIT)
    assert "(J)" in teacher.locator("#class-join-show").inner_text()  # the panel says the key
    teacher.locator("body").press("j")
    teacher.wait_for_function(SCREEN_SHOWN, timeout=WAIT)
    teacher.keyboard.press("Escape")
    teacher.wait_for_function(f"() => !({SCREEN_SHOWN})()", timeout=WAIT)
    # a J typed in the sentence is the sentence's
    box = teacher.locator("#sentence textarea")
    box.press("End")
    box.press("j")
    assert not teacher.evaluate(SCREEN_SHOWN)
    box.press("Backspace")
    teacher.locator("#class-join-show").click()  # the panel's button; a click closes it
    teacher.wait_for_function(SCREEN_SHOWN, timeout=WAIT)
    teacher.mouse.click(960, 1000)
    teacher.wait_for_function(f"() => !({SCREEN_SHOWN})()", timeout=WAIT)
    assert not errors


def test_a_student_types_the_code_and_follows(opened, browser, app_url):  # noqa: F811
    _, code, _ = opened
    errors: list = []
    ctx, student = open_page(browser, app_url + "?join", errors, **PHONE)
    try:
        field = student.locator("#class-code-input")
        field.wait_for(state="visible", timeout=WAIT)
        assert student.locator("label[for='class-code-input']").inner_text() == "Class code"
        shot(student, "join_box_390x844")
        field.fill(f" {code[:3].lower()} {code[3:].lower()} ")
        student.locator("#class-code-join").click()
        student.wait_for_function(FOLLOWING, timeout=WAIT)
        assert f"class={code}" in student.url and "join" not in student.url
        assert not student.locator("#class-code-form").count()
        assert not errors
    finally:
        ctx.close()


def test_an_unknown_code_says_so_with_the_box_to_try_again(opened, browser, app_url):  # noqa: F811
    _, code, _ = opened
    unknown = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
    errors: list = []
    ctx, student = open_page(browser, app_url + "?join", errors, **PHONE)
    try:
        field = student.locator("#class-code-input")
        field.fill("<b>no</b>")  # not a code: said as text, nothing asked
        student.locator("#class-code-join").click()
        said = student.locator("#class-code-message")
        said.wait_for(state="visible", timeout=WAIT)
        assert "“<b>no</b>” is not a class code" in said.inner_text()
        assert not student.locator("#class-code-form b").count()
        field.fill(unknown.lower())
        field.press("Enter")
        student.wait_for_function(
            "(t) => document.querySelector('#class-code-message')?.innerText === t",
            arg=f"No class has the code {unknown}: check it with your teacher.", timeout=WAIT)
        assert field.is_visible() and student.locator("#class-code-join").is_enabled()
        shot(student, "unknown_code_390x844")
        # the same from a link
        student.goto(app_url + "?class=" + unknown)
        student.wait_for_function("() => document.querySelector('#class-code-message')"
                                  "?.innerText.startsWith('No class has the code')", timeout=WAIT)
        assert student.locator("#class-code-input").input_value() == unknown
        assert not student.locator("#class-follow").count()
        assert not errors
    finally:
        ctx.close()


def test_an_ended_class_says_it_has_ended(browser, app_url):  # noqa: F811
    errors: list = []
    ctx, teacher = open_page(browser, app_url + "?teach=1", errors, **PROJECTOR)
    try:
        teacher.wait_for_function(CODE_SHOWN, timeout=WAIT)
        code = teacher.locator("#class-code").inner_text()
        teacher.wait_for_function(SCREEN_SHOWN, timeout=WAIT)
        teacher.locator("#class-join-start").click()
        teacher.locator("#class-end").click()
        teacher.wait_for_function("() => document.querySelector('#class-answers')"
                                  "?.innerText.includes('ended')", timeout=WAIT)
        student_ctx, student = open_page(browser, app_url + "?class=" + code.lower(), errors,
                                         **PHONE)
        try:
            student.wait_for_function(
                "(t) => document.querySelector('#class-code-message')?.innerText.startsWith(t)",
                arg=f"This class ({code}) has ended", timeout=WAIT)
            assert student.locator("#class-code-input").is_visible()
            assert not student.locator("#class-follow").count()
            shot(student, "ended_class_390x844")
        finally:
            student_ctx.close()
        assert not errors
    finally:
        ctx.close()
