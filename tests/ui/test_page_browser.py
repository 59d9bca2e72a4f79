"""The page's frame in real Chromium (#17): projector mode, the phone layout, keyboard-only
use, the head view's tap-a-word, and axe-core's accessibility check in light and dark.

Viewports as the issue tried them: a projector at 1280x720 with the browser at 150 %
(853x480 CSS px, 1.5 device px each), a phone at 390x844 with touch, a laptop."""

from __future__ import annotations

import pytest

from tests.server import GRID_DRAWN, click_tab, settle

PROJECTOR = dict(viewport={"width": 853, "height": 480}, device_scale_factor=1.5)
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True,
             is_mobile=True)
LAPTOP = dict(viewport={"width": 1366, "height": 900})
# A label is readable from the back of a classroom at 13 CSS px and up on a 720-line
# projector at 150 % (20 device px, ~3 % of the picture's height).
READABLE_PX = 13
LARGE_PLOT = "#head-large .js-plotly-plot"


def open_page(browser, url: str, **context):  # noqa: F811
    page = browser.new_page(**context)
    page.goto(url)
    page.wait_for_function(GRID_DRAWN, timeout=60000)
    return page


def wait_for_plot(page, selector: str) -> None:
    page.wait_for_function(
        f"() => {{ const g = document.querySelector({selector!r}); "
        "return !!(g && g.data && g.data.length && g.layout); }", timeout=60000)


def test_projector_mode_shows_a_labelled_heatmap_first(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url + "?projector=1", **PROJECTOR)
    try:
        wait_for_plot(page, LARGE_PLOT)
        # static/page.js resizes the figure once it has drawn: wait for its label size
        page.wait_for_function(
            f"() => (document.querySelector({LARGE_PLOT!r}).layout.yaxis.tickfont || {{}}).size"
            f" >= {READABLE_PX}", timeout=30000)
        box = page.locator(LARGE_PLOT).bounding_box()
        assert 0 <= box["y"] < 200, box  # starts near the top of the 480 px screen
        assert box["height"] >= 0.75 * 480, box  # and fills it
        labels = page.evaluate(
            f"""() => {{ const g = document.querySelector({LARGE_PLOT!r});
              return {{ n: g.layout.yaxis.ticktext.length,
                shown: [...g.querySelectorAll('.ytick text')].map(t => {{
                  const r = t.getBoundingClientRect();
                  return [t.textContent, parseFloat(getComputedStyle(t).fontSize),
                          r.top, r.bottom]; }}) }}; }}""")
        assert labels["n"] >= 15  # the default sentence: every token labelled
        assert len(labels["shown"]) == labels["n"]
        for text, size, top, bottom in labels["shown"]:
            assert size >= READABLE_PX, (text, size)
            assert 0 <= top and bottom <= 480, (text, top, bottom)  # on the first screen
        # the sentence stays on screen beside it, for the class to read
        assert page.locator("#sentence textarea").bounding_box()["y"] < 480
        # every view is one click away: each tab inside the screen, none scrolled out of
        # sight past the bar's edge (one sideways-scrolled row hid nine of thirteen)
        tabs = page.evaluate(
            """() => [...document.querySelectorAll('#tabs [role=tab]')].map(t => {
                 const r = t.getBoundingClientRect();
                 return [t.innerText.trim(), r.left, r.right, r.top, r.bottom]; })""")
        assert len(tabs) >= 12
        for name, left, right, top, bottom in tabs:
            assert 0 <= left and right <= 853 and 0 <= top and bottom <= 200, (name, left,
                                                                                right, top)
    finally:
        page.close()


PROJECTING = "document.documentElement.classList.contains('ae-projector')"


def test_big_screen_switch_turns_projector_mode_on_and_off(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url, **LAPTOP)
    try:
        switch = page.locator(".ae-projector-switch")
        assert switch.get_attribute("aria-pressed") == "false" and not page.evaluate(PROJECTING)
        # a laptop's views column has room for the large head and the guesses side by side
        wait_for_plot(page, LARGE_PLOT)
        big = page.locator("#head-large").bounding_box()
        guesses = page.locator("#predictions").bounding_box()
        assert abs(big["y"] - guesses["y"]) < 2 and guesses["x"] > big["x"], (big, guesses)
        switch.click()
        assert page.evaluate(PROJECTING)
        assert "projector=1" in page.url and switch.get_attribute("aria-pressed") == "true"
        box = page.locator("#views").bounding_box()
        assert box["y"] < 100  # the views beside the sentence, not below it
        switch.click()
        assert not page.evaluate(PROJECTING)
        assert "projector" not in page.url
    finally:
        page.close()


