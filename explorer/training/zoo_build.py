"""Train the whole checkpoint zoo, one model after another, resumably.

``python -m explorer.training.zoo_build [--only NAME ...] [--tokens 12e6] [--threads 1] [--resume]
[--dry-run]`` trains, in the priority order of :func:`planned_names`, every zoo
checkpoint that ``checkpoints/`` does not hold yet (weights *and* card), or holds from
another recipe or budget (its card says what it was trained with). Each is
trained by calling ``explorer.training.train.main`` with every architecture argument
spelled out, so the command the card records rebuilds exactly that model. After
each model, each in a fresh process (:func:`finish_commands`): ``explorer.training.evaluate``
for it, ``explorer.analysis.page_check`` (on how many held-out openings the page names its
heads), then the manifest and README are regenerated, so an interrupted build leaves a
consistent folder.

``--resume`` is passed on to the trainer, which continues an interrupted run from
``runs/NAME/resume.safetensors`` (without it a half-trained run starts over).
A name that an ``explorer.training.train`` process is training right now is skipped. Only one
builder of the whole plan runs at a time (``runs/zoo_build.lock``); builders given
disjoint ``--only`` lists take no lock, so a machine with two cores can run two, one
per core (``nice -n 10 python -m explorer.training.zoo_build --only ... &`` twice).

``--jobs N`` trains up to N models at once, each in its own process (its output in
``runs/NAME.log``), and evaluates each as it finishes; ``--device cuda`` trains on a GPU.
One H100 took 12 models at once in under six minutes (``--jobs 12 --device cuda``, one
CPU core per process): the models are small, so each process is bound by its own Python.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import torch

from explorer.models.checkpoint import sha256_file
from explorer.models.zoo import CHECKPOINT_DIR, DEFAULT_NAME, NAME_RE
from explorer.training import train
from explorer.training.zoo_plan import (  # noqa: F401 (planned_names: the CLI's list)
    BUDGET,
    DEFAULT_SNAPSHOTS,
    RECIPE,
    SIZE,
    on_recipe,
    planned_names,
)

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "runs"
LOCK = RUNS / "zoo_build.lock"
def tokens_arg(text: str) -> str:
    """``2e6`` -> ``2000000`` (the trainer reads a float; the card should show the count)."""
    value = float(text)
    if value <= 0 or value != int(value):
        raise argparse.ArgumentTypeError(f"--tokens must be a positive whole number, got {text}")
    return str(int(value))


def train_argv(name: str, tokens: str, threads: int, resume: bool,
               device: str | None = None) -> list[str]:
    """Arguments for ``explorer.training.train.main`` that build ``name`` (seed 0, the
    zoo's size); ``device`` only when asked for (the trainer picks CUDA when it is there)."""
    match = NAME_RE.match(name)
    if not match:
        raise ValueError(f"{name!r} is not a zoo name like causal-h4-rotary")
    objective, heads, pos = match.groups()
    argv = ["--name", name, "--heads", heads, "--pos", pos]
    if objective == "bidir":
        argv.append("--bidirectional")
    for flag, value in {**SIZE, **RECIPE}.items():
        argv += [flag, value]
    argv += ["--tokens", tokens, "--seed", "0", "--threads", str(threads)]
    if name == DEFAULT_NAME:
        argv += ["--snapshots", str(DEFAULT_SNAPSHOTS)]
    if device:
        argv += ["--device", device]
    if resume:
        argv.append("--resume")
    return argv


def is_trained(name: str, directory: Path = CHECKPOINT_DIR) -> bool:
    return all((directory / f"{name}{ext}").exists() for ext in (".safetensors", ".json"))


def eval_is_current(name: str, directory: Path = CHECKPOINT_DIR) -> bool:
    """The eval file exists and was computed from the weights now on disk."""
    path = directory / "eval" / f"{name}.json"
    if not path.exists():
        return False
    return json.loads(path.read_text()).get("weights_sha256") == sha256_file(
        directory / f"{name}.safetensors")


def training_elsewhere(name: str) -> int | None:
    """Pid of another ``explorer.training.train`` process training ``name`` (Linux /proc),
    if any."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            args = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if "explorer.training.train" in args and any(
                a == "--name" and b == name for a, b in zip(args, args[1:], strict=False)):
            return int(entry.name)
    return None


def is_current(name: str, tokens: str, directory: Path = CHECKPOINT_DIR) -> bool:
    """The card says this model was trained with ``RECIPE`` and ``tokens``."""
    try:
        card = json.loads((directory / f"{name}.json").read_text())
        seen = card["training"]["tokens"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return seen == int(tokens) and on_recipe(card)


def status(name: str, tokens: str = BUDGET) -> str:
    if is_trained(name) and is_current(name, tokens):
        return "done"
    pid = training_elsewhere(name)
    if pid:
        return f"busy (pid {pid} is training it)"
    if (RUNS / name / "resume.safetensors").exists():
        return "interrupted"
    return "to retrain" if is_trained(name) else "to train"


def run_jobs(commands: dict[str, list[str]], jobs: int, on_done: Callable[[str, int], None],
             log_dir: Path | None = None, env: dict | None = None,
             poll_s: float = 1.0) -> dict[str, int]:
    """Run each command in its own process, at most ``jobs`` at once, in the given order;
    ``on_done(name, returncode)`` as each one ends. Stopping this (Ctrl-C) stops them all."""
    pending, running, codes = list(commands.items()), {}, {}
    try:
        while pending or running:
            while pending and len(running) < max(1, jobs):
                name, argv = pending.pop(0)
                log = open(log_dir / f"{name}.log", "w") if log_dir else subprocess.DEVNULL
                proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env,
                                        cwd=ROOT)
                running[name] = (proc, log)
            time.sleep(poll_s)
            for name, (proc, log) in list(running.items()):
                if proc.poll() is None:
                    continue
                if log is not subprocess.DEVNULL:
                    log.close()
                del running[name]
                codes[name] = proc.returncode
                on_done(name, proc.returncode)
    finally:
        for proc, _ in running.values():
            proc.terminate()
    return codes


def finish_commands(names: list[str], threads: int) -> list[list[str]]:
    """What runs after ``names`` are trained: evaluate them and regenerate the manifest and
    README (the page loads only weights whose sha the manifest holds), count what the page
    names (``explorer.analysis.page_check``, a layer above this one, so a command and not an
    import), then regenerate the README again with those counts.

    Each is its own process: a build runs for hours, and an edit to the evaluation or the
    index generator made meanwhile must reach the next model (a module imported at the start
    would keep its old code, and write a README the generator no longer makes)."""
    threads_arg = ["--threads", str(threads)]
    return [[sys.executable, "-m", "explorer.training.evaluate", *names, "--write-index",
             *threads_arg],
            [sys.executable, "-m", "explorer.analysis.page_check", *names, *threads_arg],
            [sys.executable, "-m", "explorer.training.evaluate", "--write-index"]]


def finish(names: list[str], threads: int) -> bool:
    """Run :func:`finish_commands`, stopping at the first that fails; a failure is reported,
    not raised, so the models still training in parallel are not stopped."""
    for command in finish_commands(names, threads):
        code = subprocess.run(command, cwd=ROOT).returncode
        if code != 0:
            print(f"{' '.join(names)}: `{shlex.join(command[1:])}` failed (exit {code})",
                  flush=True)
            return False
    return True


def train_in_parallel(todo: list[str], args: argparse.Namespace) -> None:
    """``--jobs``: each model in its own ``explorer.training.train`` process, evaluated here
    as it finishes (so a stopped build keeps every model that got that far)."""
    todo = [n for n in todo if not training_elsewhere(n)]
    commands = {n: [sys.executable, "-m", "explorer.training.train",
                    *train_argv(n, args.tokens, args.threads, args.resume, args.device)]
                for n in todo}
    env = {**os.environ, "OMP_NUM_THREADS": str(args.threads)}

    def done(name: str, code: int) -> None:
        if code == 0:
            finish([name], args.threads)
        else:
            print(f"{name}: training failed (exit {code}); see {RUNS / (name + '.log')}")

    print(f"training {len(commands)} models, up to {args.jobs} at once (logs: {RUNS}/NAME.log)",
          flush=True)
    run_jobs(commands, args.jobs, done, log_dir=RUNS, env=env, poll_s=5.0)


def acquire_lock() -> None:
    """One builder at a time; a lock left by a dead process is taken over."""
    RUNS.mkdir(parents=True, exist_ok=True)
    if LOCK.exists():
        pid = int(LOCK.read_text().strip() or 0)
        if pid and Path(f"/proc/{pid}").exists():
            raise SystemExit(f"another zoo build (pid {pid}) is running; see {LOCK}")
        LOCK.unlink()
    fd = os.open(LOCK, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", metavar="NAME", help="train just these zoo names")
    p.add_argument("--tokens", type=tokens_arg, default=BUDGET, help="budget per model")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    p.add_argument("--resume", action="store_true",
                   help="continue interrupted runs from runs/NAME/resume.safetensors")
    p.add_argument("--jobs", type=int, default=1,
                   help="train this many models at once, one process each")
    p.add_argument("--device", default=None, help="e.g. cuda (default: the trainer's choice)")
    p.add_argument("--dry-run", action="store_true", help="print the plan and stop")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    plan = planned_names()
    names = plan
    if args.only:
        unknown = [n for n in args.only if not NAME_RE.match(n)]
        if unknown:
            raise SystemExit(f"not zoo names: {', '.join(unknown)}")
        # plan order first, then any extra valid names in the order given
        names = [n for n in plan if n in args.only] + [n for n in args.only if n not in plan]
    states = {name: status(name, args.tokens) for name in names}
    for name in names:
        command = "python -m explorer.training.train " + shlex.join(
            train_argv(name, args.tokens, args.threads, args.resume, args.device))
        note = {"done": "", "interrupted": "  (resumes)" if args.resume else
                "  (restarts: pass --resume to continue)"}.get(states[name], "")
        print(f"{name:<22} {states[name]}{note}\n    {command}")
    todo = [n for n in names if states[n] in ("to train", "to retrain", "interrupted")]
    print(f"{len(todo)} to train, {sum(s == 'done' for s in states.values())} done, "
          f"{sum(s.startswith('busy') for s in states.values())} busy")
    if args.dry_run:
        return 0

    torch.set_num_threads(args.threads)
    locked = not args.only
    if locked:
        acquire_lock()
    try:
        evaluate_stale(names, args.threads)
        if args.jobs > 1:
            RUNS.mkdir(parents=True, exist_ok=True)
            train_in_parallel(todo, args)
            todo = []
        for name in todo:
            if training_elsewhere(name):  # started by someone else since the plan was made
                print(f"skipping {name}: another process is training it")
                continue
            if is_trained(name) and is_current(name, args.tokens):  # finished meanwhile
                print(f"skipping {name}: already trained")
                continue
            print(f"=== training {name} ===", flush=True)
            train.main(train_argv(name, args.tokens, args.threads, args.resume, args.device))
            finish([name], args.threads)
        evaluate_stale(names, args.threads)  # models another process finished meanwhile
    finally:
        if locked:
            LOCK.unlink(missing_ok=True)
    return 0


def evaluate_stale(names: list[str], threads: int) -> None:
    """Evaluate (and page-check) trained models whose eval file is missing or older than
    their weights."""
    stale = [n for n in names if is_trained(n) and not eval_is_current(n)
             and not training_elsewhere(n)]
    if stale:
        finish(stale, threads)


if __name__ == "__main__":
    sys.exit(main())
