"""A flood of sessions against ``python app.py``: memory, the "busy" answer, a normal page.

    python -m benchmarks.sessions                 # ~3-5 minutes on a busy 2-core box
    python -m benchmarks.sessions --fresh 500     # shorter
    python -m benchmarks.sessions --dir /tmp/before   # another checkout (git archive)

Three floods, while one normal page (its own address, one session kept throughout) sends
a keystroke every ``PAGE_EVERY_S`` and its answer times are recorded:

1. **fresh keystrokes**: ``--fresh`` (3,000) requests through the keystroke's server
   function (the canvas's POST to ``grid_data``, as static/live_grid.js sends it), each
   with a fresh session hash, as a page load, a reload or a script makes one. They come
   from addresses of 50 requests each (``X-Forwarded-For``, which the server trusts from
   this machine, as it would from a local reverse proxy), so that the limiter lets every
   one through and the memory figure is the sessions' own cost.
2. **page loads**: ``--loads`` (1,200, past the app's cap of 1,000 kept sessions) fresh
   sessions that each run the Explore tab's update on the queue, as a page does when it
   opens: these sessions are kept by the server (until the cap or their expiry).
3. **one client in a loop**: ONE address sends keystrokes as fast as it is answered, 4
   at a time, for ``--flood-s`` (30) seconds: two loops invent a fresh session for each
   request, two reuse one session each. Past their bursts they get HTTP 429 "busy".

Printed: resident memory (VmRSS, MB) before and after each flood, the peak (VmHWM), how
many requests were answered or refused, and the normal page's p50 / p95.
"""

from __future__ import annotations

import argparse
import itertools
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.app_server import GRID_PATH, AppServer, grid_request, proc_status, queue_update
from benchmarks.common import CORPUS, ROOT, log, pct

PAGE_EVERY_S = 0.5
PER_ADDRESS = 50  # fresh sessions per simulated address (within its new-session burst)
TEXTS = [" ".join(CORPUS[i:i + 2]) for i in range(0, len(CORPUS) - 1)]
TARGETS = {"rss_mb": 800.0, "growth_mb": 100.0, "page_p95_ms": 1000.0}


def rss(server: AppServer) -> float:
    return proc_status(server.proc.pid).get("VmRSS", float("nan"))


class NormalPage(threading.Thread):
    """One student's page: one session, its own address, a keystroke every
    ``PAGE_EVERY_S``; records each answer's time (ms) and any answer that is not a grid."""

    def __init__(self, server: AppServer, canvas: int) -> None:
        super().__init__(daemon=True)
        self.server, self.canvas = server, canvas
        self.session = uuid.uuid4().hex[:11]
        self.latencies: list[float] = []
        self.failed = 0
        self.stopping = threading.Event()

    def run(self) -> None:
        import httpx

        headers = {"X-Forwarded-For": "10.250.0.1"}
        with httpx.Client(base_url=self.server.url, timeout=30, headers=headers) as c:
            for k in itertools.count():
                if self.stopping.is_set():
                    return
                t0 = time.perf_counter()
                try:
                    r = c.post(GRID_PATH, json=grid_request(self.canvas, self.session,
                                                            TEXTS[k % len(TEXTS)]))
                    ok = r.status_code == 200 and r.json().get("ok") is True
                except httpx.HTTPError:
                    ok = False
                self.latencies.append((time.perf_counter() - t0) * 1e3)
                self.failed += not ok
                self.stopping.wait(max(0.0, PAGE_EVERY_S - (time.perf_counter() - t0)))

    def take(self) -> tuple[list[float], int]:
        """Latencies and failures since the last call."""
        out, failed = self.latencies, self.failed
        self.latencies, self.failed = [], 0
        return out, failed


def fresh_keystrokes(server: AppServer, canvas: int, n: int, addresses, workers: int = 4):
    """``n`` keystroke requests, each from a fresh session; ``addresses(i)`` is the
    address of request i. Returns (answered with a grid, refused with 429, other)."""
    import httpx

    counts = {"answered": 0, "busy": 0, "other": 0}
    lock = threading.Lock()
    local = threading.local()

    def one(i: int) -> None:
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=server.url, timeout=30)
        r = local.client.post(GRID_PATH, headers={"X-Forwarded-For": addresses(i)},
                              json=grid_request(canvas, uuid.uuid4().hex[:11],
                                                TEXTS[i % len(TEXTS)]))
        kind = ("answered" if r.status_code == 200 and r.json().get("ok") is True
                else "busy" if r.status_code == 429 else "other")
        with lock:
            counts[kind] += 1

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, range(n)))
    return counts


def flood_for(server: AppServer, canvas: int, seconds: float, address: str) -> dict:
    """Keystrokes from one address for ``seconds``, 4 loops at once: loops 0 and 2 a fresh
    session per request, loops 1 and 3 one session each (see the module docstring)."""
    import httpx

    counts = {"answered": 0, "busy": 0, "other": 0}
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def loop(k: int) -> None:
        own = uuid.uuid4().hex[:11]
        with httpx.Client(base_url=server.url, timeout=30,
                          headers={"X-Forwarded-For": address}) as c:
            for i in itertools.count():
                if time.perf_counter() > deadline:
                    return
                session = uuid.uuid4().hex[:11] if k % 2 == 0 else own
                r = c.post(GRID_PATH, json=grid_request(canvas, session,
                                                        TEXTS[i % len(TEXTS)]))
                kind = ("answered" if r.status_code == 200 and r.json().get("ok") is True
                        else "busy" if r.status_code == 429 else "other")
                with lock:
                    counts[kind] += 1

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(loop, range(4)))
    return counts