def test_a_projector_screen_gets_big_screen_by_itself(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url, **PROJECTOR)
    try:
        assert page.evaluate(PROJECTING)  # 853x480: the heatmap first, without a click
        switch = page.locator(".ae-projector-switch")
        assert switch.get_attribute("aria-pressed") == "true"
        switch.click()
        assert not page.evaluate(PROJECTING) and "projector=0" in page.url
        page.reload()  # the link keeps the teacher's choice
        page.wait_for_function(GRID_DRAWN, timeout=60000)
        assert not page.evaluate(PROJECTING)
        # the normal layout in this narrow window: the large head takes the views' width
        # (the guesses wrap below it), not a third of it beside the guesses
        wait_for_plot(page, LARGE_PLOT)
        views = page.locator("#views").bounding_box()
        big = page.locator("#head-large").bounding_box()
        guesses = page.locator("#predictions").bounding_box()
        assert big["width"] >= 0.85 * views["width"], (big, views)
        assert guesses["y"] >= big["y"] + big["height"] - 1, (big, guesses)
    finally:
        page.close()


def test_phone_knobs_views_and_figures(browser, app_url):  # noqa: F811
    from explorer import app

    page = open_page(browser, app_url, **PHONE)
    try:
        # the knobs: a bar fixed at the bottom of the first screen, closed at first
        bar = page.locator("#controls .label-wrap")
        bar.wait_for()
        page.wait_for_function("() => document.querySelector('#controls .label-wrap')"
                               ".getAttribute('aria-expanded') === 'false'", timeout=10000)
        box = bar.bounding_box()
        assert box["y"] + box["height"] <= 844, box  # within the first screen, let alone two
        bar.tap()
        heads = page.locator("#heads")
        heads.wait_for(state="visible")
        hb = heads.bounding_box()
        assert 0 <= hb["y"] < 844, hb  # open: the knobs are on screen
        bar.tap()
        # every view: a labelled tab on the bar, none behind an unlabelled "More tabs" menu
        tabs = page.locator('#tabs button[role="tab"]')
        assert tabs.count() == len(app.TABS)
        for i in range(tabs.count()):
            assert tabs.nth(i).inner_text().strip()
        assert page.locator("#tabs button[aria-label='More tabs']:visible").count() == 0
        # the section names are decoration: the tab's accessible name is its own label
        assert page.get_by_role("tab", name="Explore", exact=True).count() == 1
        before = page.evaluate("""() => getComputedStyle(document.querySelector(
            '#tabs button[data-tab-id=explore]'), '::before').content""")
        assert "Look" in before
        # the bar is one row that scrolls sideways (it wrapped into 7 rows, 300 px, and
        # pushed the grid down to y = 880): every tab on that row, a 44 px touch target
        # (WCAG 2.5.5), the row within the screen, faded at the edge where more tabs are
        row = page.evaluate("""() => { const r = document.querySelector(
            '#tabs [role=tablist]'), b = r.getBoundingClientRect();
            return {top: b.top, bottom: b.bottom, left: b.left, right: b.right,
                    more: r.dataset.aeMore, scrolls: r.scrollWidth > r.clientWidth}; }""")
        boxes = page.evaluate("""() => [...document.querySelectorAll(
            '#tabs [role=tablist] > button[role=tab]')].map(b => { const r =
            b.getBoundingClientRect(); return {id: b.dataset.tabId, y: r.y, h: r.height}; })""")
        assert row["bottom"] - row["top"] < 70 and row["left"] >= 0 and row["right"] <= 390, row
        assert row["scrolls"] and row["more"] == "right", row
        assert all(abs(b["y"] - boxes[0]["y"]) < 1 and b["h"] >= 44 for b in boxes), boxes
        # a tab past the screen's edge scrolls into the row's view when it opens
        last = page.locator('#tabs [role=tablist] > button[role=tab]').last
        last.click()
        page.wait_for_function("""() => { const t = [...document.querySelectorAll(
            '#tabs [role=tablist] > button[role=tab]')].pop(), r = t.getBoundingClientRect();
            return t.getAttribute('aria-selected') === 'true' && r.left >= 0
              && r.right <= 390; }""", timeout=10000)
        assert page.evaluate("() => document.querySelector('#tabs [role=tablist]')"
                             ".dataset.aeMore") == "left"
        click_tab(page, "Explore")
        # Explore's "clear heads" sentence stacks above its picker, not squeezed beside it
        text = page.locator("#clear-heads-text").bounding_box()
        picker = page.locator("#clear-heads").bounding_box()
        assert text["width"] >= 300 and picker["y"] >= text["y"] + text["height"] - 1
        # no Plotly toolbar over the figures' titles on a touch screen
        wait_for_plot(page, LARGE_PLOT)
        assert page.locator("#head-large .modebar-container").evaluate(
            "e => getComputedStyle(e).display") == "none"
        # one head's square heatmap is no taller than its narrow column is wide: a taller
        # one stretched its colour bar over empty space (static/page.js)
        fits = """(sel) => { const g = document.querySelector(sel + ' .js-plotly-plot');
            return !!(g && g.layout && g.layout.height && g.layout.height <= g.clientWidth); }"""
        page.wait_for_function(fits, arg="#head-large", timeout=10000)
        # the per-head table's words wrap: every column is on the screen, none scrolled away
        page.locator("#head-table table").wait_for()
        table = page.locator("#head-table table").bounding_box()
        assert table["x"] >= 0 and table["x"] + table["width"] <= 390, table
        click_tab(page, "Compare")
        page.wait_for_function(fits, arg="#cmp-left", timeout=30000)
        # every head as Plotly subplots: square panels, not the tall strips a laptop's
        # height gave them in a phone's column (static/page.js fitGrid)
        click_tab(page, "Ablate")
        page.wait_for_function("""() => { const g = document.querySelector(
            '#ablate-grid .js-plotly-plot'), f = g && g._fullLayout;
            return !!(f && f.xaxis && f.xaxis._length > 20
                      && f.yaxis._length <= 1.05 * f.xaxis._length); }""", timeout=30000)
        # a view opens from its tab
        click_tab(page, "Take it home")
        page.locator("#export-head").wait_for()
    finally:
        page.close()


