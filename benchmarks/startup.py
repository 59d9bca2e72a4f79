"""Start-up, several times: ``python app.py`` on a free port until its first ``/explore``
answer, with the phases the app logs (imports, models, page) and resident memory.

    python -m benchmarks.startup          # 5 cold starts, ~1 minute
    python -m benchmarks.startup -n 9

One start is one sample of a noisy number on this 2-core machine (8.6-10.4 s in one
series here), so this prints the median and the spread; ``run_all`` takes its start-up
row from :func:`measure` too.
"""

from __future__ import annotations

import argparse
import re
import statistics

from benchmarks.app_server import AppServer
from benchmarks.common import load_avg

PHASES = re.compile(r"start-up: imports ([\d.]+) s, models ([\d.]+) s, page ([\d.]+) s")


def one_start() -> dict[str, float]:
    """One cold start: seconds to the first answer, the logged phases, RSS in MB."""
    server = AppServer()
    try:
        server.start()
        log = server.log_path.read_text()
        rss = server.rss_at_start.get("VmRSS", float("nan"))
    finally:
        server.stop()
    found = PHASES.search(log)
    names = ("imports", "models", "page")
    phases = dict(zip(names, map(float, found.groups()), strict=True)) if found else {}
    # what is left: python's own start, launching the server, the first answer, polling
    rest = server.startup_s - sum(phases.values()) if phases else float("nan")
    return {"total": server.startup_s, **phases, "server + first answer": rest, "rss_mb": rss}


def measure(n: int = 5, echo=print) -> list[dict[str, float]]:
    runs = []
    for i in range(n):
        runs.append(one_start())
        echo(f"start {i + 1}/{n}: " + ", ".join(f"{k} {v:.2f}" for k, v in runs[-1].items()))
    return runs


def summary(runs: list[dict[str, float]]) -> dict[str, tuple[float, float, float]]:
    """``{phase: (median, min, max)}``."""
    return {key: (statistics.median(r[key] for r in runs), min(r[key] for r in runs),
                  max(r[key] for r in runs)) for key in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5, help="cold starts (default 5)")
    args = parser.parse_args()
    print(f"# load average before: {load_avg()}")
    runs = measure(args.n)
    print(f"# {args.n} cold starts; load average after: {load_avg()}")
    print(f"{'phase (s; rss_mb: MB)':<24} {'median':>8} {'min':>8} {'max':>8}")
    for key, (med, lo, hi) in summary(runs).items():
        print(f"{key:<24} {med:>8.2f} {lo:>8.2f} {hi:>8.2f}")


if __name__ == "__main__":
    main()
