"""A Lab worker process: ``python -m explorer.training.lab_worker --cache DIR``.

Started by :mod:`explorer.training.lab_pool` as a plain subprocess, so that it imports only
what training needs (torch and the trainer; never ``app.py``, gradio, pandas or ``ui``:
multiprocessing's spawn would re-import the server's ``__main__``). It runs at ``nice`` 10
with one torch thread, so the class's keystrokes keep their core.

Protocol, one JSON object a line. On stdin: ``{"job": id, "key": k, "settings": {...}}``
trains a run; ``{"cancel": id}`` stops it (or skips it if not yet started). On stdout:
``{"ready": pid, "rss_kb": n, "pss_kb": n, "uss_kb": n}`` once, then ``{"job": id, "event":
{...}}`` for every event; the run's "done" (or "failed") event comes last, after its cache entry is
written (:func:`explorer.training.lab_cache.store`), so a press that follows it finds the entry.

It exits with the server: the end of stdin (the server's end of the pipe closes when the
server dies, even by SIGKILL) ends it at once, and it checks every second that its parent
is still the one that started it. With ``--temporary`` it then removes the server's
temporary cache folder (a server killed by a signal cannot). PR_SET_PDEATHSIG is not used:
it fires when the *thread* that started the worker ends, and the server starts workers (and
replacements) from whichever thread asks.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

WEB_MODULES = ("explorer.app", "explorer.ui", "gradio", "pandas")  # what a worker never loads


def memory_kb(pid: int | str = "self") -> dict[str, int]:
    """Process ``pid``'s memory in kB (this one's by default; Linux, zeros elsewhere):
    ``rss_kb`` resident,
    ``uss_kb`` its own (private) pages, ``pss_kb`` its own plus its share of the pages it
    shares (with the template it was forked from: explorer/training/lab_zygote.py)."""
    fields = {"Rss:": "rss_kb", "Pss:": "pss_kb", "Private_Clean:": "uss_kb",
              "Private_Dirty:": "uss_kb"}
    out = {"rss_kb": 0, "pss_kb": 0, "uss_kb": 0}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            parts = line.split()
            if parts and parts[0] in fields:
                out[fields[parts[0]]] += int(parts[1])
    except (OSError, ValueError, IndexError):
        pass
    return out


def trim() -> None:
    """Give the run's freed memory back to the system (glibc keeps it otherwise: ~35 MB of
    a worker's ~355 MB after a default run)."""
    import ctypes
    import gc

    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


class Channel:
    """The worker's two pipes: jobs and cancels in, events out (one writer lock)."""

    def __init__(self, temporary: Path | None = None) -> None:
        self.temporary = temporary  # the server's temporary cache: gone with the server
        self.out = os.fdopen(os.dup(1), "w", buffering=1)
        os.dup2(2, 1)  # a stray print() goes to stderr, never into the event stream
        self.jobs: queue.Queue = queue.Queue()
        self.cancelled: set[int] = set()
        self._lock = threading.Lock()
        self._parent = os.getppid()
        threading.Thread(target=self._read, daemon=True, name="lab-stdin").start()
        threading.Thread(target=self._watch_parent, daemon=True, name="lab-parent").start()

    def _read(self) -> None:
        for line in sys.stdin:
            message = json.loads(line)
            if "cancel" in message:
                self.cancelled.add(message["cancel"])
            else:
                self.jobs.put(message)
        self._exit()  # the server is gone (or closed us): nothing to train for

    def _exit(self) -> None:
        if self.temporary is not None:  # a server killed by a signal cannot remove it
            shutil.rmtree(self.temporary, ignore_errors=True)
        os._exit(0)

    def _watch_parent(self) -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != self._parent:
                self._exit()

    def send(self, message: dict) -> None:
        with self._lock:
            self.out.write(json.dumps(message) + "\n")


def train(channel: Channel, job: dict, cache_dir: Path, device: str) -> None:
    """Train one job, keep it in the cache, then report its end."""
    from explorer.training.lab import LabSettings, run_lab
    from explorer.training.lab_cache import store

    job_id, key = job["job"], job["key"]
    out = cache_dir / f"{key}.tmp{os.getpid()}"
    kept: list[dict] = []

    def emit(event: dict) -> None:
        if event["kind"] != "done":  # "done" waits until the entry is written
            channel.send({"job": job_id, "event": event})
        if "probe" in event and kept and "probe" in kept[-1]:  # one probe kept: the last
            kept[-1] = {k: v for k, v in kept[-1].items() if k != "probe"}
        kept.append(event)

    try:
        summary = run_lab(LabSettings(**job["settings"]), emit, out=out, device=device,
                          should_stop=lambda: job_id in channel.cancelled, with_probe=True)
        if summary["stopped"]:
            shutil.rmtree(out, ignore_errors=True)
        else:
            store(out, cache_dir / key, kept)
        channel.send({"job": job_id, "event": summary})
    except Exception as exc:  # reported to the page as a failed run
        shutil.rmtree(out, ignore_errors=True)
        channel.send({"job": job_id, "event": {"kind": "failed", "error": type(exc).__name__}})


def serve(run: Callable[[Channel, dict, Path, str], None] = train,
          argv: list[str] | None = None, trainer: bool = True) -> None:
    """The worker's loop (``run``: another trainer, for the runner's tests; ``trainer=False``:
    torch and the trainer are not imported before "ready", for a stand-in that needs neither)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--temporary", action="store_true",
                    help="the cache folder is the server's temporary one: remove it on exit")
    args = ap.parse_args(argv)
    try:
        os.nice(10)
    except OSError:
        pass
    channel = Channel(args.cache if args.temporary else None)
    if trainer:
        import torch

        torch.set_num_threads(1)  # a model this size: two threads are 3-7x slower than one
        # imported before "ready": the first run is quick
        import explorer.training.lab  # noqa: F401

    web = sorted(m for m in sys.modules if m.startswith(WEB_MODULES))  # must be []
    main = getattr(sys.modules.get("__main__"), "__file__", "") or ""
    web += [main] if Path(main).name == "app.py" else []
    channel.send({"ready": os.getpid(), **memory_kb(), "web_modules": web})
    while True:
        job = channel.jobs.get()
        if job["job"] in channel.cancelled:
            channel.send({"job": job["job"], "event": {"kind": "done", "stopped": True}})
            continue
        run(channel, job, args.cache, args.device)
        trim()
        channel.send(memory_kb())


if __name__ == "__main__":
    serve()