def test_the_knobs_column_is_open_again_after_a_narrow_window(browser, app_url):  # noqa: F811
    """Narrowed to a phone the knobs fold into a closed drawer; widened again they are the
    open column at the side (they stayed folded away, seen as flaky tests)."""
    page = open_page(browser, app_url, **LAPTOP)
    try:
        knob = page.locator("#mask").get_by_text("as trained", exact=True)
        assert knob.is_visible()
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function("() => document.documentElement.classList.contains('ae-drawer')"
                               " && !document.querySelector('#controls .label-wrap')"
                               ".classList.contains('open')", timeout=10000)
        page.set_viewport_size({"width": 1366, "height": 900})
        page.wait_for_function("() => !document.documentElement.classList.contains("
                               "'ae-drawer')", timeout=10000)
        knob.wait_for(state="visible", timeout=10000)
        knob.click()
    finally:
        page.close()


def test_keyboard_reaches_the_views_in_two_presses_with_a_visible_ring(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url, **LAPTOP)
    try:
        page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement.textContent.trim()")
        assert focused == "Skip to the views"
        box = page.locator(".ae-skip").first.bounding_box()
        assert box["width"] > 20 and box["height"] > 10  # shown once focused
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.getAttribute('role') === 'tab'",
                               timeout=5000)
        ring = page.evaluate("""() => { const e = document.activeElement,
            s = getComputedStyle(e);
            return [e.closest('#tabs') !== null, e.textContent, s.outlineStyle,
                    parseFloat(s.outlineWidth)]; }""")
        assert ring[0] and "Explore" in ring[1]
        assert ring[2] == "solid" and ring[3] >= 2, ring  # the focus ring (WCAG 2.4.7)
        # the tab list is one Tab stop (static/keys.js): the right arrow opens the next
        # view, one more Tab press goes on into the open view
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.activeElement.getAttribute('role') === 'tab'"
                               " && document.activeElement.getAttribute('aria-selected')"
                               " === 'true' && !document.activeElement.textContent"
                               ".includes('Explore')", timeout=10000)
        page.keyboard.press("Tab")
        assert page.evaluate("() => !document.activeElement.closest('[role=tablist]')")
    finally:
        page.close()


