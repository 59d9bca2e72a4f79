"""The Lab's runs for a whole class on one small server: worker processes, a fair line,
a cache of finished runs and the class's table.

* **Workers**: ``workers`` processes (default: one per core but one, at least one, at
  most 8) on ``device`` (the app's: a GPU when there is one),
  started on first use, each at low priority (``nice`` 10) with one torch thread, so the
  class's keystrokes keep their core and their latency. A worker trains one run at a
  time (:func:`explorer.training.lab.run_lab`) and sends its events back on one queue.
* **A fair line**: more runs than workers wait in order of asking, one per session (a
  second Train from the same session replaces its waiting run); :meth:`LabRunner.view`
  tells each its place and an estimate. A running run of a session that asks again is
  cancelled first. Stop cancels at once (the worker checks every step).
* **The cache**: a run is fixed by its settings and seed, so a finished run's events and
  model are kept on disk under the sha256 of its settings (``cache_dir``, at most
  ``max_cached`` runs, least recently used out first); asking for it again replays it at
  once, equal to the original.
* **The class's runs**: every run finished in this server's life (bounded), with its
  settings and whether and when an induction head formed.

One runner per served app (no module-level state); :meth:`close` stops the workers.
Everything a page reads is a copy, taken under one lock.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import multiprocessing as mp
import os
import queue as queue_mod
import shutil
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from explorer.training.lab import LabSettings, run_lab

log = logging.getLogger(__name__)
MAX_CACHED = 200  # finished runs kept on disk (each ~0.2 MB: events and a 45k-weight model)
MAX_TABLE = 500  # rows of the class's table
MAX_EVENTS = 400  # events kept per run (the curves): the first, then every other when full
FIRST_ESTIMATE_S = 20.0  # what one run is assumed to take before any has finished


def run_key(settings: LabSettings) -> str:
    """The run's address in the cache: sha256 of its settings (seed and budget included)."""
    return hashlib.sha256(settings.key().encode()).hexdigest()[:24]


@dataclass
class Run:
    """One run as the page sees it."""

    id: int
    session: str
    settings: LabSettings
    key: str
    state: str = "waiting"  # waiting, running, done, stopped, failed
    events: list = field(default_factory=list)  # the curves' points (thinned when long)
    last: dict | None = None  # the newest event (with the probe's patterns)
    summary: dict | None = None
    from_cache: bool = False
    asked_at: float = field(default_factory=time.monotonic)

    def add(self, event: dict) -> None:
        self.last = event
        point = {k: v for k, v in event.items() if k not in ("probe", "settings")}
        self.events.append(point)
        if len(self.events) > MAX_EVENTS:  # keep the curve's shape in bounded memory
            self.events = self.events[:1] + self.events[2::2]


def _worker(jobs, events, cancel, cache_dir: str, device: str = "cpu") -> None:
    """A worker process: train each job it is given, report every event, and keep each
    finished run in the cache (its events, the probe's patterns of the last update only,
    and its model, written to a temporary folder and renamed: never half there)."""
    try:
        os.nice(10)
    except OSError:
        pass
    import torch

    torch.set_num_threads(1)
    while True:
        job = jobs.get()
        if job is None:
            return
        run_id, settings, key = job  # (the runner clears ``cancel`` before each job)
        out = Path(cache_dir) / f"{key}.tmp{os.getpid()}"
        kept: list[dict] = []

        def emit(event: dict, run_id=run_id, kept=kept) -> None:
            events.put((run_id, event))
            if "probe" in event and kept and "probe" in kept[-1]:  # one probe: the last
                kept[-1] = {k: v for k, v in kept[-1].items() if k != "probe"}
            kept.append(event)

        try:
            summary = run_lab(settings, emit, should_stop=cancel.is_set, out=out,
                              with_probe=True, device=device)
            final = Path(cache_dir) / key
            if summary["stopped"] or final.exists():
                shutil.rmtree(out, ignore_errors=True)
            else:
                (out / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in kept))
                out.replace(final)
        except Exception as exc:  # reported to the page as a failed run
            shutil.rmtree(out, ignore_errors=True)
            events.put((run_id, {"kind": "failed", "error": type(exc).__name__}))


