"""Activation patching between two sentences: which head (or which position of the residual
stream) carries the information that makes the clean sentence's guess.

Two sentences with the same number of tokens: the **clean** one and a **corrupted** copy that
changes a word. The *answer* is the clean run's top guess at the last position; the
*competitor* is the corrupted run's top guess (or its best other token when both runs guess
the same). The **logit difference** ``LD = logit[answer] - logit[competitor]`` at the last
position measures how much a run prefers the answer.

Patching a value = running the corrupted sentence while one hook point's tensor is replaced
(in part) by the clean run's tensor there. The **share restored** is::

    (LD_patched - LD_corrupt) / (LD_clean - LD_corrupt)

0 = the patch changed nothing, 1 = it brought the clean run's preference back entirely.

* per head: ``blocks.{l}.attn.hook_z`` ``[batch, head, pos, d_head]``, one head at every
  position;
* per layer x position: ``blocks.{l}.hook_resid_post`` ``[batch, pos, d_model]``, one
  position of the residual stream after layer ``l`` (patching every position after any
  layer restores exactly 1: everything downstream is the clean run's).

Both patch the clean tensor's slice ``[0, index]`` into batch row ``b`` at ``[b, index]``
(dim 1 is the head of ``hook_z`` and the position of ``hook_resid_post``). All patched runs
of one kind go through the model as one batch.

The patch is an edit of :func:`~explorer.models.capture.run_with_cache`: a hook that swaps a
value, registered for the call only and removed in ``finally``, acting only on its own
call's forward pass (concurrent requests on the shared model never see each other's
patches). The clean values come from the same function.

``python -m explorer.analysis.patching --clean TEXT --corrupt TEXT [--model NAME] --json``
prints the numbers (:func:`main`): the page, the tests and the command line share them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from explorer.models.capture import Cache, run_with_cache
from explorer.models.settings import AttentionSettings
from explorer.models.transformer import Transformer

HEAD_HOOK = "attn.hook_z"  # [batch, head, pos, d_head]: index = head
RESID_HOOK = "hook_resid_post"  # [batch, pos, d_model]: index = position
# Patched runs per forward pass: 128 rows of 128 tokens of the zoo's models is ~1 GB of
# activations at most; typical sentences (32 tokens, 4 layers) need one or two passes.
MAX_BATCH = 64

Cell = tuple[int, int | None]  # (layer, index along dim 1; None = the whole tensor)


def patched_logits(model: Transformer, corrupt: torch.Tensor, clean: Cache, suffix: str,
                   cells: Sequence[Cell], settings: AttentionSettings | None = None,
                   at: int = -1) -> torch.Tensor:
    """Run the corrupted tokens ``[pos]`` once per cell, each with the clean value of
    ``blocks.{layer}.{suffix}`` patched in at ``[:, index]`` (index None: all of it).
    Returns the logits at position ``at``: ``[len(cells), vocab]`` (float, CPU)."""
    if corrupt.dim() != 1:
        raise ValueError("patched_logits takes one sequence of token ids [pos]")
    out = []
    for start in range(0, len(cells), MAX_BATCH):
        out.append(_patched_batch(model, corrupt, clean, suffix,
                                  list(cells[start:start + MAX_BATCH]), settings, at))
    if not out:
        return torch.zeros(0, model.config.vocab_size)
    return torch.cat(out)


def _patched_batch(model, corrupt, clean, suffix, cells, settings, at) -> torch.Tensor:
    # layer -> (batch rows, indices) to patch; index None: the row gets the whole tensor
    plan: dict[int, list[tuple[int, int | None]]] = {}
    for row, (layer, index) in enumerate(cells):
        plan.setdefault(layer, []).append((row, index))

    def swap(source: torch.Tensor, rows: list[tuple[int, int | None]]):
        """The edit of one hook point: the clean run's values into the chosen rows.
        ``source``: [head, pos, d_head] or [pos, d_model], the clean run's."""
        def edit(output: torch.Tensor) -> torch.Tensor:
            output = output.clone()
            value = source.to(output.device, output.dtype)
            for row, index in rows:
                if index is None:
                    output[row] = value
                else:
                    output[row, index] = value[index]
            return output
        return edit

    edits = {f"blocks.{layer}.{suffix}": swap(clean[f"blocks.{layer}.{suffix}"][0], rows)
             for layer, rows in plan.items()}
    tokens = corrupt[None].expand(len(cells), -1)
    position = at % corrupt.shape[0]
    logits, _ = run_with_cache(model, tokens, settings, names=[], edits=edits,
                               logits_at=torch.tensor([position]))
    return logits[:, 0]


