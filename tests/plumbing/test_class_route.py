"""Class mode's routes (explorer/server/class_route.py) over a real ASGI app: a small Starlette app
wrapped by :class:`ClassRoutes`, driven by httpx over ASGI. The long poll wakes on a lead
(also one from another thread), times out, ends; refusals carry their status and message."""

from __future__ import annotations

import asyncio
import threading
import time

import httpx
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

import explorer.server.class_route
from explorer.server.class_route import ClassRoutes
from explorer.views.class_state import MALFORMED, UNKNOWN, Classrooms
from explorer.views.start_here_choices import CHOICES

STATE = {"step": 2, "view": "explore", "text": "The cat sat on the mat.",
         "knobs": {"heads": 4}, "revealed": False}


def make(wait_s: float = 5.0, hops: int = 0) -> ClassRoutes:
    inner = Starlette(routes=[Route("/", lambda _: PlainTextResponse("the app"))])
    return ClassRoutes(inner, classrooms=Classrooms(), wait_s=wait_s, hops=hops)


def run(routes: ClassRoutes, test) -> None:
    """``await test(client)`` with a client of ``routes`` on a fresh event loop."""
    async def main():
        transport = httpx.ASGITransport(app=routes)
        async with httpx.AsyncClient(transport=transport, base_url="http://class") as c:
            await test(c)
    asyncio.run(main())


async def waiting(routes: ClassRoutes, n: int, timeout: float = 10.0) -> None:
    """Wait until ``n`` follows wait in ``routes`` (each has reached its wait), not for a
    fixed pause: on a loaded box 50 requests take longer to get there."""
    deadline = time.monotonic() + timeout
    while sum(routes._waiting.values()) < n:
        assert time.monotonic() < deadline, f"{sum(routes._waiting.values())} of {n} wait"
        await asyncio.sleep(0.005)


async def opened(c) -> tuple[str, str]:
    r = await c.post("/ae-class/open")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    body = r.json()
    assert body["join"] == "?class=" + body["code"]
    return body["code"], body["teacher"]


async def lead(c, code, teacher, **change) -> httpx.Response:
    return await c.post(f"/ae-class/{code}/lead", json={"state": {**STATE, **change}},
                        headers={"X-AE-Teacher": teacher})


def test_a_lead_wakes_every_follower_at_once_with_the_state():
    async def test(c):
        code, teacher = await opened(c)
        followers = [asyncio.create_task(c.get(f"/ae-class/{code}/follow?since=0"))
                     for _ in range(50)]
        await waiting(routes, 50)
        assert not any(f.done() for f in followers)  # they wait for the lead
        t0 = time.perf_counter()
        assert (await lead(c, code, teacher)).json() == {"version": 1}
        answers = await asyncio.gather(*followers)
        assert time.perf_counter() - t0 < 1.0
        for r in answers:
            assert r.status_code == 200 and r.json() == {
                "version": 1, "state": {**STATE, "released": False, "resets": 0}}
        # a page behind (since < version) gets the state at once
        r = await c.get(f"/ae-class/{code.lower()}/follow", params={"since": 0})
        assert r.json()["version"] == 1
    routes = make(wait_s=10)
    run(routes, test)


def test_a_follow_times_out_with_its_version_and_a_lead_from_a_thread_wakes_it():
    async def test(c):
        code, teacher = await opened(c)
        t0 = time.perf_counter()
        r = await c.get(f"/ae-class/{code}/follow?since=0")
        assert r.json() == {"version": 0} and 0.25 <= time.perf_counter() - t0 < 2
        routes.wait_s = 5
        follow = asyncio.create_task(c.get(f"/ae-class/{code}/follow?since=0"))
        await waiting(routes, 1)
        threading.Thread(target=routes.rooms.lead, args=(code, teacher, STATE)).start()
        r = await asyncio.wait_for(follow, 2)
        assert r.json()["version"] == 1
        assert routes._events == {} and routes._waiting == {}  # nothing left behind
    routes = make(wait_s=0.3)
    run(routes, test)


def test_only_the_teacher_leads_reads_answers_and_ends():
    async def test(c):
        code, teacher = await opened(c)
        student = (await c.post(f"/ae-class/{code}/join", json={"nickname": "Ada"})).json()
        for token in ("wrong", student["student"], ""):
            r = await lead(c, code, token)
            assert r.status_code == 403 and "teacher" in r.json()["message"]
        r = await c.post(f"/ae-class/{code}/lead", json={"state": STATE})
        assert r.status_code == 403
        r = await c.post(f"/ae-class/{code}/lead", json={"state": STATE, "teacher": teacher})
        assert r.json() == {"version": 1}  # the token in the body also works
        r = await c.get(f"/ae-class/{code}/answers?step=2", headers={"X-AE-Teacher": "x"})
        assert r.status_code == 403
        r = await c.post(f"/ae-class/{code}/end", json={"teacher": "x"})
        assert r.status_code == 403
        assert (await c.get(f"/ae-class/{code}/follow?since=0")).json()[
            "version"] == 1
    run(make(), test)


