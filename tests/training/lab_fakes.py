"""A stand-in Lab worker for the runner's tests: no training, just the events' rhythm.

``python -m tests.training.lab_fakes --cache DIR`` speaks the real worker's protocol
(explorer/training/lab_worker.py, its own loop); a job runs until cancelled or for
``settings["max_steps"]`` hundredths of a second (``settings["seconds"]``, when set and
shorter, cuts it there as the trainer's time cap does: ``timed_out``). It imports neither
torch nor the trainer, so with :func:`stand_in_runner` (no template process, which would
import torch too) a worker is ready in a fraction of a second. The tests about workers
themselves (tests/training/test_lab_workers.py) and one end-to-end run per file use real
ones."""

import time

from explorer.training.lab_worker import serve


def slow(channel, job, cache_dir, device):
    job_id = job["job"]
    channel.send({"job": job_id, "event": {"kind": "start", "step": 0}})
    s = job["settings"]
    cap = s.get("seconds") or 0
    timed_out = 0 < cap < s["max_steps"] / 100
    deadline = time.monotonic() + (cap if timed_out else s["max_steps"] / 100)
    while time.monotonic() < deadline and job_id not in channel.cancelled:
        time.sleep(0.01)  # the stand-in's "training": a wait, cut short by a cancel
    channel.send({"job": job_id, "event": {
        "kind": "done", "stopped": job_id in channel.cancelled or timed_out,
        "timed_out": timed_out, "wall_s": 0.1, "steps": 1,
        "formed": False, "formed_at_step": None, "best_induction": 0.0,
        "best_previous_token": 0.0}})


SLOW_WORKER = "tests.training.lab_fakes"


def stand_in_runner(cache_dir, **kw):
    """A LabRunner whose workers are this stand-in, started as plain subprocesses (no
    template: that one imports torch), one worker unless ``workers`` says otherwise."""
    from explorer.training.lab_runner import LabRunner

    return LabRunner(cache_dir, **{"workers": 1, "worker": SLOW_WORKER, "zygote": False, **kw})


if __name__ == "__main__":
    serve(slow, trainer=False)
