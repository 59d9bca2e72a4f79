"""The teacher holds the pace and the answer (issue 49 item 2), over class mode's routes
(explorer/server/class_route.py on a small ASGI app, as tests/plumbing/test_class_route.py
drives them): what a follower's long poll carries (the lead's keys, the class's pace, its
resets: no answer, no count, before the reveal or after), the teacher's new actions (let
the class explore, hide the counts until the reveal, reset a step's votes, who answered),
each the teacher's only, bounded, and told to every follower at once."""

from __future__ import annotations

import asyncio

import orjson

from explorer.views.class_state import Classrooms
from explorer.views.start_here_choices import CHOICES
from tests.plumbing.test_class_route import STATE, lead, make, opened, run, waiting

FOLLOWER_KEYS = {"step", "view", "text", "knobs", "revealed", "released", "resets"}


async def follow(c, code, since):
    r = await c.get(f"/ae-class/{code}/follow", params={"since": since})
    assert r.status_code == 200
    return r.json()


async def join(c, code, nickname=None) -> str:
    body = {} if nickname is None else {"nickname": nickname}
    return (await c.post(f"/ae-class/{code}/join", json=body)).json()["student"]


async def answers(c, code, teacher, step=2) -> dict:
    r = await c.get(f"/ae-class/{code}/answers", params={"step": step},
                    headers={"X-AE-Teacher": teacher})
    assert r.status_code == 200
    return r.json()


async def pace(c, code, teacher, **flags):
    return await c.post(f"/ae-class/{code}/pace", json=flags, headers={"X-AE-Teacher": teacher})


def test_a_followers_state_has_no_answer_and_no_counts_before_or_after_the_reveal():
    mat, cat = CHOICES[2][0], CHOICES[2][1]

    async def test(c):
        code, teacher = await opened(c)
        await lead(c, code, teacher)
        students = [await join(c, code) for _ in range(3)]
        for student, pick in zip(students, [mat, mat, cat], strict=True):
            r = await c.post(f"/ae-class/{code}/answer",
                             json={"student": student, "step": 2, "choice": pick})
            assert r.status_code == 200
        got = await follow(c, code, 0)
        assert set(got["state"]) == FOLLOWER_KEYS and got["state"]["revealed"] is False
        raw = orjson.dumps(got).decode()
        assert mat not in raw and cat not in raw and "count" not in raw
        # a lead cannot smuggle an answer or counts in: its keys are fixed
        for extra in ({"answer": "At the word just before."}, {"counts": {mat: 2}}):
            r = await c.post(f"/ae-class/{code}/lead", json={"state": {**STATE, **extra}},
                             headers={"X-AE-Teacher": teacher})
            assert r.status_code == 400
        await lead(c, code, teacher, revealed=True)
        got = await follow(c, code, got["version"])
        assert set(got["state"]) == FOLLOWER_KEYS and got["state"]["revealed"] is True
        assert "count" not in orjson.dumps(got).decode()
        # counts are the teacher's alone, before and after
        r = await c.get(f"/ae-class/{code}/answers?step=2")
        assert r.status_code == 403 and "counts" not in r.json()
        # once revealed, the step takes no more predictions
        r = await c.post(f"/ae-class/{code}/answer",
                         json={"student": students[2], "step": 2, "choice": mat})
        assert r.status_code == 400 and "revealed" in r.json()["message"]
    run(make(), test)


def test_the_teacher_hides_the_counts_until_the_reveal_and_sees_who_answered():
    mat = CHOICES[2][0]

    async def test(c):
        code, teacher = await opened(c)
        await lead(c, code, teacher)
        ann = await join(c, code, "<b>Ann</b>")
        second = await join(c, code)
        await join(c, code)  # joined, never answered
        r = await pace(c, code, teacher, hide_counts=True)
        assert r.json() == {"released": False, "hide_counts": True}
        for student in (second, ann):
            await c.post(f"/ae-class/{code}/answer",
                         json={"student": student, "step": 2, "choice": mat})
        got = await answers(c, code, teacher)
        assert got["hidden"] is True and got["counts"] == {} and got["answered"] == 2
        assert got["who"] == ["<b>Ann</b>", "student 2"]  # join order; text, as given
        assert got["students"] == 3 and got["hide_counts"] is True
        await lead(c, code, teacher, revealed=True)
        got = await answers(c, code, teacher)
        assert got["hidden"] is False and got["counts"] == {mat: 2}
        # another step, not revealed: hidden again
        assert (await answers(c, code, teacher, step=3))["hidden"] is True
        await pace(c, code, teacher, hide_counts=False)
        assert (await answers(c, code, teacher, step=3))["hidden"] is False
    run(make(), test)