def logit_diff(logits: torch.Tensor, answer: int, wrong: int) -> torch.Tensor:
    """``[..., vocab]`` -> ``[...]``: logit of the answer minus the competitor's."""
    return logits[..., answer] - logits[..., wrong]


def pick_pair(clean_logits: torch.Tensor, corrupt_logits: torch.Tensor) -> tuple[int, int]:
    """(answer, competitor) from two runs' last-position logits ``[vocab]``: the clean top
    guess, and the corrupted top guess or (same guess) the corrupted run's best other."""
    answer = int(torch.argmax(clean_logits))
    order = torch.argsort(corrupt_logits, descending=True)
    wrong = int(order[0]) if int(order[0]) != answer else int(order[1])
    return answer, wrong


@dataclass(frozen=True)
class Patching:
    """One pair's numbers (the last position; layer-major arrays)."""

    answer: int
    wrong: int
    ld_clean: float
    ld_corrupt: float
    heads: np.ndarray | None  # [layer, head] share restored; None: the gap is under min_gap
    positions: np.ndarray | None  # [layer, pos] share restored (resid_post)
    clean_logits: np.ndarray  # [vocab] at the last position
    corrupt_logits: np.ndarray  # [vocab]
    clean: Cache  # the clean run's hook_z and hook_resid_post (and the rest read here)
    corrupt_cache: Cache

    @property
    def restorable(self) -> bool:
        return self.heads is not None

    @property
    def same_guess(self) -> bool:
        """Both runs' top guess is the same token."""
        return int(np.argmax(self.clean_logits)) == int(np.argmax(self.corrupt_logits))


# The shares divide by LD_clean - LD_corrupt. Under 1 (the two runs' odds of the answer
# against the competitor within a factor e of each other) the shares are noise blown up:
# "Tom has a red hat and Sam has a blue cap. Tom has a red" against "... Sam has a red"
# (both guess " hat") differ by 0.013 and gave shares from -7.9 to 8.5. No shares then.
MIN_GAP = 1.0
CAPTURED = ["blocks.*.attn.hook_z", "blocks.*.hook_resid_post", "blocks.*.hook_attn_out",
            "blocks.*.hook_mlp_out", "hook_embed", "hook_pos_embed"]


def shares(ld: torch.Tensor, ld_clean: float, ld_corrupt: float) -> np.ndarray:
    return ((ld - ld_corrupt) / (ld_clean - ld_corrupt)).numpy().astype(np.float64)


