"""The Lab's runner (explorer/training/lab_runner.py): a run trained in a worker process
reports its events, lands in the class's table and the cache, and is replayed from the
cache equal to the original; the fair line (one place per session, order of asking,
places and estimates) and Stop, with stand-in workers."""

import time

import pytest

from explorer.models.checkpoint import load_model
from explorer.training.lab import LabSettings
from explorer.training.lab_runner import LabRunner, run_key
from tests.training.lab_fakes import slow_worker


def wait_for(runner, run_id, states=("done", "stopped", "failed"), timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = runner.view(run_id)
        if view["state"] in states:
            return view
        time.sleep(0.05)
    raise AssertionError(f"run {run_id} still {runner.view(run_id)['state']}")


def test_the_cache_key_is_the_settings_and_seed():
    a = LabSettings(max_steps=5)
    assert run_key(a) == run_key(LabSettings(max_steps=5))
    assert run_key(a) != run_key(LabSettings(max_steps=5, seed=1))
    assert run_key(a) != run_key(LabSettings(max_steps=5, layers=1))


def test_a_run_trains_in_a_worker_and_a_second_ask_replays_it(tmp_path):
    runner = LabRunner(tmp_path, workers=1)
    try:
        settings = LabSettings(max_steps=8, batch=8, update_s=0.0)
        first = wait_for(runner, runner.ask("student-a", settings))
        assert first["state"] == "done" and not first["from_cache"]
        assert first["summary"]["steps"] == 8 and len(first["events"]) >= 8
        assert len(first["last"]["probe"]) == 2  # the grid's patterns, [layer][head][q][k]
        assert runner.table()[-1]["steps"] == 8 and runner.table()[-1]["layers"] == 2
        path = runner.model_path(first["id"])
        assert path is not None and load_model(path).config == settings.config()
        again = runner.view(runner.ask("student-b", settings))  # at once: no training
        assert again["state"] == "done" and again["from_cache"]
        for key in ("events", "last", "summary"):
            assert again[key] == first[key], key
    finally:
        runner.close()


def test_the_line_is_fair_and_stop_cancels_at_once(tmp_path):
    runner = LabRunner(tmp_path, workers=1, worker=slow_worker)
    long = LabSettings(max_steps=3000)  # 30 s unless stopped
    try:
        a = runner.ask("a", long)
        deadline = time.monotonic() + 30
        while runner.view(a)["state"] != "running" and time.monotonic() < deadline:
            time.sleep(0.05)
        b, c = runner.ask("b", long), runner.ask("c", long)
        assert (runner.view(b)["place"], runner.view(c)["place"]) == (1, 2)
        assert runner.view(c)["wait_s"] > runner.view(b)["wait_s"] > 0
        b2 = runner.ask("b", LabSettings(max_steps=3000, seed=1))  # b asks again
        assert runner.view(b)["state"] == "stopped"
        assert (runner.view(c)["place"], runner.view(b2)["place"]) == (1, 2)
        t0 = time.monotonic()
        assert runner.stop("a")
        assert wait_for(runner, a, timeout=10)["state"] == "stopped"
        assert time.monotonic() - t0 < 5  # cancelled, not run out
        wait_for(runner, c, states=("running",), timeout=10)  # the oldest waiting next
        assert runner.view(b2)["place"] == 1
        assert not runner.stop("nobody")
    finally:
        runner.close()


def test_settings_the_lab_does_not_offer_never_reach_a_worker():
    with pytest.raises(ValueError):
        LabSettings(layers=7)
