"""The keystroke queue (explorer/server/keystroke_queue.py): waiting requests run together, one
place per session with the newest request winning, the heaviest session refused first when the
server falls behind, and a failing batch answered with a message, never a hang."""

import asyncio
import threading
import time

import pytest

from explorer.server.keystroke_queue import BUSY, FAILED, SUPERSEDED, KeystrokeQueue


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 20))


async def until(check, timeout: float = 10.0) -> None:
    """Wait (yielding to the loop) until ``check()``: what another thread does takes the
    time it takes on a loaded box, so wait for it, not for a fixed pause."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.005)


class Recorder:
    """A run_batch that answers each request with itself, records the batches, and can be
    held (``gate``) so that requests pile up meanwhile."""

    def __init__(self, delay: float = 0.0) -> None:
        self.batches: list[list] = []
        self.delay = delay
        self.gate = threading.Event()
        self.gate.set()
        self.working = threading.Event()  # a batch has reached the worker

    def __call__(self, requests):
        self.working.set()
        self.gate.wait(10)
        time.sleep(self.delay)
        self.batches.append(list(requests))
        return [("answer", r) for r in requests]


def test_requests_waiting_together_run_together():
    rec = Recorder()

    async def main():
        q = KeystrokeQueue(rec, window_s=0.05, max_batch=8)
        try:
            return await asyncio.gather(*(q.submit(f"s{i}", i) for i in range(20))), q.stats
        finally:
            q.close()

    answers, stats = run(main())
    assert answers == [("answer", i) for i in range(20)]
    assert len(rec.batches) < 20 and max(len(b) for b in rec.batches) == 8
    assert sorted(r for b in rec.batches for r in b) == list(range(20))  # each once
    assert stats["answered"] == 20 and stats["refused"] == 0


def test_the_newest_request_of_a_session_takes_its_place():
    rec = Recorder()
    rec.gate.clear()  # the worker is busy with the first batch meanwhile

    async def main():
        q = KeystrokeQueue(rec, window_s=0.0)
        try:
            first = asyncio.ensure_future(q.submit("other", "x"))
            await until(rec.working.is_set)  # "x" is being worked on
            older = asyncio.ensure_future(q.submit("s", "old"))
            await asyncio.sleep(0.01)
            newer = asyncio.ensure_future(q.submit("s", "new"))
            await asyncio.sleep(0.01)
            assert older.done() and older.result() == SUPERSEDED  # at once, no work done
            rec.gate.set()
            return await first, await newer
        finally:
            q.close()

    assert run(main()) == (("answer", "x"), ("answer", "new"))
    assert "old" not in [r for b in rec.batches for r in b]


def test_behind_the_heaviest_session_is_refused_and_the_light_ones_answered():
    """The server falls behind (each request "costs" 0.2 s, at most 0.5 s may wait): a
    session that sent 30 requests is refused, students who sent one are answered."""
    rec = Recorder(delay=0.01)
    rec.gate.clear()

    async def main():
        q = KeystrokeQueue(rec, window_s=0.0, max_wait_s=0.5, first_cost_s=0.2)
        try:
            hold = asyncio.ensure_future(q.submit("warm", 0))
            await until(rec.working.is_set)  # the worker holds "warm"
            script = []
            for i in range(30):  # one session, 30 requests: each replaces the last
                script.append(asyncio.ensure_future(q.submit("script", f"s{i}")))
                await asyncio.sleep(0)
            students = [asyncio.ensure_future(q.submit(f"student{i}", i)) for i in range(2)]
            await asyncio.sleep(0.01)
            late = await q.submit("script", "late")  # behind: the heaviest is refused
            rec.gate.set()
            done = await asyncio.gather(hold, *students, *script)
            return late, done, q.stats
        finally:
            q.close()

    late, done, stats = run(main())
    assert late == BUSY
    hold, s0, s1, *script = done
    assert (s0, s1) == (("answer", 0), ("answer", 1))  # the class is answered
    assert script[:-1] == [SUPERSEDED] * 29 and script[-1] in (BUSY, ("answer", "s29"))
    assert stats["refused"] >= 1


def test_a_failing_batch_is_answered_with_a_message_and_the_queue_goes_on():
    calls = []

    def flaky(requests):
        calls.append(requests)
        if len(calls) == 1:
            raise RuntimeError("boom")
        return list(requests)

    async def main():
        q = KeystrokeQueue(flaky, window_s=0.0)
        try:
            first = await q.submit("a", 1)
            second = await q.submit("a", 2)
            return first, second
        finally:
            q.close()

    assert run(main()) == (FAILED, 2)


def test_a_client_that_goes_away_frees_its_place():
    rec = Recorder()
    rec.gate.clear()

    async def main():
        q = KeystrokeQueue(rec, window_s=0.0)
        try:
            busy = asyncio.ensure_future(q.submit("x", 0))
            await until(rec.working.is_set)  # "x" is being worked on
            gone = asyncio.ensure_future(q.submit("y", 1))
            await asyncio.sleep(0.01)
            gone.cancel()
            with pytest.raises(asyncio.CancelledError):
                await gone
            assert q.backlog_s() == 0  # nobody waits any more
            rec.gate.set()
            return await busy
        finally:
            q.close()

    assert run(main()) == ("answer", 0)
    assert 1 not in [r for b in rec.batches for r in b]