def test_head_view_tap_a_word_shows_only_its_lines(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url, **LAPTOP)
    try:
        sel = "#head-view .js-plotly-plot"
        wait_for_plot(page, sel)
        page.locator(sel).scroll_into_view_if_needed()
        lines = f"""() => {{ const g = document.querySelector({sel!r}); const q = new Set();
            let n = 0;
            for (const t of g._fullData) {{ if (t.mode !== 'lines' || t.showlegend) continue;
              for (let i = 0; i < t.y.length; i += 3) {{ n++; q.add(t.y[i]); }} }}
            return [n, [...q]]; }}"""
        n_all, queries = page.evaluate(lines)
        assert n_all > 0 and len(queries) > 3
        target = 5
        x, y = page.evaluate(f"""() => {{ const g = document.querySelector({sel!r}),
            L = g._fullLayout, r = g.getBoundingClientRect();
            return [r.left + L.xaxis._offset + L.xaxis.l2p(0),
                    r.top + L.yaxis._offset + L.yaxis.l2p({target})]; }}""")
        page.mouse.click(x, y)
        page.wait_for_function("() => window.AttentionExplorer?.headView?.query("
                               f"{sel!r}) === {target}",
                               timeout=10000)
        n_one, only = page.evaluate(lines)
        assert 0 < n_one < n_all and only == [target]
        note = page.locator("#head-view .ae-focus-note").inner_text()
        assert f"token {target}" in note
        page.mouse.click(x, y)  # the same word again: every line
        page.wait_for_function(f"() => window.AttentionExplorer?.headView?.query({sel!r}) === null",
                               timeout=10000)
        assert page.evaluate(lines)[0] == n_all
        # from the keyboard: focus the figure, arrows step through the words, Escape: all
        host = page.locator('#head-view [data-testid="plotly"]')
        assert host.get_attribute("tabindex") == "0"
        host.focus()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        page.wait_for_function(f"() => window.AttentionExplorer?.headView?.query({sel!r}) === 1",
                               timeout=10000)
        assert page.evaluate(lines)[1] == [1]
        page.keyboard.press("Escape")
        page.wait_for_function(f"() => window.AttentionExplorer?.headView?.query({sel!r}) === null",
                               timeout=10000)
    finally:
        page.close()


def test_figures_have_accessible_names(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url, **LAPTOP)
    try:
        for block in ("head-large", "head-view", "predictions"):
            wait_for_plot(page, f"#{block} .js-plotly-plot")
        settle(page)
        named = page.evaluate("""() => ['head-large', 'head-view', 'predictions'].map(id => {
            const e = document.querySelector('#' + id + ' [data-testid=plotly]');
            return [id, e.getAttribute('role'), e.getAttribute('aria-label') || '']; })""")
        for block, role, label in named:
            assert role == "figure" and len(label) > 20, (block, role, label)
        assert "Layer" in named[0][2] and "Heatmap" in named[0][2]
        assert page.locator("#grid canvas").get_attribute("role") == "img"
    finally:
        page.close()


# axe-core rules that this page may still break, with why; empty: none is known.
# (Gradio's own markup passed in Gradio 6.31 on these views, in both themes.)
KNOWN = {}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_no_serious_or_critical_violations(browser, app_url, theme):  # noqa: F811
    from axe_playwright_python.sync_playwright import Axe

    page = open_page(browser, app_url + ("?__theme=dark" if theme == "dark" else ""),
                     **LAPTOP)
    axe = Axe()
    found = []
    try:
        for view, ready in (("Explore", "#head-large .js-plotly-plot"),
                            ("Through the layers", "#layers-text .token"),
                            ("Encoder–decoder", "#s2s-output .token"),
                            # its figures drawn: Gradio's empty-plot placeholder (shown
                            # until they land) puts aria-label on a plain div
                            ("Take it home", "#export-head .js-plotly-plot")):
            if view != "Explore":
                click_tab(page, view)
            page.locator(ready).first.wait_for(timeout=60000)
            settle(page)  # the updates have landed, and the page script named the figures
            for v in axe.run(page).response["violations"]:
                if v["impact"] in ("serious", "critical") and v["id"] not in KNOWN:
                    found.append((view, v["id"], v["impact"],
                                  [n["target"] for n in v["nodes"]][:3]))
    finally:
        page.close()
    assert not found, found


def test_the_grid_labels_the_sentences_tokens_on_a_laptop(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url, **LAPTOP)
    try:
        grid = page.evaluate("() => { const m = window.AttentionExplorer?.grid?.state("
                             "document.querySelector('#grid canvas'));"
                             " return { n: m.n, geom: m.geom }; }")
        assert grid["n"] >= 15  # the default sentence
        # static/live_grid.js writes the tokens beside the panels (a left margin) only when
        # a row is at least 9 px tall: at 160 px panels it never was for this sentence
        assert grid["geom"]["left"] > 0 and grid["geom"]["size"] / grid["n"] >= 9, grid
    finally:
        page.close()
