"""The three extra tabs in a real Chromium: Through the layers, Through training, Take it home.

The test builds its own small app (the sentence box and knobs, the Explore tab first as
in the real page, then the three tabs and the share-link wiring) so it does not depend
on how ``app.py`` composes the page; ``extras_url`` also serves the API tests in
``test_rollout.py``, ``test_snapshots.py``, ``test_export.py`` and ``test_share.py``.
Screenshots go to ``artifacts/`` at laptop (1366 px) and phone (390 px) width.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import numpy as np
import pytest

from explorer.ui.take_home_tab import EXPORT_WIDTH
from tests.server import ARTIFACTS, DRAWN, GRID_DRAWN, READ_Z, click_tab, settle

WAIT = 45000  # ms: generous, the test machine is often busy training
TABS = [("Through the layers", "layers"), ("Through training", "training"),
        ("Take it home", "take_home")]

# extras_url (tests/conftest.py) serves the Explore tab and these three (tests.server.EXTRAS_TABS).


@pytest.fixture(scope="module")
def chromium(browser):
    return browser


def open_page(chromium, url, width=1366, height=900, query: dict | None = None):
    context = chromium.new_context(viewport={"width": width, "height": height},
                                   accept_downloads=True)
    page = context.new_page()
    page.goto(url + ("?" + urlencode(query) if query else ""))
    page.wait_for_function(GRID_DRAWN, timeout=WAIT)  # Explore drew its grid
    return context, page


def open_tab(page, name: str, figure: str, count: int = 1) -> None:
    click_tab(page, name)
    page.wait_for_function(f"() => ({DRAWN})('{figure}') >= {count}", timeout=WAIT)


def type_sentence(page, sentence: str) -> None:
    box = page.locator("#sentence textarea")
    box.fill("")
    box.press_sequentially(sentence, delay=10)


def n_tokens(sentence: str) -> int:
    from explorer.models.tokenizer import Tokenizer
    from explorer.models.zoo import CHECKPOINT_DIR

    return len(Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json").token_pieces(sentence))


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    settle(page)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


@pytest.fixture(scope="module")
def laptop(chromium, extras_url):
    """One laptop-width page shared by the tests below, which run in file order (each
    page load costs seconds on a busy machine)."""
    context, page = open_page(chromium, extras_url)
    yield page
    context.close()


# --------------------------------------------------------------------------- layers


def test_through_the_layers_follows_typing_and_keeps_markup_as_text(laptop):
    from explorer.views.layers import STRIP_MARK

    page = laptop
    open_tab(page, "Through the layers", "#layers-heatmap")
    sentence = "<b>Hi</b> the cat saw the cat"
    type_sentence(page, sentence)
    # The heatmap settles on the whole sentence: one column per token, rows = 4 layers.
    # ("the c" and "the cat" have as many tokens: wait for the text itself too.)
    n = n_tokens(sentence)
    page.wait_for_function(
        "(s) => Array.from(document.querySelectorAll('#layers-text .token .text'))"
        ".map(e => e.textContent).join('').startsWith(s)", arg=sentence, timeout=WAIT)
    page.wait_for_function(
        f"() => {{ const z = ({READ_Z})('#layers-heatmap'); "
        f"return z && z.length === 4 && z[0].length === {n}; }}", timeout=WAIT)
    z = np.array(page.evaluate(READ_Z, "#layers-heatmap"), dtype=float)
    np.testing.assert_allclose(z.sum(1), 1.0, atol=1e-4)  # each row is a share of 1
    assert page.locator("#layers-position input[type=number]").input_value() == str(n - 1)
    # The highlighted sentence shows the tags as characters, never as markup.
    pieces = page.locator("#layers-text .token .text").all_text_contents()
    assert pieces[-1] == STRIP_MARK and "".join(pieces[:-1]) == sentence
    assert page.locator("#layers-text b, #layers-text a").count() == 0
    screenshot(page, "extras-layers-laptop.png")

    # Residual-aware method and an earlier output token: the outline moves, values change.
    page.locator("#layers-method").get_by_text("residual-aware rollout").click()
    page.wait_for_function("() => document.querySelector('#layers-status').innerText"
                           ".includes('residual-aware')", timeout=WAIT)
    box = page.locator("#layers-position input[type=number]")
    box.fill("2")
    box.press("Enter")
    page.wait_for_function("() => { const s = document.querySelector('#layers-status')"
                           ".innerText; return s.includes('position 2') && "
                           "s.includes('residual-aware'); }", timeout=WAIT)
    # The outline moves to token 2; causal: token 2 draws on tokens 0..2 only.
    page.wait_for_function(
        "() => { const gd = document.querySelector('#layers-heatmap .js-plotly-plot');"
        " return gd && gd.layout.shapes[0].x0 === 1.5; }", timeout=WAIT)
    z = np.array(page.evaluate(READ_Z, "#layers-heatmap"), dtype=float)
    assert np.all(z[:, 3:] == 0)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_through_the_layers_words_pass_aa_in_chromium(chromium, extras_url, theme):
    """#30: text on the coloured words measured 3.4-4.4:1; read from the page as drawn."""
    from tests.ui.test_contrast import AA, CONTRAST_JS

    context, page = open_page(chromium, extras_url, query={"__theme": theme})
    open_tab(page, "Through the layers", "#layers-heatmap")
    page.wait_for_function("() => document.querySelectorAll('#layers-text .token').length > 5",
                           timeout=WAIT)
    settle(page)
    measured = page.evaluate(CONTRAST_JS, "#layers-text")
    context.close()
    assert len(measured) > 5
    worst = min(measured, key=lambda m: m[1])
    assert worst[1] >= AA, f"{theme}: {worst}"


# --------------------------------------------------------------------------- training


