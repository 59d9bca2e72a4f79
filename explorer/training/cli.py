"""The command line every trainer shares, and what every trainer does around its run.

One shape for ``python -m explorer.training.train [--task classify|seq2seq] ...``:
:func:`task_parser` starts the parser of :mod:`.train` (the language models),
:mod:`.train_classifier` and :mod:`.train_seq2seq` with the same options under the same
names (where things go, the model's shape, the seed, batch size and learning rate, the
threads); each trainer sets its own defaults and adds what is its own (the language
model's token budget and recipe, the classifier's example count, the encoder-decoder's
decoder depth...). :func:`setup` begins each trainer's ``main``; :func:`write_json` writes
its card atomically.
"""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Callable
from pathlib import Path

import torch

from explorer.models.config import POSITIONAL_ENCODINGS
from explorer.models.tokenizer import Tokenizer

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINTS = ROOT / "checkpoints"
COMMAND = "python -m explorer.training.train"  # every trainer's entry (``--task`` picks)


def task_parser(description: str, name: str | None = None,
                positions: tuple[str, ...] = POSITIONAL_ENCODINGS) -> argparse.ArgumentParser:
    """A parser with ``--name`` (default ``name``; required if None), ``--out``,
    ``--tokenizer``, ``--d-model``, ``--heads``, ``--layers``, ``--d-ff``, ``--pos`` (one of
    ``positions``), ``--seed``, ``--batch-size``, ``--lr``, ``--threads`` (one by default:
    one process per core; 0: torch's default) and ``--quiet``. A trainer changes a default
    with ``set_defaults``."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--name", default=name, required=name is None,
                   help="checkpoint name: OUT/NAME.safetensors, OUT/NAME.json")
    p.add_argument("--out", type=Path, default=CHECKPOINTS)
    p.add_argument("--tokenizer", type=Path, default=CHECKPOINTS / "tokenizer.json")
    p.add_argument("--d-model", type=int, default=128)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--layers", type=int, default=4, help="blocks (encoder-decoder: encoder's)")
    p.add_argument("--d-ff", type=int, default=512)
    p.add_argument("--pos", default="rotary", choices=list(positions))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--threads", type=int, default=1,
                   help="torch CPU threads (0: torch's default)")
    p.add_argument("--quiet", action="store_true")
    return p


def setup(argv: list[str] | None, parse: Callable[[list[str]], argparse.Namespace],
          task: str | None = None) -> tuple[argparse.Namespace, Tokenizer, str]:
    """``(args, tokenizer, command)`` for a trainer's ``main``: ``argv`` parsed, torch's
    threads set (unless 0), the tokenizer loaded, and the exact command for the card
    (``--task task`` first when the trainer is not the language model's)."""
    argv = [] if argv is None else list(argv)
    args = parse(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    prefix = [COMMAND] + ([f"--task {task}"] if task else [])
    return args, Tokenizer.load(args.tokenizer), " ".join([*prefix, shlex.join(argv)])


def write_json(path: Path, data: dict) -> None:
    """Write ``data`` to ``path`` atomically (a temp file, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    tmp.replace(path)
