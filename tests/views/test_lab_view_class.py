"""What a student reads when the Lab is shared by a class (explorer/views/lab.py with
explorer/training/lab_runner.py's messages): a refused press says why and ends; a run
whose worker died says so; a shared run says how many watch it; a run stopped at the
time limit says that, not just "Stopped"."""

from explorer.training.lab_runner import ADDRESS_FULL, LINE_FULL, WALL_STOP, WORKER_DIED
from explorer.views.lab import lab_view
from tests.views.test_lab_view import point, view


def test_a_refused_press_says_why_and_ends():
    for message in (LINE_FULL.format(n=16), ADDRESS_FULL.format(n=8)):
        shown = lab_view({**view("refused"), "message": message, "watchers": 0})
        assert shown.final and shown.status == message and "try again" in shown.status


def test_a_dead_worker_is_told_to_its_watchers():
    shown = lab_view({**view("failed", events=[point(10)]), "message": WORKER_DIED})
    assert shown.final and "worker" in shown.status and "Train" in shown.status


def test_a_shared_run_says_who_watches_it():
    waiting = lab_view({**view("waiting", place=2), "watchers": 3})
    assert "place in line: 2" in waiting.status
    assert "2 other students asked for this same run" in waiting.status
    running = lab_view({**view("running", events=[point(10)]), "watchers": 2})
    assert "1 other student asked for this same run" in running.status
    alone = lab_view({**view("running", events=[point(10)]), "watchers": 1})
    assert "other student" not in alone.status


def test_a_run_stopped_at_the_time_limit_says_so():
    summary = {"stopped": True, "formed": False, "steps": 10}
    shown = lab_view({**view("stopped", events=[point(10)], summary=summary),
                      "message": WALL_STOP.format(s=120)})
    assert shown.final and shown.status.startswith(WALL_STOP.format(s=120))
