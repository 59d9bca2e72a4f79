"""Fixtures for the browser engine's tests (static/engine/*.js, issue 38).

``repo_http``: a plain local HTTP server over the repository root, as the contract says tests
serve the engine (``/static/build/engine.js``, ``/checkpoints/tokenizer.json``,
``/checkpoints/<model>.safetensors``). Besides the repository's files it answers
``/blank.html`` with an empty page, so a test page has that origin (fetch of relative URLs,
no file:// restrictions).

``engine_page``: a real Chromium page at that origin with the engine's one bundle loaded
(static/build/engine.js, ``npm run build``: its entry static/engine/index.js says what it adds
to ``window.AttentionExplorer``); a bundle that throws while loading fails the test.
"""

import functools
import http.server
import threading
from pathlib import Path

import pytest

from tests.server import free_port

ROOT = Path(__file__).resolve().parents[2]
ENGINE_BUNDLE = "/static/build/engine.js"
BLANK = b"<!doctype html><html><head><meta charset='utf-8'><title>engine</title></head>" \
        b"<body></body></html>"


class _Handler(http.server.SimpleHTTPRequestHandler):
    """The repository's files, plus an empty page at /blank.html; quiet."""

    def do_GET(self):  # noqa: N802  (http.server's name)
        if self.path.split("?")[0] == "/blank.html":
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(BLANK)))
            self.end_headers()
            self.wfile.write(BLANK)
            return
        super().do_GET()

    def log_message(self, format, *args):  # noqa: A002  (the base class's signature)
        pass


@pytest.fixture(scope="session")
def repo_http():
    """Base URL (no trailing slash) of an HTTP server over the repository root."""
    port = free_port()
    handler = functools.partial(_Handler, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()
    server.server_close()


def load_engine(page, repo_http: str) -> None:
    """The engine's bundle into ``page`` (at ``repo_http``'s origin), waited for."""
    page.add_script_tag(url=repo_http + ENGINE_BUNDLE)
    page.wait_for_function("() => !!window.AttentionExplorer?.engineReady")


@pytest.fixture(scope="module")
def engine_page(browser, repo_http):  # noqa: F811
    """A Chromium page at ``repo_http``'s origin with the engine's scripts loaded."""
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{repo_http}/blank.html")
    load_engine(page, repo_http)
    if errors:
        pytest.fail(f"static/build/engine.js threw while loading: {errors}")
    yield page
    context.close()


@pytest.fixture(scope="module")
def zoo_page(engine_page, repo_http):
    """:func:`engine_page` with the engine reading the zoo's models from ``checkpoints/``."""
    engine_page.evaluate("(base) => AttentionExplorer.engine.configure({base})",
                         f"{repo_http}/checkpoints/")
    return engine_page
