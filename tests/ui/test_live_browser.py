"""Every view follows every change of the sentence box, in a real Chromium (issue #17,
points 1, 8 and 12; the mechanism is static/live.js).

With the real keyboard: a paste (Control+V with text on the clipboard), Backspace,
select-all + Delete (the empty state), cut (Control+X), an example, a share link. Each
view's status line says how many tokens it shows, so a view that stayed on the old
sentence fails. Also: the knobs a view does not use are switched off there with a note,
Classify's examples leave the shared sentence alone, and "Updating …" shows while an
update is on its way.
"""

import re
from urllib.parse import urlencode

import pytest

from tests.server import GRID_DRAWN, click_tab, wait_opened

WAIT = 40000
EMPTY = "Type a sentence above"
# (tab title, element whose text says what the view shows) of every view that reads the
# shared sentence box.
VIEWS = [
    ("Explore", "#grid .ae-grid-caption"),
    ("Inside one head", "#inside-status"),
    ("Shapes", "#shapes-status"),
    ("Positional encodings", "#pe-status"),
    ("Compare", "#cmp-status"),
    ("Ablate", "#ablate-status"),
    ("Through the layers", "#layers-status"),
    ("Through training", "#training-status"),
    ("Take it home", "#export-status"),
]


def n_tokens(sentence: str) -> int:
    from explorer.app import CHECKPOINT_DIR
    from explorer.models.tokenizer import Tokenizer

    return len(Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json").token_pieces(sentence))


@pytest.fixture(scope="module")
def page(browser, app_url):  # noqa: F811
    context = browser.new_context(viewport={"width": 1366, "height": 900},
                                  permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(app_url)
    page.wait_for_function(GRID_DRAWN, timeout=WAIT)
    yield page
    context.close()


def shows(page, selector: str, pattern: str) -> str:
    """Wait until the element's text matches ``pattern`` (a regular expression)."""
    page.wait_for_function(
        "([s, p]) => { const e = document.querySelector(s);"
        " return !!e && new RegExp(p).test(e.textContent); }",
        arg=[selector, pattern], timeout=WAIT)
    return page.locator(selector).first.inner_text()


def tokens(n: int) -> str:
    return rf"\b{n} tokens?\b"


def paste(page, text: str) -> None:
    page.evaluate("(t) => navigator.clipboard.writeText(t)", text)
    page.keyboard.press("Control+V")


@pytest.mark.parametrize(("title", "selector"), VIEWS, ids=[v[1] for v in VIEWS])
def test_view_follows_paste_backspace_delete_cut_and_example(page, title, selector):
    click_tab(page, title)
    box = page.locator("#sentence textarea")
    box.click()
    page.keyboard.press("Control+A")
    paste(page, "The cat sat.")  # replaces the selection
    shows(page, selector, tokens(n_tokens("The cat sat.")))
    page.keyboard.press("End")
    page.keyboard.press("Backspace")  # "The cat sat"
    shows(page, selector, tokens(n_tokens("The cat sat")))
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")  # cleared: the view's empty state, not the old figure
    shows(page, selector, EMPTY)
    paste(page, "A dog ran to the park.")
    shows(page, selector, tokens(n_tokens("A dog ran to the park.")))
    page.keyboard.press("Control+A")
    page.keyboard.press("Control+X")  # cut: empty again
    shows(page, selector, EMPTY)
    assert box.input_value() == ""
    # an example fills the box without a keystroke
    example = "The animal didn't cross the street because it was too tired."
    page.locator("#examples").get_by_text("Examples that show something").click()
    page.locator("#examples").get_by_text(example, exact=True).click()
    shows(page, selector, tokens(n_tokens(example)))
    page.locator("#examples").get_by_text("Examples that show something").click()  # close


def test_a_share_link_opens_a_view_on_its_sentence(browser, app_url):  # noqa: F811
    sentence = "Tom saw a red kite."
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(app_url + "?" + urlencode({"text": sentence, "tab": "shapes"}))
    shows(page, "#shapes-status", tokens(n_tokens(sentence)))
    assert page.locator("#sentence textarea").input_value() == sentence
    context.close()


def test_knobs_a_view_does_not_use_are_switched_off_with_a_note(page):
    inert = "(id) => document.getElementById(id).inert"
    click_tab(page, "Lessons")
    note = shows(page, "#knob-note", "Figure colours")
    assert "switched off" in note
    for knob in ("sentence", "objective", "mask", "layer", "head"):
        assert page.evaluate(inert, knob), knob
    assert not page.evaluate(inert, "theme")
    click_tab(page, "Through the layers")  # all but Layer and Head
    wait_opened(page, "layers", WAIT)  # Lessons' marks stay until the loop opens it
    assert page.evaluate(inert, "head") and not page.evaluate(inert, "mask")
    assert not page.evaluate(inert, "sentence")
    click_tab(page, "Inside one head")  # every knob
    wait_opened(page, "inside", WAIT)
    for knob in ("sentence", "objective", "mask", "layer", "head", "theme"):
        assert not page.evaluate(inert, knob), knob
    assert page.locator("#knob-note .ae-knob-note").is_hidden()


def test_classify_has_its_own_box_and_its_examples_leave_the_sentence_alone(page):
    click_tab(page, "Explore")
    box = page.locator("#sentence textarea")
    box.click()
    page.keyboard.press("Control+A")
    paste(page, "My own sentence.")
    shows(page, "#grid .ae-grid-caption", tokens(n_tokens("My own sentence.")))
    click_tab(page, "Classify")
    shows(page, "#knob-note", "own sentence box")
    assert page.evaluate("() => document.getElementById('sentence').inert")
    assert page.evaluate("() => document.getElementById('objective').inert")
    assert not page.evaluate("() => document.getElementById('mask').inert")
    page.get_by_text("When the ball was not red, Tom was glad.", exact=True).click()
    shows(page, "#classify-status", "predicted: positive")
    own = page.locator("#classify-text textarea, #classify-text input").first
    own.click()
    page.keyboard.press("Control+A")
    paste(page, "I am not sad.")
    shows(page, "#classify-status", tokens(n_tokens("I am not sad.")))
    assert box.input_value() == "My own sentence."
    click_tab(page, "Explore")
    shows(page, "#grid .ae-grid-caption", tokens(n_tokens("My own sentence.")))


def test_updating_marker_and_a_status_that_matches_the_grid(page):
    click_tab(page, "Explore")
    page.evaluate("""() => {
      window.__seen = [];
      const m = document.querySelector('#ae-live-status');
      new MutationObserver(() => window.__seen.push(
        [m.textContent, m.getAttribute('aria-busy')])).observe(m,
        {childList: true, characterData: true, subtree: true, attributes: true});
    }""")
    box = page.locator("#sentence textarea")
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    shows(page, "#status", EMPTY)
    page.keyboard.type("Hi")
    # as soon as the grid shows the tokens, the status line no longer says "type a sentence"
    page.wait_for_function("() => { const g = "
                           "window.AttentionExplorer?.grid?.state('#grid canvas');"
                           " return g && g.ok; }", timeout=WAIT)
    stale = page.evaluate("""(empty) => { const s = document.querySelector('#status');
      return getComputedStyle(s).visibility !== 'hidden' && s.textContent.includes(empty); }""",
                          EMPTY)
    assert not stale, "the status says 'type a sentence' while the grid shows tokens"
    shows(page, "#status", tokens(n_tokens("Hi")))
    page.wait_for_function("() => document.querySelector('#ae-live-status')"
                           ".getAttribute('aria-busy') === 'false'", timeout=WAIT)
    seen = page.evaluate("() => window.__seen")
    assert any(re.search("Updating Explore", t) and b == "true" for t, b in seen), seen
    assert page.locator("#ae-live-status").inner_text() == ""
