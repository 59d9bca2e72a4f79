"""Two tests at a time, and the few that must run alone (a pytest plugin, loaded by
tests/conftest.py).

The test command runs under pytest-xdist, one worker per core of the 2-core box
(``-n 2 --dist loadfile`` in pyproject.toml: a module's tests stay in one worker, so its
module fixtures are made once). Most tests leave a core idle while they wait on a page, a
server or a process, so two at a time roughly halve the wall time.

A test in :data:`SOLO` measures the machine itself: a load test (floods, many students at
once), memory over thousands of requests, or a bound in seconds. Two at a time would
measure the other worker too, so such a test runs alone: it takes an exclusive lock, every
other test the same lock shared (``fcntl.flock`` on one file per run, named by xdist's
``testrunuid``). A second lock, the gate, keeps the queue fair: a solo test that waits
holds the gate, so no new shared holder slips in ahead of it. Without xdist (one process)
nothing is locked.

Shape: SOLO is a set of node ids without parameters (``path::test``).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile

import pytest

SOLO = {
    # load tests: many clients against one server, and what a script can do to a class
    "tests/plumbing/test_queue_flood.py::test_a_class_of_30_is_answered_through_two_floods_"
    "with_no_503",
    "tests/ui/test_class_admission.py::test_a_class_behind_one_address_is_served_and_a_"
    "script_is_not",
    "tests/ui/test_isolation.py::test_concurrent_students_each_get_exactly_their_own_result",
    "tests/plumbing/test_sessions.py::test_a_client_in_a_loop_gets_busy_and_another_is_still_"
    "answered",
    # memory and sessions over thousands of requests
    "tests/ui/test_memory.py::test_memory_and_hooks_stay_flat_over_thousands_of_requests",
    "tests/plumbing/test_sessions.py::test_page_load_sessions_are_kept_lean",
    "tests/plumbing/test_sessions.py::test_fresh_session_keystrokes_keep_nothing",
    # the benchmarks, run once each (they time the machine)
    "tests/benchmarks/test_run_all_smoke.py::test_run_all_smoke_measures_every_row",
    # bounds in seconds: a long poll's wait, a cancelled run, a streamed run on a projector
    "tests/plumbing/test_class_route.py::test_a_lead_wakes_every_follower_at_once_with_the_"
    "state",
    "tests/plumbing/test_class_route.py::test_a_follow_times_out_with_its_version_and_a_lead_"
    "from_a_thread_wakes_it",
    "tests/training/test_lab_runner.py::test_the_line_is_fair_and_stop_cancels_at_once",
    "tests/ui/test_lab_smooth_browser.py::test_a_streaming_run_leaves_the_projector_page_"
    "free_and_done_shows_at_once",
}


def _lock_path(config) -> str | None:
    """The run's lock file under xdist (shared by its workers), None in one process."""
    worker = getattr(config, "workerinput", None)
    if worker is None:
        return None
    return os.path.join(tempfile.gettempdir(), f"ae-tests-{worker['testrunuid']}.lock")


@contextlib.contextmanager
def _turn(path: str, alone: bool):
    """Hold the run's lock: exclusive for a solo test, shared for the others."""
    with open(path + ".gate", "a") as gate, open(path, "a") as main:
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(main, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            if not alone:
                fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(main, fcntl.LOCK_UN)
            if alone:
                fcntl.flock(gate, fcntl.LOCK_UN)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    path = _lock_path(item.config)
    if path is None:
        return (yield)
    with _turn(path, item.nodeid.split("[")[0] in SOLO):
        return (yield)


def pytest_collection_modifyitems(config, items):
    """A SOLO entry whose module was collected but has no such test (renamed or gone) fails
    the run: it would silently stop running alone."""
    modules = {item.nodeid.split("::")[0]: getattr(item, "module", None) for item in items}
    stale = sorted(k for k in SOLO if k.split("::")[0] in modules
                   and not hasattr(modules[k.split("::")[0]], k.split("::")[-1]))
    if stale:
        raise pytest.UsageError("tests/parallel.py SOLO names tests that do not exist: "
                                + ", ".join(stale))
