"""The knobs reach only trained models, in real Chromium (#30, item 5): the "[mask]" example
on the next-word model switches to the masked-word model and says so; Heads and Positional
are fixed to its one model (no "No model was trained" and empty figure boxes); back on
next word they are free again. Compare's right side, which has Model, Heads and Positional
knobs of its own, does the same (issue 48 item 8)."""

from tests.server import GRID_DRAWN, click_tab

WAIT = 60000
KNOBS = """() => ({
  objective: document.querySelector('#objective input:checked').value,
  info: document.querySelector('#objective').innerText,
  heads: [...document.querySelectorAll('#heads input')].map((i) => [i.value, i.checked,
                                                                     i.disabled]),
  pos: [...document.querySelectorAll('#pos input')].map((i) => [i.value, i.checked,
                                                                 i.disabled]),
})"""


def test_a_mask_example_switches_to_the_masked_word_model(browser, app_url):  # noqa: F811
    from explorer.ui.controls import EXAMPLES

    example = next(e for e in EXAMPLES if "[mask]" in e)
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    try:
        page.goto(app_url)
        page.wait_for_function(GRID_DRAWN, timeout=WAIT)
        page.locator("#heads").get_by_text("8", exact=True).click()  # a knob it has no model for
        page.locator("#examples").get_by_text("Examples that show something").click()
        # (the chip is cut after ~60 characters: found by the words around the [mask])
        at = example.index("[mask]")
        page.locator("#examples").get_by_text(example[at - 8:at + 10]).click()
        page.wait_for_function(f"() => ({KNOBS})().objective.startsWith('masked')",
                               timeout=WAIT)
        page.wait_for_function(f"() => ({KNOBS})().heads.every((h) => h[2])", timeout=WAIT)
        knobs = page.evaluate(KNOBS)
        assert "Your sentence has a [mask]" in knobs["info"]
        assert [h[0] for h in knobs["heads"] if h[1]] == ["4"]
        assert [p[0] for p in knobs["pos"] if p[1]] == ["rotary"]
        assert all(p[2] for p in knobs["pos"])  # switched off, both
        # Explore shows the masked-word model's guesses for the [mask], not an empty box
        page.locator("#status").get_by_text("bidir-h4-rotary").wait_for(timeout=WAIT)
        page.locator("#grid").get_by_text("Guesses for the [mask]").wait_for(timeout=WAIT)
        assert "No model was trained" not in page.locator("#status").inner_text()
        # back on next word, every knob is free again
        page.locator("#objective").get_by_text("next word (causal)").click()
        page.wait_for_function(f"() => ({KNOBS})().heads.every((h) => !h[2])", timeout=WAIT)
        assert "Next word: a decoder" in page.evaluate(KNOBS)["info"]
    finally:
        page.close()


RIGHT = """() => ({
  info: document.querySelector('#cmp-objective').innerText,
  heads: [...document.querySelectorAll('#cmp-heads input')].map((i) => [i.value, i.checked,
                                                                         i.disabled]),
  pos: document.querySelector('#cmp-pos input').value,
  status: document.querySelector('#cmp-status').innerText,
})"""


def test_compares_right_side_moves_to_the_masked_word_model(browser, app_url):  # noqa: F811
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    try:
        page.goto(app_url)
        page.wait_for_function(GRID_DRAWN, timeout=WAIT)
        click_tab(page, "Compare")
        page.locator("#cmp-heads").get_by_text("2", exact=True).click()
        page.locator("#cmp-objective").get_by_text("masked word (bidirectional)").click()
        page.wait_for_function(f"() => ({RIGHT})().heads.every((h) => h[2])", timeout=WAIT)
        right = page.evaluate(RIGHT)
        assert [h[0] for h in right["heads"] if h[1]] == ["4"] and right["pos"] == "rotary"
        assert "Only one masked-word model was trained (4 heads, rotary)" in right["info"]
        # the right side runs the one masked-word model (a first update, sent before the
        # knobs moved, may say which model exists instead: the next one replaces it)
        page.wait_for_function(f"() => {{ const s = ({RIGHT})().status; return "
                               "s.includes('bidir-h4-rotary') && "
                               "!s.includes('No model was trained'); }", timeout=WAIT)
        page.locator("#cmp-objective").get_by_text("next word (causal)").click()
        page.wait_for_function(f"() => ({RIGHT})().heads.every((h) => !h[2])", timeout=WAIT)
        assert "Only one" not in page.evaluate(RIGHT)["info"]
    finally:
        page.close()
