"""The keyboard in real Chromium (#30, item 8; static/keys.js, static/live_grid.js): a tab
list is one Tab stop whose arrow keys open the next tab, a radio group is one Tab stop whose
arrow keys select the next choice (Gradio 6 made every tab and every radio a stop of its
own, and the arrows did nothing), and the grid's keyboard cursor is a ring round the whole
square in both themes (it was a small dashed box)."""

from __future__ import annotations

import pytest

from tests.server import GRID_DRAWN, painted

LAPTOP = dict(viewport={"width": 1366, "height": 900})
WAIT = 60000
TABS = '#tabs [role="tablist"] > button[role="tab"]'
# What has focus: its id-bearing block, tag, role, value and text.
ACTIVE = """() => { const e = document.activeElement, b = e.closest('[id]');
  return {block: b && b.id, tag: e.tagName, role: e.getAttribute('role'), value: e.value,
          text: (e.innerText || '').trim(), inTabs: !!e.closest('[role=tablist]'),
          inControls: !!e.closest('#controls'), type: e.type}; }"""
SELECTED_TAB = f"""() => {{ const t = [...document.querySelectorAll('{TABS}')]
  .find((b) => b.getAttribute('aria-selected') === 'true'); return t && t.innerText.trim(); }}"""


def open_page(browser, url: str, theme: str = "light"):  # noqa: F811
    page = browser.new_page(**LAPTOP)
    page.goto(url + ("?__theme=dark" if theme == "dark" else ""))
    page.wait_for_function(GRID_DRAWN, timeout=WAIT)
    page.wait_for_function("() => document.querySelectorAll('fieldset[data-ae-radios]')"
                           ".length >= 5", timeout=WAIT)
    return page


