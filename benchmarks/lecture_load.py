"""The lecture benchmark's load generator: simulated students (and a flooding script), one
asyncio loop per process. ``benchmarks/lecture.py`` starts it pinned to the client cores
(``taskset``), writes one JSON spec to its stdin and reads one JSON result from its stdout.

A student is a page doing what static/live.js + static/live_grid.js do per keystroke:

* ONE grid request in flight at a time (a plain POST to the canvas's ``grid_data``);
  keys typed meanwhile collapse into ONE more request carrying the latest text.
* A refusal (HTTP 429 from the client guard, or ``{"ok": false, "retry": true}`` from a
  busy server) or a failure (another status, no answer) is retried with the latest text
  after 250, 500, 1000, then 2000 ms (capped; reset by an answer); a keystroke during
  the backoff is sent at once.
* ``{"ok": false}`` without ``retry`` (a message instead of a grid) is an answer: shown,
  and the page waits for the next keystroke.
* With ``spec["settle"]``: once typing pauses (500 ms), the settled figures' Gradio event
  (queue join + event stream); keys typed while it runs wait for it, as on the page.
* With ``spec["browser"]`` the page computes its grids itself (the browser engine, issue
  38): it first fetches what the engine needs (``spec["assets"]``: the scripts, the
  tokenizer, the default model, the texts; a browser keeps them, immutable), then sends
  no request per keystroke, only the settled figures' event once typing pauses. Its
  latency is then the settled event's (pause over -> figures back), not a grid's.

Latency is the page's: from the moment a key is typed to the moment a grid for that text,
or a later text of the same student, arrives. Keystrokes overtaken while a request was in
flight therefore count with the wait for the grid that replaced them. A student is stale
when the grid of its last text never arrived by the end (typing time + grace).

Patterns (``spec["pattern"]``): ``steady`` (one key a second), ``bursts`` (a sentence at 4
keys a second, a pause of 2-5 s to read, the next), ``nonstop`` (4 keys a second, no
pauses), ``load`` (a page opened: GET /, the
first grid from a fresh session, then the settled figures' queue event), ``flood`` (a
script: loops posting as fast as answered, no backoff). Imports nothing heavy, so that a
worker starts in a fraction of a second.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
import uuid

import orjson

from benchmarks.lecture_http import Connection, HTTPError

BACKOFF_S = (0.25, 0.5, 1.0, 2.0)  # static/live.js BACKOFF_MS: failures in a row
GRID_PATH = "/gradio_api/component_server/"
MAX_LEN = 180  # characters: past this a student starts over with a fresh sentence
SETTLE_S = 0.5  # explorer/ui/controls.SETTLE_MS["text"]: the pause before the settled figures


class Stats:
    """Counts of one worker's requests, and the keystroke latencies (ms) it saw."""

    def __init__(self) -> None:
        self.c = dict(sent=0, answered=0, refused=0, other=0, errors=0, mismatch=0,
                      typed=0, covered=0, stale=0, events_sent=0, events_ok=0,
                      events_refused=0, events_failed=0, gets=0)
        self.lat: list[float] = []
        self.settle_lat: list[float] = []  # ms, the settled event: joined -> completed

    def classify(self, status: int, body: bytes, text: str | None) -> str:
        """How the page takes an answer: "answered" (a grid), "refused" (HTTP 429, or
        ``{"ok": false, "retry": true}``), "other" (``{"ok": false}`` without retry: a
        message, shown as the answer) or "failed" (any other status, or no JSON: the page
        retries it as a refusal, static/live_grid.js)."""
        if status == 429:
            return "refused"
        if status != 200:
            return "failed"
        try:
            answer = orjson.loads(body)
        except orjson.JSONDecodeError:
            return "failed"
        if not isinstance(answer, dict):
            return "failed"
        if answer.get("ok") is True:
            if text is not None and answer.get("text") != text:
                self.c["mismatch"] += 1
            return "answered"
        return "refused" if answer.get("retry") else "other"

    def count(self, kind: str) -> None:
        """Tally one grid answer ("failed" counts as an error, within "other")."""
        if kind == "failed":
            self.c["errors"] += 1
            kind = "other"
        self.c[kind] += 1


