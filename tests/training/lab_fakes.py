"""A stand-in Lab worker for the runner's tests: no training, just the events' rhythm.

``python -m tests.training.lab_fakes --cache DIR`` speaks the real worker's protocol
(explorer/training/lab_worker.py, its own loop); a job runs until cancelled or for
``settings["max_steps"]`` hundredths of a second."""

import time

from explorer.training.lab_worker import serve


def slow(channel, job, cache_dir, device):
    job_id = job["job"]
    channel.send({"job": job_id, "event": {"kind": "start", "step": 0}})
    deadline = time.monotonic() + job["settings"]["max_steps"] / 100
    while time.monotonic() < deadline and job_id not in channel.cancelled:
        time.sleep(0.01)
    channel.send({"job": job_id, "event": {
        "kind": "done", "stopped": job_id in channel.cancelled, "wall_s": 0.1, "steps": 1,
        "formed": False, "formed_at_step": None, "best_induction": 0.0,
        "best_previous_token": 0.0}})


SLOW_WORKER = "tests.training.lab_fakes"

if __name__ == "__main__":
    serve(slow)
