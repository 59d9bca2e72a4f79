"""The Lab's runs for a whole class on one small server: shared trainings, a bounded fair
line, workers that come and go, a checked cache and the class's table.

* **A press and a training.** Each Train press is a *run* (``ask`` returns its id; a page
  reads it with :meth:`LabRunner.view`). Runs with the same settings (the same cache key)
  share one *training*: a press that comes while it waits or trains attaches to it and
  watches it live (the view holds every event from the start, then the new ones); once it
  has finished, later presses replay it from the cache (checked first:
  :mod:`explorer.training.lab_cache`).
* **A bounded line.** One live press per session (a second press leaves the first);
  trainings wait in order of asking, at most ``max_line`` in all and ``per_address`` from
  one address (a class behind one address shares it; attaching and replaying never count).
  A press over a bound is refused with a message; a waiting one sees its place.
* **Nobody watching, too long.** A training whose every press has left (Stop, a new
  press, the page gone: :meth:`leave`, or no :meth:`view` for ``watch_timeout_s``) is
  cancelled; one running longer than ``wall_cap_s`` of wall time (a hung worker: a
  training is bounded by its steps) is stopped. A stopped training is never cached.
* **Workers** (:mod:`explorer.training.lab_pool`, :mod:`explorer.training.lab_worker`):
  ``workers`` processes (default: the usable CPUs but one), started on first use. A worker
  that dies (the out-of-memory killer) fails its training with a message to its watchers,
  frees its slot and is replaced. They exit with the server (their stdin pipe).

One runner per served app (no module-level state); :meth:`close` (also at exit) stops the
workers and removes a temporary cache folder. Everything a page reads is a copy, taken
under one lock.
"""

from __future__ import annotations

import atexit
import hashlib
import itertools
import logging
import shutil
import threading
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from pathlib import Path

from explorer.training import lab_cache
from explorer.training.lab import LabSettings
from explorer.training.lab_pool import WORKER_MODULE, Worker, pool_size
from explorer.training.lab_zygote import Zygote
from explorer.training.lab_zygote import available as zygote_available

log = logging.getLogger(__name__)
MAX_CACHED = 200  # finished runs kept on disk (each ~0.2 MB: events and a 45k-weight model)
MAX_TABLE = 500  # rows of the class's table
MAX_EVENTS = 400  # events kept per run (the curves): the first, then every other when full
MAX_RUNS = 2000  # presses remembered (the oldest finished one goes first)
MAX_LINE = 16  # trainings waiting, in all: 16 default runs on one worker is ~5 minutes
MAX_PER_ADDRESS = 8  # waiting trainings asked from one address
# A training is bounded by its steps (at most 3,000); this only catches a worker that hangs.
# 3,000 steps took ~6 min at load 19 on the 2-core box (1,000 in 125 s): far under it.
WALL_CAP_S = 1800.0
WATCH_TIMEOUT_S = 20.0  # a press no page has looked at for this long has left
TICK_S = 0.5  # how often the runner looks for left presses and overlong trainings

WORKER_DIED = ("⚠️ The worker training this run stopped (the server may be short of "
               "memory). Please press **Train** again.")
NO_WORKERS = "⚠️ The Lab cannot start its workers on this server. Tell your teacher."
LINE_FULL = ("⚠️ **The Lab's line is full** ({n} runs are waiting). Please try again in a "
             "minute, or train settings someone has already trained (the defaults).")
ADDRESS_FULL = ("⚠️ **Your network already has {n} runs waiting** in the Lab's line. Please "
                "try again in a minute, or train settings someone has already trained.")
WALL_STOP = ("⏹️ **This run was stopped** after {s:.0f} s, the Lab's limit for a worker "
             "that hangs: it is not a result. Please press **Train** again.")
TIME_CUT = ("⏹️ **This run was stopped at its time cap** after {steps} of its {total} steps: "
            "it is not a result (a head may still form with the steps left).")


def run_key(settings: LabSettings) -> str:
    """The run's address in the cache: sha256 of its settings (seed and budget included)."""
    return hashlib.sha256(settings.key().encode()).hexdigest()[:24]


@dataclass
class Training:
    """One training of one set of settings, shared by every press that watches it."""

    id: int
    settings: LabSettings
    key: str
    address: str = ""
    state: str = "waiting"  # waiting, running, done, stopped, failed, refused
    events: list = field(default_factory=list)  # the curves' points (thinned when long)
    last: dict | None = None  # the newest event (with the probe's patterns)
    summary: dict | None = None
    message: str | None = None  # why it stopped or failed (Markdown we wrote)
    watchers: set = field(default_factory=set)  # ids of the presses watching it
    started_at: float | None = None
    cancelled: bool = False

    def add(self, event: dict) -> None:
        self.last = event
        point = {k: v for k, v in event.items() if k not in ("probe", "settings")}
        self.events.append(point)
        if len(self.events) > MAX_EVENTS:  # keep the curve's shape in bounded memory
            self.events = self.events[:1] + self.events[2::2]


