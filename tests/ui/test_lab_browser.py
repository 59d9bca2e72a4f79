"""The Lab tab in a real Chromium (explorer/ui/lab_tab.py): press Train with a few steps and watch
the status, the curves, the grid of heads and the class's table change; Stop ends a long
run at once. The page is purpose-built (the sentence box, the knobs and the Lab) and its
runner keeps its cache in a folder of its own."""

from __future__ import annotations

import pytest

from tests.server import click_tab, serve, tabs_page

WAIT = 60000  # ms: a worker process starts (imports torch) on a busy 2-core box
STATUS = "() => document.querySelector('#lab-status').innerText"
GRID = "() => window.AttentionExplorer?.grid?.state('#lab-grid canvas') || {}"


@pytest.fixture(scope="module")
def lab_url(resources, tmp_path_factory):
    from explorer.ui import lab_tab
    from explorer.views.lab import LabRunner

    runner = LabRunner(tmp_path_factory.mktemp("lab-cache"), workers=1)
    original = lab_tab.build

    def build(demo, tab, tok, zoo, panel):
        original(demo, tab, tok, zoo, panel, runner=runner)

    module = type("LabTab", (), {"build": staticmethod(build)})
    try:
        with serve(tabs_page("lab", *resources, [("Lab", "lab", module)])) as url:
            yield url
    finally:
        runner.close()


@pytest.fixture(scope="module")
def page(browser, lab_url):  # noqa: F811
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(lab_url)
    click_tab(page, "Lab")
    yield page
    context.close()


def set_steps(page, n: int) -> None:
    box = page.locator("#lab-steps input[type=number]")
    box.fill(str(n))
    box.press("Enter")


def test_train_shows_the_run_as_it_trains_and_ends_in_the_class_table(page):
    set_steps(page, 40)
    page.locator("#lab-predict label", has_text="no").click()
    # the page holds the prediction before Train sends it (a loaded box is slow to)
    page.wait_for_function("() => document.querySelector('#lab-predict input:checked')"
                           "?.value === 'no'", timeout=WAIT)
    page.wait_for_timeout(300)
    page.click("#lab-train")
    page.wait_for_function(f"() => ({STATUS})().includes('Step ')", timeout=WAIT)
    page.wait_for_function(f"() => ({STATUS})().includes('Step 40 ')", timeout=WAIT)
    status = page.evaluate(STATUS)
    assert "Best induction head L" in status and "You predicted **no**" not in status
    assert "You predicted no" in status  # the prediction is answered in words
    page.wait_for_function("() => !!document.querySelector('#lab-chart .js-plotly-plot')",
                           timeout=WAIT)  # the curves
    # every head, on the page's canvas (static/live_grid.js mounted by static/lab.js)
    page.wait_for_function(f"() => ({GRID})().ok", timeout=WAIT)
    grid = page.evaluate(GRID)
    assert (grid["layers"], grid["heads"]) == (2, 2) and grid["n"] == len(grid["tokens"]) > 10
    assert "Step 40" in page.locator("#lab-grid .ae-grid-caption").inner_text()
    # the chart holds the run's points: 40 steps, at least a few updates
    n = page.evaluate("() => document.querySelector('#lab-chart .js-plotly-plot')"
                      ".data[0].x.length")
    assert n >= 3
    table = page.locator("#lab-table").inner_text()
    assert "2 × 2" in table and "learned" in table


def test_stop_ends_a_long_run_at_once(page):
    set_steps(page, 3000)
    page.locator("#lab-seed input").fill("7")
    page.click("#lab-train")
    page.wait_for_function(f"() => ({STATUS})().match(/Step [1-9]/)", timeout=WAIT)
    page.click("#lab-stop")
    # at once on a quiet box; 30 s for the full suite's load on a 2-core one
    page.wait_for_function(f"() => ({STATUS})().includes('Stopped')", timeout=30000)
