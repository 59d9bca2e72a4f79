"""A stand-in Lab worker for the runner's tests: no training, just the events' rhythm.
A job runs until cancelled or for ``settings.max_steps`` hundredths of a second."""

import time


def slow_worker(jobs, events, cancel, cache_dir, device="cpu"):
    while True:
        job = jobs.get()
        if job is None:
            return
        run_id, settings, _key = job
        events.put((run_id, {"kind": "start", "step": 0}))
        deadline = time.monotonic() + settings.max_steps / 100
        while time.monotonic() < deadline and not cancel.is_set():
            time.sleep(0.01)
        events.put((run_id, {"kind": "done", "stopped": cancel.is_set(), "wall_s": 0.1,
                             "steps": 1, "formed": False, "formed_at_step": None,
                             "best_induction": 0.0, "best_previous_token": 0.0}))
