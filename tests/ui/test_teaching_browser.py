"""The four teaching tabs in a real Chromium: open each, find its figures drawn, screenshot.

The test builds its own small app (the shared sentence box and knobs plus the four tabs)
so it does not depend on how ``app.py`` composes the page. Screenshots go to
``artifacts/`` at laptop (1366 px) and phone (390 px) width.
"""

from __future__ import annotations

import os

import pytest

from tests.server import ARTIFACTS, DRAWN, click_tab, open_knobs, settle, tabs_server

TABS = [("Inside one head", "inside"), ("Shapes", "shapes"),
        ("Positional encodings", "positional"), ("Lessons", "lessons")]

teaching_url = tabs_server("teaching tabs", [
    ("Inside one head", "inside", "inside_tab"), ("Shapes", "shapes", "shapes_tab"),
    ("Positional encodings", "positional", "positional_tab"),
    ("Lessons", "lessons", "lessons_tab")])


@pytest.fixture(scope="module")
def chromium(browser):  # noqa: F811  (one Playwright per module, tests/server.py)
    return browser


def open_tab(page, label: str, key: str, minimum: int, timeout: float = 60000) -> int:
    click_tab(page, label)
    sel = f"#tab-{key}"
    page.wait_for_function(f"() => ({DRAWN})('{sel}') >= {minimum}", timeout=timeout)
    settle(page)  # Plotly's layout is on the screen before a screenshot
    return page.evaluate(f"() => ({DRAWN})('{sel}')")


# Right edge of the widest drawn figure: a figure laid out for a wider window is cut off.
WIDEST = """(sel) => Math.max(0, ...Array.from(document.querySelectorAll(
  sel + ' .js-plotly-plot .main-svg')).filter(s => s.getBoundingClientRect().width > 0)
  .map(s => s.getBoundingClientRect().right))"""
SENTENCE = "The cat saw the dog. It ran home."  # 10 tokens: quick to draw, easy to read
# Figures each tab draws at least: Inside one head has X, Q, K, V, rotated q and k (the
# default model is rotary), raw/scaled/masked scores, pattern, Z, concat, out.
MINIMUM = {"inside": 13, "shapes": 1, "positional": 5, "lessons": 3}


def screenshot(page, name: str) -> None:
    """The visible part by default; the whole page with TEACHING_FULL_SCREENSHOTS=1 (a
    full-page capture resizes the window, so every Plotly figure lays itself out again:
    slow on a busy 2-core box)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"teaching-{name}.png"),
                    full_page=os.environ.get("TEACHING_FULL_SCREENSHOTS") == "1")


def test_teaching_tabs_at_laptop_and_phone_width(chromium, teaching_url):
    """One page: every tab at laptop width (and the knobs reaching them), then the same page
    narrowed to a phone. One page load keeps this quick on a shared 2-core machine."""
    from explorer.models.tokenizer import Tokenizer
    from explorer.models.zoo import CHECKPOINT_DIR

    n_tokens = len(Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json").token_pieces(SENTENCE))
    context = chromium.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(teaching_url)
    page.wait_for_selector("#sentence textarea", timeout=30000)
    open_tab(page, "Inside one head", "inside", MINIMUM["inside"])
    box = page.locator("#sentence textarea")
    box.fill(SENTENCE[:-1])  # fill() fires no input event that Gradio sees; a key press does
    box.press_sequentially(SENTENCE[-1])
    page.wait_for_function("() => document.querySelector('#inside-status')"
                           f".innerText.includes(' {n_tokens} tokens')", timeout=30000)

    grey = """() => { const gd = document.querySelector('#inside-masked .js-plotly-plot');
                      return gd ? gd._fullData.filter(t => t.name === 'masked').length : -1; }"""
    for label, key in TABS:
        assert open_tab(page, label, key, MINIMUM[key]) >= MINIMUM[key], key
        screenshot(page, f"{key}-laptop")

    # A closed lesson draws its figures once opened, and its controls work.
    page.locator("#lesson-4").get_by_text("4 · Masks", exact=False).first.click()
    page.wait_for_function(f"() => ({DRAWN})('#lesson-4') >= 2", timeout=20000)
    page.locator("#lesson4-pad input[type=number]").fill("3")
    page.locator("#lesson4-pad input[type=number]").press("Enter")
    page.wait_for_function("() => document.querySelector('#lesson4-note').innerText"
                           ".includes('padding keys: 0')", timeout=20000)
    page.locator("#lesson-4").scroll_into_view_if_needed()
    screenshot(page, "lesson4-laptop")

    page.set_viewport_size({"width": 390, "height": 844})
    for label, key in TABS:  # (this app's bar hides some tabs behind "More tabs")
        page.evaluate("() => window.scrollTo(0, 0)")
        assert open_tab(page, label, key, MINIMUM[key]) >= MINIMUM[key], key
        scroll = page.evaluate("() => document.documentElement.scrollWidth")
        assert scroll <= 390 + 2, f"{key}: the page is {scroll}px wide on a 390px phone"
        page.wait_for_function(f"() => ({WIDEST})('#tab-{key}') <= 392", timeout=10000)
        if key == "shapes":  # its tables scroll sideways in their box, words unbroken
            page.wait_for_selector("#shapes-split .body-cell", timeout=20000)
            widths = page.evaluate("""() => [...document.querySelectorAll(
                '#shapes-split .virtual-row:first-child .body-cell')].map(
                c => c.getBoundingClientRect().width)""")
            assert widths and min(widths) >= 45, widths
        screenshot(page, f"{key}-phone")
        if key == "inside":  # the mask knob reaches inside the head: the −∞ cells go
            assert page.evaluate(grey) == 1
            open_knobs(page)  # a drawer at phone width
            page.locator("#mask").get_by_text("off", exact=True).click()
            page.wait_for_function(f"() => ({grey})() === 0", timeout=30000)
            assert "Experiment" in page.locator("#inside-status").inner_text()
    context.close()
