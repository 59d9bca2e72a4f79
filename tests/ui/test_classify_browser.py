"""The Classify tab in a real Chromium, on the real app: open it, type a sentence, see the
predicted class, the evidence strip and every head's attention; an example click and the
mask knob reach it; at phone width nothing scrolls sideways. Screenshots go to
``artifacts/classify-{laptop,phone}.png``."""

from __future__ import annotations

from explorer.models.zoo import CHECKPOINT_DIR
from explorer.views.classify import DEFAULT_CLASSIFIER
from tests import server
from tests.server import click_tab, fits_width, settle

SENTENCE = "I was not happy because the rain was cold."
N_TOKENS = 10  # " I was not happy because the rain was cold ." (checked below)

pytestmark = server.needs_checkpoint(DEFAULT_CLASSIFIER, "classifier")
ARTIFACTS, DRAWN = server.ARTIFACTS, server.DRAWN


def wait_for_status(page, *parts: str) -> str:
    return server.wait_for_text(page, "#classify-status", *parts)


def test_classify_tab_at_laptop_and_phone_width(browser, app_url):  # noqa: F811
    from explorer.models.tokenizer import Tokenizer

    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    assert len(tok.token_pieces(SENTENCE)) == N_TOKENS
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(app_url)
    page.wait_for_selector("#sentence textarea", timeout=30000)
    click_tab(page, "Classify")
    box = page.locator("#classify-text textarea, #classify-text input").first  # its own box
    box.fill(SENTENCE[:-1])
    box.press_sequentially(SENTENCE[-1])
    status = wait_for_status(page, f"{N_TOKENS} tokens", "predicted: negative")
    assert "agrees" in status
    grid_drawn = f"() => ({server.HEATMAPS})('#classify-grid') === 8"  # 2 layers x 4 heads
    page.wait_for_function(grid_drawn, timeout=30000)
    page.wait_for_function(f"() => ({DRAWN})('#classify-probs') === 1 && "
                           f"({DRAWN})('#classify-evidence') === 1 && "
                           f"({DRAWN})('#classify-head') === 1", timeout=30000)
    ARTIFACTS.mkdir(exist_ok=True)
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "classify-laptop.png"), full_page=True)

    # The shared mask knob is an experiment here too; an example click updates the tab.
    page.locator("#mask").get_by_text("on", exact=True).click()
    wait_for_status(page, "Experiment on the trained model", "causal mask on")
    page.locator("#mask").get_by_text("as trained", exact=True).click()
    page.get_by_text("When the ball was not red, Tom was glad.", exact=True).click()
    wait_for_status(page, "predicted: positive", "agrees")

    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("() => window.scrollTo(0, 0)")
    click_tab(page, "Classify")
    page.wait_for_function(grid_drawn, timeout=30000)
    fits_width(page, 390)
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= 390 + 2, f"the page is {scroll}px wide on a 390px phone"
    page.screenshot(path=str(ARTIFACTS / "classify-phone.png"), full_page=True)
    context.close()


LAYER_RANGE = """() => { const r = document.querySelector('#layer input[type=range]');
  return r ? [Number(r.max), Number(r.value)] : null; }"""


def test_the_layer_slider_offers_the_classifiers_layers_only(browser, app_url):  # noqa: F811
    """#30: the shared Layer slider went to 3 on the 2-layer classifier and showed layer 1
    without a word. While Classify is open it runs 0-1; another view gets 0-3 back."""
    from explorer.views.classify import load_classifier

    n_layers = load_classifier().model.config.n_layers
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(app_url)
    page.wait_for_selector("#sentence textarea", timeout=30000)
    click_tab(page, "Explore")
    number = page.locator("#layer input[type=number]")
    number.fill("3")
    number.press("Enter")
    page.wait_for_function(f"() => ({LAYER_RANGE})()[1] === 3", timeout=30000)
    click_tab(page, "Classify")
    page.wait_for_function(f"() => {{ const r = ({LAYER_RANGE})(); "
                           f"return r[0] === {n_layers - 1} && r[1] === {n_layers - 1}; }}",
                           timeout=30000)
    status = wait_for_status(page, "predicted:")
    assert "This classifier has" not in status  # the value is the classifier's own layer
    page.wait_for_function("() => (document.querySelector('#classify-head .annotation-text')"
                           f"?.textContent || '').includes('Layer {n_layers - 1}')",
                           timeout=30000)
    click_tab(page, "Explore")
    page.wait_for_function(f"() => ({LAYER_RANGE})()[0] === 3", timeout=30000)
    context.close()
