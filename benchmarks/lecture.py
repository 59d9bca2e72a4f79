"""A class in a lecture, against ``python app.py``: students typing, as their pages do.

    python -m benchmarks.lecture                        # all scenarios, 30 students, 20 s each
    python -m benchmarks.lecture --quick                # smoke test, ~25 s
    python -m benchmarks.lecture --dir /tmp/before      # app.py of another checkout
    python -m benchmarks.lecture --students 400 --procs 8 --server-cpus 0 --client-cpus 1-8 \\
        --env AE_DEVICE=cuda --json /tmp/lecture.json   # a big class on a GPU machine

Scenarios (``--scenario``, repeatable; default all):

  a. ``--students`` students, each from its own address, one keystroke a second;
  b. the same, all from ONE address (one school's proxy: one ``X-Forwarded-For``);
  c. typing bursts: a sentence at 4 characters a second, a pause of 2-5 s, the next, all
     from ONE address (a class behind its school's address; e's class too);
  d. page loads: ``--students`` pages from one address opened within 2 s (GET /, the
     first grid, then the settled figures' queue event); latency = open -> first grid;
  e. a flooding script from its own address -- ``--flood-loops`` loops each on one session
     posting as fast as answered, plus one loop inventing a session per request -- beside
     a class of ``--students`` typing as in (c);
  f. typing without pauses, 4 keys a second, one address;
  g. (c)'s class with the browser engine (issue 38): each page first fetches the engine's
     files once, then computes its grids itself; the server answers only the settled
     figures' event after each pause (``--settle`` is implied). Run (c) with ``--settle``
     beside it for what the same class costs when the server computes every grid.

The server runs pinned to ``--server-cpus`` (``taskset``, default core 0) with
``AE_PROXY_HOPS=1`` so that it reads the client's address from ``X-Forwarded-For`` (the
fake addresses 10.x.y.z; every connection goes to 127.0.0.1 only); the load generator
runs in ``--procs`` subprocesses pinned to ``--client-cpus`` (default core 1;
benchmarks/lecture_load.py, whose docstring says exactly what a simulated page does).

Printed per scenario: grid requests sent, answered (a grid), refused (HTTP 429 or
``{"ok": false, "retry": true}``), other (errors, grid-less answers); p50/p95/max
latency of answered keystrokes (typed -> a grid for it or a later text of that student,
as the page sees it); students stale at the end (their last text never got a grid within
``--grace`` s after typing stopped); server CPU ms per answered grid request and its
CPU use (1.00 = one core busy); the generator's CPU use (it must stay well under 1.00).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
import uuid
from pathlib import Path

from benchmarks.app_server import GRID_PATH, AppServer, grid_request, pid_cpu_seconds
from benchmarks.common import CORPUS, DEFAULT_KNOBS, ROOT, load_avg, log, pct

LABELS = {"a": "own addresses, 1 key/s", "b": "one address, 1 key/s",
          "c": "typing bursts, 4 keys/s, one address", "d": "page loads, one address",
          "e": "class + flooding script", "f": "typing without pauses, 4 keys/s, one address",
          "g": "bursts, browser computes"}
# 10.<octet>.x.y: own addresses
OCTETS = {"a": 11, "b": 12, "c": 13, "d": 14, "e": 15, "f": 16, "g": 17}


def cpu_list(text: str) -> list[int]:
    """``"1"``, ``"1-7"``, ``"1,3,5-6"`` -> the core numbers."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def pinned(cmd: list[str], cpus: list[int] | None) -> list[str]:
    """``cmd`` run by ``taskset`` on ``cpus`` (which execs it: the pid stays the same)."""
    return cmd if cpus is None else ["taskset", "-c", ",".join(map(str, cpus)), *cmd]