def tab_stops(page, presses: int = 60) -> list[dict]:
    """Where each of ``presses`` Tab presses from the top of the page lands, once round."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    seen = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        at = page.evaluate(ACTIVE)
        if at["tag"] == "BODY" or (seen and at == seen[0]):
            break
        seen.append(at)
    return seen


def test_one_tab_stop_for_the_tab_list_and_for_each_radio_group(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url)
    try:
        tabs = page.locator(TABS).count()
        groups = page.evaluate("""() => [...document.querySelectorAll('#controls fieldset')]
            .map((f) => f.querySelectorAll('input[type=radio]').length).filter((n) => n > 1)""")
        radios = sum(groups)
        stops = tab_stops(page)
        on_tabs = [s for s in stops if s["inTabs"]]
        on_radios = [s for s in stops if s["inControls"] and s["type"] == "radio"]
        # before: every tab (15) and every radio of the knobs (15) was a stop of its own
        assert tabs >= 13 and len(on_tabs) == 1, (tabs, on_tabs)
        assert on_tabs[0]["text"] == "Explore" and on_tabs[0]["role"] == "tab"
        assert radios >= 13 and len(on_radios) == len(groups), (groups, on_radios)
        # the stop of a radio group is its chosen radio
        heads = next(s for s in on_radios if s["block"] == "heads")
        assert heads["value"] == page.evaluate(
            "() => document.querySelector('#heads input:checked').value")
        # each group's radios share one name (a screen reader says "2 of 4")
        names = page.evaluate("""() => [...document.querySelectorAll('#controls fieldset')]
            .map((f) => new Set([...f.querySelectorAll('input[type=radio]')]
              .map((r) => r.name)).size)""")
        assert set(names) <= {0, 1}, names
    finally:
        page.close()


def test_arrow_keys_open_the_next_tab(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url)
    try:
        names = page.evaluate(f"() => [...document.querySelectorAll('{TABS}')]"
                              ".map((b) => b.innerText.trim())")
        page.locator(TABS).first.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => ({SELECTED_TAB})() === {names[1]!r}", timeout=WAIT)
        at = page.evaluate(ACTIVE)
        assert at["role"] == "tab" and at["text"] == names[1]  # focus moved with it
        assert page.locator("#start-setup").is_visible()  # its view is open
        # the one Tab stop moved with the selection
        assert page.evaluate(f"""() => [...document.querySelectorAll('{TABS}')]
            .filter((b) => b.tabIndex === 0).map((b) => b.innerText.trim())""") == [names[1]]
        page.keyboard.press("End")
        page.wait_for_function(f"() => ({SELECTED_TAB})() === {names[-1]!r}", timeout=WAIT)
        page.keyboard.press("ArrowRight")  # wraps round to the first
        page.wait_for_function(f"() => ({SELECTED_TAB})() === {names[0]!r}", timeout=WAIT)
        page.keyboard.press("ArrowLeft")
        page.wait_for_function(f"() => ({SELECTED_TAB})() === {names[-1]!r}", timeout=WAIT)
        page.keyboard.press("Home")
        page.wait_for_function(f"() => ({SELECTED_TAB})() === {names[0]!r}", timeout=WAIT)
        assert page.evaluate(ACTIVE)["text"] == names[0]
    finally:
        page.close()


def test_arrow_keys_choose_in_a_radio_group_and_the_view_follows(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url)
    try:
        page.locator("#heads input:checked").focus()
        chosen = page.evaluate("() => document.querySelector('#heads input:checked').value")
        assert chosen == "4"
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('#heads input:checked')"
                               ".value === '8'", timeout=WAIT)
        assert page.evaluate(ACTIVE)["value"] == "8"  # focus went with the choice
        # the page took it as a choice: the grid is redrawn with 8 heads
        page.wait_for_function("() => window.AttentionExplorer?.grid?.state('#grid canvas')"
                               ".heads === 8", timeout=WAIT)
        # Gradio redrew the radios: they are still one group, and the arrows go on
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("() => document.querySelector('#heads input:checked')"
                               ".value === '4'", timeout=WAIT)
        page.wait_for_function("() => window.AttentionExplorer?.grid?.state('#grid canvas')"
                               ".heads === 4", timeout=WAIT)
        assert page.evaluate("""() => new Set([...document.querySelectorAll(
            '#heads input[type=radio]')].map((r) => r.name)).size""") == 1
    finally:
        page.close()


# The canvas' pixels along the middle of each side of the square the cursor is on, just
# inside its edge (2 css px in), as [r, g, b].
RING = """() => {
  const c = document.querySelector('#grid canvas');
  const g = window.AttentionExplorer?.grid?.state(c).geom;
  const dpr = c.width / c.getBoundingClientRect().width, ctx = c.getContext('2d');
  const x0 = g.left + 1 * (g.size + g.gap), y0 = g.top + 0 * (g.size + g.gap), s = g.size;
  const at = (x, y) => Array.from(ctx.getImageData(Math.round(x * dpr),
    Math.round(y * dpr), 1, 1).data.slice(0, 3));
  return [at(x0 + s / 2, y0 + 1.5), at(x0 + s / 2, y0 + s - 1.5),
          at(x0 + 1.5, y0 + s / 2), at(x0 + s - 1.5, y0 + s / 2)];
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_grid_cursor_is_a_ring_round_the_whole_square(browser, app_url, theme):  # noqa: F811
    page = open_page(browser, app_url, theme)
    try:
        page.evaluate("() => { const c = document.querySelector('#grid canvas');"
                      " c.scrollIntoView({block: 'center'}); c.focus(); }")
        # the cursor starts on the open head (L1 H1); up: L0 H1
        page.keyboard.press("ArrowUp")
        painted(page)  # the ring is drawn
        ring = page.evaluate(RING)
        want = (29, 78, 216) if theme == "light" else (147, 197, 253)  # the page's focus
        assert all(tuple(px) == want for px in ring), ring
        # ... and not on the square next to it
        page.keyboard.press("ArrowRight")
        painted(page)
        assert not any(tuple(px) == want for px in page.evaluate(RING))
    finally:
        page.close()
