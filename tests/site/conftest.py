"""The static edition built once per test module into a temporary folder, and a plain local
static server over it (what a teacher's USB stick or a static host does)."""

from __future__ import annotations

import functools
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from explorer.site.build import build


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test's output stays readable
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    # AE_SITE_DIR: test a folder built already (a quicker loop while changing the page)
    if os.environ.get("AE_SITE_DIR"):
        return Path(os.environ["AE_SITE_DIR"])
    return build(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def site_url(site):
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
