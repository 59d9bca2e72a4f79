"""Repeated spans written into training rows: the recipe that grows induction heads.

Stories rarely repeat a long run of words, so a small model trained on them alone
never needs to copy, and no induction head forms (see ``checkpoints/README.md``).
Here a share of the rows in each batch gets a span of random tokens written over its
text and then repeated at once::

    ... story text | s1 s2 ... sL | s1 s2 ... sL | story text ...
                     first copy     second copy

The second copy is predictable only by looking back at the first, which is exactly
what a previous-token head plus an induction head do. Tokens that *no* copy can
predict carry no loss: the first copy (random tokens), the first token of the second
copy (nothing says a repeat starts), and the first text token after it (the text was
cut). Their targets become ``IGNORE_INDEX``, so the model is not taught to guess noise.

``kind`` picks the span's tokens:

* ``frequent``: any of the ``top_n`` most frequent tokens of the training stream;
* ``words``: only whole-word tokens (a space and letters), like a list of words;
* ``text``: the row's own text at that place, repeated (a natural sentence said
  twice); its first copy is ordinary text and keeps its loss;
* ``mixed``: each repeated row takes ``text`` (with probability ``text_share``, a coin
  flip by default) or else ``frequent``: the random spans grow the induction head, and
  the natural sentences said twice ask it to copy ordinary text too (an induction head
  trained on random spans alone barely copies a story sentence said twice:
  ``checkpoints/study/``);
* ``lists``: a list of whole words, written with spaces in half the rows and with commas
  in the other half (``w1, w2, w3``: after a comma the match is the word *before* it).
  The everyday words of the list check (``head_scores.EVERYDAY_WORDS``) are left out of
  the pool, so that check stays held out.

``max_gap`` puts up to that many tokens of the row's own text between the two copies
(drawn per row), as in "Mom wrote a list: ... Then she read it again: ...", where a copy
must reach back past other words.

Shapes: a window is ``[batch, n_ctx + 1]`` token ids; ``x, y = w[:, :-1], w[:, 1:]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import torch

from explorer.models.tokenizer import SPECIAL_TOKENS, Tokenizer

KINDS = ("frequent", "words", "text", "lists", "mixed")
_WORD = re.compile(r"^ [A-Za-z]+$")


@dataclass(frozen=True)
class RepeatRecipe:
    """How many rows get a repeated span, and of what. ``share=0`` turns it off."""

    share: float = 0.0  # fraction of rows in each batch with a repeated span
    min_len: int = 8  # span length in tokens, drawn uniformly from [min_len, max_len]
    max_len: int = 32
    kind: str = "frequent"  # one of KINDS
    top_n: int = 2000  # the span's token pool: this many most frequent tokens
    max_gap: int = 0  # up to this many text tokens between the copies (0: back to back)
    text_share: float = 0.5  # kind="mixed": share of repeated rows that repeat their own text

    def __post_init__(self) -> None:
        if not 0 <= self.share <= 1:
            raise ValueError(f"repeat share must be in [0, 1], got {self.share}")
        if not 1 <= self.min_len <= self.max_len:
            raise ValueError(f"need 1 <= min_len <= max_len, got {self.min_len}, {self.max_len}")
        if self.kind not in KINDS:
            raise ValueError(f"repeat kind must be one of {KINDS}, got {self.kind!r}")
        if not 0 <= self.text_share <= 1:
            raise ValueError(f"repeat text share must be in [0, 1], got {self.text_share}")
        if self.max_gap < 0:
            raise ValueError(f"repeat gap must be >= 0, got {self.max_gap}")


def span_pool(stream: np.ndarray, tok: Tokenizer, recipe: RepeatRecipe) -> torch.Tensor:
    """Token ids a span is drawn from: the ``top_n`` most frequent tokens of ``stream``
    (whole-word ones only for ``kind="words"`` and ``"lists"``, and for ``"lists"`` not the
    list check's everyday words), special tokens left out."""
    counts = np.bincount(np.asarray(stream, np.int64), minlength=tok.vocab_size)
    counts[: len(SPECIAL_TOKENS)] = 0
    order = [int(i) for i in np.argsort(-counts, kind="stable") if counts[i] > 0]
    if recipe.kind in ("words", "lists"):
        order = [i for i in order if _WORD.match(tok.decode([i]))]
    if recipe.kind == "lists":
        from explorer.training.head_scores import (
            EVERYDAY_WORDS,  # (lazy: head_scores pulls the model)
        )
        held_out = {w.lower() for w in EVERYDAY_WORDS}
        order = [i for i in order if tok.decode([i])[1:].lower() not in held_out]
    return torch.tensor(order[: recipe.top_n], dtype=torch.int64)


def add_repeats(windows: torch.Tensor, pool: torch.Tensor, recipe: RepeatRecipe,
                gen: torch.Generator, comma: int | None = None
                ) -> tuple[torch.Tensor, torch.Tensor]:
    """(windows with repeated spans, ``no_loss`` bool ``[batch, n_ctx]``).

    ``windows`` is ``[batch, n_ctx + 1]`` and is not changed in place. ``no_loss[b, i]``
    is True where target ``y[b, i] = w[b, i + 1]`` cannot be predicted by any copy.
    ``comma`` is the comma's token id, used by ``kind="lists"`` (without it every list is
    written with spaces). All randomness comes from ``gen``, so a resumed run draws the
    same spans."""
    w = windows.clone()
    batch, n = w.shape
    no_loss = torch.zeros(batch, n - 1, dtype=torch.bool)
    max_len = min(recipe.max_len, (n - 1 - recipe.max_gap) // 2)
    if recipe.share <= 0 or max_len < recipe.min_len:
        return w, no_loss
    rows = torch.rand(batch, generator=gen) < recipe.share
    for b in rows.nonzero().flatten().tolist():
        length = int(torch.randint(recipe.min_len, max_len + 1, (1,), generator=gen))
        gap = int(torch.randint(0, recipe.max_gap + 1, (1,), generator=gen))
        start = int(torch.randint(0, n - 2 * length - gap + 1, (1,), generator=gen))
        own_text = recipe.kind == "text" or (
            recipe.kind == "mixed" and bool(torch.rand(1, generator=gen) < recipe.text_share))
        if own_text:
            span = w[b, start:start + length].clone()
        else:
            span = pool[torch.randint(0, len(pool), (length,), generator=gen)]
            with_commas = (recipe.kind == "lists" and comma is not None
                           and bool(torch.rand(1, generator=gen) < 0.5))
            if with_commas:  # w1 , w2 , w3 ...: every other token a comma
                span[1::2] = comma
            w[b, start:start + length] = span
            # first copy: y[i] = w[i + 1] for i + 1 in [start, start + length)
            no_loss[b, max(0, start - 1):start + length - 1] = True
            if gap:  # the gap's first text token follows a cut
                no_loss[b, start + length - 1] = True
        second = start + length + gap
        w[b, second:second + length] = span
        no_loss[b, second - 1] = True  # the second copy's first token
        after = second + length  # the first text token after the span
        if after < n:
            no_loss[b, after - 1] = True
    return w, no_loss
