"""explorer/app.py raise_open_file_limit: the server asks for room for a class's
connections at start (a soft limit of 1,024 would stop it accepting anyone after ~1,000)."""

from __future__ import annotations

import pytest

from explorer.app import raise_open_file_limit

resource = pytest.importorskip("resource")


def test_the_soft_open_file_limit_is_raised_up_to_the_hard_one():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = 256 if hard == resource.RLIM_INFINITY else min(256, hard)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))
        want = 4096 if hard == resource.RLIM_INFINITY else min(4096, hard)
        assert raise_open_file_limit(4096) == want
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (want, hard)
        assert raise_open_file_limit(512) == want  # never lowered
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