class LabRunner:
    """See the module docstring. ``job`` replaces the worker loop in tests."""

    def __init__(self, cache_dir: Path, workers: int | None = None,
                 max_cached: int = MAX_CACHED, worker: Callable = _worker,
                 device: str = "cpu") -> None:
        self.cache_dir = Path(cache_dir)
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        self.n_workers = workers or max(1, min(8, (os.cpu_count() or 2) - 1))
        self.device = device  # where the workers train (the app's: a GPU when there is one)
        self.max_cached = max_cached
        self._worker_fn = worker
        self._lock = threading.RLock()
        self._ids = itertools.count(1)
        self._runs: OrderedDict[int, Run] = OrderedDict()  # every run a page may ask about
        self._line: OrderedDict[str, int] = OrderedDict()  # session -> waiting run id
        self._slots: list[int | None] = []  # run id on each worker (None: free)
        self._table: list[dict] = []  # the class's finished runs, newest last
        self._durations: list[float] = []
        self._started = False
        self._ctx = mp.get_context("spawn")  # a fresh interpreter: no copy of the server

    # ------------------------------------------------------------------ processes
    def _start(self) -> None:
        if self._started:
            return
        self._events = self._ctx.Queue()
        self._jobs, self._cancels, self._procs = [], [], []
        for _ in range(self.n_workers):
            jobs, cancel = self._ctx.Queue(), self._ctx.Event()
            proc = self._ctx.Process(target=self._worker_fn, daemon=True,
                                     args=(jobs, self._events, cancel, str(self.cache_dir),
                                           self.device))
            proc.start()
            self._jobs.append(jobs)
            self._cancels.append(cancel)
            self._procs.append(proc)
        self._slots = [None] * self.n_workers
        self._reader = threading.Thread(target=self._read, daemon=True, name="lab-events")
        self._started = True
        self._reader.start()

    def _read(self) -> None:
        while self._started:
            try:
                run_id, event = self._events.get(timeout=0.5)
            except queue_mod.Empty:
                continue
            except (EOFError, OSError):
                return
            with self._lock:
                run = self._runs.get(run_id)
                if run is None:
                    continue
                if event["kind"] in ("done", "failed"):
                    self._finish(run, event)
                else:
                    run.add(event)

    def _finish(self, run: Run, event: dict) -> None:
        if event["kind"] == "failed":
            run.state = "failed"
        else:
            run.summary = event
            run.state = "stopped" if event["stopped"] else "done"
            if run.state == "done":
                self._durations = (self._durations + [event["wall_s"]])[-20:]
                self._remember(run)
        for i, rid in enumerate(self._slots):
            if rid == run.id:
                self._slots[i] = None
        self._dispatch()

    def _remember(self, run: Run) -> None:
        """A finished run: a row in the class's table (its files the worker kept)."""
        self._prune()
        s, summary = run.settings, run.summary
        self._table = (self._table + [{
            "layers": s.layers, "heads": s.heads, "pos": s.pos, "mlp": s.mlp, "norm": s.norm,
            "lr": s.lr, "seed": s.seed, "steps": summary["steps"], "formed": summary["formed"],
            "formed_at_step": summary["formed_at_step"],
            "best_induction": summary["best_induction"],
            "best_previous_token": summary["best_previous_token"]}])[-MAX_TABLE:]

    def _prune(self) -> None:
        kept = sorted((p for p in self.cache_dir.iterdir() if p.is_dir()
                       and (p / "events.jsonl").exists()), key=lambda p: p.stat().st_atime)
        for old in kept[:max(0, len(kept) - self.max_cached)]:
            shutil.rmtree(old, ignore_errors=True)

    def _dispatch(self) -> None:
        """Give free workers the oldest waiting runs."""
        for i, rid in enumerate(self._slots):
            if rid is not None or not self._line:
                continue
            _, run_id = self._line.popitem(last=False)
            run = self._runs[run_id]
            run.state = "running"
            self._slots[i] = run_id
            self._cancels[i].clear()  # here, not in the worker: a Stop may come before it
            self._jobs[i].put((run_id, run.settings, run.key))  # has picked the job up

    # ------------------------------------------------------------------ the page's verbs
    def warm(self) -> None:
        """Start the workers now (they take a second or two to import torch)."""
        with self._lock:
            self._start()

    def ask(self, session: str, settings: LabSettings) -> int:
        """Start (or queue, or replay) a run for ``session``; returns its id. The
        session's earlier run, waiting or running, is cancelled."""
        with self._lock:
            self.stop(session)
            run = Run(next(self._ids), session, settings, run_key(settings))
            self._runs[run.id] = run
            if len(self._runs) > 4 * MAX_TABLE:  # the oldest finished run: nobody asks
                old = next((i for i, r in self._runs.items()  # (a waiting or running one
                            if r.state not in ("waiting", "running")), None)  # is kept)
                if old is not None:
                    del self._runs[old]
            if self._replay(run):
                return run.id
            self._start()
            self._line[session] = run.id
            self._dispatch()
            return run.id

    def _replay(self, run: Run) -> bool:
        path = self.cache_dir / run.key / "events.jsonl"
        try:
            events = [json.loads(line) for line in path.read_text().splitlines() if line]
        except (OSError, ValueError):
            return False
        os.utime(path.parent)  # recently used: kept longer
        run.from_cache = True
        for event in events[:-1]:
            run.add(event)
        run.summary, run.state = events[-1], "done"
        return True

    def stop(self, session: str) -> bool:
        """Cancel the session's waiting or running run (True if there was one)."""
        with self._lock:
            found = False
            waiting = self._line.pop(session, None)
            if waiting is not None:
                self._runs[waiting].state = "stopped"
                found = True
            for i, rid in enumerate(self._slots):
                if rid is not None and self._runs[rid].session == session:
                    self._cancels[i].set()
                    found = True
            return found

    def view(self, run_id: int) -> dict | None:
        """What the page shows of one run: state, place in line, events, newest event."""
        with self._lock:
            run = self._runs.get(run_id)
            if run is None:
                return None
            place, wait_s = None, None
            if run.state == "waiting":
                place = list(self._line.values()).index(run.id) + 1
                each = (sum(self._durations) / len(self._durations) if self._durations
                        else FIRST_ESTIMATE_S)
                wait_s = round(each * -(-place // self.n_workers), 1)
            return {"id": run.id, "state": run.state, "place": place, "wait_s": wait_s,
                    "from_cache": run.from_cache, "settings": run.settings,
                    "events": list(run.events), "last": run.last, "summary": run.summary}

    def table(self) -> list[dict]:
        with self._lock:
            return list(self._table)

    def latest(self, session: str) -> int | None:
        """The id of ``session``'s newest run still known (None: it has none)."""
        with self._lock:
            return next((r.id for r in reversed(self._runs.values()) if r.session == session),
                        None)

    def model_path(self, run_id: int) -> Path | None:
        """The finished run's checkpoint, if it is still kept."""
        with self._lock:
            run = self._runs.get(run_id)
        path = None if run is None else self.cache_dir / run.key / "model.safetensors"
        return path if path is not None and path.exists() else None

    def close(self) -> None:
        if not self._started:
            return
        self._started = False
        for jobs, cancel in zip(self._jobs, self._cancels, strict=True):
            cancel.set()
            jobs.put(None)
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
