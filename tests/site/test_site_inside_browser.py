"""Inside one head on the static edition's page (issue 48 item 3, static/site/inside.js), in
real Chromium: the third tab, Layer 1 and Head 1 picked on a known sentence, shows every
stage the engine's ``engine.run(text, {detail: true})`` returns, in its order, each with
the engine's title and shape text; what a pointer on a cell reads is the engine's value
(scores, pattern, Q) and, on the pattern, Python's
(:func:`explorer.analysis.stages.head_stages`; the full parity of every stage is
tests/engine/test_detail_patch_parity_browser.py's); the blocked cells of the masked scores
and the pattern of the causal model are drawn grey and read "masked", no other is; the
colour scale's ends are said (0 to 1 on the pattern, ± the largest score); and a
longer sentence redraws every shape with its token count. Screenshots at a laptop's
1366×900 and a phone's 390×844 go to $AE_SHOTS (default /tmp)."""

from __future__ import annotations

import os

import pytest

from explorer.analysis.stages import head_stages
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, DEFAULT_NAME, load_zoo

SHOWN = "window.AttentionExplorer.site.shown.inside"
TEXT = "The cat sat on the mat. The cat"
LONGER = "The cat sat on the mat. The cat sat on the mat and then the dog"
LAYER, HEAD = 1, 1
# the engine's detail for the page's model and head (the page's knobs are as trained)
ENGINE = """async ([text, model, layer, head]) => {
  const r = await window.AttentionExplorer.engine.run(text, {model, layer, head, detail: true});
  return {n: r.n, stages: Object.values(r.detail.stages).map((s) => ({key: s.key,
    title: s.title, shapeText: s.shapeText, shape: s.shape,
    values: s.values.map((row) => row.map((v) => (Number.isFinite(v) ? v : null))),
    blocked: s.blocked || null}))};
}"""
# the colour drawn at the centre of cell (row, col) of a stage's canvas, as "#rrggbb"
PIXEL = """([key, row, col]) => {
  const c = document.querySelector(`.ae-stage[data-key='${key}'] canvas`);
  const g = window.AttentionExplorer.site.shown.inside.stages[key].geom;
  const dpr = c.width / c.clientWidth;
  const x = Math.round((g.left + (col + 0.5) * g.cw) * dpr);
  const y = Math.round((g.top + (row + 0.5) * g.ch) * dpr);
  const d = c.getContext('2d').getImageData(x, y, 1, 1).data;
  return '#' + [d[0], d[1], d[2]].map((v) => v.toString(16).padStart(2, '0')).join('');
}"""

# the blocked cells' grey in the page's theme (its configuration, explorer/views/inside.py)
GREY = """(() => {
  const config = JSON.parse(document.getElementById('ae-config').textContent);
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  return config.inside.colors[dark ? 'dark' : 'light'].masked;
})()"""


