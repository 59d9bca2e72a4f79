"""The Lab's worker processes and cache (explorer/training/lab_pool.py, lab_worker.py,
lab_cache.py): a worker killed mid-run fails its run with a message and is replaced;
workers exit with the server on SIGTERM and on SIGKILL; a worker imports only what
training needs; the pool follows the usable CPUs; a damaged cache entry is retrained;
leftovers are swept; the cache is private and a temporary one goes with the server."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from explorer.training.lab import LabSettings
from explorer.training.lab_pool import ROOT, pool_size, usable_cpus
from explorer.training.lab_runner import WORKER_DIED, LabRunner, run_key
from tests.training.lab_fakes import SLOW_WORKER
from tests.training.test_lab_runner import wait_for, wait_running

SHORT = LabSettings(max_steps=8, batch=8, update_s=0.0)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped) is gone too
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_a_killed_worker_fails_its_run_and_is_replaced(tmp_path):
    runner = LabRunner(tmp_path, workers=1, worker=SLOW_WORKER)
    try:
        a = runner.ask("a", LabSettings(max_steps=3000))
        waiting = runner.ask("b", LabSettings(max_steps=50, seed=1))
        wait_running(runner, a)
        victim = runner.workers()[0].pid
        os.kill(victim, signal.SIGKILL)  # what the out-of-memory killer does
        failed = wait_for(runner, a, timeout=10)
        assert failed["state"] == "failed" and failed["message"] == WORKER_DIED
        assert wait_for(runner, waiting, timeout=30)["state"] == "done"  # the line moves on
        assert runner.replaced == 1 and runner.workers()[0].pid != victim
        later = runner.ask("c", LabSettings(max_steps=20, seed=2))
        assert wait_for(runner, later, timeout=30)["state"] == "done"
    finally:
        runner.close()


SERVER = """
import sys, time
from explorer.training.lab import LabSettings
from explorer.training.lab_runner import LabRunner
runner = LabRunner(None, workers=2, worker=sys.argv[2])  # a temporary cache
runner.ask("a", LabSettings(max_steps=3000))
for w in runner.workers():
    w.ready.wait(60)
