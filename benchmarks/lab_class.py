"""A whole class presses Train in the Lab with the defaults: ``python -m benchmarks.lab_class``.

``--students`` sessions (30) press Train with the page's default settings, spread over
``--spread`` seconds (5), all behind one address, through the app's
:class:`~explorer.training.lab_runner.LabRunner` with real workers and real training; each
session then reads its run once a second as the page does. It prints when the last student
saw the finished run (seconds after the first press), how many trainings ran (sharing
makes it one), how many presses attached to it and how many were replays, the training's
own wall time, each worker's resident memory (after import and after the run) and the
load average. ``simulate`` is also the test's (tests/training/test_lab_class.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from explorer.training.lab import LabSettings  # noqa: E402
from explorer.training.lab_runner import LabRunner  # noqa: E402
from explorer.training.lab_worker import memory_kb  # noqa: E402
from explorer.views.lab import LAB_CHOICES, read_settings  # noqa: E402

POLL_S = 1.0  # the page reads its run this often (explorer/ui/lab_tab.py UPDATE_S; a test checks)


def page_defaults() -> LabSettings:
    """The settings the Lab tab shows before anyone touches it (explorer/ui/lab_tab.py)."""
    return read_settings(2, 2, "learned", False, False, "0.003", 0, 1000)


def simulate(runner: LabRunner, settings: LabSettings, students: int = 30,
             spread_s: float = 5.0, timeout_s: float = 120.0) -> dict:
    """``students`` sessions press Train over ``spread_s`` seconds and watch to the end."""
    press_at = [spread_s * i / max(1, students - 1) for i in range(students)]
    runs: dict[int, int] = {}  # student -> run id
    seen: dict[int, float] = {}  # student -> when it saw its run finished
    views: dict[int, dict] = {}
    t0 = time.monotonic()
    while len(seen) < students and time.monotonic() - t0 < timeout_s:
        now = time.monotonic() - t0
        for i, at in enumerate(press_at):
            if i not in runs and now >= at:
                runs[i] = runner.ask(f"student-{i}", settings, address="10.0.0.1")
            if i in runs and i not in seen:
                view = runner.view(runs[i])
                if view["state"] in ("done", "stopped", "failed", "refused"):
                    seen[i], views[i] = time.monotonic() - t0, view
        time.sleep(POLL_S / 4)
    states = sorted({v["state"] for v in views.values()})
    summaries = {str(v["summary"]) for v in views.values()}
    return {"students": students, "finished": len(seen), "states": states,
            "last_seen_s": round(max(seen.values(), default=float("nan")), 1),
            "first_seen_s": round(min(seen.values(), default=float("nan")), 1),
            "trainings": len(runner.table()),
            "replays": sum(v["from_cache"] for v in views.values()),
            "attached": sum(not v["from_cache"] for v in views.values()),
            "same_result": len(summaries) == 1,
            "training_wall_s": next(iter(views.values()))["summary"].get("wall_s")
            if views else None}


def memory_mb(runner: LabRunner) -> list[tuple[int, int, int]]:
    """(RSS, PSS, USS) in MB of each worker, as it last reported (lab_worker.memory_kb):
    USS is its own pages, PSS adds its share of those it shares with the template."""
    return [(w.rss_kb // 1024, w.pss_kb // 1024, w.uss_kb // 1024) for w in runner.workers()]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--spread", type=float, default=5.0)
    ap.add_argument("--steps", type=int, default=1000, choices=range(*LAB_CHOICES["steps"]),
                    metavar="STEPS", help="training steps (the page's default: 1000)")
    ap.add_argument("--workers", type=int, default=None,
                    help="Lab workers (default: the app's, the usable CPUs but one); two or "
                         "more fork from one template (explorer/training/lab_zygote.py)")
    args = ap.parse_args(argv)
    settings = dataclasses.replace(page_defaults(), max_steps=args.steps)
    with tempfile.TemporaryDirectory() as cache:
        runner = LabRunner(Path(cache) / "lab", workers=args.workers)
        try:
            runner.warm()
            for worker in runner.workers():
                worker.ready.wait(60)
            idle = memory_mb(runner)
            reports = sum(w.reports for w in runner.workers())
            result = simulate(runner, settings, args.students, args.spread)
            deadline = time.monotonic() + 10  # the worker reports its memory after the run
            while sum(w.reports for w in runner.workers()) <= reports \
                    and time.monotonic() < deadline:
                time.sleep(0.1)
            result["workers"] = runner.n_workers
            result["forked"] = all(w.forked for w in runner.workers())
            result["template_mb"] = (memory_kb(runner._zygote.proc.pid)["pss_kb"] // 1024
                                     if runner._zygote is not None else 0)
            result["mb_idle"] = idle
            result["mb_after"] = memory_mb(runner)
        finally:
            runner.close()
    result["loadavg"] = os.getloadavg()
    print(f"{result['students']} students pressed Train ({args.steps} steps) within "
          f"{args.spread:g} s: {result['finished']} saw the finished run, the last "
          f"{result['last_seen_s']} s after the first press (the first "
          f"{result['first_seen_s']} s); trainings {result['trainings']}, attached "
          f"{result['attached']}, replays {result['replays']}, same result "
          f"{result['same_result']}; the training's wall time {result['training_wall_s']} s; "
          f"{result['workers']} worker(s){' forked from a template' if result['forked'] else ''}"
          f", MB per worker (RSS/PSS/USS) {result['mb_idle']} after import, "
          f"{result['mb_after']} after the run; the template's PSS {result['template_mb']} MB; "
          f"load average "
          + " ".join(f"{x:.2f}" for x in result["loadavg"]))
    return result


if __name__ == "__main__":
    main()
