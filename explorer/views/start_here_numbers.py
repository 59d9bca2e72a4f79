"""The numbers Start here quotes, measured on the shipped default model when the page starts.

A teacher repeats a step's answer to the class, so the numbers in it are measured, not
remembered: the loss of step 4's sentence with the causal mask and without it, how much of
the copying head's attention lands on the very next word once the mask is off, and how far
left of the diagonal step 2's copying stripe runs (it depends on the tokenizer), and which
heads carry step 8's copied word (every head patched alone: one batched pass, ~0.1 s).
The others take one forward pass of a sentence of ~20 tokens (once per process).

No gradio; no user text (the sentences are the path's own).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.analysis.losses import LossSpec, loss_spec, spec_loss
from explorer.analysis.patching import patch
from explorer.analysis.run import analyse
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import DEFAULT_NAME, Zoo


@dataclass(frozen=True)
class Measured:
    loss_masked: float  # step 4's sentence, mask as trained
    loss_unmasked: float  # the same, mask off
    loss_unmasked_no_copy: float | None  # mask off and the copying head off too
    next_share: float | None  # the copying head's mean weight on the next token, mask off
    copies_apart: int | None  # tokens between the two copies of step 2's list
    copy_head: tuple[int, int] | None  # (layer, head) these were measured for
    # step 8: [layer, head] share of the logit difference each head restores when patched
    # from the Patch view's example sentence into its corrupted copy (None: not measured)
    carried: np.ndarray | None = None


def stripe(tok: Tokenizer, text: str) -> int | None:
    """How many tokens apart the two copies of the list in ``text`` are: the distance from
    the first word of the list to the same word said again (None: no word is said twice)."""
    ids = tok.encode(text)
    for i, t in enumerate(ids):
        later = [j for j in range(i + 1, len(ids)) if ids[j] == t]
        # a word of the list: said again, and followed both times by the same word
        if later and later[0] + 1 < len(ids) and ids[later[0] + 1] == ids[i + 1]:
            return later[0] - i
    return None


def next_token_share(pattern: np.ndarray) -> float:
    """Mean weight each token (but the last) puts on the token just after it."""
    n = pattern.shape[-1]
    return float(np.mean([pattern[i, i + 1] for i in range(n - 1)])) if n > 1 else 0.0


def carried(zoo: Zoo, tok: Tokenizer, pair: tuple[str, str]) -> np.ndarray | None:
    """[layer, head]: the share each head restores, patched alone from ``pair``'s first
    sentence into its second (explorer.analysis.patching), on the default model."""
    model = zoo.get(DEFAULT_NAME)
    clean, corrupt = (tok.encode(t) for t in pair)
    if model is None or len(clean) != len(corrupt):
        return None
    return patch(model, clean, corrupt).heads


def measure(zoo: Zoo, tok: Tokenizer, story: str, repeat: str,
            copy_head: tuple[int, int] | None,
            pair: tuple[str, str] | None = None) -> Measured | None:
    """The numbers for ``story`` (step 4), ``repeat`` (step 2) and ``pair`` (step 8) on the
    default model, or None when it is not installed (the steps then say what holds
    without numbers)."""
    model = zoo.get(DEFAULT_NAME)
    if model is None:
        return None
    spec = loss_spec(tok.encode(story), True, tok.mask_id)
    if not isinstance(spec, LossSpec):
        return None
    off = AttentionSettings(causal=False)
    no_copy, share = None, None
    if copy_head is not None:
        no_copy = spec_loss(model, spec, AttentionSettings(causal=False, head_mask=(copy_head,)))
        share = next_token_share(analyse(model, tok, story, off).patterns[copy_head])
    return Measured(spec_loss(model, spec), spec_loss(model, spec, off), no_copy, share,
                    stripe(tok, repeat), copy_head,
                    carried(zoo, tok, pair) if pair is not None else None)
