"""The command-line options every task trainer shares: where things go, the model's width,
the seed, the threads.

:func:`task_parser` starts the parser of :mod:`.train_classifier` and :mod:`.train_seq2seq`
with these options; each trainer then adds what is its own (the classifier's example count,
the encoder-decoder's decoder depth...). :func:`setup` begins each trainer's ``main``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import torch

from explorer.models.tokenizer import Tokenizer

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINTS = ROOT / "checkpoints"


def task_parser(description: str, name: str) -> argparse.ArgumentParser:
    """A parser with ``--name`` (default ``name``), ``--out``, ``--tokenizer``, ``--d-model``,
    ``--heads``, ``--d-ff``, ``--seed``, ``--threads`` (one by default: one process per core)
    and ``--quiet``."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--name", default=name)
    p.add_argument("--out", type=Path, default=CHECKPOINTS)
    p.add_argument("--tokenizer", type=Path, default=CHECKPOINTS / "tokenizer.json")
    p.add_argument("--d-model", type=int, default=128)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--d-ff", type=int, default=512)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    p.add_argument("--quiet", action="store_true")
    return p


def setup(argv: list[str] | None, parse: Callable[[list[str]], argparse.Namespace]):
    """``(argv, args, tokenizer)`` for a trainer's ``main``: the arguments as a list (for the
    card's command), parsed, with torch's threads set and the tokenizer loaded."""
    argv = [] if argv is None else list(argv)
    args = parse(argv)
    torch.set_num_threads(args.threads)
    return argv, args, Tokenizer.load(args.tokenizer)
