"""The keystroke grids of a whole class: one fair queue, answered in batches.

Every keystroke's grid (the canvas's ``grid_data`` server function, explorer/ui/explore_tab.py)
waits here, on the server's event loop, for a worker that runs the model. Three rules:

* **One place per session, the newest request wins.** A page sends one grid request at a
  time, so a session normally has at most one waiting. Should a second one come (a script
  looping on one session, or two tabs sharing one), it takes the first one's place at the
  back of the line, and the first is answered :data:`SUPERSEDED` at once. So however fast
  one session sends, it holds one place: it cannot starve the class, and a script behind
  the same address as a class costs the class nothing more than one more student does.
* **Everyone is answered while the server keeps up.** There is no fixed rate per address
  or per session here. Only when the line would take longer than ``max_wait_s`` to work
  through (the measured cost per request times the requests waiting) is a request
  refused, and then the one of the *heaviest* session, by its recent number of requests
  (decaying over ``LOAD_HALF_LIFE_S``): a busy script is refused before a student who
  typed one key. A refused request gets :data:`BUSY` at once; the page tries again after
  a short pause (static/live.js), with the newest sentence.
* **Requests waiting together run together.** The worker takes up to ``max_batch``
  waiting requests (oldest first, so one per session) and hands them to ``run_batch`` in
  one call, in a thread of its own (the model releases the GIL; the event loop keeps
  taking requests meanwhile). When the worker was idle it first waits ``window_s`` for
  others to arrive. Nothing here knows about models: ``run_batch`` maps a list of requests
  to a list of answers (explorer.views.grid_payload.grid_payloads).

Everything is touched only from the event loop that first submits (Gradio's), so the
tables need no lock; each queue belongs to one served app (no module-level state).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from explorer.server.threads import name_thread

log = logging.getLogger("attention_explorer")

MAX_BATCH = 32  # requests per call of run_batch (explorer.analysis.run.MAX_BATCH)
WINDOW_S = 0.003  # an idle worker waits this long for more requests to batch with
MAX_WAIT_S = 1.0  # past this much work waiting, the heaviest session's request is refused
LOAD_HALF_LIFE_S = 5.0  # a session's recent requests count half after this long
MAX_LOADS = 16384  # sessions whose recent load is remembered (least recent out first)
THREAD = "ae-keystrokes"  # the model thread's name in the OS (explorer/server/threads.py)
BUSY = {"ok": False, "retry": True,
        "caption": "⏳ The server is busy: trying again in a moment…"}
SUPERSEDED = {"ok": False, "retry": True, "superseded": True,
              "caption": "A newer request from this page took this one's place."}
FAILED = {"ok": False, "caption": "⚠️ Something went wrong with this request. Please try again."}


class KeystrokeQueue:
    """A fair line of keystroke requests (one place per session) whose waiting requests
    ``run_batch`` answers together. ``clock`` is injectable for tests."""

    def __init__(self, run_batch: Callable[[list[Any]], list[Any]], *,
                 max_batch: int = MAX_BATCH, window_s: float = WINDOW_S,
                 max_wait_s: float = MAX_WAIT_S, clock: Callable[[], float] = time.monotonic,
                 first_cost_s: float = 0.005) -> None:
        self.run_batch = run_batch
        self.max_batch, self.window_s, self.max_wait_s = max_batch, window_s, max_wait_s
        self.clock = clock
        # session -> (request, future): one place per session, oldest first
        self._line: OrderedDict[Any, tuple[Any, asyncio.Future]] = OrderedDict()
        self._loads: OrderedDict[Any, list[float]] = OrderedDict()  # session -> [load, t]
        # The sessions in line, heaviest first: (-weight, n, session, future). A weight is
        # log2(load) + t / half-life, which orders sessions by load at any one time without
        # decaying every entry; an entry whose future left the line is skipped when met.
        self._heavy: list[tuple[float, int, Any, asyncio.Future]] = []
        self._order = itertools.count()
        self._cost = first_cost_s  # seconds of work per request, measured (moving average)
        self._wake: asyncio.Event | None = None
        self._worker: asyncio.Task | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._anonymous = itertools.count()  # a request naming no session is its own
        self.stats = {"answered": 0, "refused": 0, "superseded": 0, "batches": 0}

    # ------------------------------------------------------------------ admission
    def _load(self, session: Any, now: float, add: float = 0.0) -> float:
        """The session's recent number of requests (``add`` counts one more)."""
        entry = self._loads.pop(session, None) or [0.0, now]
        entry[0] = entry[0] * math.exp2(-(now - entry[1]) / LOAD_HALF_LIFE_S) + add
        entry[1] = now
        self._loads[session] = entry
        if len(self._loads) > MAX_LOADS:
            self._loads.popitem(last=False)
        return entry[0]

    @staticmethod
    def _weight(load: float, now: float) -> float:
        return math.log2(max(load, 1e-9)) + now / LOAD_HALF_LIFE_S

    def _waiting(self, session: Any, future: asyncio.Future) -> bool:
        """Whether ``future`` still holds ``session``'s place in line (not answered,
        replaced or gone)."""
        return self._line.get(session, (None, None))[1] is future

    def _heaviest(self) -> tuple[float, Any]:
        """(weight, session) of the heaviest session in line (the line is not empty)."""
        while True:
            weight, _, key, future = self._heavy[0]
            if self._waiting(key, future):
                return -weight, key
            heapq.heappop(self._heavy)  # it was answered or replaced since

    def backlog_s(self) -> float:
        """How long the requests waiting now would take to work through (estimated)."""
        return len(self._line) * self._cost

    async def submit(self, session: Any, request: Any) -> Any:
        """The answer to ``request`` of ``session`` (None: a session of its own)."""
        loop = asyncio.get_running_loop()
        if self._worker is None or self._worker.done():
            self._wake = asyncio.Event()
            self._worker = loop.create_task(self._work())
        key = ("anonymous", next(self._anonymous)) if session is None else session
        now = self.clock()
        load = self._load(key, now, add=1.0)
        if key in self._line:  # the newest request of a session takes its place
            _, older = self._line.pop(key)
            self._answer(older, SUPERSEDED, "superseded")
        elif (self.backlog_s() + self._cost) > self.max_wait_s and self._line:
            weight, heaviest = self._heaviest()
            if weight <= self._weight(load, now):  # this session is the heaviest: refuse it
                self.stats["refused"] += 1
                return BUSY
            _, victim = self._line.pop(heaviest)
            heapq.heappop(self._heavy)
            self._answer(victim, BUSY, "refused")
        future = loop.create_future()
        self._line[key] = (request, future)
        heapq.heappush(self._heavy, (-self._weight(load, now), next(self._order), key, future))
        self._wake.set()
        try:
            return await future
        except asyncio.CancelledError:  # the client went away: free its place
            if self._waiting(key, future):
                del self._line[key]
            raise

    def _answer(self, future: asyncio.Future, answer: Any, counter: str) -> None:
        if not future.done():
            future.set_result(answer)
        self.stats[counter] += 1

    # ------------------------------------------------------------------ the worker
    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        if self._pool is None:  # one thread: one batch at a time is fastest on a core
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="keystrokes",
                                            initializer=name_thread, initargs=(THREAD,))
        while True:
            await self._wake.wait()
            self._wake.clear()
            if not self._line:
                continue
            if len(self._line) < self.max_batch and self.window_s > 0:
                await asyncio.sleep(self.window_s)  # idle until now: let others join
            if len(self._heavy) > 4 * len(self._line) + 64:  # drop answered entries
                self._heavy = [e for e in self._heavy if self._waiting(e[2], e[3])]
                heapq.heapify(self._heavy)
            while self._line:
                batch = [self._line.popitem(last=False)
                         for _ in range(min(self.max_batch, len(self._line)))]
                requests = [request for _, (request, _) in batch]
                started = time.perf_counter()
                try:
                    answers = await loop.run_in_executor(self._pool, self.run_batch, requests)
                    if len(answers) != len(batch):
                        raise ValueError("run_batch gave a wrong number of answers")
                except Exception:
                    log.exception("a batch of keystroke grids failed")
                    answers = [FAILED] * len(batch)
                spent = time.perf_counter() - started
                # per request, a moving average: what one more waiting request costs
                self._cost = 0.8 * self._cost + 0.2 * spent / len(batch)
                self.stats["batches"] += 1
                for (_, (_, future)), answer in zip(batch, answers, strict=True):
                    self._answer(future, answer, "answered")

    def close(self) -> None:
        """Stop the worker and its thread (a server shutting down, a test)."""
        if self._worker is not None:
            self._worker.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