def test_reset_and_release_wake_every_follower_with_the_new_pace():
    mat = CHOICES[2][0]

    async def test(c):
        code, teacher = await opened(c)
        await lead(c, code, teacher)
        student = await join(c, code)
        await c.post(f"/ae-class/{code}/answer",
                     json={"student": student, "step": 2, "choice": mat})
        version = (await follow(c, code, 0))["version"]
        waiters = [asyncio.create_task(follow(c, code, version)) for _ in range(20)]
        await waiting(routes, 20)
        r = await c.post(f"/ae-class/{code}/reset", json={"step": 2},
                         headers={"X-AE-Teacher": teacher})
        assert r.status_code == 200
        for got in await asyncio.gather(*waiters):
            assert got["version"] == version + 1 and got["state"]["resets"] == 1
        assert (await answers(c, code, teacher))["answered"] == 0
        waiters = [asyncio.create_task(follow(c, code, version + 1)) for _ in range(20)]
        await waiting(routes, 20)
        assert (await pace(c, code, teacher, released=True)).json()["released"] is True
        for got in await asyncio.gather(*waiters):
            assert got["state"]["released"] is True and got["state"]["step"] == 2
        # the same flag again is no news: no new version
        await pace(c, code, teacher, released=True)
        assert (await follow(c, code, 0))["version"] == version + 2
        # a lead keeps the pace
        await lead(c, code, teacher, step=3)
        assert (await follow(c, code, 0))["state"]["released"] is True
    routes = make(wait_s=10)
    run(routes, test)


def test_the_new_actions_are_the_teachers_and_bounded():
    async def test(c):
        code, teacher = await opened(c)
        student = await join(c, code)
        for action, body in (("pace", {"released": True}), ("reset", {"step": 2})):
            r = await c.post(f"/ae-class/{code}/{action}", json={**body, "teacher": student})
            assert r.status_code == 403
            r = await c.post(f"/ae-class/{code}/{action}", json=body)
            assert r.status_code == 403
            assert (await c.get(f"/ae-class/{code}/{action}")).status_code == 405
        for bad in ({"released": "yes"}, {"hide_counts": 1}, {"released": [True]}):
            assert (await pace(c, code, teacher, **bad)).status_code == 400
        for step in (-1, 21, "2", 2.0, None, True):
            r = await c.post(f"/ae-class/{code}/reset", json={"step": step},
                             headers={"X-AE-Teacher": teacher})
            assert r.status_code == 400
        r = await c.post(f"/ae-class/{code}/pace", content=b"x" * (65 * 1024),
                         headers={"X-AE-Teacher": teacher})
        assert r.status_code == 413
        assert (await follow(c, code, -1))["state"]["released"] is False  # nothing changed
    run(make(), test)


def test_the_teachers_actions_do_not_grow_with_the_class():
    """Release, hide and reset touch the class's flags and one step's votes, never each
    student: with 500 students they take no more registry work than with one (counted as
    the registry's reads of its students, not by the clock)."""
    rooms = Classrooms()
    code, teacher = rooms.open()
    rooms.lead(code, teacher, STATE)
    students = [rooms.join(code) for _ in range(500)]
    for student in students:
        rooms.answer(code, student, 2, CHOICES[2][0])

    class Counting(dict):
        reads = 0

        def __iter__(self):
            Counting.reads += 1
            return super().__iter__()

        def values(self):
            Counting.reads += 1
            return super().values()

        def items(self):
            Counting.reads += 1
            return super().items()

    room = rooms._classes[code]
    room.students = Counting(room.students)
    room.answers = {k: Counting(v) for k, v in room.answers.items()}
    rooms.pace(code, teacher, released=True, hide_counts=True)
    rooms.reset(code, teacher, 2)
    rooms.pace(code, teacher, released=False)
    assert Counting.reads == 0
