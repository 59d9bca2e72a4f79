"""Server CPU per keystroke grid request, one request at a time (issue 39 part 4).

    python -m benchmarks.grid_cpu [--dir CHECKOUT] [--requests 400] [--tokens 32] [--sessions 16]

Starts ``app.py`` (of ``--dir``: another checkout to compare) pinned to the first core of
this process's affinity (``taskset``), this client on the others; sends ``--requests``
grid POSTs one after another, as pages do (the canvas's ``grid_data``, a sentence of
``--tokens`` tokens, alternating two texts so no answer is a repeat), and reports the
server's CPU time (utime + stime from /proc) per request, split by thread (``ae-keystrokes``:
the model and the answer's payload; ``ae-http``: the event loop, HTTP and the hand-off;
explorer/server/threads.py), the median round trip, and the load average. Then the same
request's ``grid_payloads`` in this process (thread CPU time, median of ``--requests``): what
the model's part costs with no server around it. Only the keystroke path: no page load, no
queue events.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

from benchmarks.app_server import GRID_PATH, AppServer, grid_request, thread_cpu_seconds
from benchmarks.common import ROOT, load_avg
from benchmarks.lecture import pinned

BASE = ("Once upon a time there was a little girl named Lily. She liked to play with her "
        "ball in the park with her friend Tom, who was kind to everyone he met there.")


def sentence(tokens: int) -> tuple[str, str]:
    """Two texts of ``tokens`` tokens (the app's tokenizer), differing in their last word."""
    from explorer.models.tokenizer import Tokenizer
    from explorer.models.zoo import CHECKPOINT_DIR

    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    words = (BASE + " " + BASE).split(" ")
    for k in range(1, len(words)):
        text = " ".join(words[:k])
        if len(tok.encode(text)) >= tokens:
            return text, " ".join(words[:k - 1] + ["dog"])
    return BASE, BASE + " dog"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.grid_cpu", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, default=ROOT)
    ap.add_argument("--requests", type=int, default=400)
    ap.add_argument("--tokens", type=int, default=32)
    ap.add_argument("--sessions", type=int, default=16,
                    help="pages taking turns (each under the guard's per-page rate)")
    args = ap.parse_args(argv)
    import httpx

    cores = sorted(os.sched_getaffinity(0))
    server_core = cores[:1] if len(cores) > 1 else None
    if server_core:
        os.sched_setaffinity(0, cores[1:])
    server = AppServer(cmd=pinned([sys.executable, "app.py"], server_core), cwd=args.dir)
    server.start()
    try:
        component = server.canvas_grid()
        texts = sentence(args.tokens)
        # pages in turn: one page may send 30 requests a second
        # (explorer/server/client_guard.py), and one after another these go faster than that
        sessions = [uuid.uuid4().hex[:11] for _ in range(args.sessions)]
        with httpx.Client(base_url=server.url, timeout=30) as c:
            for i in range(20):  # warm-up
                c.post(GRID_PATH, json=grid_request(component, sessions[i % len(sessions)],
                                                    texts[i % 2]))
            rtt, cpu0 = [], server.cpu_seconds()
            threads0 = thread_cpu_seconds(server.proc.pid)
            for i in range(args.requests):
                t0 = time.perf_counter()
                r = c.post(GRID_PATH, json=grid_request(component, sessions[i % len(sessions)],
                                                        texts[i % 2]))
                rtt.append(time.perf_counter() - t0)
                if r.status_code != 200 or not r.json().get("ok"):
                    raise SystemExit(f"request {i}: HTTP {r.status_code} {r.text[:120]}")
            cpu = server.cpu_seconds() - cpu0
            threads = thread_cpu_seconds(server.proc.pid)
    finally:
        server.stop()
    per_thread = {name: (t - threads0.get(name, 0.0)) / args.requests * 1e3
                  for name, t in threads.items() if t > threads0.get(name, 0.0)}
    print(f"python -m benchmarks.grid_cpu {' '.join(sys.argv[1:] if argv is None else argv)}")
    print(f"{args.dir}: {args.requests} grid requests of {args.tokens} tokens, one at a time: "
          f"server {cpu / args.requests * 1e3:.2f} ms CPU per request, round trip median "
          f"{statistics.median(rtt) * 1e3:.1f} ms; server on core {server_core}; "
          f"load average {load_avg()}")
    print("  by thread, ms CPU per request: " + ", ".join(
        f"{name} {ms:.2f}" for name, ms in sorted(per_thread.items(), key=lambda kv: -kv[1])))
    print(f"  in this process, grid_payloads of the same request: "
          f"{in_process_ms(texts, args.requests):.2f} ms thread CPU (median)")


def in_process_ms(texts: tuple[str, str], requests: int) -> float:
    """Median thread CPU ms of ``grid_payloads`` for one request at a time, alternating
    ``texts``, on one torch thread (as the server's model thread)."""
    import torch

    from explorer import app
    from explorer.views.grid_payload import grid_payloads

    torch.set_num_threads(1)
    tok, zoo = app.load_resources()
    bodies = [grid_request(0, "s", text)["data"] for text in texts]
    for i in range(20):  # warm-up
        grid_payloads(zoo, tok, [bodies[i % 2]])
    spent = []
    for i in range(requests):
        t0 = time.thread_time()
        grid_payloads(zoo, tok, [bodies[i % 2]])
        spent.append(time.thread_time() - t0)
    return statistics.median(spent) * 1e3


if __name__ == "__main__":
    main()