def patch(model: Transformer, clean_ids: Sequence[int], corrupt_ids: Sequence[int],
          settings: AttentionSettings | None = None,
          pair: tuple[int, int] | None = None, min_gap: float = MIN_GAP) -> Patching:
    """Every head and every (layer, position) patched alone from clean into corrupt.
    ``pair``: (answer, competitor) to use instead of :func:`pick_pair`'s. Nothing is
    patched (``heads`` and ``positions`` None) when the two logit differences are less than
    ``min_gap`` apart."""
    if len(clean_ids) != len(corrupt_ids) or not clean_ids:
        raise ValueError("the two sentences need the same number of tokens (at least one)")
    settings = settings or AttentionSettings()
    config = model.config
    clean_t, corrupt_t = torch.tensor(list(clean_ids)), torch.tensor(list(corrupt_ids))
    clean_logits, clean = run_with_cache(model, clean_t, settings, names=CAPTURED)
    corrupt_logits, corrupt = run_with_cache(model, corrupt_t, settings, names=CAPTURED)
    c_last, x_last = clean_logits[0, -1], corrupt_logits[0, -1]
    answer, wrong = pair or pick_pair(c_last, x_last)
    ld_clean = float(logit_diff(c_last, answer, wrong))
    ld_corrupt = float(logit_diff(x_last, answer, wrong))
    heads = positions = None
    if abs(ld_clean - ld_corrupt) >= min_gap:
        n = len(clean_ids)
        head_cells = [(la, h) for la in range(config.n_layers) for h in range(config.n_heads)]
        # A place where both runs hold the same value restores exactly 0: patching it
        # changes nothing (a causal model's positions before the changed word). Only the
        # others are run: at 128 tokens that was most of the ~3 s of an update.
        pos_cells = [(la, p) for la in range(config.n_layers) for p in range(n)
                     if not torch.equal(clean[f"blocks.{la}.{RESID_HOOK}"][0, p],
                                        corrupt[f"blocks.{la}.{RESID_HOOK}"][0, p])]
        ld_h = logit_diff(patched_logits(model, corrupt_t, clean, HEAD_HOOK, head_cells,
                                         settings), answer, wrong)
        ld_p = logit_diff(patched_logits(model, corrupt_t, clean, RESID_HOOK, pos_cells,
                                         settings), answer, wrong)
        heads = shares(ld_h, ld_clean, ld_corrupt).reshape(config.n_layers, config.n_heads)
        positions = np.zeros((config.n_layers, n))
        for (la, p), share in zip(pos_cells, shares(ld_p, ld_clean, ld_corrupt), strict=True):
            positions[la, p] = share
    return Patching(answer, wrong, ld_clean, ld_corrupt, heads, positions,
                    c_last.numpy(), x_last.numpy(), clean, corrupt)


def patch_one(model: Transformer, corrupt_ids: Sequence[int], clean: Cache, suffix: str,
              layer: int, index: int | None,
              settings: AttentionSettings | None = None) -> np.ndarray:
    """The corrupted run with one cell patched: its probabilities at the last position."""
    logits = patched_logits(model, torch.tensor(list(corrupt_ids)), clean, suffix,
                            [(layer, index)], settings)[0]
    return torch.softmax(logits, -1).numpy()


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: one JSON object (``answer_id``, ``wrong_id``, the logit
    differences, ``heads`` [layer][head] and ``positions`` [layer][position] shares, null
    when the differences are under ``min_gap`` apart as on the page, ``lens``
    [layer] top token id at the last position). Bad input: one sentence, exit status 2."""
    from explorer.analysis.logit_lens import logit_lens
    from explorer.analysis.run import prepare
    from explorer.models.tokenizer import Tokenizer
    from explorer.models.zoo import CHECKPOINT_DIR, load_zoo

    parser = argparse.ArgumentParser(prog="python -m explorer.analysis.patching",
                                     description="Patch every head and every residual-stream "
                                                 "position from a clean into a corrupted run.")
    parser.add_argument("--clean", required=True)
    parser.add_argument("--corrupt", required=True)
    parser.add_argument("--model", default=None, help="a zoo name (default: the app's)")
    parser.add_argument("--json", action="store_true", help="print JSON (the only output)")
    args = parser.parse_args(argv)
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    zoo = load_zoo(CHECKPOINT_DIR, vocab_size=tok.vocab_size)
    name = args.model or zoo.default_name
    model = zoo.get(name)
    if model is None:
        parser.error(zoo.why_missing(name))
    if not model.config.causal:
        parser.error("patching here reads the next-word guess: pick a next-word model")
    clean = prepare(tok, args.clean, model.config.n_ctx, False).ids
    corrupt = prepare(tok, args.corrupt, model.config.n_ctx, False).ids
    if not clean or len(clean) != len(corrupt):
        parser.error(f"the two sentences need the same number of tokens "
                     f"({len(clean)} and {len(corrupt)})")
    p = patch(model, clean, corrupt)
    lens = logit_lens(model, p.clean).top_ids[:, -1, 0]
    out = dict(model=name, answer_id=p.answer, wrong_id=p.wrong,
               answer=tok.decode([p.answer]), wrong=tok.decode([p.wrong]),
               ld_clean=p.ld_clean, ld_corrupt=p.ld_corrupt, min_gap=MIN_GAP,
               same_guess=p.same_guess,
               heads=None if p.heads is None else p.heads.round(4).tolist(),
               positions=None if p.positions is None else p.positions.round(4).tolist(),
               lens=[int(i) for i in lens])
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
