"""The loss on one sentence, as the Ablate view and the head labels score it.

* next-word models: the mean cross-entropy of predicting each token from the ones
  before it (one forward pass; :func:`positions_spec` scores only some positions, e.g.
  the second copy of a repeated sentence);
* masked-word models: each word is hidden in turn (one batch row per hidden word, one
  forward pass) and the loss is the mean cross-entropy of guessing it, at most
  ``MAX_MASKED`` evenly spaced positions; the student's own ``[mask]`` tokens are not
  scored (their answer is unknown).

Shapes: ``LossSpec.tokens`` is ``[batch, T]``; ``rows``, ``cols`` and ``targets`` are
``[n]``, one entry per scored position. No user text in any message.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from explorer.analysis.run import plural
from explorer.models.device import model_device
from explorer.models.settings import AttentionSettings
from explorer.models.transformer import Transformer

MAX_MASKED = 16  # masked-word loss: positions scored (one batch row each)


@dataclass(frozen=True)
class LossSpec:
    """Which positions are scored and how, for one sentence and one model."""

    tokens: torch.Tensor  # [batch, T] the inputs of the one forward pass
    rows: torch.Tensor  # [n] batch row of each scored position
    cols: torch.Tensor  # [n] position whose logits are read
    targets: torch.Tensor  # [n] the right answers
    how: str  # plain words, no user text

    @property
    def positions(self) -> int:
        return int(self.targets.numel())


def loss_spec(ids: Sequence[int], causal_model: bool, mask_id: int,
              max_masked: int = MAX_MASKED) -> LossSpec | str:
    """The scored positions, or a plain-words reason why this sentence has none."""
    ids = list(ids)
    if causal_model:
        if len(ids) < 2:
            return "The loss needs at least two tokens (one to read, one to guess)."
        n = len(ids) - 1
        return LossSpec(torch.tensor([ids]), torch.zeros(n, dtype=torch.long),
                        torch.arange(n), torch.tensor(ids[1:]),
                        f"mean next-word cross-entropy over {plural(n, 'position')}")
    scorable = [i for i, t in enumerate(ids) if t != mask_id]
    if not scorable:
        return "The loss needs at least one word that is not [mask]."
    if len(scorable) > max_masked:
        picks = np.linspace(0, len(scorable) - 1, max_masked).round().astype(int)
        scorable = [scorable[i] for i in dict.fromkeys(picks.tolist())]
    batch = torch.tensor([ids] * len(scorable))
    cols = torch.tensor(scorable)
    batch[torch.arange(len(scorable)), cols] = mask_id
    return LossSpec(batch, torch.arange(len(scorable)), cols,
                    torch.tensor([ids[i] for i in scorable]),
                    f"mean cross-entropy of guessing each word when it is hidden as [mask], "
                    f"over {plural(len(scorable), 'position')}")


def spec_loss(model: Transformer, spec: LossSpec,
              settings: AttentionSettings | None = None) -> float:
    """The loss of one configuration (the fused attention path: no capture needed)."""
    device = model_device(model)
    with torch.inference_mode():
        logits = model(spec.tokens.to(device), settings=settings, fused=True).float().cpu()
    picked = logits[spec.rows, spec.cols]  # [n, vocab]
    return float(F.cross_entropy(picked, spec.targets))


def positions_spec(ids: Sequence[int], positions: Iterable[int]) -> LossSpec:
    """Next-word loss at ``positions`` only (each position's logits guess the token after
    it); every position must be below ``len(ids) - 1``."""
    cols = torch.tensor(list(positions), dtype=torch.long)
    tokens = torch.tensor([list(ids)])
    return LossSpec(tokens, torch.zeros(len(cols), dtype=torch.long), cols, tokens[0, cols + 1],
                    f"mean next-word cross-entropy over {len(cols)} positions")
