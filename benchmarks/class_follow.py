"""Class mode's push (issue 43): how fast a teacher's change reaches a class following it.

    python -m benchmarks.class_follow                      # 200 students, 20 pushes 1.5 s apart
    python -m benchmarks.class_follow --students 500 --pushes 10 --no-answers

Target: a push from the teacher reaches 95 % of 200 following students, behind one
address, within 1 s on one core.

``python app.py`` runs pinned to ``--server-cpus`` (``taskset``, default core 0) with
``AE_PROXY_HOPS=1``; this process, pinned to ``--client-cpus`` (default core 1), is the
whole class: it opens a class, ``--students`` pages join it, all with ONE
``X-Forwarded-For`` address (a school's proxy), and each follows it as a page does: one
keep-alive connection long-polling ``GET /ae-class/<code>/follow?since=V``, asking again
as soon as an answer comes. The teacher (its own connection) leads ``--pushes`` changes
``--interval`` s apart (a new step and sentence each). Unless ``--no-answers``, each
student then sends a prediction 0.3-1.0 s after the state reaches it (``POST .../answer``,
as the page does once its student picks), and the teacher reads the counts before the
next push (the projector's chart).

Printed: per push, lead sent -> the state read by each follower: p50 / p95 / max, the
fraction of (student, push) pairs within 1 s (a push a follower never got counts as
late); answers sent, refused (429) and failed; the server's CPU per push (its CPU time
over the pushes / pushes: one lead, every follower's answer and next poll, the answers
and the teacher's read; the part the idle server spends anyway is measured over 3 s
before and said), the class process's own CPU use (it must stay under its core), the load
average before and after, and the command.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shlex
import sys
import time

import orjson

from benchmarks.app_server import AppServer
from benchmarks.common import load_avg, log, pct
from benchmarks.lecture import cpu_list, pinned
from benchmarks.lecture_http import Connection, HTTPError
from explorer.views.class_state import lesson_choices

SCHOOL = b"X-Forwarded-For: 10.43.0.1\r\n"  # every student: one address
JSON = b"Content-Type: application/json\r\n"


class Class:
    """The simulated class: who got which version when, and the answers' fate."""

    def __init__(self, port: int, code: str, teacher: str) -> None:
        self.port, self.code, self.teacher = port, code, teacher
        self.sent: dict[int, float] = {}  # version -> when its lead was sent
        self.got: dict[int, list[float]] = {}  # version -> when each follower read it
        self.answers = {"sent": 0, "refused": 0, "failed": 0}
        self.follow_errors = 0
        self.running = True

    async def follow(self, student: str, answer: bool) -> None:
        """One page: long-poll for the next version until the class stops."""
        conn, since = Connection("127.0.0.1", self.port, timeout=60), 0
        answers = Connection("127.0.0.1", self.port)  # a page's second connection
        path = f"/ae-class/{self.code}/follow?since="
        while self.running:
            try:
                status, body = await conn.request("GET", path + str(since), headers=SCHOOL)
            except HTTPError:
                self.follow_errors += 1
                await asyncio.sleep(0.5)
                continue
            now = time.perf_counter()
            data = orjson.loads(body)
            if status != 200:  # 410 once the teacher ends the class: the lesson is over
                self.follow_errors += self.running
                return
            if "state" in data and data["version"] > since:
                self.got.setdefault(data["version"], []).append(now)
                if answer:
                    step = data["state"]["step"]
                    asyncio.get_running_loop().create_task(self._answer(answers, student, step))
            since = data["version"]
        conn.close()
        answers.close()

    async def _answer(self, conn: Connection, student: str, step: int) -> None:
        await asyncio.sleep(random.uniform(0.3, 1.0))
        body = orjson.dumps({"student": student, "step": step,
                             "choice": random.choice(lesson_choices(step))})
        try:
            status, _ = await conn.request("POST", f"/ae-class/{self.code}/answer", body,
                                           SCHOOL + JSON)
        except HTTPError:
            status = 0
        self.answers["sent"] += 1
        if status == 429:
            self.answers["refused"] += 1
        elif status != 200:
            self.answers["failed"] += 1

    async def lead(self, conn: Connection, push: int) -> None:
        state = {"step": push % 21, "view": "explore", "knobs": {"heads": 4},
                 "text": f"Push {push}: the cat sat on the mat.", "revealed": False}
        body = orjson.dumps({"state": state})
        t0 = time.perf_counter()
        status, answer = await conn.request("POST", f"/ae-class/{self.code}/lead", body,
                                            f"X-AE-Teacher: {self.teacher}\r\n".encode()
                                            + JSON)
        if status != 200:
            raise RuntimeError(f"the lead was refused: {status} {answer[:200]!r}")
        self.sent[orjson.loads(answer)["version"]] = t0


