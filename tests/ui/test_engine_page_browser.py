"""The Gradio page computes the keystroke grid in the browser (issue 38 item 2), in a real
Chromium against the real app: once the engine holds the default model, typing draws grids
with no grid_data POST, the line under the caption says "your browser", and what is drawn
equals the server's grid_payload for the same text and knobs. With the weights refused (404)
the server answers as before and the line says "server"."""

import base64
import json

import numpy as np
import pytest

from explorer.views.controls import parse_controls
from explorer.views.grid_payload import grid_payload
from tests.server import GRID_DRAWN

WAIT = 60000
DEFAULT = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0, "light"]
WHERE = "#grid .ae-grid-where"
READY = "() => !!window.AttentionExplorer?.engine?.loaded('causal-h4-rotary')"


def open_page(browser, app_url, refuse_weights: bool):  # noqa: F811
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    if refuse_weights:
        page.route("**/*.safetensors", lambda route: route.fulfill(status=404, body="no"))
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST"
            and "grid_data" in (r.post_data or "") + r.url else None)
    page.goto(app_url)
    page.wait_for_function(GRID_DRAWN, timeout=WAIT)
    return context, page, posts


def type_and_wait(page, text: str) -> dict:
    box = page.locator("#sentence textarea")
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type(text, delay=30)
    state = "() => { const g = window.AttentionExplorer?.grid?.state('#grid canvas');" \
        " return [g && g.tokens, document.querySelector('#sentence textarea').value]; }"
    try:
        page.wait_for_function(
            "(t) => { const g = window.AttentionExplorer?.grid?.state('#grid canvas');"
            " return g && g.ok && JSON.stringify(g.tokens) === t; }",
            arg=json.dumps(server_payload(text)["tokens"], ensure_ascii=False,
                           separators=(",", ":")), timeout=WAIT)
    except Exception as exc:
        raise AssertionError(page.evaluate(state)) from exc
    return page.evaluate("""() => { const g = window.AttentionExplorer?.grid?.state('#grid canvas');
        return {n: g.n, layers: g.layers, heads: g.heads, tokens: g.tokens,
                cells: Array.from(g.cells),
                guesses: document.querySelector('#grid .ae-grid-guesses').textContent,
                caption: document.querySelector('#grid .ae-grid-caption').textContent}; }""")


def server_payload(text: str) -> dict:
    tok, zoo = server_payload.r  # the session's (tokenizer, zoo): _resources below
    return grid_payload(zoo, tok, text, parse_controls(*DEFAULT))


@pytest.fixture(scope="module", autouse=True)
def _resources(resources):
    server_payload.r = resources


@pytest.fixture(scope="module")
def engine_page(browser, app_url):  # noqa: F811
    context, page, posts = open_page(browser, app_url, refuse_weights=False)
    page.wait_for_function(READY, timeout=WAIT)  # loaded at idle time, no keystroke needed
    yield page, posts
    context.close()


def test_typing_is_computed_in_the_browser_with_no_grid_request(engine_page):
    page, posts = engine_page
    before = len(posts)
    text = "The little dog ran to the park. It"
    got = type_and_wait(page, text)
    assert len(posts) == before, posts[before:]
    assert "your browser" in page.locator(WHERE).inner_text()
    want = server_payload(text)
    assert got["tokens"] == want["tokens"]
    assert got["caption"].startswith(want["caption"]) or got["caption"] == want["caption"]
    z = np.frombuffer(base64.b64decode(want["z"]), dtype=np.uint8).astype(int)
    diff = np.abs(np.array(got["cells"]) - z)
    assert diff.max() <= 1 and (diff > 0).mean() < 0.01
    for label, _p in want["guesses"]:
        assert label in got["guesses"]


def test_without_the_weights_the_server_answers(browser, app_url):  # noqa: F811
    context, page, posts = open_page(browser, app_url, refuse_weights=True)
    try:
        before = len(posts)
        got = type_and_wait(page, "Once upon a time")
        assert len(posts) > before
        assert "server" in page.locator(WHERE).inner_text()
        assert got["tokens"] == server_payload("Once upon a time")["tokens"]
    finally:
        context.close()
