"""A class behind one school address (issue 29): 40 students typing at once from ONE address
are all answered and none ends on an older sentence's grid, while a script looping on one
session from the same address is refused. Each student follows the page's own pattern
(static/live.js, live_grid.js): one grid request in flight, keys typed meanwhile collapse
into one more with the newest text, and a refused request is tried again after a pause."""

from __future__ import annotations

import threading
import time
import uuid

import httpx
import pytest

from benchmarks.common import DEFAULT_KNOBS
from tests.server import app_server

GRID_PATH = "gradio_api/component_server/"
SCHOOL = "10.29.0.1"  # every request's X-Forwarded-For (uvicorn trusts it from this machine)
CHARS_PER_S = 8.0
BACKOFF_S = (0.25, 0.5, 1.0, 2.0)


@pytest.fixture(scope="module")
def app_url(resources):
    """A server of this module's own (not the session's ``app_url``): 40 students and a
    script at once leave sessions and a line that other modules' tests must not meet."""
    with app_server(*resources) as url:
        yield url


def _grid_id(url: str) -> int:
    config = httpx.get(url + "config", timeout=10).json()
    return next(c["id"] for c in config["components"]
                if c.get("props", {}).get("elem_id") == "grid")


def _post(client: httpx.Client, url: str, grid: int, session: str, text: str):
    """(answered, payload): answered is False for a refusal (429, or retry in the payload)."""
    r = client.post(url + GRID_PATH, headers={"X-Forwarded-For": SCHOOL}, json={
        "data": {"text": text, "controls": dict(DEFAULT_KNOBS)}, "component_id": grid,
        "fn_name": "grid_data", "session_hash": session})
    if r.status_code == 429:
        return False, None
    payload = r.json()
    return not payload.get("retry"), payload


def _student(url: str, grid: int, sentence: str, out: dict, deadline: float) -> None:
    """Types ``sentence`` as the page sends it; records the sentence of the last grid."""
    session, start, tries = uuid.uuid4().hex, time.monotonic(), 0
    shown, refused = None, 0
    with httpx.Client(timeout=30) as client:
        while time.monotonic() < deadline:
            typed = sentence[:min(len(sentence), 1 + int((time.monotonic() - start)
                                                         * CHARS_PER_S))]
            ok, payload = _post(client, url, grid, session, typed)
            if not ok:
                refused += 1
                time.sleep(BACKOFF_S[min(tries, len(BACKOFF_S) - 1)])
                tries += 1
                continue
            tries, shown = 0, payload.get("text")
            if shown == sentence:
                break
            # the next key, unless more was typed while this one was answered
            typed_now = 1 + int((time.monotonic() - start) * CHARS_PER_S)
            if typed_now <= len(typed):
                time.sleep(max(0.0, (len(typed) / CHARS_PER_S) - (time.monotonic() - start)))
    out[sentence] = (shown, refused)


def test_a_class_behind_one_address_is_served_and_a_script_is_not(app_url):  # noqa: F811
    grid = _grid_id(app_url)
    sentences = [f"Student {i} wrote that the cat sat on the mat." for i in range(40)]
    results: dict = {}
    script = {"sent": 0, "refused": 0}
    stop = threading.Event()
    deadline = time.monotonic() + 60

    session = uuid.uuid4().hex

    def flood():  # one session, 4 loops posting as fast as they are answered
        with httpx.Client(timeout=30) as client:
            while not stop.is_set():
                ok, _ = _post(client, app_url, grid, session, "A script.")
                script["sent"] += 1
                script["refused"] += not ok

    threads = [threading.Thread(target=_student, args=(app_url, grid, s, results, deadline))
               for s in sentences]
    flooders = [threading.Thread(target=flood) for _ in range(4)]
    for t in flooders:
        t.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    stop.set()
    for t in flooders:
        t.join(30)
    stale = [s for s in sentences if results.get(s, (None,))[0] != s]
    assert not stale, f"{len(stale)} students ended on an older grid"
    # the script is held to its session's rate: most of what it sent was refused
    assert script["refused"] > script["sent"] / 2, script
