"""What the Lab's defaults do, measured once and kept: the numbers Start here quotes.

    python -m explorer.training.lab_findings            # 2 x 5 runs, ~3 minutes on one core

trains the Lab's default model (:class:`~explorer.training.lab.LabSettings`) with 1 and 2
layers on seeds 0-4, 1,000 steps each, one thread, and writes
``checkpoints/eval/lab.json``: every run's summary (formed or not, at which step, the best
induction and previous-token scores on held-out sequences) and per layer count how many
formed an induction head and the range of steps. Start here's Lab step
(:mod:`explorer.views.start_here`) says only what this file holds, and
``tests/views/test_start_here_lab.py`` pins the sentence to it. The file is data, not code: no
checkpoint is written.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

import torch

from explorer.models.zoo import CHECKPOINT_DIR
from explorer.training.lab import LabSettings, run_lab

FINDINGS = CHECKPOINT_DIR / "eval" / "lab.json"
# the other numbers the Lab's texts quote (python -m explorer.training.lab_measures)
MEASURES = CHECKPOINT_DIR / "eval" / "lab_measures.json"
LAYERS = (1, 2)
SEEDS = range(5)
STEPS = 1000
KEPT = ("formed", "formed_at_step", "formed_at_s", "best_induction", "best_previous_token",
        "steps")


def summarise(runs: list[dict]) -> dict:
    """Per layer count: ``{"runs", "formed", "first_step", "last_step", "best_induction"}``
    (steps over the runs that formed one; None when none did)."""
    out = {}
    for layers in sorted({r["layers"] for r in runs}):
        mine = [r for r in runs if r["layers"] == layers]
        steps = [r["formed_at_step"] for r in mine if r["formed"]]
        out[str(layers)] = {
            "runs": len(mine), "formed": len(steps),
            "first_step": min(steps) if steps else None,
            "last_step": max(steps) if steps else None,
            "best_induction": [min(r["best_induction"] for r in mine),
                               max(r["best_induction"] for r in mine)]}
    return out


def measure_all(seeds=SEEDS, layers=LAYERS, steps: int = STEPS) -> dict:
    runs = []
    for n_layers in layers:
        for seed in seeds:
            settings = LabSettings(layers=n_layers, seed=seed, max_steps=steps, seconds=600)
            summary = run_lab(settings)
            runs.append({"layers": n_layers, "seed": seed,
                         **{k: summary[k] for k in KEPT}})
            print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    defaults = asdict(LabSettings(max_steps=steps))
    for varied in ("layers", "seed", "seconds"):
        defaults.pop(varied)
    return {"command": "python -m explorer.training.lab_findings", "settings": defaults,
            "runs": runs, "summary": summarise(runs)}


def _read(path: Path) -> dict | None:
    try:
        found = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def read_findings(path: Path = FINDINGS, measures: Path = MEASURES) -> dict | None:
    """The findings file, or None when it is missing or unreadable (the step then says
    less, never a number it does not have); ``"measures"``: the measures file's content
    when there is one."""
    found = _read(path)
    if found is None or not isinstance(found.get("summary"), dict):
        return None
    extra = _read(measures)
    if extra is not None:
        found["measures"] = extra
    return found


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=FINDINGS)
    ap.add_argument("--seeds", type=int, default=len(SEEDS))
    args = ap.parse_args(argv)
    torch.set_num_threads(1)  # a model this size: two threads are 3-7x slower than one
    found = measure_all(range(args.seeds))
    args.out.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(found["summary"]))


if __name__ == "__main__":
    main()