def test_through_training_slider_redraws_each_snapshot(laptop):
    page = laptop
    open_tab(page, "Through training", "#tab-training", count=3)
    from explorer.training.zoo_build import DEFAULT_SNAPSHOTS

    n = DEFAULT_SNAPSHOTS
    # the status counts as the slider does, from 0 (#30: "Snapshot 1 of 10" at 0)
    assert (f"Snapshot {n - 1} (0 = first, {n - 1} = last)"
            in page.locator("#training-status").inner_text())
    assert page.locator("#training-snapshot input[type=number]").input_value() == str(n - 1)
    last = np.array(page.evaluate(READ_Z, "#training-grid"), dtype=float)
    box = page.locator("#training-snapshot input[type=number]")
    box.fill("0")
    box.press("Enter")
    page.wait_for_function("(n) => document.querySelector('#training-status').innerText"
                           ".includes(`Snapshot 0 (0 = first, ${n - 1} = last)`)", arg=n,
                           timeout=WAIT)
    settle(page)  # the snapshot's grid has landed with its status
    first = np.array(page.evaluate(READ_Z, "#training-grid"), dtype=float)
    assert first.shape == last.shape and not np.allclose(first, last, atol=1e-3)
    screenshot(page, "extras-training-laptop.png")


# --------------------------------------------------------------------------- export


def test_take_it_home_downloads_pictures_and_files(laptop, extras_url, tmp_path):
    page = laptop
    open_tab(page, "Take it home", "#tab-take_home", count=2)
    for button, start in (("#export-head-png", b"\x89PNG\r\n\x1a\n"),
                          ("#export-grid-svg", b"<svg")):
        with page.expect_download(timeout=WAIT) as info:
            page.locator(button).click()
        path = tmp_path / info.value.suggested_filename
        info.value.save_as(path)
        assert path.read_bytes().startswith(start), button
    assert info.value.suggested_filename == "attention-all-heads.svg"

    page.locator("#export-prepare").click()
    page.wait_for_selector("#export-npz", state="visible", timeout=WAIT)
    with page.expect_download(timeout=WAIT) as info:
        page.locator("#export-head-csv").click()
    path = tmp_path / "head.csv"
    info.value.save_as(path)
    assert path.read_text(encoding="utf-8-sig").startswith("query \\ key,0:")
    link = page.locator("#export-link textarea").input_value()
    assert link.startswith(extras_url + "?text=") and "heads=4" in link
    screenshot(page, "extras-export-laptop.png")
    # A knob change makes the prepared files stale: their buttons go away.
    page.locator("#mask").get_by_text("off", exact=True).click()
    page.wait_for_selector("#export-npz", state="hidden", timeout=WAIT)
    page.locator("#mask").get_by_text("as trained", exact=True).click()


# --------------------------------------------------------------------------- share link


def test_share_link_sets_sentence_and_knobs(laptop, extras_url):
    page = laptop
    # head 6 exists in the 8-head model only: the Head slider follows the link's model
    query = {"text": "The dog saw <i>the</i> dog", "heads": "8", "pos": "rotary",
             "mask": "off", "temp": "2", "layer": "2", "head": "6", "scale": "cube"}
    page.goto(extras_url + "?" + urlencode(query))
    page.wait_for_selector("#sentence textarea", timeout=WAIT)
    page.wait_for_function("() => document.querySelector('#sentence textarea').value"
                           ".startsWith('The dog saw')", timeout=WAIT)
    assert page.locator("#sentence textarea").input_value() == query["text"]
    assert page.locator("#layer input[type=number]").input_value() == "2"
    assert page.locator("#head input[type=number]").input_value() == "6"
    assert page.locator("#head input[type=range]").get_attribute("max") == "7"
    assert page.locator("#temperature input[type=number]").input_value() == "2"
    assert page.locator("#mask input[value=off]").is_checked()
    assert page.locator("#scaling input[value='1/√d_head']").is_checked()  # bad: ignored
    # Explore redraws for the shared sentence (mask off: weight above the diagonal).
    n = n_tokens(query["text"])
    page.wait_for_function(
        "() => { const m = window.AttentionExplorer?.grid?.state('#grid canvas');"
        " if (!m || !m.ok) return false;"
        # the canvas keeps the mosaic of every panel (static/live_grid.js); row 0 of
        # panel L0 H0 is row 0 of the mosaic, its key n-1 column n-1
        f" return m.n === {n} && m.cells[{n - 1}] > 0; }}",
        timeout=WAIT)


# --------------------------------------------------------------------------- phone


def test_phone_width_each_tab_fits_and_screenshots(chromium, extras_url):
    context, page = open_page(chromium, extras_url, 390, 844)
    try:
        for name, key in TABS:
            counts = {"layers": 1, "training": 3, "take_home": 2}
            open_tab(page, name, f"#tab-{key}", count=counts[key])
            scroll = page.evaluate("() => document.documentElement.scrollWidth")
            assert scroll <= 390 + 2, f"{key}: {scroll}px wide on a 390px phone"
            screenshot(page, f"extras-{key}-phone.png")
        # the picked head is no taller than the phone's column is wide (static/page.js)
        page.wait_for_function("""() => { const g = document.querySelector(
            '#export-head .js-plotly-plot');
            return !!(g && g.layout && g.layout.height <= g.clientWidth); }""", timeout=WAIT)
        # a picture saved on a phone is drawn at a laptop's width, so its caption (model,
        # experiment, sentence) is not cut at the phone's edge
        with page.expect_download(timeout=WAIT) as info:
            page.locator("#export-head-png").click()
        png = Path(info.value.path()).read_bytes()
        width = int.from_bytes(png[16:20], "big")  # the PNG header's width, at scale 2
        assert width >= 2 * EXPORT_WIDTH, width
    finally:
        context.close()
