"""The Lab's texts' other numbers, measured once and kept (issue 41).

    python -m explorer.training.lab_measures          # 2 runs of 1,000 steps, ~1 minute

writes ``checkpoints/eval/lab_measures.json``: the induction score of attention spread
evenly on the Lab's held-out sequences (what "no induction head" scores by itself), and for
the default settings with 1 and 2 layers (seed 0): the last losses on the copy and on fresh
tokens, and in the 2-layer model where its best induction head looks on the Lab's probe
(a 12-token block said twice): how many places to the left of the query its strongest key
sits, for the second copy's queries. Start here's Lab step, the Lab's introduction and
README quote these; ``tests/training/test_lab_measures.py`` pins them to this file.
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
from collections import Counter
from pathlib import Path

import torch

from explorer.models.checkpoint import load_model
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.training.head_scores import (
    induction_mask,
    induction_scores,
    patterns_of,
    uniform_patterns,
)
from explorer.training.lab import HELD_OUT, HELD_OUT_SEED, LabSettings, run_lab
from explorer.training.lab_task import batch, probe

MEASURES = CHECKPOINT_DIR / "eval" / "lab_measures.json"
PROBE_BLOCK = 12


def uniform_induction(settings: LabSettings) -> float:
    """Induction score of causal attention spread evenly, on the runs' held-out sequences."""
    held = batch(settings.task(), HELD_OUT, torch.Generator().manual_seed(HELD_OUT_SEED))
    size, n = held.tokens.shape
    queries = torch.zeros(held.tokens.shape, dtype=torch.bool)
    queries[:, 1:] = held.copy
    even = uniform_patterns(1, size, 1, n, causal=True)
    return round(float(induction_scores(even, induction_mask(held.tokens), queries).max()), 4)


def stripe_offset(model, settings: LabSettings, layer: int, head: int) -> dict:
    """On the probe (BOS, a block, it again): for each second-copy query after its first
    token, how far left of the query the head's strongest key sits; the counts."""
    tokens = probe(settings.task(), block=PROBE_BLOCK)
    _, patterns = patterns_of(model, tokens)  # [layer, batch, head, q, k]
    seen = patterns[layer, 0, head]
    offsets = [q - int(seen[q].argmax()) for q in range(PROBE_BLOCK + 2, 2 * PROBE_BLOCK + 1)]
    common, count = Counter(offsets).most_common(1)[0]
    return {"block": PROBE_BLOCK, "offset": common, "queries": len(offsets), "at_offset": count}


def measure_one(layers: int, seed: int = 0, steps: int = 1000) -> dict:
    settings = LabSettings(layers=layers, seed=seed, max_steps=steps, seconds=600)
    with tempfile.TemporaryDirectory() as tmp:
        summary = run_lab(settings, out=Path(tmp))
        model = load_model(Path(tmp) / "model.safetensors")
    final = summary["final"]
    out = {"layers": layers, "seed": seed, "steps": summary["steps"],
           "loss_copy": final["loss_copy"], "loss_fresh": final["loss_fresh"],
           "final_induction": final["best_induction"],
           "final_previous_token": final["best_previous_token"]}
    grid = final["induction"]
    layer, head = max(((i, j) for i, row in enumerate(grid) for j in range(len(row))),
                      key=lambda c: grid[c[0]][c[1]])
    out["induction_head"] = [layer, head]
    if layers > 1:
        out["stripe"] = stripe_offset(model.eval(), settings, layer, head)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=MEASURES)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    settings = LabSettings()
    found = {"command": "python -m explorer.training.lab_measures",
             "chance_loss": round(math.log(settings.vocab - 1), 4),
             "uniform_induction": uniform_induction(settings),
             "runs": [measure_one(layers) for layers in (1, 2)]}
    args.out.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(found))


if __name__ == "__main__":
    main()