class Typist:
    """The text a student has in the box after each keystroke: a stretch of the corpus,
    one more character per key, starting over with a fresh one past ``MAX_LEN``."""

    def __init__(self, corpus: str, rng: random.Random) -> None:
        self.corpus, self.rng = corpus * 3, rng
        self.spaces = [i for i, ch in enumerate(corpus) if ch == " "]
        self._fresh()

    def _fresh(self) -> None:
        self.start = self.rng.choice(self.spaces) + 1
        self.length = self.rng.randint(30, 80)  # a sentence already there, being extended

    def key(self) -> str:
        self.length += 1
        if self.length > MAX_LEN:
            self._fresh()
        return self.corpus[self.start:self.start + self.length]


def key_times(pattern: str, seconds: float, rng: random.Random) -> list[float]:
    """When (seconds after the start) a student types each key."""
    if pattern == "load":  # the pages of a class are opened within 2 s
        return [rng.uniform(0.0, 2.0)]
    times, t = [], rng.uniform(0.0, 1.0 if pattern == "steady" else 2.0)
    left = rng.randint(30, 70)  # characters left in the sentence being typed (bursts)
    while t < seconds:
        times.append(t)
        if pattern == "steady":
            t += 1.0
            continue
        if pattern == "nonstop":  # 4 characters a second, never a pause (issue 39)
            t += 0.25
            continue
        t += 0.25  # bursts: a sentence at 4 characters a second, then a pause to read it
        left -= 1
        if left == 0:
            t += rng.uniform(2.0, 5.0)
            left = rng.randint(30, 70)
    return times


