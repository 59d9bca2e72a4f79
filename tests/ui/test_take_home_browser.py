"""Take it home in a real Chromium (#17): a link's &tab= opens its view; the link made on
Take it home keeps the view the student came from and comes with a QR code; the saved
picture carries its caption."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

from explorer.views.share import parse_query
from tests.server import click_tab, settle
from tests.ui.test_extras_browser import WAIT, chromium, open_page  # noqa: F401  (chromium: fixture)

SELECTED = "() => (document.querySelector('#tabs button[role=tab].selected') || {}).textContent"


@pytest.fixture
def page(chromium, extras_url):  # noqa: F811  (chromium)
    context, page = open_page(chromium, extras_url,
                              query={"text": "The cat sat on the mat.", "tab": "layers"})
    yield page
    context.close()


def test_a_link_opens_its_view_and_take_it_home_links_back_to_it(page, extras_url):  # noqa: F811
    page.wait_for_function(f"() => ({SELECTED})() === 'Through the layers'", timeout=WAIT)
    click_tab(page, "Take it home")
    page.wait_for_function("() => (document.querySelector('#export-link textarea') || {})"
                           ".value?.includes('tab=')", timeout=WAIT)
    link = page.locator("#export-link textarea").input_value()
    query = parse_query(dict(parse_qsl(urlsplit(link).query)))
    assert query["tab"] == "layers" and query["text"] == "The cat sat on the mat."
    page.wait_for_selector("#export-qr img", timeout=WAIT)  # the QR code of that link
    # The head figure says what it shows, above its title.
    page.wait_for_function("() => [...document.querySelectorAll('#export-head .annotation')]"
                           ".some(a => a.textContent.includes('causal-h4-rotary') && "
                           "a.textContent.includes('The cat sat on the mat.'))", timeout=WAIT)
    # An unknown &tab= opens nothing and breaks nothing.
    page.goto(extras_url + "?tab=nothere")
    page.wait_for_function("() => !!window.AttentionExplorer?.grid?.state('#grid canvas')",
                           timeout=WAIT)
    settle(page)  # the load's updates have landed: a tab they would open is open
    assert page.evaluate(SELECTED) == "Explore"
    # A link made before the view was renamed (tab=export) opens Take it home.
    page.goto(extras_url + "?tab=export")
    page.wait_for_function(f"() => ({SELECTED})() === 'Take it home'", timeout=WAIT)


def test_take_it_home_offers_the_notebook_cell_and_the_view_as_html(page, chromium,  # noqa: F811
                                                                   tmp_path):
    # the link's &tab= opens its view first; then Take it home
    page.wait_for_function(f"() => ({SELECTED})() === 'Through the layers'", timeout=WAIT)
    click_tab(page, "Take it home")
    page.wait_for_function("() => (document.querySelector('#export-code textarea') || {})"
                           ".value?.includes(\"show('The cat sat on the mat.', heads=4\")",
                           timeout=WAIT)
    page.locator("#export-make-html").click()
    button = page.locator("#export-html")
    button.wait_for(state="visible", timeout=WAIT)
    with page.expect_download(timeout=WAIT) as download:
        button.click()
    path = tmp_path / "view.html"
    download.value.save_as(path)
    # The file draws on its own, every request but the file itself refused.
    context = chromium.new_context()
    offline = context.new_page()
    offline.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file://")
                  else r.abort())
    offline.goto(path.as_uri())
    state = "window.AttentionExplorer?.grid?.state('.ae-nb-grid canvas')"
    offline.wait_for_function(f"() => !!{state}", timeout=WAIT)
    grid = offline.evaluate(f"() => {state}")
    assert grid["ok"] and grid["heads"] == 4 and grid["tokens"][:2] == ["The", "␣cat"]
    context.close()
