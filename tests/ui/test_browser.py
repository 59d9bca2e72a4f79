"""End to end in a real Chromium: type key by key, flip the mask, change heads, screenshot.

Reads the figures from the page itself (Plotly keeps each plot's data on its DOM node;
the grid's canvas script, static/live_grid.js, keeps what it drew on the canvas node), so
these tests see what the student sees, not what the server meant to send.
"""

from pathlib import Path

import numpy as np
import pytest

from tests.server import GRID_DRAWN, settle, wait_until

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

# The grid's panels (whole percent, cut out of the mosaic the canvas drew: static/
# live_grid.js keeps it, decoded, on the canvas node) as nested lists.
READ_GRID = """() => {
  const c = document.querySelector('#grid canvas');
  const m = c && window.AttentionExplorer?.grid?.state(c);
  if (!m || !m.ok) return null;
  const n = m.n, row = m.heads * n, panels = [];
  for (let l = 0; l < m.layers; l++) for (let h = 0; h < m.heads; h++)
    panels.push(Array.from({length: n}, (_, q) =>
      Array.from(m.cells.subarray((l * n + q) * row + h * n, (l * n + q) * row + (h + 1) * n))));
  return panels;
}"""


# Why an element is not visible: each ancestor's display, visibility, opacity and height.
WHY_HIDDEN = """([root, text]) => {
  const hit = [...document.querySelectorAll(root + ' *')].find(e => e.textContent === text);
  const chain = [];
  for (let e = hit; e && e !== document.body; e = e.parentElement) {
    const s = getComputedStyle(e);
    chain.push(`${e.tagName}#${e.id}.${String(e.className).slice(0, 40)} display=${s.display}`
      + ` visibility=${s.visibility} opacity=${s.opacity}`
      + ` height=${Math.round(e.getBoundingClientRect().height)}`);
  }
  return chain.join('\\n') + `\\n<html class="${document.documentElement.className}">`
    + ` window ${innerWidth}x${innerHeight}`;
}"""


def grid(page):
    panels = page.evaluate(READ_GRID)
    return None if panels is None else [np.array(p, dtype=float) for p in panels]


def wait_for_grid(page, predicate, timeout=15000):
    """Poll until the grid satisfies predicate (last keystroke wins, so wait it out)."""
    last = []

    def holds():
        last[:] = grid(page) or []
        return last if last and predicate(last) else None
    try:
        return wait_until(page, holds, timeout / 1000, "the grid's condition")
    except AssertionError:
        raise AssertionError(f"grid never satisfied the condition; last: "
                             f"{[p.shape for p in last[:2]] or None}") from None


def status(page) -> str:
    return page.locator("#status").inner_text()


