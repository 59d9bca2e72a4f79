"""The page never ends on a stale view: a refused request is tried again (issue #29,
deliverable 2; the mechanism is static/live.js, step 5 of its header).

In a real Chromium, Playwright stands in for a busy server: it refuses the first requests
of a view (HTTP 429, as explorer/server/client_guard.py answers, or the grid's "busy, try again"
payload) and then lets them through. The sentence changes while the view is being
refused, and nothing changes after that: the view must still end on the LAST sentence,
with no keystroke to help it, and say meanwhile that it is trying again (and not show
one Gradio error toast per refusal).
"""

import json
import re

import pytest

from tests.server import GRID_DRAWN, click_tab

WAIT = 40000
GRID = "/gradio_api/component_server"
JOIN = "/gradio_api/queue/join"
REFUSED = {"status": 429, "content_type": "application/json", "headers": {"Retry-After": "1"},
           "body": json.dumps({"detail": "busy", "ok": False, "caption": "⚠️ busy"})}
BUSY_PAYLOAD = {"status": 200, "content_type": "application/json",
                "body": json.dumps({"ok": False, "retry": True, "caption": "busy"})}
# Every text the grid's caption and the loop's marker show, in order (set up per page).
RECORD = """() => {
  window.__seen = {caption: [], marker: []};
  const watch = (sel, key) => {
    const e = document.querySelector(sel);
    new MutationObserver(() => window.__seen[key].push(e.textContent)).observe(e,
      {childList: true, characterData: true, subtree: true});
  };
  watch('#grid .ae-grid-caption', 'caption');
  watch('#ae-live-status', 'marker');
}"""