@dataclass
class Run:
    """One press of Train, as a page sees it."""

    id: int
    session: str
    training: Training
    from_cache: bool = False
    state: str | None = None  # its own end, else the training's: "stopped" (it left)
    seen_at: float = field(default_factory=time.monotonic)


class LabRunner:
    """See the module docstring. ``worker``: the worker's module (a test's stand-in)."""

    def __init__(self, cache_dir: Path | None = None, workers: int | None = None,
                 max_cached: int = MAX_CACHED, worker: str = WORKER_MODULE,
                 device: str = "cpu", max_line: int = MAX_LINE,
                 per_address: int = MAX_PER_ADDRESS, wall_cap_s: float = WALL_CAP_S,
                 watch_timeout_s: float = WATCH_TIMEOUT_S, zygote: bool | None = None) -> None:
        self.cache_dir, self._temporary = lab_cache.private_dir(cache_dir)
        lab_cache.sweep(self.cache_dir)  # a worker killed while writing left its folder
        self.n_workers = workers or pool_size()
        # Workers fork from one template that imported torch once (explorer/training/
        # lab_zygote.py): its ~140 MB of private memory is shared, not paid per worker, and a
        # worker that died is replaced at once, without importing torch again.
        self._use_zygote = zygote_available() and zygote is not False
        self._zygote: Zygote | None = None
        self.device, self.max_cached, self._module = device, max_cached, worker
        self.max_line, self.per_address = max_line, per_address
        self.wall_cap_s, self.watch_timeout_s = wall_cap_s, watch_timeout_s
        self._lock = threading.RLock()
        self._ids = itertools.count(1)
        self._runs: OrderedDict[int, Run] = OrderedDict()  # every press a page may ask about
        self._live: dict[str, int] = {}  # session -> its press on a waiting/running training
        self._trainings: dict[str, Training] = {}  # key -> its waiting or running training
        self._line: OrderedDict[int, Training] = OrderedDict()  # waiting, oldest first
        self._workers: list[Worker] = []
        self._table: list[dict] = []  # the class's finished runs, newest last
        self._checked: dict = {}  # cache entries checked once (lab_cache.load)
        self._started = self._closed = False
        self.replaced = 0  # workers replaced after dying
        self._stillborn = 0  # workers in a row that died before they were ready
        atexit.register(self.close)

    # ------------------------------------------------------------------ workers
    def _spawn(self, slot: int) -> Worker:
        if self._use_zygote and self._zygote is None:
            self._zygote = Zygote()
        return Worker(slot, self.cache_dir, self.device, self._module,
                      self._on_message, self._on_exit, temporary=self._temporary,
                      zygote=self._zygote)

    def _start(self) -> None:
        if self._started or self._closed:
            return
        self._started = True
        self._workers = [self._spawn(i) for i in range(self.n_workers)]
        threading.Thread(target=self._watch, daemon=True, name="lab-runner").start()

    def _on_message(self, worker: Worker, message: dict) -> None:
        if "ready" in message:
            self._stillborn = 0
        with self._lock:
            training = worker.job
            if "job" not in message or training is None or training.id != message["job"]:
                return
            event = message["event"]
            if event["kind"] in ("done", "failed"):
                worker.job = None
                self._finish(training, event)
                self._dispatch()
            else:
                training.add(event)

    def _on_exit(self, worker: Worker) -> None:
        """A worker ended: at close, or it died (killed): fail its run, replace it."""
        with self._lock:
            if self._closed:
                return
            log.warning("lab worker %s exited (%s)", worker.pid, worker.proc.returncode)
            if worker.job is not None:
                self._finish(worker.job, {"kind": "failed", "error": "worker died"},
                             WORKER_DIED)
                worker.job = None
            self._stillborn = 0 if worker.ready.is_set() else self._stillborn + 1
            if self._stillborn >= 3:  # it cannot start here: say so, do not loop
                for training in list(self._line.values()):
                    self._cancel(training, NO_WORKERS, state="failed")
                return
            self.replaced += 1
            self._workers[worker.slot] = self._spawn(worker.slot)
            self._dispatch()

    def _dispatch(self) -> None:
        """Give free workers the oldest waiting trainings."""
        for worker in self._workers:
            if worker.job is not None or not self._line or worker.proc.poll() is not None:
                continue
            _, training = self._line.popitem(last=False)
            training.state, training.started_at = "running", time.monotonic()
            worker.job = training
            worker.send({"job": training.id, "key": training.key,
                         "settings": asdict(training.settings)})

    def _watch(self) -> None:
        """Every TICK_S: presses nobody looks at leave; overlong trainings stop."""
        while not self._closed:
            time.sleep(TICK_S)
            with self._lock:
                now = time.monotonic()
                for session, run_id in list(self._live.items()):
                    if now - self._runs[run_id].seen_at > self.watch_timeout_s:
                        self.stop(session)
                for worker in self._workers:
                    t = worker.job
                    if (t is not None and not t.cancelled
                            and now - t.started_at > self.wall_cap_s):
                        self._cancel(t, WALL_STOP.format(s=self.wall_cap_s))

    # ------------------------------------------------------------------ trainings
    def _finish(self, training: Training, event: dict, message: str | None = None) -> None:
        if event["kind"] == "failed":
            training.state = "failed"
            training.message = message or f"⚠️ This run failed on the server ({event['error']})."
        else:
            training.summary = event
            training.state = "stopped" if event.get("stopped") else "done"
            if event.get("timed_out"):  # never cached, never read as "no head formed"
                training.message = training.message or TIME_CUT.format(
                    steps=event.get("steps"), total=training.settings.max_steps)
            if training.state == "done":
                self._remember(training)
        if self._trainings.get(training.key) is training:
            del self._trainings[training.key]  # later presses replay it from the cache
        for run_id in training.watchers:
            session = self._runs[run_id].session if run_id in self._runs else None
            if self._live.get(session) == run_id:
                del self._live[session]

    def _cancel(self, training: Training, message: str | None = None,
                state: str = "stopped") -> None:
        """Stop a waiting or running training (a running one ends when its worker sees it)."""
        training.message = training.message or message
        if self._trainings.get(training.key) is training:
            del self._trainings[training.key]  # a new press trains afresh
        if training.state == "waiting":
            self._line.pop(training.id, None)
            self._finish(training, {"kind": "done", "stopped": True} if state == "stopped"
                         else {"kind": "failed", "error": state}, message)
            return
        training.cancelled = True
        for worker in self._workers:
            if worker.job is training:
                worker.send({"cancel": training.id})

    def _remember(self, training: Training) -> None:
        """A finished training: a row in the class's table (its files the worker kept)."""
        lab_cache.prune(self.cache_dir, self.max_cached)
        s, summary = training.settings, training.summary
        self._table = (self._table + [{
            "layers": s.layers, "heads": s.heads, "pos": s.pos, "mlp": s.mlp, "norm": s.norm,
            "lr": s.lr, "seed": s.seed, "steps": summary["steps"], "formed": summary["formed"],
            "formed_at_step": summary["formed_at_step"],
            "best_induction": summary["best_induction"],
            "best_previous_token": summary["best_previous_token"]}])[-MAX_TABLE:]

    def _refusal(self, address: str) -> str | None:
        waiting = list(self._line.values())
        if len(waiting) >= self.max_line:
            return LINE_FULL.format(n=len(waiting))
        mine = sum(t.address == address for t in waiting)
        return ADDRESS_FULL.format(n=mine) if mine >= self.per_address else None

    # ------------------------------------------------------------------ the page's verbs
    def warm(self) -> None:
        """Start the workers now (they take a second or two to import torch)."""
        with self._lock:
            self._start()

    def ask(self, session: str, settings: LabSettings, address: str = "") -> int:
        """A press of Train by ``session`` (from ``address``): attach to the same settings'
        training, replay it, queue a new one, or refuse; returns the press's id. The
        session's earlier press leaves its training."""
        with self._lock:
            key = run_key(settings)
            run = Run(next(self._ids), session, self._trainings.get(key))
            if run.training is not None:  # watched before the session's earlier press
                run.training.watchers.add(run.id)  # leaves: pressing the same run again
            self.stop(session)  # (a double click) keeps it going, not restarted
            if run.training is None:
                events = lab_cache.load(self.cache_dir, key, self._checked)
                if events is not None:
                    run.training, run.from_cache = Training(0, settings, key), True
                    for event in events[:-1]:
                        run.training.add(event)
                    run.training.summary, run.training.state = events[-1], "done"
                elif (refusal := self._refusal(address)) is not None:
                    run.training = Training(0, settings, key, address, "refused",
                                            message=refusal)
                else:
                    run.training = Training(next(self._ids), settings, key, address)
                    self._trainings[key] = self._line[run.training.id] = run.training
            if run.training.state in ("waiting", "running"):
                run.training.watchers.add(run.id)
                self._live[session] = run.id
            self._runs[run.id] = run
            self._forget()
            if run.training.state == "waiting":
                self._start()
                self._dispatch()
            return run.id

    def _forget(self) -> None:
        while len(self._checked) > 64:  # the memo of checked entries, bounded
            del self._checked[next(iter(self._checked))]
        if len(self._runs) > MAX_RUNS:  # the oldest press no longer live: nobody asks
            old = next((i for i in self._runs if i not in self._live.values()), None)
            if old is not None:
                del self._runs[old]

    def stop(self, session: str) -> bool:
        """The session's live press leaves its training (cancelled if nobody else watches
        it); True if there was one."""
        with self._lock:
            run_id = self._live.pop(session, None)
            if run_id is None:
                return False
            run = self._runs[run_id]
            run.state = "stopped"
            run.training.watchers.discard(run_id)
            if not run.training.watchers:
                self._cancel(run.training)
            return True

    def leave(self, session: str, run_id: int | None = None) -> bool:
        """The page of ``session`` is gone (or stopped watching ``run_id``): as Stop, if that
        press is still the session's live one."""
        with self._lock:
            if run_id is not None and self._live.get(session) != run_id:
                return False
            return self.stop(session)

    def view(self, run_id: int) -> dict | None:
        """What the page shows of one press: state, place in line, events, newest event,
        message, how many watch it (and the page is still looking)."""
        with self._lock:
            run = self._runs.get(run_id)
            if run is None:
                return None
            run.seen_at = time.monotonic()
            t = run.training
            state = run.state or t.state  # a press that left stays "stopped"
            # the place only: an estimate in seconds from past runs was 2-4x off (issue 42)
            place = list(self._line).index(t.id) + 1 if state == "waiting" else None
            return {"id": run.id, "state": state, "place": place,
                    "from_cache": run.from_cache, "settings": t.settings,
                    "events": list(t.events), "last": t.last, "summary": t.summary,
                    "message": t.message, "watchers": len(t.watchers)}

    def curves(self, run_ids, points: int = 100) -> list[dict]:
        """Class mode's chart (explorer/views/class_lab.py): for each press still known,
        its training's key, settings, state, step where induction formed and curve
        ``[(step, best induction)]`` (at most ``points`` of them, the last kept). Unlike
        :meth:`view` it does not count as the page looking. One curve is copied per key:
        presses of the same settings share it (the longest one seen)."""
        with self._lock:
            runs = [r for r in map(self._runs.get, run_ids) if r is not None]
            longest: dict[str, Training] = {}  # key -> its training with the most events
            for t in (r.training for r in runs):
                if t.key not in longest or len(t.events) > len(longest[t.key].events):
                    longest[t.key] = t
            copied = {}
            for key, t in longest.items():
                kept = t.events[::max(1, -(-len(t.events) // points))]
                if t.events and kept[-1] is not t.events[-1]:
                    kept.append(t.events[-1])  # the curve ends where the run is now
                formed = (t.summary or t.last or {}).get("formed_at_step")
                copied[key] = ([(e["step"], e["best_induction"]) for e in kept
                                if "best_induction" in e], formed)
            return [{"key": r.training.key, "settings": r.training.settings,
                     "state": r.state or r.training.state, "points": copied[r.training.key][0],
                     "formed_at_step": copied[r.training.key][1]} for r in runs]

    def table(self) -> list[dict]:
        with self._lock:
            return list(self._table)

    def latest(self, session: str) -> int | None:
        """The id of ``session``'s newest press still known (None: it has none)."""
        with self._lock:
            return next((r.id for r in reversed(self._runs.values()) if r.session == session),
                        None)

    def model_path(self, run_id: int) -> Path | None:
        """The finished run's checkpoint, if it is still kept."""
        with self._lock:
            run = self._runs.get(run_id)
        path = None if run is None else self.cache_dir / run.training.key / "model.safetensors"
        return path if path is not None and path.exists() else None

    def active(self) -> list[dict]:
        """The waiting and running trainings: state and how many presses watch each."""
        with self._lock:
            return [{"state": t.state, "watchers": len(t.watchers), "cancelled": t.cancelled}
                    for t in self._trainings.values()]

    def workers(self) -> list[Worker]:
        """The worker processes now (for a test or a benchmark: pids, memory)."""
        with self._lock:
            return list(self._workers)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            workers = list(self._workers)
        for worker in workers:
            worker.close()
        if self._zygote is not None:
            self._zygote.close()
        if self._temporary:
            shutil.rmtree(self.cache_dir, ignore_errors=True)
