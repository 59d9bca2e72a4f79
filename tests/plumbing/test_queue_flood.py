"""One client cannot fill everyone's queue (issue 39 part 3), on the real app server.

Measured before: four sessions posting 150 Patch joins each got 516 events into Gradio's
one line of 512, and every other student's Patch and Take it home was answered 503
"Queue is full"; a 1 MB sentence was accepted by Patch. Now a session holds at most
``QUEUED_PER_SESSION`` waiting events and joins at ``JOINS_PER_S``
(explorer/server/client_guard.py), Patch has its own line (explorer/ui/patch_tab.py), and every
text is cut on the server. The flood and the class are benchmarks/queue_flood.py's, all from ONE
address (X-Forwarded-For,
trusted from this machine), loops bounded, local addresses only."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest

from benchmarks.queue_flood import LONG, SCHOOL, _join, events, flood
from explorer.server.client_guard import QUEUED_PER_SESSION
from tests.server import app_server


@pytest.fixture(scope="module")
def app_url(resources):
    """A server of this module's own (not the session's ``app_url``): the floods' backlog
    and the sessions they make end with it, before any other module's test."""
    with app_server(*resources) as url:
        yield url


def test_a_class_of_30_is_answered_through_two_floods_with_no_503(app_url):  # noqa: F811
    stats = asyncio.run(flood(app_url, students=30, heavy=4, heavy_posts=150, many=100,
                              many_posts=3, seconds=240))
    # every student got each of Patch, Ablate and Take it home, and no one a 503
    assert dict(stats["answered"]) == {"patch": 30, "ablate": 30, "export_view": 30}, stats
    assert 503 not in stats["codes"] and 503 not in stats["flood"], stats
    # The floods are held back per session (429 once two wait:
    # test_one_session_holds_at_most_two_waiting_events pins that). How many get refused
    # here depends on how soon the class is served, which stops the floods: on a quiet box
    # none (356 posts, each served before the next), under load hundreds.
    assert stats["flood"][200] < 4 * 150 + 100 * 3, stats["flood"]
    print("flood test:", {k: v for k, v in stats.items() if k != "latency"})


def test_one_session_holds_at_most_two_waiting_events(app_url):  # noqa: F811
    async def burst():
        async with httpx.AsyncClient(base_url=app_url.rstrip("/"), timeout=60) as client:
            fn_index, data = events((await client.get("/config")).json())["patch"]
            # the flood's long sentence (cut to 128 tokens): each Patch takes long enough
            # that few finish while the 16 arrive (with the short default, a quiet server
            # finished 5 in that time and let 9 in)
            data = [LONG if isinstance(v, str) and i == 0 else v for i, v in enumerate(data)]
            session = uuid.uuid4().hex
            # all at once: joins admitted but not yet in the queue count too
            return await asyncio.gather(*(_join(client, fn_index, data, session)
                                          for _ in range(16)))
    codes = [code for code, _ in asyncio.run(burst())]
    # QUEUED_PER_SESSION waiting, plus those Patch's 2 workers took (and finished) while
    # the 16 arrived: how many finished depends on the box's load (a quiet box let 4-5
    # in, the full suite on 2 cores 10), so the bound here only says that the line held
    # some back; test_sessions' test_a_session_joins_only_while_fewer_than_two_of_its_
    # events_wait pins the exact rule. None is refused with 503.
    assert QUEUED_PER_SESSION <= codes.count(200) <= 12, codes
    assert codes.count(429) == 16 - codes.count(200), codes
    assert 503 not in codes


def test_a_1mb_sentence_to_patch_is_cut_with_a_message(app_url):  # noqa: F811
    async def one():
        async with httpx.AsyncClient(base_url=app_url.rstrip("/"), timeout=120) as client:
            fn_index, data = events((await client.get("/config")).json())["patch"]
            clean = "The cat sat on the mat. " * 43_700  # ~1 MB, and its corrupted copy
            data = [clean, *data[1:-2], clean.replace("cat", "dog", 1), ""]
            session = uuid.uuid4().hex
            code, event_id = await _join(client, fn_index, data, session)
            assert code == 200
            async with client.stream("GET", "/gradio_api/queue/data",
                                     params={"session_hash": session},
                                     headers={"X-Forwarded-For": SCHOOL}) as s:
                async for line in s.aiter_lines():
                    if '"process_completed"' in line:
                        return line
            return ""
    line = asyncio.run(one())
    assert '"success": true' in line.replace('":true', '": true'), line[:300]
    assert "Something went wrong" not in line and "logit difference" in line, line[:600]
    assert len(line) < 200_000  # nothing of the megabyte came back


def test_over_four_megabytes_is_refused_with_a_message(app_url):  # noqa: F811
    r = httpx.post(app_url + "gradio_api/queue/join", timeout=60,
                   content=b'{"data": ["' + b"x" * (5 * 1024 * 1024) + b'"]}',
                   headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["detail"]