def test_answers_are_counted_for_the_teacher():
    async def test(c):
        code, teacher = await opened(c)
        ids = [(await c.post(f"/ae-class/{code}/join")).json()["student"] for _ in range(4)]
        mat, cat = CHOICES[2][0], CHOICES[2][1]
        for sid, choice in zip(ids, [mat, mat, cat, mat], strict=True):
            r = await c.post(f"/ae-class/{code}/answer",
                             json={"student": sid, "step": 2, "choice": choice})
            assert r.json() == {"ok": True}
        r = await c.post(f"/ae-class/{code}/answer",
                         json={"student": "made-up", "step": 2, "choice": "x"})
        assert r.status_code == 403
        r = await c.post(f"/ae-class/{code}/answer",
                         json={"student": ids[0], "step": 99, "choice": "x"})
        assert r.status_code == 400 and "step" in r.json()["message"]
        r = await c.get(f"/ae-class/{code}/answers?step=2", headers={"X-AE-Teacher": teacher})
        assert {k: v for k, v in r.json().items() if k in ("answered", "students", "counts")
                } == {"answered": 4, "students": 4, "counts": {mat: 3, cat: 1}}
        r = await c.post(f"/ae-class/{code}/answer",
                         json={"student": ids[0], "step": 2, "choice": "made up"})
        assert r.status_code == 400 and "choices" in r.json()["message"]
        r = await c.get(f"/ae-class/{code}/answers", headers={"X-AE-Teacher": teacher})
        assert r.status_code == 400
    run(make(), test)


def test_ended_and_unknown_classes_answer_ended_even_to_waiting_followers():
    async def test(c):
        code, teacher = await opened(c)
        follow = asyncio.create_task(c.get(f"/ae-class/{code}/follow?since=0"))
        await waiting(routes, 1)
        assert (await c.post(f"/ae-class/{code}/end",
                             headers={"X-AE-Teacher": teacher})).json() == {"ok": True}
        r = await asyncio.wait_for(follow, 2)
        assert r.status_code == 410 and r.json()["ended"] is True
        assert "This class has ended" in r.json()["message"]
        for path in (f"{code}/follow", f"{code}/join"):
            r = await (c.get if path.endswith("follow") else c.post)("/ae-class/" + path)
            assert r.status_code == 410 and r.json()["ended"] is True
        for unknown, said in (("ZZZZZZ", UNKNOWN), ("nope", MALFORMED),
                              ("%3Cscript%3E", MALFORMED)):
            r = await c.get(f"/ae-class/{unknown}/follow")
            assert r.status_code == 404 and r.json() == {"ok": False, "ended": True,
                                                         "message": said}
    routes = make()
    run(routes, test)


def test_two_classes_do_not_wake_or_see_each_other():
    async def test(c):
        (a, ta), (b, _) = await opened(c), await opened(c)
        follow_b = asyncio.create_task(c.get(f"/ae-class/{b}/follow?since=0"))
        await lead(c, a, ta, text="only for class A")
        r = await follow_b
        assert r.json() == {"version": 0}  # timed out: A's lead did not reach B
        r = await c.get(f"/ae-class/{b}/follow?since=5")  # lost count: B's own state
        assert r.json()["state"]["text"] == ""
    run(make(wait_s=0.5), test)


def test_bad_requests_are_refused_with_json_messages():
    async def test(c):
        code, _ = await opened(c)
        big = {"nickname": "x" * 70_000}
        r = await c.post(f"/ae-class/{code}/join", json=big)
        assert r.status_code == 413 and r.json()["message"]
        r = await c.post(f"/ae-class/{code}/join", content=b"not json")
        assert r.status_code == 400 and "JSON" in r.json()["message"]
        r = await c.post(f"/ae-class/{code}/join", content=b"[1, 2]")
        assert r.status_code == 400
        r = await c.get(f"/ae-class/{code}/follow?since=abc")
        assert r.status_code == 400 and "since" in r.json()["message"]
        r = await c.get(f"/ae-class/{code}/join")
        assert r.status_code == 405
        r = await c.get("/ae-class/open")
        assert r.status_code == 405
        r = await c.post(f"/ae-class/{code}/nothing")
        assert r.status_code == 404 and r.headers["content-type"] == "application/json"
        r = await c.get("/")  # everything else is the app's
        assert r.text == "the app"
    run(make(), test)