class Student:
    """One page (see the module docstring): a typing task and a sending task, the latter
    the live loop of static/live.js for the open Explore tab."""

    def __init__(self, spec: dict, index: int, stats: Stats, rng: random.Random) -> None:
        self.spec, self.stats = spec, stats
        self.conn = Connection("127.0.0.1", spec["port"], timeout=spec["timeout"])
        self.session = uuid.uuid4().hex[:11]
        address = spec["address"] or f"10.{spec['octet']}.{index // 250}.{index % 250 + 1}"
        self.headers = (f"Content-Type: application/json\r\nX-Forwarded-For: {address}\r\n"
                        .encode())
        self.typist = Typist(spec["corpus"], rng)
        self.plan = key_times(spec["pattern"], spec["seconds"], rng)
        self.texts: list[str] = []
        self.typed_at: list[float] = []
        self.done_upto = -1  # the last key whose request was answered (grid or message)
        self.covered_upto = -1  # the last key a grid has arrived for (or a later one)
        self.failures = 0  # failures in a row (the backoff's step)
        self.typing = True
        self.wake = asyncio.Event()  # set by every key typed

    async def ask(self, text: str) -> str:
        if self.spec.get("browser"):  # computed in the page: no request
            self.stats.count("answered")
            return "answered"
        body = orjson.dumps({"data": {"text": text, "controls": self.spec["controls"]},
                             "component_id": self.spec["component"], "fn_name": "grid_data",
                             "session_hash": self.session})
        self.stats.c["sent"] += 1
        try:
            status, answer = await self.conn.request("POST", GRID_PATH, body, self.headers)
        except HTTPError:
            kind = "failed"
        else:
            kind = self.stats.classify(status, answer, text)
        self.stats.count(kind)
        return kind

    def cover(self, k: int) -> None:
        now = time.monotonic()
        for j in range(self.covered_upto + 1, k + 1):
            if not self.spec.get("browser"):  # the page's own compute is not simulated
                self.stats.lat.append((now - self.typed_at[j]) * 1e3)
        self.stats.c["covered"] += k - self.covered_upto
        self.covered_upto = k

    async def type_keys(self, t0: float) -> None:
        try:
            for at in self.plan:
                await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))
                self.texts.append(self.typist.key())
                self.typed_at.append(time.monotonic())
                self.stats.c["typed"] += 1
                self.wake.set()
        finally:
            self.typing = False
            self.wake.set()

    async def pause(self, seconds: float) -> bool:
        """Wait ``seconds``, or less if a key is typed meanwhile (True then)."""
        self.wake.clear()
        try:
            await asyncio.wait_for(self.wake.wait(), seconds)
            return True
        except TimeoutError:
            return False

    async def backoff(self) -> None:
        """After a failure: 250 ms, 500, 1000, then 2000 ms; a key typed during it ends it
        (keys typed while the failed request was out do not: as live.js's sleep)."""
        self.failures += 1
        await self.pause(BACKOFF_S[min(self.failures, len(BACKOFF_S)) - 1])

    async def send(self) -> None:
        """static/live.js's worker for one open view: the grid of the newest text, one
        request at a time; with ``spec["settle"]``, once typing pauses, the settled
        figures' queue event (during which keys wait, as on the page)."""
        settle_owed = False
        while True:
            latest = len(self.texts) - 1
            if self.done_upto < latest:
                kind = await self.ask(self.texts[latest])
                if kind in ("answered", "other"):
                    if kind == "answered":
                        self.cover(latest)
                    self.done_upto, self.failures = latest, 0
                    settle_owed = bool(self.spec.get("settle"))
                else:
                    await self.backoff()
                continue
            if settle_owed:
                if not self.failures and await self.pause(SETTLE_S):
                    continue  # typing goes on: its grid first, the pause starts again
                if len(self.texts) - 1 > self.done_upto:
                    continue
                if await self.settle():
                    settle_owed, self.failures = False, 0
                else:
                    await self.backoff()
                continue
            if not self.typing:
                return
            self.wake.clear()
            await self.wake.wait()

    async def settle(self) -> bool:
        """The settled figures' Gradio event, as the page's client runs it: join the queue,
        then read the session's event stream until it closes. True if it succeeded."""
        fn_index, trigger, template, where = self.spec["queue"]
        data = list(template)
        data[where] = self.texts[-1] if self.texts else ""
        body = orjson.dumps({"data": data, "fn_index": fn_index, "trigger_id": trigger,
                             "session_hash": self.session, "event_data": None})
        self.stats.c["events_sent"] += 1
        began = time.monotonic()
        sse = Connection("127.0.0.1", self.spec["port"], timeout=self.spec["timeout"])
        try:
            status, _ = await self.conn.request("POST", "/gradio_api/queue/join", body,
                                                self.headers)
            if status != 200:
                self.stats.c["events_refused" if status in (429, 503) else "events_failed"] += 1
                return False
            status, stream = await sse.stream_until(
                f"/gradio_api/queue/data?session_hash={self.session}",
                (b"close_stream", b"unexpected_error"), self.headers)
        except HTTPError:
            self.stats.c["events_failed"] += 1
            return False
        for line in stream.split(b"\n"):
            if line.startswith(b"data:"):
                try:
                    msg = orjson.loads(line[5:])
                except orjson.JSONDecodeError:
                    continue
                if msg.get("msg") == "process_completed" and msg.get("success"):
                    self.stats.c["events_ok"] += 1
                    self.stats.settle_lat.append((time.monotonic() - began) * 1e3)
                    return True
        self.stats.c["events_failed"] += 1
        return False

    async def run(self, t0: float) -> None:
        if self.spec.get("browser"):
            await self.fetch_assets(t0)
        await asyncio.gather(self.type_keys(t0), self.send())

    async def fetch_assets(self, t0: float) -> None:
        """The browser engine's files, once, in the first seconds (pages open at once)."""
        await asyncio.sleep(max(0.0, t0 - time.monotonic()))
        for path in self.spec["assets"]:
            try:
                status, _ = await self.conn.request("GET", "/" + path, b"", self.headers)
                self.stats.c["gets"] += 1
                self.stats.c["errors"] += status != 200
            except HTTPError:
                self.stats.c["errors"] += 1

    def finish(self) -> None:
        self.stats.c["stale"] += bool(self.texts) and self.covered_upto < len(self.texts) - 1
        self.conn.close()


