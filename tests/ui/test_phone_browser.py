"""A phone in real Chromium (#30, item 6): the sentence box stays in view while the student
scrolls to the grid and the large head, a tapped square brings its large head onto the
screen, the open knobs drawer leaves the upper half to the figures, and Ablate's ranking
fits the screen with the column it is ranked by."""

import pytest

from tests.server import GRID_DRAWN, click_tab, wait_stable

PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True,
             is_mobile=True)
LAPTOP = dict(viewport={"width": 1366, "height": 900})
WAIT = 60000
SENTENCE_BOX = "() => document.querySelector('#sentence').closest('.form').getBoundingClientRect()"


def test_the_box_stays_in_view_and_a_tapped_square_opens_large_on_screen(browser, app_url):  # noqa: F811
    page = browser.new_page(**PHONE)
    try:
        page.goto(app_url)
        page.wait_for_function(GRID_DRAWN, timeout=WAIT)
        page.evaluate("() => document.querySelector('#grid canvas').scrollIntoView()")
        page.wait_for_function(f"() => ({SENTENCE_BOX})().top >= -1 && "
                               f"({SENTENCE_BOX})().top <= 1", timeout=WAIT)
        box = page.evaluate(SENTENCE_BOX)
        assert box["height"] < 170, box  # short: the figures keep the screen
        # tap the last layer's third square (L3 H2): the large head comes onto the screen,
        # under the box
        canvas = page.locator("#grid canvas").bounding_box()
        geom = page.evaluate("() => window.AttentionExplorer?.grid?.state('#grid canvas').geom")
        layers = page.evaluate("() => window.AttentionExplorer?.grid?.state('#grid canvas').layers"
                               " ?? 4")
        step = geom["size"] + geom["gap"]
        x = canvas["x"] + geom["left"] + 2 * step + geom["size"] / 2
        y = canvas["y"] + geom["top"] + (layers - 1) * step + geom["size"] / 2
        assert y < 844 - 60, (y, canvas)  # the square is on the screen, above the drawer
        page.touchscreen.tap(x, y)
        page.wait_for_function("() => document.querySelector('#layer input[type=number]')"
                               f".value === '{layers - 1}'", timeout=WAIT)
        page.wait_for_function(
            f"""() => {{ const r = document.querySelector('#head-large')
                  .getBoundingClientRect(), top = ({SENTENCE_BOX})().bottom;
                return r.top >= top - 1 && r.top < 844 / 2; }}""", timeout=WAIT)
        assert page.evaluate(f"() => ({SENTENCE_BOX})().top") >= -1  # the box still there
        # the drawer, open, covers less than half of the screen
        page.locator("#controls .label-wrap").tap()
        page.locator("#heads").wait_for(state="visible")
        drawer = page.locator("#controls").bounding_box()
        assert drawer["y"] >= 844 / 2, drawer
        # the radios' labels are not drawn over it (they were, at the same z-index)
        over = page.evaluate("""() => { const d = document.querySelector('#controls')
              .getBoundingClientRect(), x = d.left + 40, y = d.top + 20;
            return document.elementFromPoint(x, y).closest('#controls') !== null; }""")
        assert over
    finally:
        page.close()


def test_the_ablation_ranking_fits_a_phone(browser, app_url):  # noqa: F811
    page = browser.new_page(**PHONE)
    try:
        page.goto(app_url)
        page.wait_for_function(GRID_DRAWN, timeout=WAIT)
        click_tab(page, "Ablate")
        page.locator("#ablate-table table").first.wait_for(timeout=WAIT)
        page.wait_for_selector("#ablate-table [aria-rowcount='17']", timeout=WAIT)  # 16 + 1
        page.evaluate("() => document.querySelector('#ablate-table').scrollIntoView()")
        heads = page.evaluate("""() => [...document.querySelectorAll(
            '#ablate-table th[role=columnheader]')].map(th => {
            const r = th.getBoundingClientRect();
            return [th.innerText.trim(), r.left, r.right]; })""")
        names = [h[0] for h in heads]
        assert names[:3] == ["rank", "head", "loss change"], names
        assert len(heads) == 6 and all(0 <= left and right <= 390 for _, left, right in heads), \
            heads
    finally:
        page.close()


def test_the_grid_begins_on_the_first_screen(browser, app_url):  # noqa: F811
    """The tab menu is one row (explorer/ui/page.py): the grid's first squares are on the first
    screen, above the knobs drawer's bar (it began at y = 948, under 7 rows of tabs)."""
    page = browser.new_page(**PHONE)
    try:
        page.goto(app_url)
        page.wait_for_function(GRID_DRAWN, timeout=WAIT)
        at = page.evaluate("""() => { const c = document.querySelector('#grid canvas'),
            g = window.AttentionExplorer?.grid?.state(c).geom, r = c.getBoundingClientRect();
            return {top: r.top, squares: r.top + g.top, scrollY: window.scrollY,
                    tabs: document.querySelector('#tabs [role=tablist]')
                      .getBoundingClientRect().height,
                    drawer: document.querySelector('#controls').getBoundingClientRect().top};
            }""")
        assert at["scrollY"] == 0 and at["tabs"] < 70, at
        assert at["squares"] + 60 <= at["drawer"] <= 844, at
    finally:
        page.close()


# Each labelled y axis of a grid of heads: its shown labels and its row height, as drawn.
GRID_ROWS = """(sel) => {
  const gd = document.querySelector(sel + ' .js-plotly-plot'), L = gd._fullLayout;
  return Object.keys(L).filter((k) => /^yaxis\\d*$/.test(k) && (L[k].ticktext || []).length)
    .map((k) => ({axis: k, shown: L[k].showticklabels,
                  row: L[k]._length / L[k].ticktext.length}));
}"""


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_grid_shortened_for_a_phone_drops_labels_its_rows_cannot_hold(
        browser, app_url, screen):  # noqa: F811
    """Ablate's grid of 16 heads is sent for a laptop; a phone draws it square and shorter,
    and query labels on rows under 10 px ran into each other (#30 item 10). On a laptop
    the labels the server sent stay."""
    page = browser.new_page(**(PHONE if screen == "phone" else LAPTOP))
    try:
        page.goto(app_url)
        page.wait_for_function(GRID_DRAWN, timeout=WAIT)
        click_tab(page, "Ablate")
        page.locator("#sentence textarea").fill("The cat sat on the mat.")
        page.wait_for_function("() => document.querySelector('#ablate-status').innerText"
                               ".includes('7 tokens')", timeout=WAIT)
        axes = wait_stable(page, GRID_ROWS, "#ablate-grid")  # the fit's relayout is done
        assert axes, "the grid sent no labelled axis"
        # no label on a row too short for it; the laptop keeps the first column's labels
        assert all(a["row"] >= 10 for a in axes if a["shown"]), axes
        assert any(a["shown"] for a in axes) == (screen == "laptop"), axes
    finally:
        page.close()