print(runner.cache_dir, " ".join(str(w.pid) for w in runner.workers()), flush=True)
time.sleep(120)
"""


def _server_then(sig):
    env = {k: v for k, v in os.environ.items() if k != "AE_LAB_CACHE"}
    server = subprocess.Popen([sys.executable, "-c", SERVER, "-", SLOW_WORKER], env=env,
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    cache, *pids = server.stdout.readline().split()
    pids = [int(p) for p in pids]
    assert Path(cache).is_dir()
    assert len(pids) == 2 and all(alive(p) for p in pids)
    server.send_signal(sig)
    server.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [p for p in pids if alive(p)]
    for pid in left:  # never leave them behind, even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers outlived the server ({sig.name})"
    deadline = time.monotonic() + 5
    while Path(cache).exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(cache).exists()  # the server's temporary cache went with it


def test_workers_exit_when_the_server_gets_sigterm():
    _server_then(signal.SIGTERM)


def test_workers_exit_when_the_server_gets_sigkill():
    _server_then(signal.SIGKILL)


def test_a_worker_imports_only_what_training_needs(tmp_path):
    """No app, gradio, pandas or ui (spawn would re-import the server's __main__), and its
    memory is reported (the benchmark prints it)."""
    runner = LabRunner(tmp_path, workers=1)
    try:
        done = wait_for(runner, runner.ask("a", SHORT))
        worker = runner.workers()[0]
        assert done["state"] == "done" and worker.ready.is_set()
        assert worker.hello["web_modules"] == [] and worker.hello["rss_kb"] > 0
        assert "gradio" not in open(f"/proc/{worker.pid}/maps").read()
    finally:
        runner.close()


def test_the_pool_follows_the_usable_cpus(tmp_path):
    quota = tmp_path / "cpu.max"
    quota.write_text("200000 100000\n")  # 2 CPUs' worth
    assert usable_cpus(quota) == min(2, len(os.sched_getaffinity(0)))
    quota.write_text("max 100000\n")
    assert usable_cpus(quota) == len(os.sched_getaffinity(0))
    assert usable_cpus(tmp_path / "none") == len(os.sched_getaffinity(0))
    assert [pool_size(n) for n in (1, 2, 3, 16, 64)] == [1, 1, 2, 8, 8]


def test_a_damaged_entry_is_retrained_and_leftovers_are_swept(tmp_path):
    (tmp_path / "abc.tmp123").mkdir()  # a worker killed while writing
    runner = LabRunner(tmp_path, workers=1)
    try:
        assert not (tmp_path / "abc.tmp123").exists()
        first = wait_for(runner, runner.ask("a", SHORT))
        entry = tmp_path / run_key(SHORT)
        (entry / "events.jsonl").write_text("")  # damaged
        again = wait_for(runner, runner.ask("b", SHORT))
        assert again["state"] == "done" and not again["from_cache"]
        assert again["summary"]["steps"] == first["summary"]["steps"]
        (entry / "model.safetensors").write_bytes(b"junk")  # damaged otherwise
        assert not runner.view(runner.ask("c", SHORT))["from_cache"]
    finally:
        runner.close()


def test_the_cache_is_private_and_a_temporary_one_goes_with_the_server(monkeypatch, tmp_path):
    monkeypatch.delenv("AE_LAB_CACHE", raising=False)
    runner = LabRunner(workers=1)
    folder = runner.cache_dir
    assert folder.is_dir() and folder.stat().st_mode & 0o777 == 0o700
    runner.close()
    assert not folder.exists()
    shared = tmp_path / "lab"
    shared.mkdir(mode=0o755)
    monkeypatch.setenv("AE_LAB_CACHE", str(shared))
    runner = LabRunner(workers=1)
    assert runner.cache_dir == shared and shared.stat().st_mode & 0o777 == 0o700
    runner.close()
    assert shared.exists()  # the teacher's own folder stays


def ppid(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_workers_fork_from_one_template_that_shares_torch(tmp_path):
    """Workers fork from the template (explorer/training/lab_zygote.py): their
    parent is the template, they train, a killed one is replaced by another fork, and the
    runner's close ends the template and its workers. A forked worker's own (private)
    memory is a fraction of its resident memory: torch's pages are the template's."""
    runner = LabRunner(tmp_path, workers=2)
    try:
        runner.warm()
        for worker in runner.workers():
            assert worker.ready.wait(60)
        template = runner._zygote.proc.pid
        workers = runner.workers()
        assert all(w.forked and ppid(w.pid) == template for w in workers)
        assert all(w.hello["uss_kb"] < 0.5 * w.hello["rss_kb"] for w in workers), \
            [w.hello for w in workers]
        assert wait_for(runner, runner.ask("a", SHORT), timeout=60)["state"] == "done"
        victim = workers[0].pid
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while runner.replaced < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        fresh = runner.workers()[0]
        assert runner.replaced == 1 and fresh.pid != victim and ppid(fresh.pid) == template
        later = runner.ask("b", LabSettings(max_steps=8, batch=8, update_s=0.0, seed=3))
        assert wait_for(runner, later, timeout=60)["state"] == "done"
        pids = [w.pid for w in runner.workers()]
    finally:
        runner.close()
    assert not alive(template)
    deadline = time.monotonic() + 5
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in pids)


def test_without_the_template_a_worker_is_a_plain_subprocess(tmp_path):
    """Where workers cannot fork from a template (not Linux), each is ``python -m``."""
    runner = LabRunner(tmp_path, workers=1, zygote=False)
    try:
        runner.warm()
        worker = runner.workers()[0]
        assert worker.ready.wait(60) and not worker.forked and runner._zygote is None
        assert ppid(worker.pid) == os.getpid()
    finally:
        runner.close()
