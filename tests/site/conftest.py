"""The static edition built once per test session into a temporary folder, and a plain local
static server over it (what a teacher's USB stick or a static host does). Both are shared
by every module of tests/site: read the folder, never change it (a test that needs a
changed copy builds or copies its own, and serves it with ``serve``)."""

from __future__ import annotations

import functools
import os
import threading
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from explorer.site.build import build


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test's output stays readable
        pass


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    # AE_SITE_DIR: test a folder built already (a quicker loop while changing the page)
    if os.environ.get("AE_SITE_DIR"):
        return Path(os.environ["AE_SITE_DIR"])
    return build(tmp_path_factory.mktemp("site"))


@contextmanager
def serving(directory: Path):
    """A static server over ``directory`` on 127.0.0.1 (a secure context, as localhost is:
    the service worker registers there); yields its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(Quiet, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_url(site):
    with serving(site) as url:
        yield url


@pytest.fixture()
def serve():
    """serving() for a test's own folder (a second build beside the module's)."""
    return serving