def n_tokens(sentence: str) -> int:
    from explorer.app import CHECKPOINT_DIR
    from explorer.models.tokenizer import Tokenizer

    return len(Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json").token_pieces(sentence))


@pytest.fixture
def page(browser, app_url):  # noqa: F811
    """A fresh page (its own routes), the grid drawn, the sentence box empty and focused."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    # the server's path is what is tested: no weights, so the browser engine never answers
    page.route("**/*.safetensors", lambda route: route.fulfill(status=404, body="no"))
    page.goto(app_url)
    page.wait_for_function(GRID_DRAWN, timeout=WAIT)
    yield page
    context.close()


def refuse_first(page, pattern: str, n: int, answer: dict) -> list[str]:
    """Answer the first ``n`` POSTs whose URL contains ``pattern`` with ``answer``, let the
    rest through; the returned list grows by one entry per POST ("refused"/"passed")."""
    log = []

    def handle(route):
        if route.request.method != "POST":
            route.continue_()
        elif len(log) < n:
            log.append("refused")
            route.fulfill(**answer)
        else:
            log.append("passed")
            route.continue_()

    page.route(re.compile(re.escape(pattern)), handle)
    return log


def live_view(page, view: str) -> dict:
    return page.evaluate("(v) => window.AttentionExplorer.live.state().views[v]", view)


def type_in_box(page, first: str, then: str, view: str) -> None:
    """Replace the sentence with ``first``; once the loop is retrying ``view``, append
    ``then`` (a change during the backoff); then nothing more."""
    page.locator("#sentence textarea").click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(first)
    page.wait_for_function("(v) => window.AttentionExplorer.live.state().views[v].retries > 0",
                           arg=view, timeout=WAIT)
    page.keyboard.press("End")
    page.keyboard.insert_text(then)


def wait_grid_shows(page, sentence: str) -> None:
    n = n_tokens(sentence)
    page.wait_for_function(
        "(n) => { const g = window.AttentionExplorer?.grid?.state('#grid canvas');"
        " const c = document.querySelector('#grid .ae-grid-caption').textContent;"
        " return g && g.ok && g.n === n && new RegExp('\\\\b' + n + ' tokens?\\\\b').test(c); }",
        arg=n, timeout=WAIT)


def assert_said_retrying(page, title: str, grid: bool) -> None:
    seen = page.evaluate("() => window.__seen")
    assert any(f"trying {title} again" in t for t in seen["marker"]), seen["marker"]
    if grid:
        assert any("older sentence" in t and "Trying again" in t for t in seen["caption"]), \
            seen["caption"]
    page.wait_for_function("() => document.querySelector('#ae-live-status')"
                           ".getAttribute('aria-busy') === 'false'", timeout=WAIT)
    assert live_view(page, page.evaluate("() => window.AttentionExplorer.live.state().open"))[
        "failing"] == 0


def test_a_refused_grid_is_asked_again_until_it_shows_the_last_sentence(page):
    page.evaluate(RECORD)
    log = refuse_first(page, GRID, 3, REFUSED)
    type_in_box(page, "The cat sat", " on the mat.", "explore")
    wait_grid_shows(page, "The cat sat on the mat.")
    assert log[:3] == ["refused"] * 3 and log[-1] == "passed", log
    assert page.locator("#sentence textarea").input_value() == "The cat sat on the mat."
    assert_said_retrying(page, "Explore", grid=True)
    assert live_view(page, "explore")["retries"] >= 3


def test_a_busy_answer_is_asked_again_and_an_empty_box_is_an_answer(page):
    page.evaluate(RECORD)
    log = refuse_first(page, GRID, 2, BUSY_PAYLOAD)
    type_in_box(page, "A dog ran", " to the park.", "explore")
    wait_grid_shows(page, "A dog ran to the park.")
    assert log[:2] == ["refused"] * 2, log
    assert_said_retrying(page, "Explore", grid=True)
    # {ok: false} without "retry" (nothing typed) is the server's answer: drawn, not retried
    retries = live_view(page, "explore")["retries"]
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.wait_for_function("() => /Type a sentence above/.test(document.querySelector("
                           "'#grid .ae-grid-caption').textContent)", timeout=WAIT)
    assert live_view(page, "explore")["retries"] == retries


def wait_status_counts(page, status: str, n: int) -> None:
    """Until the view's status line says the sentence has ``n`` tokens."""
    page.wait_for_function(
        "([sel, n]) => new RegExp('\\\\b' + n + ' tokens?\\\\b').test("
        "document.querySelector(sel).textContent)", arg=[status, n], timeout=WAIT)


def test_a_refused_queue_event_of_another_view_is_asked_again(page):
    # WAIT (40 s) is shorter than the loop's 60 s timeout: the refusal must be seen at the
    # POST that joins Gradio's queue, not waited out.
    click_tab(page, "Shapes")
    page.wait_for_function("() => /\\btokens?\\b/.test(document.querySelector("
                           "'#shapes-status').textContent)", timeout=WAIT)
    page.evaluate(RECORD)
    log = refuse_first(page, JOIN, 2, REFUSED)
    sentence = "Tom saw a red kite."
    type_in_box(page, "Tom saw", " a red kite.", "shapes")
    wait_status_counts(page, '#shapes-status', n_tokens(sentence))
    assert log[:2] == ["refused"] * 2 and log[-1] == "passed", log
    assert_said_retrying(page, "Shapes", grid=False)
    assert live_view(page, "shapes")["retries"] >= 2
    # the marker says it; Gradio's error toast (one per refusal) does not pile up as well
    assert page.locator("[data-testid='toast-body']").count() == 0


def test_a_refused_settle_is_asked_again(page):
    # Explore's grid comes at once; its status line and other figures are its settle event,
    # a Gradio event once typing pauses: refused twice, it must still follow.
    page.evaluate(RECORD)
    log = refuse_first(page, JOIN, 2, REFUSED)
    type_in_box(page, "Mia had", " a red ball.", "explore")
    sentence = "Mia had a red ball."
    wait_grid_shows(page, sentence)
    wait_status_counts(page, '#status', n_tokens(sentence))
    assert log[:2] == ["refused"] * 2 and log[-1] == "passed", log
    assert_said_retrying(page, "Explore", grid=False)
