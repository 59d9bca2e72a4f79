"""The Lab for a class in a real Chromium (explorer/ui/lab_tab.py, explorer/training/lab_runner.py):
two pages that press Train with the same settings watch one training (the second is told
so); when one page closes the training goes on for the other; when the last closes, the
training is cancelled (nobody watches it any more)."""

from __future__ import annotations

import time

import pytest

from tests.server import click_tab, serve, tabs_page

WAIT = 60000  # ms: a worker process starts (imports torch) on a busy 2-core box
STATUS = "() => document.querySelector('#lab-status').innerText"


@pytest.fixture(scope="module")
def lab(resources, tmp_path_factory):
    from explorer.ui import lab_tab
    from explorer.views.lab import LabRunner

    runner = LabRunner(tmp_path_factory.mktemp("lab-cache"), workers=1)
    original = lab_tab.build

    def build(demo, tab, tok, zoo, panel):
        original(demo, tab, tok, zoo, panel, runner=runner)

    module = type("LabTab", (), {"build": staticmethod(build)})
    try:
        with serve(tabs_page("lab", *resources, [("Lab", "lab", module)])) as url:
            yield url, runner
    finally:
        runner.close()


def open_and_train(browser, url):  # noqa: F811
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(url)
    click_tab(page, "Lab")
    box = page.locator("#lab-steps input[type=number]")
    box.fill("3000")
    box.press("Enter")
    page.locator("#lab-seed input").fill("11")
    page.click("#lab-train")
    return context, page


def wait_until(check, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False


def test_two_pages_share_a_training_that_stops_when_both_have_gone(browser, lab):  # noqa: F811
    url, runner = lab
    first, page_a = open_and_train(browser, url)
    page_a.wait_for_function(f"() => ({STATUS})().match(/Step [1-9]/)", timeout=WAIT)
    second, page_b = open_and_train(browser, url)
    page_b.wait_for_function(f"() => ({STATUS})().includes('1 other student asked for "
                             "this same run')", timeout=WAIT)
    assert [t["watchers"] for t in runner.active()] == [2]  # one training for both
    first.close()
    # within 10 s: the page's leaving, not the runner's 20 s "nobody looked" timeout
    assert wait_until(lambda: [t["watchers"] for t in runner.active()] == [1], 10)
    page_b.wait_for_function(f"() => ({STATUS})().match(/Step [1-9][0-9]/)", timeout=WAIT)
    second.close()  # nobody watches: cancelled (the page's stream ends, or its unload)
    assert wait_until(lambda: runner.active() == [], 10), runner.active()
