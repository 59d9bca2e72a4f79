"""The Patch tab in a real Chromium, on a purpose-built page (the sentence box, the knobs and
the Patch tab only, tests/server.py ``tabs_page``): an example fills both boxes, the head
heatmap draws with the induction head on top, a click on a cell patches that cell (the
guesses change), a corrupted copy of another length gets its sentence, and a share link
carries the corrupted copy both ways (Take it home makes it, opening it fills the box).
Screenshots go to ``artifacts/`` at laptop (1366 px) and phone (390 px) width."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.server import DRAWN, READ_Z, click_tab, serve, settle, tabs_page

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
WAIT = 45000  # ms: generous, the test machine is often busy

# A cell's centre in page pixels, from Plotly's own axes (numeric axes: cell = its index).
CELL_XY = """([sel, x, y]) => {
  const gd = document.querySelector(sel + ' .js-plotly-plot');
  const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
  const box = gd.querySelector('.nsewdrag').getBoundingClientRect();
  return [box.left + xa.l2p(x), box.top + ya.l2p(y)];
}"""


# The "top guess" cell (third column) of the pair table's patched row.
PATCHED_GUESS = """() => {
  for (const row of document.querySelectorAll('#patch-pair [role=row]')) {
    const cells = [...row.querySelectorAll('[role=gridcell]')].map(c => c.innerText);
    if (cells.some(c => c.includes('patched'))) return cells[2];
  }
  return null;
}"""


@pytest.fixture(scope="module")
def patch_url(resources):
    from explorer.ui import patch_tab, take_home_tab

    with serve(tabs_page("patch", *resources, [("Patch", "patch", patch_tab),
                                               ("Take it home", "take_home", take_home_tab)],
                         share_link=True)) as url:
        yield url


@pytest.fixture(scope="module")
def chromium(browser):  # noqa: F811  (one Playwright per module, tests/server.py)
    return browser


def _pair_text(page) -> str:
    return page.locator("#patch-pair").inner_text()


@pytest.mark.parametrize("width", [1366, 390])
def test_patch_example_heatmap_and_a_clicked_cell(chromium, patch_url, width):
    context = chromium.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(patch_url)
        click_tab(page, "Patch")
        page.locator("#patch-example-0").click()
        page.wait_for_function(
            f"() => {{ const z = ({READ_Z})('#patch-heads'); "
            "return z && z.length === 4 && z[3][2] > 0.95; }", timeout=WAIT)
        z = np.array(page.evaluate(READ_Z, "#patch-heads"), dtype=float)
        assert np.unravel_index(np.argmax(z), z.shape) == (3, 2)
        assert "L3 H2 carries the difference" in page.locator("#patch-reading").inner_text()
        page.wait_for_function(f"() => ({DRAWN})('#patch-positions') === 1 && "
                               f"({DRAWN})('#patch-lens') === 1", timeout=WAIT)
        assert "L3 H2 patched" in _pair_text(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"patch-{width}.png"), full_page=True)

        # A click on L0 H0 (restores nothing): the patched run guesses the corrupted guess;
        # then a click on L3 H2 (the induction head) brings " bell" back.
        page.locator("#patch-heads").scroll_into_view_if_needed()
        for (layer, head), bell in (((0, 0), False), ((3, 2), True)):
            x, y = page.evaluate(CELL_XY, ["#patch-heads", head, layer])
            page.mouse.click(x, y)
            page.wait_for_function(
                "(name) => document.querySelector('#patch-pair').innerText"
                ".includes(name + ' patched')", arg=f"L{layer} H{head}", timeout=WAIT)
            guess = page.evaluate(PATCHED_GUESS)
            assert (guess.strip() == "bell") == bell, guess

        # A click on the logit lens' last row at the last token lists its top five.
        page.locator("#patch-lens").scroll_into_view_if_needed()
        n = len(page.evaluate(READ_Z, "#patch-lens")[0])
        x, y = page.evaluate(CELL_XY, ["#patch-lens", n - 1, 3])
        page.mouse.click(x, y)
        page.wait_for_function("() => document.querySelector('#patch-lens-detail').innerText"
                               ".includes('After L')", timeout=WAIT)
        detail = page.locator("#patch-lens-detail").inner_text()
        assert "After L3" in detail and "bell" in detail.split("top five")[1]

        # A typed corrupted copy of another length: a sentence, and no heatmap error.
        box = page.locator("#patch-corrupt textarea")
        box.fill("")
        box.press_sequentially("apple chair river", delay=10)
        page.wait_for_function("() => document.querySelector('#patch-status').innerText"
                               ".includes('corrupted copy 4 tokens')", timeout=WAIT)
        assert "same place" in page.locator("#patch-status").inner_text()
    finally:
        context.close()


def test_axe_finds_no_serious_or_critical_violations_on_the_patch_tab(chromium, patch_url):
    from axe_playwright_python.sync_playwright import Axe

    context = chromium.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    try:
        page.goto(patch_url)
        click_tab(page, "Patch")
        page.locator("#patch-example-0").click()
        page.wait_for_function(f"() => ({DRAWN})('#patch-lens') === 1", timeout=WAIT)
        settle(page)
        found = [(v["id"], [n["target"] for n in v["nodes"]][:3])
                 for v in Axe().run(page).response["violations"]
                 if v["impact"] in ("serious", "critical")]
        assert not found, found
    finally:
        context.close()


def test_a_share_link_carries_the_corrupted_copy(chromium, patch_url):
    """Issue 42 item 13: the link (and its QR code) made on Take it home after Patch holds
    the corrupted copy, and opening such a link puts it back in Patch's box."""
    from urllib.parse import parse_qsl, urlencode, urlsplit

    clean = "Tom has a red hat and Sam has a blue cap. Tom has a red"
    copy = "Tom has a red hat and Sam has a blue cap. Sam has a red"
    context = chromium.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    try:
        page.goto(patch_url + "?" + urlencode({"text": clean, "corrupt": copy}))
        box = page.locator("#patch-corrupt textarea")
        page.wait_for_function("(c) => document.querySelector('#patch-corrupt textarea')"
                               "?.value === c", arg=copy, timeout=WAIT)
        box.fill(copy + " now")  # the student's own copy: the link takes the box as it is
        click_tab(page, "Patch")  # the view the link will open
        click_tab(page, "Take it home")
        page.wait_for_function("() => (document.querySelector('#export-link textarea') || {})"
                               ".value?.includes('corrupt=')", timeout=WAIT)
        link = page.locator("#export-link textarea").input_value()
        query = dict(parse_qsl(urlsplit(link).query))
        assert query["tab"] == "patch" and query["corrupt"] == copy + " now"
        assert query["text"] == clean
    finally:
        context.close()
