"""The Lab, together (explorer/views/class_lab.py with LabRunner.curves): a class's runs
become one curve per set of settings with how many students ran it; "formed" is the step
the run reported (the Lab's own bar), never recomputed; curves are bounded. One test trains
real runs in a real worker; the others are hand-made curves."""

from __future__ import annotations

import time

from explorer.training.lab import FORMED, LabSettings
from explorer.training.lab_runner import LabRunner, run_key
from explorer.views.class_lab import class_lab, label
from explorer.views.class_state import Classrooms, record_run


def wait_done(runner, run_ids, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(runner.view(r)["state"] == "done" for r in run_ids):
            return
        time.sleep(0.1)
    raise AssertionError([runner.view(r)["state"] for r in run_ids])


def test_a_classes_real_runs_are_one_curve_per_settings_with_a_count(tmp_path):
    rooms = Classrooms()
    code, teacher = rooms.open()
    students = [rooms.join(code) for _ in range(3)]
    same, other = (LabSettings(max_steps=8, batch=8, update_s=0.0),
                   LabSettings(max_steps=8, batch=8, update_s=0.0, seed=1))
    runner = LabRunner(tmp_path / "cache", workers=1)
    try:
        runs = [runner.ask(f"s{i}", s) for i, s in enumerate((same, same, other))]
        for student, run in zip(students, runs, strict=True):
            assert record_run(rooms, f"{code} {student}", run)
        wait_done(runner, runs)
        assert runner.view(runs[0])["watchers"] == 2  # the same settings: one training
        stranger = runner.ask("not-in-the-class", LabSettings(max_steps=8, batch=8, seed=2,
                                                               update_s=0.0))
        chart = class_lab(runner.curves(rooms.runs(code, teacher)))
        assert chart["threshold"] == FORMED and chart["students"] == 3
        assert [r["students"] for r in chart["runs"]] == [2, 1]  # identical settings: once
        assert [r["label"] for r in chart["runs"]] == [label(same), label(other)]
        for run, settings in zip(chart["runs"], (same, other), strict=True):
            summary = runner.view(runs[0] if settings is same else runs[2])["summary"]
            assert run["state"] == "done" and run["steps"] == 8
            steps = [p[0] for p in run["points"]]
            assert steps == sorted(steps) and steps[0] == 0 and steps[-1] == 8
            assert all(0 <= p[1] <= 1 for p in run["points"])
            assert run["formed_at_step"] == summary["formed_at_step"]  # the run's own word
        assert runner.curves([stranger])[0]["key"] == run_key(LabSettings(
            max_steps=8, batch=8, seed=2, update_s=0.0))  # (not in the class's chart)
        few = runner.curves(runs[:1], points=3)[0]["points"]
        assert len(few) <= 4 and few[-1][0] == 8  # thinned, the run's end kept
    finally:
        runner.close()


def curve(key, state, points, formed=None, seed=0):
    return {"key": key, "settings": LabSettings(seed=seed, max_steps=500), "state": state,
            "points": points, "formed_at_step": formed}


def test_formed_is_the_runs_own_step_and_a_group_is_as_live_as_its_liveliest_press():
    points = [(0, 0.05), (100, 0.2), (200, 0.45), (300, 0.6)]
    chart = class_lab([curve("a", "stopped", points, formed=205),  # one student left...
                       curve("a", "running", points, formed=205),  # ...another watches
                       curve("b", "done", [(0, 0.05), (500, 0.1)], seed=1)])
    a, b = chart["runs"]
    assert a["formed_at_step"] == 205 and a["state"] == "running" and a["students"] == 2
    assert b["formed_at_step"] is None and b["state"] == "done" and b["students"] == 1
    assert a["points"] == [[0, 0.05], [100, 0.2], [200, 0.45], [300, 0.6]]
    assert class_lab([]) == {"threshold": FORMED, "students": 0, "runs": []}