def type_and_settle(page, sentence: str | None, expect: str | None = None) -> list[np.ndarray]:
    """Type ``sentence`` one key at a time (None: it is typed already), then wait until the
    page shows the whole of ``expect`` (default: the sentence)."""
    from explorer.app import CHECKPOINT_DIR
    from explorer.models.tokenizer import Tokenizer

    expect = sentence if expect is None else expect
    # spaces at the end are left out before tokenizing (explorer.analysis.run.prepare)
    n = len(Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json").token_pieces(expect.rstrip(" ")))
    if sentence is not None:
        box = page.locator("#sentence textarea")
        box.fill("")
        box.press_sequentially(sentence, delay=15)
    page.wait_for_function(f"() => document.querySelector('#status').innerText"
                           f".endsWith(' {n} tokens') || document.querySelector('#status')"
                           f".innerText.includes(' {n} tokens\\n')", timeout=20000)
    return wait_for_grid(page, lambda ps: ps[0].shape == (n, n))


@pytest.fixture
def page(browser, app_url):  # noqa: F811
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(app_url)
    page.wait_for_function(GRID_DRAWN, timeout=30000)
    yield page
    context.close()


def test_typing_mask_and_heads_in_a_real_browser(page):
    ARTIFACTS.mkdir(exist_ok=True)
    # The last keystroke wins: the heatmaps settle on the whole sentence (5 tokens).
    panels = type_and_settle(page, "The cat saw the cat")
    assert len(panels) == 16 and panels[0].shape == (5, 5)
    assert all(np.all(np.triu(p, 1) == 0) for p in panels)  # causal as trained

    page.locator("#mask").get_by_text("off", exact=True).click()
    panels = wait_for_grid(page, lambda ps: np.triu(ps[0], 1).sum() > 0)
    # the status follows the grid (with the figures that wait for a pause)
    page.wait_for_function("() => document.querySelector('#status').innerText"
                           ".includes('Experiment on the trained model')", timeout=10000)
    assert "experiment: causal mask off" in page.locator("#grid .ae-grid-caption").inner_text()
    page.screenshot(path=str(ARTIFACTS / "browser-mask-off.png"), full_page=True)

    try:
        page.locator("#mask").get_by_text("as trained", exact=True).click()
    except Exception:  # seen twice under heavy load, cause unknown: keep what the page showed
        page.screenshot(path=str(ARTIFACTS / "browser-mask-hidden.png"), full_page=True)
        raise AssertionError("'as trained' was not visible; its ancestors:\n"
                             + page.evaluate(WHY_HIDDEN, ["#mask", "as trained"])) from None
    page.locator("#heads").get_by_text("8", exact=True).click()
    # the grid of the 8-head model, or (not trained) the page saying so in the grid's place
    page.wait_for_function(
        "() => { const m = window.AttentionExplorer?.grid?.state('#grid canvas') || {};"
        " return m.heads === 8 || (m.ok === false && document.querySelector("
        "'#grid .ae-grid-caption').innerText.includes('h8')); }", timeout=15000)
    panels = grid(page)
    if panels is None:
        pytest.skip("causal-h8-rotary is not trained yet; the page said so")
    assert len(panels) == 32  # 4 layers x 8 heads
    page.screenshot(path=str(ARTIFACTS / "browser-8-heads.png"), full_page=True)


def test_the_head_slider_offers_the_heads_the_model_has(page):
    head_max = "() => document.querySelector('#head input[type=range]').getAttribute('max')"
    page.wait_for_function(f"() => ({head_max})() === '3'", timeout=10000)  # 4 heads
    page.locator("#head input[type=number]").fill("3")
    page.locator("#head input[type=number]").press("Enter")
    page.locator("#heads").get_by_text("2", exact=True).click()
    page.wait_for_function(f"() => ({head_max})() === '1'", timeout=10000)
    # head 3 does not exist in a 2-head model: the slider moved to the last one that does
    page.wait_for_function("() => document.querySelector('#head input[type=number]').value"
                           " === '1'", timeout=10000)
    page.locator("#heads").get_by_text("8", exact=True).click()
    page.wait_for_function(f"() => ({head_max})() === '7'", timeout=10000)


def test_markup_typed_in_the_sentence_stays_text(page):
    type_and_settle(page, '<a href="https://evil.example">x</a> <b>bold</b>')
    # the large head is drawn right after the grid: wait for its labels of this sentence
    page.wait_for_function("() => [...document.querySelectorAll('#head-large .ytick text')]"
                           ".some((e) => e.textContent.includes('<'))", timeout=30000)
    settle(page)
    labels = page.locator("#head-large .ytick text").evaluate_all(
        "els => els.map(e => e.textContent)")
    # The tags are shown as the characters typed, and Plotly made no link or bold text of them.
    assert any("<" in t for t in labels) and any(">" in t for t in labels)
    assert page.locator("#grid a[href*='evil'], #head-large a[href*='evil']").count() == 0
    assert page.locator("#head-large .ytick text b").count() == 0
    # the canvas labels the cells with the characters typed (its hover shows them as text)
    tokens = page.evaluate("() => window.AttentionExplorer?.grid?.state('#grid canvas').tokens")
    assert "<" in tokens and ">" in tokens
    assert page.locator("#grid b, #grid a").count() == 0


# Page coordinates of cell (query, key) of panel (layer, head) of the grid, from where the
# canvas script says it drew the panels.
# (the canvas is scrolled to the middle of the screen first: with the tab bar on two rows
# its second layer starts below a 900 px window, and a mouse cannot hover off screen)
PANEL_CELL = """([layer, head, q, k]) => {
  const c = document.querySelector('#grid canvas');
  const m = window.AttentionExplorer?.grid?.state(c), g = m.geom;
  c.scrollIntoView({block: 'center', behavior: 'instant'});
  const box = c.getBoundingClientRect(), cell = g.size / m.n;
  return [box.left + g.left + head * (g.size + g.gap) + (k + 0.5) * cell,
          box.top + g.top + layer * (g.size + g.gap) + (q + 0.5) * cell];
}"""


def test_hover_names_the_cell_and_clicking_a_small_heatmap_opens_it_large(page):
    panels = type_and_settle(page, "The cat saw the cat")
    x, y = page.evaluate(PANEL_CELL, [1, 2, 3, 1])
    page.mouse.move(x, y)
    tip = page.locator("#grid .ae-grid-tip")
    tip.wait_for(state="visible", timeout=5000)
    weight = round(panels[1 * 4 + 2][3, 1])
    assert tip.inner_text() == f"L1 H2 · query 3 ␣the → key 1 ␣cat: {weight}%"
    page.mouse.click(x, y)
    page.wait_for_function("() => document.querySelector('#head-large')"
                           ".textContent.includes('Layer 1, head 2')", timeout=15000)
    assert page.locator("#layer input[type=number]").input_value() == "1"
    assert page.locator("#head input[type=number]").input_value() == "2"


def test_the_grid_works_from_the_keyboard(page):
    """Tab to the grid, arrows move a frame over the panels, Enter opens that head."""
    type_and_settle(page, "The cat saw the cat")
    # the frame starts on the head drawn large (the page opens on a named one)
    layer = int(page.locator("#layer input[type=number]").input_value())
    head = int(page.locator("#head input[type=number]").input_value())
    page.locator("#grid canvas").focus()
    moves = {"ArrowDown": (1, 0), "ArrowUp": (-1, 0), "ArrowRight": (0, 1), "ArrowLeft": (0, -1)}
    for key in ("ArrowDown", "ArrowDown", "ArrowRight", "ArrowUp", "ArrowRight", "ArrowRight",
                "ArrowRight", "ArrowRight", "ArrowLeft"):  # the frame stops at the edges
        page.keyboard.press(key)
        layer = min(max(layer + moves[key][0], 0), 3)
        head = min(max(head + moves[key][1], 0), 3)
    assert page.locator("#grid .ae-grid-tip").inner_text() == (
        f"L{layer} H{head}: Enter opens it large")
    page.keyboard.press("Enter")
    page.wait_for_function("(t) => document.querySelector('#head-large').textContent"
                           ".includes(t)", arg=f"Layer {layer}, head {head}", timeout=15000)
    assert page.locator("#layer input[type=number]").input_value() == str(layer)
    assert page.locator("#head input[type=number]").input_value() == str(head)


def test_clicking_a_shared_example_updates_the_open_tab(page):
    """An example fills the box without a keystroke; the open tab must still follow it."""
    from explorer.ui.controls import EXAMPLES

    page.locator("#examples").get_by_text("Examples that show something").click()
    example = EXAMPLES[1]
    page.locator("#examples").get_by_text(example[:30]).first.click()
    page.wait_for_function("(t) => document.querySelector('#sentence textarea').value === t",
                           arg=example, timeout=10000)
    panels = type_and_settle(page, None, expect=example)
    assert len(panels) == 16


def _live_dependencies(page) -> dict[int, str]:
    """fn_index -> "view:event" of each view's live events: the events of its hidden anchor
    ``ae-live-<view>`` (explorer/ui/controls.py wire_live), which static/live.js starts."""
    config = page.evaluate("() => fetch('config').then(r => r.json())")
    ids = {c["id"]: c.get("props", {}).get("elem_id") for c in config["components"]}
    return {d["id"]: f"{ids[t[0]][len('ae-live-'):]}:{t[1]}"
            for d in config["dependencies"] for t in d.get("targets", [])
            if str(ids.get(t[0])).startswith("ae-live-")}


def test_fast_typing_sends_few_requests_for_the_open_tab_only(page):
    """Twelve quick keys: the canvas asks for the grid itself (one request at a time, the
    keystrokes typed meanwhile collapse into one more), no view's Gradio update runs per
    keystroke, the Explore tab's slower figures come once after the typing, and the grid
    settles on the final text."""
    import json

    live = _live_dependencies(page)
    assert set(live.values()) >= {
        f"{t}:update" for t in ("inside", "shapes", "positional", "lessons", "compare",
                                "ablate", "layers", "training", "take_home", "classify")}
    assert "explore:settle" in live.values() and "explore:update" not in live.values()
    # the page's own first settle must not be counted as the typing's
    # (the live loop idle for Explore: nothing running, dirty or waiting to settle)
    page.wait_for_function("""() => { const s = document.querySelector('#ae-live-status');
      const v = window.AttentionExplorer.live.state().views.explore;
      return s.getAttribute('aria-busy') === 'false' && !!v && !v.running
        && !(v.dirty && v.dirty.length) && !v.needSettle; }""", timeout=20000)
    joins, grids = [], []
    page.on("request", lambda r: joins.append(json.loads(r.post_data)["fn_index"])
            if "/queue/join" in r.url else None)
    page.on("request", lambda r: grids.append(json.loads(r.post_data)["fn_name"])
            if "/component_server" in r.url else None)
    box = page.locator("#sentence textarea")
    box.fill("The cat sat.")
    box.press("End")
    box.press_sequentially(" A dog ran.", delay=0)  # 11 keys, then one more
    box.press("Space")
    type_and_settle(page, None, expect="The cat sat. A dog ran. ")  # grid is n x n
    # the figures that wait for a pause in typing: their update asked for, and landed
    wait_until(page, lambda: "explore:settle" in [live[f] for f in joins], 60,
               "the settle after the typing")
    settle(page)
    updates = [live[f] for f in joins if f in live]
    assert set(updates) == {"explore:settle"}, updates  # typing: no Gradio update
    where = page.locator("#grid .ae-grid-where").inner_text()
    if "your browser" in where:  # the browser engine drew them (issue 38): no request at all
        assert grids == [], grids
    else:  # the server's path (tests/ui/test_retry_browser.py refuses the weights)
        assert set(grids) == {"grid_data"}
        assert 1 <= len(grids) <= 7, f"{len(grids)} grids for 14 changes: they did not collapse"
    # the head, head view and guesses follow once typing pauses, not per keystroke: 14
    # changes; the fill, the burst and the last key may each end in a pause on a loaded box
    assert updates.count("explore:settle") <= 3, updates


def test_phone_width_screenshot(browser, app_url):  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(app_url)
    page.wait_for_function(GRID_DRAWN, timeout=30000)
    settle(page)  # the load's updates have landed and are drawn
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-phone.png"), full_page=True)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390 + 2, f"page is {width}px wide on a 390px phone (sideways scrolling)"
    context.close()


def test_the_grid_css_comes_from_its_one_source(page):
    """Explore's grid box is styled by explorer/views/grid_markup.py (Gradio scopes the
    gr.HTML's css_template to the component), as the notebook and the static edition are."""
    from explorer.views.grid_markup import grid_css

    styles = page.evaluate("() => [...document.querySelectorAll('style')].map(s => s.textContent)")
    assert any(grid_css() in s for s in styles)
    tip = page.evaluate("getComputedStyle(document.querySelector('#grid .ae-grid-tip')).position")
    assert tip == "absolute"
