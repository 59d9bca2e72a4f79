"""What a setting the app does not use would change, measured without editing the project.

    python -m benchmarks.whatif                 # both A/B comparisons (~3 min)
    python -m benchmarks.whatif --seconds 20    # shorter load per server

The speed fixes this script used to measure by monkeypatching (figure JSON without
plotly.py, uint8 grid, the scores once in the head, top-k head view, the grid as one
heatmap, one live listener per trigger, pre/postprocess off, logits at one position)
are applied now; ``benchmarks.run_all`` measures the app as it is, next to the
straightforward path it replaced (``--compare DIR`` also runs an older checkout). What
is left to decide is measured here, each variant a separate ``python app.py`` started
one after the other and given the same load (30 students, one update a second):

1. ``malloc arenas``: glibc's default (``MALLOC_ARENA_MAX=8``, what ``app.py`` had
   before) against the cap ``app.cap_malloc_arenas`` applies (2): resident memory.
2. ``concurrency``: ``default_concurrency_limit`` 4 (``app.QUEUE``) against 2, set with
   ``AE_BENCH_CONCURRENCY`` read by :func:`serve` below: latency under load on 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from benchmarks.app_server import AppServer
from benchmarks.client_side import load_test
from benchmarks.common import Sentences, load_avg, log, pct


def serve() -> None:
    """``python app.py`` with the queue's concurrency from ``AE_BENCH_CONCURRENCY``."""
    from explorer import app

    app.QUEUE = {**app.QUEUE,
                 "default_concurrency_limit": int(os.environ["AE_BENCH_CONCURRENCY"])}
    app.main()


VARIANTS = [
    ("malloc: MALLOC_ARENA_MAX=8 (glibc default on 2 cores)", {"MALLOC_ARENA_MAX": "8"}, None),
    ("malloc: capped by app.py (2 arenas)", {}, None),
    ("concurrency 2 (app.py: 4)", {"AE_BENCH_CONCURRENCY": "2"},
     [sys.executable, "-m", "benchmarks.whatif", "--serve"]),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="load per server")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    command = "python -m benchmarks.whatif" + "".join(" " + a for a in sys.argv[1:])
    log(f"{command}  (load average {load_avg()})")

    from explorer.app import load_resources

    tok, _zoo = load_resources()
    sentences = Sentences(tok)
    rows = []
    for name, env, cmd in VARIANTS:
        server = AppServer(cmd, env=env)
        log(f"starting {name} ...")
        server.start()
        try:
            ld = asyncio.run(load_test(server, sentences, 30, args.seconds))
        finally:
            final = server.stop()
        rows.append((name, server.rss_at_start.get("VmRSS", float("nan")),
                     final.get("VmHWM", float("nan")), ld, load_avg()))

    print(f"$ {command}")
    print(f"# {os.cpu_count()} CPUs; 30 students x 1 update/s for {args.seconds:g} s each; "
          "load average after each in brackets")
    for name, rss, peak, ld, load in rows:
        lat = ld["latency"]
        print(f"{name:<52} RSS {rss:.0f} MB after start-up, peak {peak:.0f} MB; whole update "
              f"p50 {pct(lat, 50):.0f} / p95 {pct(lat, 95):.0f} ms, {len(lat)} answered, "
              f"{len(ld['errors'])} errors [{load}]")


if __name__ == "__main__":
    main()
