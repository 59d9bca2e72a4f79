"""The Lab's runner (explorer/training/lab_runner.py): a run trained in a worker process
reports its events, lands in the class's table and the cache, and is replayed from the
cache equal to the original; identical settings share one training; the line is fair and
bounded (per session, per address, in all); a run nobody watches, or one past its wall
time, stops; Stop cancels at once. Stand-in workers (tests/training/lab_fakes.py) where
the rhythm matters, a real one where the training does."""

import time

import pytest

from explorer.models.checkpoint import load_model
from explorer.training.lab import LabSettings
from explorer.training.lab_runner import LabRunner, run_key
from tests.training.lab_fakes import stand_in_runner

LONG = LabSettings(max_steps=3000)  # 30 s in the stand-in worker unless stopped


def wait_for(runner, run_id, states=("done", "stopped", "failed"), timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = runner.view(run_id)
        if view["state"] in states:
            return view
        time.sleep(0.05)
    raise AssertionError(f"run {run_id} still {runner.view(run_id)['state']}")


@pytest.fixture
def slow(tmp_path):
    made = []

    def make(**kw):
        runner = stand_in_runner(tmp_path / f"c{len(made)}", **kw)  # no torch: quick
        made.append(runner)
        return runner

    yield make
    for runner in made:
        runner.close()


def test_the_cache_key_is_the_settings_and_seed():
    a = LabSettings(max_steps=5)
    assert run_key(a) == run_key(LabSettings(max_steps=5))
    assert run_key(a) != run_key(LabSettings(max_steps=5, seed=1))
    assert run_key(a) != run_key(LabSettings(max_steps=5, layers=1))


def test_a_run_trains_in_a_worker_and_a_second_ask_replays_it(tmp_path):
    runner = LabRunner(tmp_path / "cache", workers=1)
    try:
        assert (tmp_path / "cache").stat().st_mode & 0o777 == 0o700  # private
        settings = LabSettings(max_steps=8, batch=8, update_s=0.0)
        first = wait_for(runner, runner.ask("student-a", settings))
        assert first["state"] == "done" and not first["from_cache"]
        assert first["summary"]["steps"] == 8 and len(first["events"]) >= 8
        assert len(first["last"]["probe"]) == 2  # the grid's patterns, [layer][head][q][k]
        assert runner.table()[-1]["steps"] == 8 and runner.table()[-1]["layers"] == 2
        path = runner.model_path(first["id"])
        assert path is not None and load_model(path).config == settings.config()
        assert (path.parent / "manifest.json").exists()
        again = runner.view(runner.ask("student-b", settings))  # at once: no training
        assert again["state"] == "done" and again["from_cache"]
        for key in ("events", "last", "summary"):
            assert again[key] == first[key], key
    finally:
        runner.close()


def wait_running(runner, run_id):
    return wait_for(runner, run_id, states=("running",), timeout=30)


def test_the_line_is_fair_and_stop_cancels_at_once(slow):
    runner = slow()
    a = runner.ask("a", LONG)
    wait_running(runner, a)
    b, c = runner.ask("b", LabSettings(max_steps=3000, seed=1)), runner.ask(
        "c", LabSettings(max_steps=3000, seed=2))
    assert (runner.view(b)["place"], runner.view(c)["place"]) == (1, 2)
    assert "wait_s" not in runner.view(c)  # the page shows the place only (issue 42)
    b2 = runner.ask("b", LabSettings(max_steps=3000, seed=3))  # b asks again
    assert runner.view(b)["state"] == "stopped"
    assert (runner.view(c)["place"], runner.view(b2)["place"]) == (1, 2)
    t0 = time.monotonic()
    assert runner.stop("a")
    assert wait_for(runner, a, timeout=10)["state"] == "stopped"
    assert time.monotonic() - t0 < 5  # cancelled, not run out
    wait_running(runner, c)  # the oldest waiting next
    assert runner.view(b2)["place"] == 1
    assert not runner.stop("nobody")


def test_identical_settings_share_one_training(slow):
    runner = slow()
    a = runner.ask("a", LabSettings(max_steps=300))
    wait_running(runner, a)
    deadline = time.monotonic() + 30
    while not runner.view(a)["events"] and time.monotonic() < deadline:  # the worker began
        time.sleep(0.05)
    b = runner.ask("b", LabSettings(max_steps=300))  # attaches: no place in line
    view = runner.view(b)
    assert view["state"] == "running" and view["place"] is None and view["watchers"] == 2
    assert view["events"] == runner.view(a)["events"] != []  # replayed from the start
    other = runner.ask("c", LabSettings(max_steps=300, seed=5))
    assert runner.view(other)["place"] == 1  # only a new training waits
    assert runner.stop("a")  # one leaves: the training goes on for b
    assert runner.view(a)["state"] == "stopped"
    done = wait_for(runner, b, timeout=30)
    assert done["state"] == "done" and done["summary"]["steps"] == 1


def test_pressing_the_same_run_again_keeps_it_going(slow):
    runner = slow()
    a = runner.ask("a", LONG)
    wait_running(runner, a)
    again = runner.ask("a", LONG)  # a double click: not restarted
    assert runner.view(a)["state"] == "stopped"  # the first press left...
    view = runner.view(again)
    assert view["state"] == "running" and view["watchers"] == 1  # ...for the second
    assert [t["cancelled"] for t in runner.active()] == [False]


def test_a_training_nobody_watches_is_cancelled(slow):
    runner = slow()
    a = runner.ask("a", LONG)
    b = runner.ask("b", LONG)
    wait_running(runner, a)
    runner.leave("a", a)
    assert runner.view(b)["state"] == "running"
    assert not runner.leave("b", a)  # another press's id: b's stays
    assert runner.leave("b", b)
    assert wait_for(runner, a, timeout=10)["state"] == "stopped"
    assert runner.view(b)["state"] == "stopped"


def test_a_page_that_stops_looking_leaves(slow):
    runner = slow(watch_timeout_s=1.5)
    a = runner.ask("a", LONG)
    wait_running(runner, a)
    deadline = time.monotonic() + 30  # nobody calls view(): the runner's watch stops it
    while not all(t["cancelled"] for t in runner.active()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert runner.view(a)["state"] == "stopped"


def test_a_run_s_wall_time_is_capped(slow):
    runner = slow(wall_cap_s=2.0)
    a = runner.ask("a", LONG)
    view = wait_for(runner, a, timeout=20)
    assert view["state"] == "stopped" and "not a result" in view["message"]


def test_a_run_cut_by_its_time_cap_says_so_and_is_never_a_result(slow):
    """A training is bounded by its steps; one cut short by a time cap (the command line's
    --seconds) says so, is not in the class's table and is not replayed from the cache."""
    runner = slow()
    capped = LabSettings(max_steps=3000, seconds=0.3)
    view = wait_for(runner, runner.ask("a", capped), timeout=20)
    assert view["state"] == "stopped"
    assert view["message"].startswith("⏹️ **This run was stopped at its time cap**")
    assert "not a result" in view["message"] and runner.table() == []
    again = runner.ask("b", capped)
    assert not runner.view(again)["from_cache"]  # trained afresh, not replayed
    runner.stop("b")


def test_the_line_is_bounded_in_all_and_per_address(slow):
    runner = slow(max_line=3, per_address=2)
    first = runner.ask("s0", LONG, address="10.0.0.1")
    wait_running(runner, first)
    ids = [runner.ask(f"s{i}", LabSettings(max_steps=3000, seed=i), address="10.0.0.1")
           for i in (1, 2, 3)]
    views = [runner.view(i) for i in ids]
    assert [v["state"] for v in views] == ["waiting", "waiting", "refused"]
    assert "Your network already has 2 runs waiting" in views[2]["message"]
    same = runner.view(runner.ask("s9", LabSettings(max_steps=3000, seed=1),
                                  address="10.0.0.1"))
    assert same["state"] == "waiting" and same["place"] == 1  # attaching is never refused
    other = runner.ask("t1", LabSettings(max_steps=3000, seed=7), address="10.0.0.2")
    assert runner.view(other)["place"] == 3
    full = runner.view(runner.ask("t2", LabSettings(max_steps=3000, seed=8),
                                  address="10.0.0.3"))
    assert full["state"] == "refused" and "line is full" in full["message"]
    assert runner.view(runner.ask("t2", LONG, address="10.0.0.3"))["state"] == "running"


def test_settings_the_lab_does_not_offer_never_reach_a_worker():
    with pytest.raises(ValueError):
        LabSettings(layers=7)
