"""Heads switched off on the static edition's page (issue 48 item 8), in real Chromium: in
step 3 a square clicked switches its head off and the grid draws that head off (its state
names it; its brightest cell is dimmer; its tip and the canvas's label say so); step 2 set
up afterwards starts with every head on. And the Model knob reaches only trained models:
masked word moves Heads and Positional encoding to its one model, offers no other, and says
so under the knobs. Screenshots of an off head at a laptop and a projector go to $AE_SHOTS
(default /tmp)."""

from __future__ import annotations

import os

import pytest

GRID = "window.AttentionExplorer?.grid?.state('#grid canvas')"
LAPTOP = ((1366, 900), 1, "")
PROJECTOR = ((853, 480), 1.5, "&projector=1")
OFF = (3, 2)  # the copying head step 3 asks to switch off
# The colour drawn at the centre of cell (query, key) of head (layer, head), and the cell
# of that head with the most attention: [query, key].
PIXEL = """([l, h, q, k]) => {
  const c = document.querySelector('#grid canvas'), s = window.AttentionExplorer.grid.state(c);
  const g = s.geom, cell = g.size / s.n, dpr = c.width / c.clientWidth;
  const x = (g.left + h * (g.size + g.gap) + (k + 0.5) * cell) * dpr;
  const y = (g.top + l * (g.size + g.gap) + (q + 0.5) * cell) * dpr;
  const [r, gr, b] = c.getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data;
  return 0.2126 * r + 0.7152 * gr + 0.0722 * b;
}"""
BRIGHTEST = """([l, h]) => {
  const s = window.AttentionExplorer.grid.state('#grid canvas'), n = s.n, row = s.heads * n;
  let best = [0, 0, -1];
  for (let q = 0; q < n; q++) for (let k = 0; k < n; k++) {
    const w = s.cells[(l * n + q) * row + h * n + k];
    if (w > best[2]) best = [q, k, w];
  }
  return best;
}"""


def open_page(browser, site_url, screen, query=""):  # noqa: F811
    (width, height), scale, extra = screen
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=scale)
    page = context.new_page()
    page.goto(f"{site_url}?step=3{extra}{query}")
    page.wait_for_function(f"{GRID} && {GRID}.ok && {GRID}.layers === 4", timeout=20000)
    return page, context


def square(page, layer: int, head: int) -> dict:
    geom = page.evaluate(f"{GRID}.geom")
    return {"x": geom["left"] + head * (geom["size"] + geom["gap"]) + geom["size"] / 2,
            "y": geom["top"] + layer * (geom["size"] + geom["gap"]) + geom["size"] / 2}


def switch_off(page, layer: int, head: int) -> None:
    """Click the head's square (step 3's grid switches it off) and wait for it drawn off."""
    page.locator("#grid canvas").click(position=square(page, layer, head))
    page.wait_for_function(f"JSON.stringify({GRID}.off) === '[[{layer},{head}]]'",
                           timeout=20000)


@pytest.mark.parametrize("screen", [LAPTOP, PROJECTOR], ids=["laptop", "projector"])
def test_a_head_switched_off_is_drawn_off_and_step_2_turns_it_on(browser, site_url, screen):
    page, context = open_page(browser, site_url, screen)
    try:
        assert page.evaluate(f"{GRID}.off") == []
        q, k, weight = page.evaluate(BRIGHTEST, list(OFF))
        assert weight >= 20  # a bright cell, so that dimming it shows
        before = page.evaluate(PIXEL, [*OFF, q, k])
        other = [1, 1, *page.evaluate(BRIGHTEST, [1, 1])[:2]]  # a head before it: unchanged
        other_before = page.evaluate(PIXEL, other)
        switch_off(page, *OFF)
        assert page.locator(f"#heads-off-boxes input[data-head='{OFF[0]},{OFF[1]}']"
                            ).is_checked()
        # the head's own attention is unchanged (switched off, it still looks): the same
        # cell, drawn dimmer under the veil
        assert page.evaluate(BRIGHTEST, list(OFF))[2] == weight
        after = page.evaluate(PIXEL, [*OFF, q, k])
        assert after < before - 20, (before, after)
        assert page.evaluate(PIXEL, other) == other_before  # only the head off is dimmed
        label = page.locator("#grid canvas").get_attribute("aria-label")
        assert f"Switched off: L{OFF[0]} H{OFF[1]}." in label
        at = square(page, *OFF)
        page.locator("#grid canvas").hover(position=at)
        page.wait_for_function("!document.querySelector('#grid .ae-grid-tip').hidden",
                               timeout=5000)
        tip = page.locator("#grid .ae-grid-tip").inner_text()
        assert tip.startswith(f"L{OFF[0]} H{OFF[1]} (switched off)"), tip
        name = "laptop" if screen is LAPTOP else "projector"
        shots = os.environ.get("AE_SHOTS", "/tmp")
        page.locator("#grid").screenshot(path=f"{shots}/site-head-off-{name}.png")
        # a click on it again switches it back on
        page.locator("#grid canvas").click(position=at)
        page.wait_for_function(f"{GRID}.off.length === 0", timeout=20000)
        switch_off(page, *OFF)
        # step 2 switches nothing off: set up after step 3, every head is on again
        drawn = page.evaluate(f"{GRID}.drawn")
        page.locator("#step-list button").nth(1).click()
        page.wait_for_function(f"{GRID}.drawn > {drawn} && {GRID}.off.length === 0",
                               timeout=20000)
        assert page.locator("#heads-off-boxes input:checked").count() == 0
        assert "experiment" not in page.locator("#grid .ae-grid-caption").inner_text()
    finally:
        context.close()


def test_masked_word_moves_the_knobs_to_its_one_model(browser, site_url):
    page, context = open_page(browser, site_url, LAPTOP)
    try:
        page.locator("#step-list button").nth(1).click()  # step 2: no heads off, default knobs
        page.select_option("#heads", "2")
        assert page.locator("#model-note").is_hidden()
        page.select_option("#objective", "masked word (bidirectional)")
        assert page.locator("#heads").input_value() == "4"
        assert page.locator("#pos").input_value() == "rotary"
        note = page.locator("#model-note")
        assert note.is_visible()
        assert note.inner_text().startswith("Only one masked-word model was trained "
                                            "(4 heads, rotary)")
        offered = page.evaluate("(id) => [...document.getElementById(id).options]"
                                ".filter((o) => !o.disabled).map((o) => o.value)", "heads")
        assert offered == ["4"]
        page.wait_for_function(f"{GRID} && {GRID}.ok && {GRID}.heads === 4 && "
                               "document.querySelector('#where').textContent"
                               ".includes('bidir-h4-rotary')", timeout=20000)
        assert "No model was trained" not in page.locator("#grid").inner_text()
        page.select_option("#objective", "next word (causal)")  # every choice again
        assert page.locator("#model-note").is_hidden()
        assert page.locator("#heads option:disabled").count() == 0
        assert page.locator("#pos option:disabled").count() == 0
    finally:
        context.close()