def page_loads(server: AppServer, n: int, workers: int = 4) -> dict[str, int]:
    """``n`` fresh sessions that each run the Explore tab's update (the page's load)."""
    import httpx

    fn_index, trigger, make = server.live_chain()[0]
    counts = {"answered": 0, "other": 0}
    lock = threading.Lock()

    def one(i: int) -> None:
        address = f"10.{100 + i // PER_ADDRESS // 250}.{i // PER_ADDRESS % 250}.2"
        with httpx.Client(base_url=server.url, timeout=60,
                          headers={"X-Forwarded-For": address}) as c:
            try:
                ok, _ = queue_update(c, fn_index, trigger, uuid.uuid4().hex[:11],
                                     make(TEXTS[i % len(TEXTS)]))
            except httpx.HTTPError:
                ok = False
        with lock:
            counts["answered" if ok else "other"] += 1

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, range(n)))
    return counts


def report(name: str, before: float, after: float, counts: dict, wall: float,
           page: tuple[list[float], int]) -> dict:
    lat, failed = page
    row = {"flood": name, "rss_before": before, "rss_after": after, "growth": after - before,
           **counts, "wall_s": wall, "page_p50": pct(lat, 50), "page_p95": pct(lat, 95),
           "page_n": len(lat), "page_failed": failed}
    print(f"{name:<34} RSS {before:6.0f} -> {after:6.0f} MB ({after - before:+5.0f})  "
          + "  ".join(f"{k} {v}" for k, v in counts.items())
          + f"  in {wall:5.1f} s | normal page p50 {row['page_p50']:4.0f} ms, "
            f"p95 {row['page_p95']:4.0f} ms ({len(lat)} keystrokes, {failed} not answered)",
          flush=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fresh", type=int, default=3000)
    ap.add_argument("--loads", type=int, default=1200)
    ap.add_argument("--flood-s", type=float, default=30.0)
    ap.add_argument("--dir", type=Path, default=ROOT, help="the checkout to run app.py from")
    args = ap.parse_args()

    server = AppServer(cwd=args.dir)
    log("starting python app.py")
    server.start()
    try:
        canvas = server.canvas_grid()
        page = NormalPage(server, canvas)
        page.start()
        # warm-up: every text once, from a few sessions (caches, allocator, threads)
        fresh_keystrokes(server, canvas, 2 * len(TEXTS), lambda i: "10.99.0.1")
        time.sleep(2)
        page.take()
        start = rss(server)
        print(f"python app.py up in {server.startup_s:.1f} s; RSS after warm-up "
              f"{start:.0f} MB", flush=True)
        rows = []

        log(f"{args.fresh} fresh-session keystrokes, {PER_ADDRESS} per address")
        t0 = time.perf_counter()
        counts = fresh_keystrokes(server, canvas, args.fresh, lambda i: (
            f"10.{i // PER_ADDRESS // 250}.{i // PER_ADDRESS % 250}.1"))
        rows.append(report(f"{args.fresh} fresh-session keystrokes", start, rss(server),
                           counts, time.perf_counter() - t0, page.take()))

        log(f"{args.loads} page loads (fresh sessions on the queue)")
        before, t0 = rss(server), time.perf_counter()
        counts = page_loads(server, args.loads)
        rows.append(report(f"{args.loads} page loads", before, rss(server), counts,
                           time.perf_counter() - t0, page.take()))

        log(f"one address in 4 loops for {args.flood_s:.0f} s")
        before, t0 = rss(server), time.perf_counter()
        counts = flood_for(server, canvas, args.flood_s, "10.66.6.6")
        rows.append(report(f"one address, 4 loops, {args.flood_s:.0f} s", before, rss(server),
                           counts, time.perf_counter() - t0, page.take()))
        page.stopping.set()
        page.join(5)
    finally:
        final = server.stop()
    peak = final.get("VmHWM", float("nan"))
    worst_p95 = max(r["page_p95"] for r in rows)
    fresh = rows[0]
    print(f"\nRSS {start:.0f} MB after warm-up, {final.get('VmRSS', float('nan')):.0f} MB at "
          f"the end, peak {peak:.0f} MB (target <= {TARGETS['rss_mb']:.0f})")
    print(f"growth over {args.fresh} fresh sessions: {fresh['growth']:+.0f} MB "
          f"(target <= {TARGETS['growth_mb']:.0f}); over everything: "
          f"{final.get('VmRSS', float('nan')) - start:+.0f} MB")
    print(f"normal page p95, worst flood: {worst_p95:.0f} ms "
          f"(target <= {TARGETS['page_p95_ms']:.0f})")
    ok = (peak <= TARGETS["rss_mb"] and fresh["growth"] <= TARGETS["growth_mb"]
          and worst_p95 <= TARGETS["page_p95_ms"])
    print("PASS" if ok else "FAIL")


if __name__ == "__main__":
    main()