async def post_json(conn: Connection, path: str, data: dict) -> dict:
    status, body = await conn.request("POST", path, orjson.dumps(data), SCHOOL + JSON)
    if status != 200:
        raise RuntimeError(f"{path}: {status} {body[:200]!r}")
    return orjson.loads(body)


async def lesson(port: int, args) -> tuple[Class, float]:
    """Open, join, follow, lead; (the class, the server's CPU seconds over the pushes)."""
    conn = Connection("127.0.0.1", port)
    opened = await post_json(conn, "/ae-class/open", {})
    room = Class(port, opened["code"], opened["teacher"])
    students = [(await post_json(conn, f"/ae-class/{room.code}/join",
                                 {"nickname": f"s{i}"}))["student"]
                for i in range(args.students)]
    tasks = [asyncio.get_running_loop().create_task(room.follow(s, not args.no_answers))
             for s in students]
    await asyncio.sleep(1.0)  # every page is waiting on its first poll
    cpu0 = args.server_cpu()
    await asyncio.sleep(3.0)  # the server's own background work, class waiting
    args.idle_cpu_per_s = (args.server_cpu() - cpu0) / 3.0
    cpu0, own0, wall0 = args.server_cpu(), time.process_time(), time.perf_counter()
    teacher = f"X-AE-Teacher: {room.teacher}\r\n".encode()
    for push in range(1, args.pushes + 1):
        await room.lead(conn, push)
        await asyncio.sleep(args.interval)
        await conn.request("GET", f"/ae-class/{room.code}/answers?step={push % 21}", b"",
                           teacher)
    cpu = args.server_cpu() - cpu0
    args.class_cpu = (time.process_time() - own0) / (time.perf_counter() - wall0)
    room.running = False
    await post_json(conn, f"/ae-class/{room.code}/end", {"teacher": room.teacher})
    await asyncio.wait(tasks, timeout=5)
    return room, cpu


def report(room: Class, cpu: float, args, command: str, load_before: str) -> None:
    lat = [got - room.sent[v] for v in room.sent for got in room.got.get(v, [])]
    pairs = args.students * len(room.sent)
    within = sum(t <= 1.0 for t in lat) / pairs if pairs else float("nan")
    print(f"{command}\n{args.students} students behind one address, {len(room.sent)} pushes "
          f"{args.interval:g} s apart; server on cores {args.server_cpus or 'any'}, class on "
          f"cores {args.client_cpus or 'any'}")
    print(f"lead -> follower: p50 {pct(lat, 50) * 1e3:.0f} ms, p95 {pct(lat, 95) * 1e3:.0f} "
          f"ms, max {max(lat, default=float('nan')) * 1e3:.0f} ms; deliveries {len(lat)} / "
          f"{pairs}; within 1 s: {within:.1%} (target >= 95 %: "
          f"{'PASS' if within >= 0.95 else 'FAIL'})")
    print(f"follow errors {room.follow_errors}; answers sent {room.answers['sent']}, "
          f"refused (429) {room.answers['refused']}, failed {room.answers['failed']}")
    per_push = cpu / max(1, len(room.sent))
    idle = args.idle_cpu_per_s * args.interval
    print(f"server CPU per push {per_push * 1e3:.1f} ms "
          f"({'with' if not args.no_answers else 'without'} the answers), of which "
          f"{idle * 1e3:.1f} ms its background work while the class waits (over 3 s "
          f"before): {(per_push - idle) * 1e3:.1f} ms for the push; the class's process used "
          f"{args.class_cpu:.2f} of its core; load average "
          f"before {load_before}, after {load_avg()}")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=200)
    ap.add_argument("--pushes", type=int, default=20)
    ap.add_argument("--interval", type=float, default=1.5, help="seconds between pushes")
    ap.add_argument("--no-answers", action="store_true", help="students only follow")
    ap.add_argument("--server-cpus", default="0", help="cores of the server (taskset)")
    ap.add_argument("--client-cpus", default="1", help="cores of the class (this process)")
    ap.add_argument("--no-pin", action="store_true", help="do not use taskset at all")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    args.server_cpus = None if args.no_pin else cpu_list(args.server_cpus)
    args.client_cpus = None if args.no_pin else cpu_list(args.client_cpus)
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    random.seed(args.seed)
    command = "python -m benchmarks.class_follow " + shlex.join(
        sys.argv[1:] if argv is None else argv)
    if args.client_cpus:  # the class must not take the server's core
        os.sched_setaffinity(0, args.client_cpus)
    server = AppServer(cmd=pinned([sys.executable, "app.py"], args.server_cpus),
                       env={"AE_PROXY_HOPS": "1"})
    log(f"starting {' '.join(server.cmd)}")
    server.start()
    args.server_cpu = server.cpu_seconds
    try:
        load_before = load_avg()
        room, cpu = asyncio.run(lesson(server.port, args))
    finally:
        server.stop()
    report(room, cpu, args, command, load_before)


if __name__ == "__main__":
    main()
