"""The Lab's worker processes as the runner sees them, and how many the server may have.

:func:`pool_size`: the CPUs this process may use (``os.sched_getaffinity`` and the cgroup
v2 quota in ``/sys/fs/cgroup/cpu.max``: a container given 2 vCPUs may see the host's 64 in
``os.cpu_count()``), minus one for the server, at least 1, at most 8.

:class:`Worker`: one ``python -m explorer.training.lab_worker`` (or a test's stand-in
module) with its pipes, started as a subprocess or forked from the template process
(:mod:`explorer.training.lab_zygote`, which shares torch's memory among workers); a reader
thread turns its stdout lines into calls of ``on_message(worker, message)`` and, when the
stream ends (the worker exited or was killed), ``on_exit(worker)``.
"""

from __future__ import annotations

import json
import logging
import math
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from explorer.training.lab_zygote import ROOT, Forked, Zygote, child_env

log = logging.getLogger(__name__)
WORKER_MODULE = "explorer.training.lab_worker"


def usable_cpus(cpu_max: Path = Path("/sys/fs/cgroup/cpu.max")) -> int:
    """CPUs this process may run on: its affinity, capped by the cgroup's quota."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    try:
        quota, period = cpu_max.read_text().split()[:2]
        if quota != "max":
            n = min(n, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota: the affinity decides
    return n


def pool_size(cpus: int | None = None) -> int:
    """Workers for ``cpus`` usable CPUs: one left for the server, at least 1, at most 8."""
    return max(1, min(8, (cpus or usable_cpus()) - 1))


def _subprocess(module: str, argv: list[str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", module, *argv],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=child_env(),
        text=True, bufsize=1, close_fds=True)  # close_fds: no other child holds our pipe


class Worker:
    """One worker process (see the module docstring). ``job``: the id it trains, or None."""

    def __init__(self, slot: int, cache_dir: Path, device: str, module: str,
                 on_message: Callable, on_exit: Callable, temporary: bool = False,
                 zygote: Zygote | None = None) -> None:
        self.slot, self.job = slot, None
        self.ready = threading.Event()
        self.rss_kb = self.uss_kb = self.pss_kb = 0  # its memory, as it last said
        self.reports = 0  # how many times it said it (once ready, then after each run)
        self.hello: dict = {}
        argv = ["--cache", str(cache_dir), "--device", device,
                *(["--temporary"] if temporary else [])]
        self.proc = None
        if zygote is not None:
            try:
                self.proc = zygote.fork(module, argv)
            except OSError:  # the template died: this worker starts on its own
                log.warning("the Lab's template process is gone; starting a plain worker")
        if self.proc is None:
            self.proc = _subprocess(module, argv)
        self._on_message, self._on_exit = on_message, on_exit
        threading.Thread(target=self._read, daemon=True, name=f"lab-worker-{slot}").start()

    @property
    def forked(self) -> bool:
        """Whether this worker was forked from the template (else a plain subprocess)."""
        return isinstance(self.proc, Forked)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _read(self) -> None:
        for line in self.proc.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                log.warning("lab worker %s: unreadable line", self.pid)
                continue
            if "rss_kb" in message:
                self.rss_kb = message["rss_kb"]
                self.uss_kb, self.pss_kb = message.get("uss_kb", 0), message.get("pss_kb", 0)
                self.reports += 1
            if "ready" in message:
                self.hello = message  # its pid, memory and the web modules it loaded
                self.ready.set()
            self._on_message(self, message)
        self.proc.wait()
        self._on_exit(self)

    def send(self, message: dict) -> bool:
        """Write one line to the worker (False: it is gone)."""
        try:
            self.proc.stdin.write(json.dumps(message) + "\n")
            self.proc.stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def close(self, timeout: float = 5.0) -> None:
        """End the worker: its stdin closes (it exits at once), then SIGKILL if it lingers."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=timeout)