def open_inside(browser, site_url, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(site_url)
    page.click("#tab-inside")
    page.wait_for_function(f"{SHOWN} && {SHOWN}.ok", timeout=30000)
    return page, context


def set_sentence(page, text: str, n_tokens: int | None = None) -> None:
    drawn = page.evaluate(f"{SHOWN}.drawn")
    page.fill("#sentence-box", text)
    wait = f"{SHOWN}.drawn > {drawn} && {SHOWN}.ok"
    if n_tokens is not None:
        wait += f" && {SHOWN}.tokens.length === {n_tokens}"
    page.wait_for_function(wait, timeout=30000)


def pick(page, layer: int, head: int) -> None:
    page.select_option("#inside-layer", str(layer))
    page.wait_for_function(f"{SHOWN}.layer === {layer}", timeout=30000)
    page.select_option("#inside-head", str(head))
    page.wait_for_function(f"{SHOWN}.head === {head} && {SHOWN}.layer === {layer}",
                           timeout=30000)


def reading(page, key: str, row: int, col: int) -> str:
    """What the stage's readout says with the pointer on cell (row, col)."""
    geom = page.evaluate(f"{SHOWN}.stages['{key}'].geom")
    at = {"x": geom["left"] + (col + 0.5) * geom["cw"],
          "y": geom["top"] + (row + 0.5) * geom["ch"]}
    page.locator(f".ae-stage[data-key='{key}'] canvas").hover(position=at)
    return page.locator(f".ae-stage[data-key='{key}'] .ae-readout").inner_text()


def value_read(text: str) -> float:
    return float(text.rsplit(" ", 1)[1])


def shown_stages(page) -> list[dict]:
    """The stage cards on screen, in page order: key, title and shape text."""
    return page.evaluate("""() => [...document.querySelectorAll('#inside .ae-stage')]
      .filter((c) => c.offsetParent !== null)
      .map((c) => ({key: c.dataset.key,
                    title: c.querySelector('.ae-stage-title').textContent,
                    shapeText: c.querySelector('.ae-shape').textContent}))""")


def check_stages(page, text: str) -> dict:
    """The page shows the engine's stages in its order, titles and shapes; returns them."""
    engine = page.evaluate(ENGINE, [text, DEFAULT_NAME, LAYER, HEAD])
    shown = shown_stages(page)
    assert [s["key"] for s in shown] == [s["key"] for s in engine["stages"]]
    for got, want in zip(shown, engine["stages"], strict=True):
        assert got["shapeText"] == want["shapeText"], (got, want)
        assert got["title"].endswith(want["title"]), (got, want)
    return {s["key"]: s for s in engine["stages"]}


@pytest.fixture(scope="module")
def python_pattern():
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    zoo = load_zoo(CHECKPOINT_DIR, tok.vocab_size)
    return head_stages(zoo.get(DEFAULT_NAME), tok, TEXT, None, LAYER, HEAD).stages["pattern"]


def test_inside_one_head_shows_the_engines_stages(browser, site_url, python_pattern):
    page, context = open_inside(browser, site_url, (1366, 900))
    try:
        set_sentence(page, TEXT)
        pick(page, LAYER, HEAD)
        engine = check_stages(page, TEXT)
        assert list(engine) == ["x", "q", "k", "v", "rot_q", "rot_k", "scores", "scaled",
                                "masked", "pattern", "z", "concat", "out"]  # rotary
        n = engine["x"]["shape"][0]
        assert engine["q"]["shapeText"] == f"[{n}, 32]  (pos, d_head)"
        assert page.evaluate(f"{SHOWN}.tokens.length") == n
        # what a pointer reads is the engine's value, and on the pattern Python's
        for key, cells in (("scores", [(0, 0), (n - 1, 2), (4, 3)]),
                           ("pattern", [(0, 0), (n - 1, 2), (5, 5), (4, 1)]),
                           ("q", [(0, 0), (3, 31), (n - 1, 17)])):
            for row, col in cells:
                got = value_read(reading(page, key, row, col))
                assert got == pytest.approx(engine[key]["values"][row][col], abs=6e-5)
                if key == "pattern":
                    assert got == pytest.approx(float(python_pattern.values[row, col]),
                                                abs=1e-3)
        # the causal mask: the blocked cells grey and read as masked, no other cell
        grey = page.evaluate(GREY)
        for key, word in (("masked", "−∞"), ("pattern", "0")):
            blocked = engine[key]["blocked"]
            assert sum(map(sum, blocked)) == n * (n - 1) // 2
            for row in range(n):
                for col in range(n):
                    colour = page.evaluate(PIXEL, [key, row, col])
                    assert (colour == grey) == blocked[row][col], (key, row, col, colour)
            assert reading(page, key, 1, 4).endswith(f"masked: {word}")
            assert "masked" not in reading(page, key, 4, 1)
        assert engine["masked"]["values"][1][4] is None  # −∞ where blocked
        # the colour scale's ends: the pattern's 0 to 1, the scores' symmetric about 0
        assert page.locator(".ae-stage[data-key='pattern'] .ae-scale").inner_text() \
            .split() == ["colour", "0", "1"]
        low, _, high = page.locator(".ae-stage[data-key='scores'] .ae-scale span").all_inner_texts()
        assert low == "−" + high
        shots = os.environ.get("AE_SHOTS", "/tmp")
        page.screenshot(path=f"{shots}/site-inside-laptop.png", full_page=True)
        # a longer sentence: every shape follows its token count
        set_sentence(page, LONGER)
        engine = check_stages(page, LONGER)
        m = engine["x"]["shape"][0]
        assert m > n
        shapes = {s["key"]: s["shapeText"] for s in shown_stages(page)}
        assert shapes["pattern"] == f"[{m}, {m}]  (query pos, key pos)"
        assert shapes["v"] == f"[{m}, 32]  (pos, d_head)"
        assert page.evaluate(f"[{SHOWN}.layer, {SHOWN}.head]") == [LAYER, HEAD]
    finally:
        context.close()


def test_inside_on_a_phone_and_a_model_without_rotary(browser, site_url):
    page, context = open_inside(browser, site_url, (390, 844))
    try:
        set_sentence(page, TEXT)
        pick(page, LAYER, HEAD)
        shots = os.environ.get("AE_SHOTS", "/tmp")
        page.screenshot(path=f"{shots}/site-inside-phone.png", full_page=True)
        # every canvas inside the phone's width
        widths = page.evaluate("[...document.querySelectorAll('#inside canvas')]"
                               ".map((c) => c.getBoundingClientRect().right)")
        assert max(widths) <= 390
        # ALiBi has no rotary stages: their cards and heading go; the mask off, none blocked
        drawn = page.evaluate(f"{SHOWN}.drawn")
        page.select_option("#pos", "alibi")
        page.select_option("#mask", "off")
        page.wait_for_function(f"{SHOWN}.drawn > {drawn} && {SHOWN}.model.endsWith('alibi')"
                               f" && {SHOWN}.ok", timeout=30000)
        keys = [s["key"] for s in shown_stages(page)]
        assert "rot_q" not in keys and len(keys) == 11
        assert "masked" not in reading(page, "pattern", 1, 4)
    finally:
        context.close()