class PageLoad(Student):
    """A page opened (pattern ``load``): GET / (the HTML, about 0.5 MB), then its first
    grid from a fresh session (retried as any keystroke), then, after the settle pause,
    the settled figures' queue event (``spec["settle"]``). Latency: open -> first grid."""

    async def run(self, t0: float) -> None:
        await asyncio.sleep(max(0.0, t0 + self.plan[0] - time.monotonic()))
        self.texts.append(self.spec["default_text"])
        self.typed_at.append(time.monotonic())
        self.stats.c["typed"] += 1
        try:
            await self.conn.request("GET", "/", b"", self.headers)
            self.stats.c["gets"] += 1
        except HTTPError:
            self.stats.c["errors"] += 1
        self.typing = False
        await self.send()


async def flood_loop(spec: dict, stats: Stats, fresh: bool, end: float, k: int) -> None:
    """A script's loop (pattern ``flood``): post, and post again the moment an answer
    (any answer) comes; ``fresh``: a new session hash each time, else one throughout."""
    conn = Connection("127.0.0.1", spec["port"], timeout=spec["timeout"])
    headers = f"Content-Type: application/json\r\nX-Forwarded-For: {spec['address']}\r\n"
    headers = headers.encode()
    session = uuid.uuid4().hex[:11]
    corpus, i = spec["corpus"], k * 97
    while time.monotonic() < end:
        i += 1
        start = (i * 37) % (len(corpus) - 120)
        text = corpus[start:start + 60 + i % 60]
        body = orjson.dumps({"data": {"text": text, "controls": spec["controls"]},
                             "component_id": spec["component"], "fn_name": "grid_data",
                             "session_hash": uuid.uuid4().hex[:11] if fresh else session})
        stats.c["sent"] += 1
        try:
            status, answer = await conn.request("POST", GRID_PATH, body, headers)
        except HTTPError:
            stats.count("failed")
            await asyncio.sleep(0.01)  # a refused connection would otherwise spin
            continue
        stats.count(stats.classify(status, answer, text))
    conn.close()


async def watch_lag(lags: list[float], stop: asyncio.Event) -> None:
    """How late this loop wakes from a 50 ms sleep: a saturated generator shows here."""
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(0.05)
        lags.append((time.monotonic() - t - 0.05) * 1e3)


async def run(spec: dict) -> dict:
    stats = Stats()
    t0 = spec["start_at"]
    deadline = t0 + spec["seconds"] + spec["grace"]
    rng = random.Random(spec["seed"])
    lags: list[float] = []
    stop = asyncio.Event()
    ticker = asyncio.ensure_future(watch_lag(lags, stop))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, t0 - time.monotonic()))
    late_ms = (time.monotonic() - t0) * 1e3
    students: list[Student] = []
    if spec["pattern"] == "flood":
        end = t0 + spec["seconds"]
        jobs = [flood_loop(spec, stats, fresh=k >= spec["loops"], end=end, k=k)
                for k in range(spec["loops"] + spec["fresh_loops"])]
    else:
        make = PageLoad if spec["pattern"] == "load" else Student
        students = [make(spec, i, stats, rng) for i in range(spec["first"],
                                                             spec["first"] + spec["count"])]
        jobs = [s.run(t0) for s in students]
    tasks = [asyncio.ensure_future(j) for j in jobs]
    await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for s in students:
        s.finish()
    wall = time.monotonic() - t0
    stop.set()
    await ticker
    return {"pattern": spec["pattern"], "counts": stats.c, "lat_ms": stats.lat,
            "settle_ms": stats.settle_lat,
            "students": len(students), "cpu_s": time.process_time() - cpu0, "wall_s": wall,
            "late_ms": late_ms, "lag_p99_ms": sorted(lags)[int(0.99 * (len(lags) - 1))]
            if lags else 0.0, "lag_max_ms": max(lags, default=0.0)}


def main() -> None:
    spec = json.loads(sys.stdin.read())
    result = asyncio.run(run(spec))
    sys.stdout.write(json.dumps(result))


if __name__ == "__main__":
    main()
