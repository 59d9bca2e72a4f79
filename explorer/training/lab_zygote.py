"""The Lab's template process: torch and the trainer imported once, each worker forked from it.

``import torch`` costs a process ~218 MB resident, 143 MB of it private (torch's registries
and ~800 Python modules on the heap), and a first training run imports ~830 modules more
(~80 MB). A worker forked from a process that has already paid
it shares those pages copy-on-write, so each further worker adds only what its training
writes. :class:`Zygote` (the server's side) starts ``python -m explorer.training.lab_zygote
FD``; the template imports torch and the trainer, then waits on the Unix socket ``FD``.
Each request there carries the worker's command line and, as ancillary data, the two pipe
ends the worker is to use as stdin and stdout; the template forks, the child runs the
worker's module as ``python -m`` would (:mod:`explorer.training.lab_worker`, or a test's
stand-in), and the template answers with the child's pid. The protocol on the pipes is the
worker's own, unchanged.

Lifetimes: the template exits when the server's end of the socket closes (the server exited
or died, even by SIGKILL); its children then see their stdin end and their parent change,
and exit (lab_worker's rule). The template ignores SIGCHLD, so its ended children are reaped
at once and never linger as zombies. Linux only (fd passing, fork after torch's import with
no threads started); elsewhere the pool starts plain subprocesses.
"""

from __future__ import annotations

import gc
import json
import os
import runpy
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the folder that holds explorer/
MAX_REQUEST = 4096  # bytes of one fork request (a command line of a few paths)


def child_env() -> dict[str, str]:
    """The environment a worker (or the template) starts with: this one, with the folder that
    holds explorer/ first on PYTHONPATH (an installed package or a checkout alike)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def available() -> bool:
    """Whether workers can be forked from a template here (Linux: fork and fd passing)."""
    return sys.platform.startswith("linux") and hasattr(socket, "send_fds")


class Forked:
    """A worker forked by the template, as the pool sees a ``subprocess.Popen``: ``pid``,
    ``stdin``/``stdout`` (text, line-buffered), ``wait``, ``send_signal``. It is the
    template's child, not the server's, so its exit status is not known here
    (``returncode`` becomes -1 once it is gone)."""

    def __init__(self, pid: int, stdin_fd: int, stdout_fd: int) -> None:
        self.pid = pid
        self.stdin = os.fdopen(stdin_fd, "w", buffering=1)
        self.stdout = os.fdopen(stdout_fd, "r")
        self.returncode: int | None = None

    def _alive(self) -> bool:
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # a pid reused by someone else's process: ours is gone
            return False
        return True

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._alive():
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"lab worker {self.pid}", timeout)
            time.sleep(0.02)
        self.returncode = -1
        return self.returncode

    def poll(self) -> int | None:
        if self.returncode is None and not self._alive():
            self.returncode = -1
        return self.returncode

    def send_signal(self, sig: int) -> None:
        try:
            os.kill(self.pid, sig)
        except ProcessLookupError:
            pass


class Zygote:
    """The server's handle on the template process (see the module docstring)."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "explorer.training.lab_zygote", str(theirs.fileno())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, cwd=ROOT, env=child_env())
        theirs.close()
        self._sock = mine
        self._lock = threading.Lock()  # one request and its answer at a time

    def fork(self, module: str, argv: list[str]) -> Forked:
        """A new worker running ``python -m module *argv`` on fresh pipes. Raises OSError
        when the template is gone."""
        to_worker = os.pipe()  # (read: the worker's stdin, write: ours)
        from_worker = os.pipe()  # (read: ours, write: the worker's stdout)
        try:
            with self._lock:
                request = json.dumps({"module": module, "argv": argv}).encode()
                socket.send_fds(self._sock, [request], [to_worker[0], from_worker[1]])
                answer = self._sock.recv(64)
        except OSError:
            for fd in (*to_worker, *from_worker):
                os.close(fd)
            raise
        os.close(to_worker[0])
        os.close(from_worker[1])
        if not answer.startswith(b"pid "):
            os.close(to_worker[1])
            os.close(from_worker[0])
            raise OSError("the Lab's template process is gone")
        return Forked(int(answer[4:]), to_worker[1], from_worker[0])

    def close(self, timeout: float = 5.0) -> None:
        """End the template (its socket closes; it exits at once), SIGKILL if it lingers."""
        self._sock.close()
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=timeout)


# ---------------------------------------------------------------------- the template
def _child(sock: socket.socket, fds: list[int], request: dict) -> None:
    """In the forked child: become ``python -m module *argv`` on the passed pipes."""
    sock.close()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.dup2(fds[0], 0)
    os.dup2(fds[1], 1)
    for fd in fds:
        os.close(fd)
    sys.argv = [request["module"], *request["argv"]]
    sys.modules.pop(request["module"], None)  # preloaded as a module; it runs as __main__
    try:
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
    finally:
        os._exit(0)


def preload() -> None:
    """Import what every worker needs, once, here: torch, the trainer, and what a first run
    imports on its own (torch.optim's first parameter group imports torch._dynamo, and with
    it sympy: ~830 modules, ~80 MB that each worker would otherwise hold privately after
    its first run). One optimizer step on a throwaway parameter does that; it starts no
    thread (one torch thread, no parallel region)."""
    import torch

    torch.set_num_threads(1)
    import explorer.training.lab  # noqa: F401
    import explorer.training.lab_cache  # noqa: F401
    import explorer.training.lab_worker  # noqa: F401

    weight = torch.nn.Parameter(torch.zeros(2))
    optimizer = torch.optim.AdamW([weight], lr=1e-3)
    weight.sum().backward()
    optimizer.step()


def serve(fd: int) -> None:
    """The template's loop on socket ``fd`` (see the module docstring)."""
    sock = socket.socket(fileno=fd)
    preload()
    # Everything imported so far goes to the collector's permanent generation: a worker's
    # collections then never walk (and so never write to, and copy) the shared objects.
    gc.freeze()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # ended children are reaped by the kernel
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, MAX_REQUEST, 2)
        except OSError:
            break
        if not message:  # the server's end closed: the server is gone
            break
        if len(fds) != 2:
            for fd_ in fds:
                os.close(fd_)
            sock.send(b"bad request")
            continue
        pid = os.fork()
        if pid == 0:
            _child(sock, fds, json.loads(message))
        for fd_ in fds:
            os.close(fd_)
        sock.send(f"pid {pid}".encode())


if __name__ == "__main__":
    serve(int(sys.argv[1]))
