"""A class presses Train at once (issue 39, part 2's target): thirty sessions press Train
with the page's default settings within 5 s, all behind one address, through the real
LabRunner with a real worker; every one sees the finished run within 60 s of the first
press, because they share one training (the rest attach to it or replay it). The run is
the defaults with fewer steps, as the other runner tests keep runs short; the full run is
benchmarks/lab_class.py's."""

import dataclasses

from benchmarks.lab_class import page_defaults, simulate
from explorer.training.lab_runner import LabRunner


def test_thirty_students_pressing_train_share_one_run(tmp_path):
    settings = dataclasses.replace(page_defaults(), max_steps=150)
    runner = LabRunner(tmp_path / "lab")  # the pool this machine gives (1 on 2 cores)
    try:
        result = simulate(runner, settings, students=30, spread_s=5.0, timeout_s=90)
    finally:
        runner.close()
    assert result["finished"] == 30 and result["states"] == ["done"]
    assert result["last_seen_s"] <= 60, result
    assert result["trainings"] == 1 and result["same_result"]  # one training for all
    assert result["attached"] + result["replays"] == 30 and result["attached"] >= 2


def test_the_benchmark_reads_a_run_as_often_as_the_page_does():
    from benchmarks.lab_class import POLL_S
    from explorer.ui.lab_tab import UPDATE_S

    assert POLL_S == UPDATE_S