def app_context(server: AppServer) -> dict:
    """What the simulated pages need from ``/config``: the grid's component id, the
    sentence box's default text, the settled figures' event (fn_index, trigger, the
    data template, where the text goes in it)."""
    import httpx

    config = httpx.get(server.url + "/config", timeout=10).json()
    default = next((c["props"].get("value") for c in config["components"]
                    if c.get("props", {}).get("elem_id") == "sentence"), None) or CORPUS[0]
    component = server.canvas_grid()
    if component is None:
        raise SystemExit("this app has no canvas grid (grid_data): nothing to benchmark")
    queue = None
    try:
        fn_index, trigger, make = server.live_chain()[-1]
        mark = "\x00text\x00"
        template = make(mark)
        queue = [fn_index, trigger, [None if v == mark else v for v in template],
                 template.index(mark)]
    except (StopIteration, ValueError, IndexError, KeyError):
        log("no settled-figures event found: page loads send none")
    return {"component": component, "default_text": default, "queue": queue,
            "assets": engine_assets(server)}


def engine_assets(server: AppServer) -> list[str]:
    """What a page's browser engine fetches once: the URLs in the page's head (Gradio's config
    ``head``: the scripts, the tokenizer, the default model, the texts;
    explorer/server/engine_route.py)."""
    import re

    import httpx

    html = httpx.get(server.url + "/config", timeout=30).json().get("head") or ""
    scripts = re.findall(r'<script src="(ae-engine/[^"]+)"', html)
    config = re.search(r'<script type="application/json" id="ae-engine-config">(.*?)</script>',
                       html, re.S)
    if not scripts or not config:
        return []
    c = json.loads(config.group(1))
    return [*scripts, c["urls"]["tokenizer.json"], c["urls"][c["model"]], c["texts"]]


def warm_up(server: AppServer, component: int) -> None:
    """A few grids first (caches, allocator, threads), from an address no scenario uses."""
    import httpx

    with httpx.Client(base_url=server.url, timeout=30,
                      headers={"X-Forwarded-For": "10.9.0.1"}) as c:
        c.get("/")
        session = uuid.uuid4().hex[:11]
        for i, text in enumerate(CORPUS * 2):
            c.post(GRID_PATH, json=grid_request(component, session, text[:40 + 5 * i]))


def specs_for(name: str, args, ctx: dict, port: int, salt: int) -> list[tuple[dict, list]]:
    """(spec, cores) of each generator process of scenario ``name``."""
    base = {"port": port, "component": ctx["component"], "controls": DEFAULT_KNOBS,
            "corpus": " ".join(CORPUS), "timeout": args.timeout, "seconds": args.seconds,
            "grace": args.grace, "default_text": ctx["default_text"], "queue": ctx["queue"],
            "settle": args.settle, "octet": OCTETS[name], "address": None}
    pattern = {"a": "steady", "b": "steady", "c": "bursts", "d": "load", "e": "bursts",
               "f": "nonstop", "g": "bursts"}[name]
    base["pattern"] = pattern
    if name == "b":
        base["address"] = f"10.1.{2 + salt}.3"
    if name in "cefg":  # a class types behind its school's one address (issue 29's figures)
        base["address"] = f"10.1.{2 + salt}.5"
    if name == "g":
        if not ctx["assets"] or ctx["queue"] is None:
            raise SystemExit("(g): the page has no browser engine or no settled event")
        base.update(browser=True, settle=True, assets=ctx["assets"])
    if name == "d":
        base["address"] = f"10.1.{2 + salt}.4"
        base["settle"] = ctx["queue"] is not None and not args.no_load_event
    cores = args.client_cpus
    procs = max(1, min(args.procs, args.students))
    out = []
    for k in range(procs):
        first = args.students * k // procs
        count = args.students * (k + 1) // procs - first
        mine = [cores[k % len(cores)]] if cores and procs > 1 and len(cores) >= procs else cores
        out.append(({**base, "first": first, "count": count,
                     "seed": args.seed * 1000 + ord(name) * 10 + k}, mine))
    if name == "e":
        flood = {**base, "pattern": "flood", "address": f"10.66.{6 + salt}.6",
                 "loops": args.flood_loops, "fresh_loops": 1, "first": 0, "count": 0,
                 "seed": args.seed}
        out.append((flood, cores[-1:] if cores else None))
    return out


