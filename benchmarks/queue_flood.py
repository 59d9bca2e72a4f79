"""Queue flood (issue 39 part 3): scripts flood Gradio's queue with Patch events while a
class behind the same address asks for Patch, Ablate and Take it home.

Every request carries ``X-Forwarded-For: SCHOOL`` (the server trusts it: ``AE_PROXY_HOPS=1``,
or uvicorn from this machine), so the floods and the class are ONE address. Two floods:

* ``heavy``: ``--heavy`` sessions (4) each post ``--heavy-posts`` (150) Patch joins as fast
  as the server answers, with long sentences (``LONG``, 9,000 characters, under the
  server's bound), and never read their streams (a script);
* ``many``: ``--many`` sessions (100) each post ``--many-posts`` joins the same way.

Meanwhile ``--class`` students (30), each a session of its own, ask once for each of
Patch, Ablate and Take it home (their API events), the way the page's client does: join,
read the stream until the answer; a refused join (429 busy) is tried again after a pause,
as static/live.js does. Reported: the class's answers and their latencies, the joins the
floods got in and were refused, and every HTTP 503 (the target: none, and every answer).

``python -m benchmarks.queue_flood [--url http://127.0.0.1:PORT]`` (default: starts
``app.py`` pinned to core 0, itself on core 1); tests/plumbing/test_queue_flood.py runs
:func:`flood` against the test server.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from collections import Counter

SCHOOL = "10.39.0.1"
VIEWS = ("patch", "ablate", "export_view")  # the API names of Patch, Ablate, Take it home
LONG = ("the keys to the cabinet are on the table " * 250)[:9000]
BACKOFF_S = (0.25, 0.5, 1.0, 2.0)


def events(config: dict) -> dict[str, tuple[int, list]]:
    """api name -> (fn_index, default data) for ``VIEWS``, from the app's /config."""
    values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
    out = {}
    for d in config["dependencies"]:
        if d.get("api_name") in VIEWS:
            out[d["api_name"]] = (d["id"], [values.get(i) for i in d["inputs"]])
    missing = set(VIEWS) - set(out)
    if missing:
        raise RuntimeError(f"the app has no API event named {sorted(missing)}")
    return out


async def _join(client, fn_index: int, data: list, session: str) -> tuple[int, str | None]:
    """(HTTP status, event id) of one queue join; status 0: the connection failed."""
    import httpx

    try:
        r = await client.post("/gradio_api/queue/join", headers={"X-Forwarded-For": SCHOOL},
                              json={"data": data, "fn_index": fn_index, "trigger_id": None,
                                    "session_hash": session, "event_data": None})
    except httpx.TransportError:
        return 0, None
    return r.status_code, (r.json().get("event_id") if r.status_code == 200 else None)


async def _answer(client, session: str, event_id: str) -> bool:
    """Read the session's stream until ``event_id`` completes; its success."""
    async with client.stream("GET", "/gradio_api/queue/data",
                             params={"session_hash": session},
                             headers={"X-Forwarded-For": SCHOOL}) as s:
        async for line in s.aiter_lines():
            if not line.startswith("data:"):
                continue
            import orjson
            msg = orjson.loads(line[5:])
            if msg.get("msg") == "process_completed" and msg.get("event_id") == event_id:
                out = msg.get("output") or {}
                return bool(msg.get("success")) and bool(out.get("data"))
            if msg.get("msg") in ("close_stream", "unexpected_error"):
                return False
    return False


async def _student(client, evs: dict, stats: dict, deadline: float) -> None:
    import httpx

    session = uuid.uuid4().hex
    for name in VIEWS:
        fn_index, data = evs[name]
        t0, tries = time.monotonic(), 0
        while time.monotonic() < deadline:
            code, event_id = await _join(client, fn_index, data, session)
            stats["codes"][code] += 1
            if code == 200:
                try:
                    ok = await _answer(client, session, event_id)
                except httpx.TransportError:  # a page would ask again
                    ok = False
                if ok:
                    stats["answered"][name] += 1
                    stats["latency"].append(time.monotonic() - t0)
                    break
                stats["failed"][name] += 1
            await asyncio.sleep(BACKOFF_S[min(tries, len(BACKOFF_S) - 1)])
            tries += 1