def test_opening_is_limited_per_address_not_for_the_class():
    async def test(c):
        school = {"X-Forwarded-For": "203.0.113.7"}
        codes = [(await c.post("/ae-class/open", headers=school)) for _ in range(20)]
        assert all(r.status_code == 200 for r in codes)
        r = await c.post("/ae-class/open", headers=school)
        assert r.status_code == 429 and "Too many classes" in r.json()["message"]
        r = await c.post("/ae-class/open", headers={"X-Forwarded-For": "198.51.100.1"})
        assert r.status_code == 200
        # a class of 300 behind the school's one address joins and answers
        code = codes[0].json()["code"]
        for _ in range(300):
            r = await c.post(f"/ae-class/{code}/join", headers=school)
            assert r.status_code == 200
    run(make(hops=1), test)


def test_a_class_has_a_bounded_number_of_waiting_followers(monkeypatch):
    monkeypatch.setattr(explorer.server.class_route, "MAX_WAITERS", 3)

    async def test(c):
        code, teacher = await opened(c)
        followers = [asyncio.create_task(c.get(f"/ae-class/{code}/follow?since=0"))
                     for _ in range(3)]
        await waiting(routes, 3)
        r = await c.get(f"/ae-class/{code}/follow?since=0")
        assert r.status_code == 429 and "Too many pages" in r.json()["message"]
        await lead(c, code, teacher)
        assert [r.status_code for r in await asyncio.gather(*followers)] == [200] * 3
        r = await c.get(f"/ae-class/{code}/follow?since=0")  # room again
        assert r.status_code == 200 and r.json()["version"] == 1
    routes = make()
    run(routes, test)


def test_nicknames_roster_and_the_lab_chart_are_the_teachers(tmp_path):
    from explorer.training.lab import LabSettings
    from explorer.views.class_state import record_run
    from tests.training.lab_fakes import stand_in_runner

    runner = stand_in_runner(tmp_path)  # the stand-in worker: no torch
    routes = make()
    routes.lab = lambda: runner
    teacher_only = {}

    async def test(c):
        code, teacher = await opened(c)
        teacher_only["X-AE-Teacher"] = teacher
        ids = [(await c.post(f"/ae-class/{code}/join")).json()["student"] for _ in range(3)]
        r = await c.post(f"/ae-class/{code}/nickname",
                         json={"student": ids[0], "nickname": "<b>Ada</b>\u202e"})
        assert r.json() == {"nickname": "<b>Ada</b>"}  # cleaned, still plain text
        r = await c.post(f"/ae-class/{code}/nickname", json={"student": "x", "nickname": "E"})
        assert r.status_code == 403
        r = await c.get(f"/ae-class/{code}/roster", headers=teacher_only)
        assert r.json() == {"students": 3, "nicknames": ["<b>Ada</b>"]}
        assert (await c.get(f"/ae-class/{code}/roster")).status_code == 403
        r = await c.get(f"/ae-class/{code}/lab", headers=teacher_only)
        assert r.json()["runs"] == [] and r.json()["students"] == 0
        long = LabSettings(max_steps=3000)  # 30 s in the stand-in worker
        for i, sid in enumerate(ids):  # two students, the same settings; one, others
            settings = long if i < 2 else LabSettings(max_steps=3000, seed=1)
            assert record_run(routes.rooms, f"{code} {sid}", runner.ask(f"s{i}", settings))
        r = await c.get(f"/ae-class/{code}/lab", headers=teacher_only)
        chart = r.json()
        assert chart["students"] == 3 and [g["students"] for g in chart["runs"]] == [2, 1]
        assert {g["state"] for g in chart["runs"]} <= {"waiting", "running"}
        assert (await c.get(f"/ae-class/{code}/lab")).status_code == 403
        other, other_teacher = await opened(c)
        r = await c.get(f"/ae-class/{other}/lab", headers={"X-AE-Teacher": other_teacher})
        assert r.json()["runs"] == []  # another class sees none of it
    try:
        run(routes, test)
    finally:
        runner.close()


def test_the_routes_keep_the_registry_they_are_given_even_an_empty_one():
    rooms = Classrooms()  # no class yet: len 0 (the app shares it with the Lab)
    assert ClassRoutes(None, classrooms=rooms).rooms is rooms