def run_scenario(name: str, args, ctx: dict, port: int, salt: int, server_cpu) -> dict:
    """Start the generator processes, let them run, merge what they saw."""
    specs = specs_for(name, args, ctx, port, salt)
    start_at = time.monotonic() + 1.0 + 0.2 * len(specs)  # all start together
    procs = []
    for spec, cores in specs:
        spec["start_at"] = start_at
        p = subprocess.Popen(pinned([sys.executable, "-m", "benchmarks.lecture_load"], cores),
                             cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        p.stdin.write(json.dumps(spec).encode())
        p.stdin.close()
        procs.append(p)
    # --lab-runs: Lab trainings beside the class, as the app's Lab workers run them: the
    # same trainer, at nice 10, on the server's cores (a worker inherits the server's)
    trainers = [subprocess.Popen(pinned(["nice", "-n", "10", sys.executable, "-m",
                                         "explorer.training.lab", "--seed", str(k),
                                         "--max-steps", "100000", "--seconds",
                                         str(args.seconds + args.grace + 5), "--json"],
                                        args.server_cpus), cwd=ROOT,
                                 stdout=subprocess.DEVNULL)
                for k in range(args.lab_runs)]
    time.sleep(max(0.0, start_at - time.monotonic()))
    cpu0, t0 = server_cpu(), time.monotonic()
    results = []
    try:
        for p in procs:
            out = p.stdout.read()
            p.wait(args.seconds + args.grace + 60)
            if p.returncode != 0:
                raise RuntimeError(f"a generator process failed ({p.returncode})")
            results.append(json.loads(out))
    finally:
        for t in trainers:
            t.kill()
            t.wait()
    wall = time.monotonic() - t0
    server_s = server_cpu() - cpu0
    return summarize(name, results, server_s, wall)


def summarize(name: str, results: list[dict], server_s: float, wall: float) -> dict:
    students = [r for r in results if r["pattern"] != "flood"]
    flood = [r for r in results if r["pattern"] == "flood"]
    counts: dict[str, int] = {}
    for r in students:
        for k, v in r["counts"].items():
            counts[k] = counts.get(k, 0) + v
    lat = [x for r in students for x in r["lat_ms"]]
    settle = [x for r in students for x in r.get("settle_ms", [])]
    flood_counts = {k: sum(r["counts"][k] for r in flood)
                    for k in ("sent", "answered", "refused", "other", "errors")} if flood else {}
    answered_all = counts.get("answered", 0) + flood_counts.get("answered", 0)
    return {
        "scenario": name, "label": LABELS[name],
        "students": sum(r["students"] for r in students),
        **{k: counts.get(k, 0) for k in ("sent", "answered", "refused", "other", "errors",
                                         "mismatch", "typed", "covered", "stale")},
        "p50_ms": pct(lat, 50), "p95_ms": pct(lat, 95), "max_ms": max(lat, default=float("nan")),
        "settle_p50_ms": pct(settle, 50), "settle_p95_ms": pct(settle, 95),
        "server_cpu_s": server_s, "wall_s": wall, "server_util": server_s / wall,
        "server_ms_per_answer": server_s / answered_all * 1e3 if answered_all else float("nan"),
        "server_ms_per_key": (server_s / counts["covered"] * 1e3 if counts.get("covered")
                              else float("nan")),  # per keystroke of the class answered
        "gen_util": max(r["cpu_s"] / max(r["wall_s"], 1e-9) for r in results),
        "gen_cpu_s": sum(r["cpu_s"] for r in results),
        "gen_lag_p99_ms": max(r["lag_p99_ms"] for r in results),
        "gen_late_ms": max(r["late_ms"] for r in results),
        "events": {k[7:]: counts.get(k, 0) for k in ("events_sent", "events_ok",
                                                     "events_refused", "events_failed")},
        "gets": counts.get("gets", 0), "flood": flood_counts,
        "workers": [{k: r[k] for k in ("pattern", "students", "cpu_s", "wall_s", "late_ms",
                                       "lag_p99_ms", "lag_max_ms")} for r in results],
    }


def show(row: dict) -> None:
    """One scenario's result as it finishes (the table at the end repeats it)."""
    print(f"({row['scenario']}) {row['label']}: {row['students']} students, "
          f"{row['typed']} keys typed, {row['sent']} grid requests: {row['answered']} answered, "
          f"{row['refused']} refused, {row['other']} other ({row['errors']} errors); "
          f"keystroke -> grid p50 {row['p50_ms']:.0f} ms, p95 {row['p95_ms']:.0f} ms, max "
          f"{row['max_ms']:.0f} ms ({row['covered']} keys answered); {row['stale']} stale; "
          f"server {row['server_cpu_s']:.1f} CPU s ({row['server_util']:.2f} of a core, "
          f"{row['server_ms_per_answer']:.1f} ms/answer); generator {row['gen_util']:.2f} of "
          f"a core (loop lag p99 {row['gen_lag_p99_ms']:.0f} ms)", flush=True)
    if row["events"]["sent"]:
        print("    settled-figures events: " + ", ".join(f"{k} {v}" for k, v in
                                                         row["events"].items())
              + f"; joined -> completed p50 {row['settle_p50_ms']:.0f} ms, p95 "
              f"{row['settle_p95_ms']:.0f} ms; {row['gets']} GETs", flush=True)
    if row["flood"]:
        print("    flooding script: " + ", ".join(f"{k} {v}" for k, v in row["flood"].items()),
              flush=True)
    if row["mismatch"]:
        print(f"    {row['mismatch']} grids were for another text than asked (!)", flush=True)


def table(rows: list[dict]) -> str:
    head = (f"{'':3}{'scenario':<26}{'stud':>5}{'sent':>7}{'answ':>7}{'refus':>7}{'other':>6}"
            f"{'p50':>7}{'p95':>7}{'max':>7}{'stale':>6}{'srv ms/ans':>11}{'srv use':>8}"
            f"{'gen use':>8}")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r['scenario'] + '.':3}{r['label']:<26}{r['students']:>5}{r['sent']:>7}"
                     f"{r['answered']:>7}{r['refused']:>7}{r['other']:>6}{r['p50_ms']:>7.0f}"
                     f"{r['p95_ms']:>7.0f}{r['max_ms']:>7.0f}{r['stale']:>6}"
                     f"{r['server_ms_per_answer']:>11.1f}{r['server_util']:>8.2f}"
                     f"{r['gen_util']:>8.2f}")
        if r["flood"]:
            f = r["flood"]
            lines.append(f"{'':3}{'  (flooding script)':<26}{'':>5}{f['sent']:>7}"
                         f"{f['answered']:>7}{f['refused']:>7}{f['other']:>6}")
    lines.append("latencies in ms (keystroke -> its grid; (d): page opened -> first grid); "
                 "srv use / gen use: CPU seconds per second (1.00 = one core)")
    return "\n".join(lines)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--students", type=int, default=30, help="students (pages) per scenario")
    ap.add_argument("--seconds", type=float, default=20.0, help="typing time per scenario")
    ap.add_argument("--grace", type=float, default=5.0,
                    help="seconds after typing stops for the last grids to arrive")
    ap.add_argument("--scenario", action="append", choices=sorted(LABELS),
                    help="a scenario to run (repeatable; default all)")
    ap.add_argument("--quick", action="store_true",
                    help="a smoke test: 4 students, 2.5 s per scenario")
    ap.add_argument("--url", help="an already running server (http://127.0.0.1:PORT); "
                    "start it with AE_PROXY_HOPS=1 for (b) and (d)")
    ap.add_argument("--dir", type=Path, default=ROOT,
                    help="the checkout to run app.py from (e.g. a git archive of HEAD, to "
                    "compare before and after a change)")
    ap.add_argument("--server-pid", type=int,
                    help="with --url: the server's pid, for its CPU time")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VAL",
                    help="environment of the server (repeatable), e.g. AE_DEVICE=cuda")
    ap.add_argument("--server-cpus", default="0", help="cores of the server (taskset)")
    ap.add_argument("--client-cpus", default="1", help="cores of the load generator")
    ap.add_argument("--no-pin", action="store_true", help="do not use taskset at all")
    ap.add_argument("--procs", type=int, default=1,
                    help="generator processes (students split between them)")
    ap.add_argument("--lab-runs", type=int, default=0,
                    help="Lab trainings running beside each scenario (nice 10, on the "
                    "server's cores, as the app's Lab workers)")
    ap.add_argument("--flood-loops", type=int, default=4,
                    help="(e): the script's loops on one session each (plus one loop "
                    "inventing a session per request)")
    ap.add_argument("--settle", action="store_true",
                    help="students also send the settled figures' event once typing pauses "
                    "for 500 ms, as the page does (at 1 key/s: after every key)")
    ap.add_argument("--no-load-event", action="store_true",
                    help="(d): pages send no settled-figures event after their first grid")
    ap.add_argument("--gap", type=float, default=2.0, help="seconds between scenarios")
    ap.add_argument("--timeout", type=float, default=30.0, help="per request, seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="write the results here")
    args = ap.parse_args(argv)
    if args.quick:
        args.students, args.seconds, args.grace, args.gap = 4, 2.5, 2.0, 0.5
        args.flood_loops = min(args.flood_loops, 2)
    args.scenario = sorted(set(args.scenario or LABELS))
    args.server_cpus = None if args.no_pin else cpu_list(args.server_cpus)
    args.client_cpus = None if args.no_pin else cpu_list(args.client_cpus)
    have = os.sched_getaffinity(0)
    for cores in (args.server_cpus, args.client_cpus):
        if cores and not set(cores) <= have:
            ap.error(f"cores {cores} are not all on this machine ({sorted(have)}); "
                     "see --server-cpus / --client-cpus / --no-pin")
    if args.url and not args.url.startswith(("http://127.0.0.1:", "http://localhost:")):
        ap.error("--url: only a server on this machine (http://127.0.0.1:PORT)")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    command = "python -m benchmarks.lecture " + shlex.join(sys.argv[1:] if argv is None
                                                             else argv)
    if args.client_cpus:  # this process too: it must not take the server's core
        os.sched_setaffinity(0, args.client_cpus)
    env = {"AE_PROXY_HOPS": "1"}
    env.update(kv.split("=", 1) for kv in args.env)
    server = AppServer(cmd=pinned([sys.executable, "app.py"], args.server_cpus), env=env,
                       cwd=args.dir)
    salt = 0
    if args.url:  # someone else's server: its limiter may remember our shared addresses
        server.url = args.url.rstrip("/")
        server.port = int(server.url.rsplit(":", 1)[1])
        salt = 1 + int(time.time()) % 200
        pid = args.server_pid
        server_cpu = (lambda: pid_cpu_seconds(pid)) if pid else (lambda: float("nan"))
    else:
        log(f"starting {' '.join(server.cmd)} in {args.dir} with {env}")
        server.start()
        server_cpu = server.cpu_seconds
        log(f"server up in {server.startup_s:.1f} s, models: {server.models}")
    rows = []
    try:
        ctx = app_context(server)
        warm_up(server, ctx["component"])
        print(f"{command}\nserver {server.url} on cores {args.server_cpus or 'any'} "
              f"({'started here' if not args.url else 'given'}), generator on cores "
              f"{args.client_cpus or 'any'} in {args.procs} process(es); load average "
              f"{load_avg()}", flush=True)
        for name in args.scenario:
            log(f"scenario ({name}) {LABELS[name]}: {args.students} students, "
                f"{args.seconds:g} s + {args.grace:g} s grace")
            row = run_scenario(name, args, ctx, server.port, salt, server_cpu)
            rows.append(row)
            show(row)
            time.sleep(args.gap)  # let the server drain before the next class comes in
    finally:
        if not args.url:
            final = server.stop()
            log(f"server stopped; peak RSS {final.get('VmHWM', float('nan')):.0f} MB")
    print()
    print(table(rows))
    print(f"command: {command}")
    if args.json:
        args.json.write_text(json.dumps({
            "command": command, "url": server.url, "env": env if not args.url else None,
            "server_cpus": args.server_cpus, "client_cpus": args.client_cpus,
            "procs": args.procs, "students": args.students, "seconds": args.seconds,
            "grace": args.grace, "settle": args.settle, "load_average": load_avg(),
            "rows": rows}, indent=1))
        log(f"wrote {args.json}")


if __name__ == "__main__":
    main()