async def _flooder(client, fn_index: int, data: list, posts: int, stats: dict,
                   stop: asyncio.Event) -> None:
    session = uuid.uuid4().hex
    for _ in range(posts):
        if stop.is_set():
            return
        code, _ = await _join(client, fn_index, data, session)
        stats["flood"][code] += 1
        await asyncio.sleep(0.01 if code == 200 else 0.05)


async def flood(url: str, students: int = 30, heavy: int = 4, heavy_posts: int = 150,
                many: int = 100, many_posts: int = 10, seconds: float = 180.0) -> dict:
    """Run the floods and the class against ``url``; the class's answers and every status."""
    import httpx

    limits = httpx.Limits(max_connections=students + heavy + many + 16)
    async with httpx.AsyncClient(base_url=url.rstrip("/"), timeout=seconds,
                                 limits=limits) as client:
        evs = events((await client.get("/config")).json())
        fn_index, data = evs["patch"]
        long_data = [LONG if isinstance(v, str) and i == 0 else v for i, v in enumerate(data)]
        stats = {"codes": Counter(), "flood": Counter(), "answered": Counter(),
                 "failed": Counter(), "latency": []}
        stop = asyncio.Event()
        floods = [asyncio.create_task(_flooder(client, fn_index, long_data, heavy_posts,
                                               stats, stop)) for _ in range(heavy)]
        floods += [asyncio.create_task(_flooder(client, fn_index, long_data, many_posts,
                                                stats, stop)) for _ in range(many)]
        await asyncio.sleep(1.0)  # the floods first: the class comes into a full line
        t0 = time.monotonic()
        await asyncio.gather(*(_student(client, evs, stats, t0 + seconds)
                               for _ in range(students)))
        stats["class_s"] = time.monotonic() - t0
        stop.set()
        await asyncio.gather(*floods)
    lat = sorted(stats["latency"])
    stats["p50_s"] = statistics.median(lat) if lat else float("nan")
    stats["max_s"] = lat[-1] if lat else float("nan")
    return stats


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.queue_flood", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="a server already running on this machine")
    ap.add_argument("--class", dest="students", type=int, default=30)
    ap.add_argument("--heavy", type=int, default=4)
    ap.add_argument("--heavy-posts", type=int, default=150)
    ap.add_argument("--many", type=int, default=100)
    ap.add_argument("--many-posts", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=180.0)
    args = ap.parse_args(argv)
    from benchmarks.app_server import AppServer
    from benchmarks.lecture import pinned

    server = None
    if args.url:
        url = args.url
    else:
        cores = sorted(os.sched_getaffinity(0))
        pin = [cores[0]] if len(cores) > 1 else None
        if pin:
            os.sched_setaffinity(0, cores[1:])
        server = AppServer(cmd=pinned([sys.executable, "app.py"], pin),
                           env={"AE_PROXY_HOPS": "1"})
        server.start()
        url = server.url
    try:
        s = asyncio.run(flood(url, args.students, args.heavy, args.heavy_posts, args.many,
                              args.many_posts, args.seconds))
    finally:
        if server is not None:
            server.stop()
    print(f"python -m benchmarks.queue_flood {' '.join(sys.argv[1:] if argv is None else argv)}")
    print(f"class of {args.students}: answered {dict(s['answered'])} (failed "
          f"{dict(s['failed'])}) in {s['class_s']:.1f} s; latency per view median "
          f"{s['p50_s']:.2f} s, max {s['max_s']:.2f} s; class HTTP {dict(s['codes'])}")
    print(f"floods ({args.heavy} x {args.heavy_posts} + {args.many} x {args.many_posts} "
          f"Patch joins): HTTP {dict(s['flood'])}")
    print(f"load average {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main()
