"""A smoothed bigram model: the "no attention needed" baseline for the zoo's losses.

A transformer that only looked at the current token could at best learn the
bigram table ``P(next | current)``; the gap between its loss and the bigram's is
what context buys. The table is fitted on the training stream with add-k
smoothing, ``P(b | a) = (count(a, b) + k) / (count(a) + k V)``. ``k`` is picked
from a small grid on the last 5 % of the training stream (fitted on the rest),
never on validation data, then the table is refitted on the whole stream.

For masked-word models the comparable baseline guesses a masked token from both
neighbours: ``P(t | left, right) ∝ P(t | left) P(right | t)`` (a neighbour that is
itself a special token such as ``<mask>`` is left out; with no left neighbour the
unigram ``P(t)`` stands in).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import torch

K_GRID = (1.0, 0.3, 0.1, 0.03, 0.01, 0.003)
HOLDOUT_SHARE = 0.05


def bigram_counts(stream: np.ndarray, vocab_size: int) -> np.ndarray:
    """``[vocab, vocab]`` int64 counts of (current, next) pairs in a flat token stream."""
    s = np.asarray(stream, dtype=np.int64)
    pair = s[:-1] * vocab_size + s[1:]
    return np.bincount(pair, minlength=vocab_size * vocab_size).reshape(vocab_size, vocab_size)


@dataclass
class Bigram:
    counts: np.ndarray  # [vocab, vocab] int64, row = current token, column = next token
    k: float

    @property
    def vocab_size(self) -> int:
        return self.counts.shape[0]

    @cached_property
    def row_total(self) -> np.ndarray:
        """``[vocab]`` how often each token is followed by anything (independent of k)."""
        return self.counts.sum(1)

    def log_prob(self, current: np.ndarray, nxt: np.ndarray) -> np.ndarray:
        """log P(nxt | current), elementwise over same-shaped int arrays (natural log)."""
        current, nxt = np.asarray(current, np.int64), np.asarray(nxt, np.int64)
        num = self.counts[current, nxt] + self.k
        return np.log(num) - np.log(self.row_total[current] + self.k * self.vocab_size)

    def loss(self, current: np.ndarray, nxt: np.ndarray) -> float:
        """Mean cross-entropy (nats) of predicting ``nxt`` from ``current``."""
        return float(-self.log_prob(current, nxt).mean())

    def log_table(self) -> torch.Tensor:
        """``[vocab, vocab]`` float32 log P(column | row)."""
        c = torch.from_numpy(self.counts).double()
        table = (c + self.k).log() - (c.sum(1, keepdim=True) + self.k * self.vocab_size).log()
        return table.float()

    def log_unigram(self) -> torch.Tensor:
        """``[vocab]`` float32 add-k log P(token) from the same counts (column sums)."""
        col = torch.from_numpy(self.counts.sum(0)).double()
        return ((col + self.k).log() - (col.sum() + self.k * self.vocab_size).log()).float()


def fit_bigram(stream: np.ndarray, vocab_size: int, k_grid=K_GRID,
               holdout_share: float = HOLDOUT_SHARE) -> Bigram:
    """Choose k on the stream's tail, then fit on all of it (see the module docstring)."""
    cut = int(len(stream) * (1 - holdout_share))
    head, tail = stream[:cut], stream[cut - 1:]  # tail keeps its first pair's left token
    trial = Bigram(bigram_counts(head, vocab_size), k_grid[0])
    losses = {}
    for k in k_grid:
        trial.k = k
        losses[k] = trial.loss(tail[:-1], tail[1:])
    best_k = min(losses, key=losses.get)
    return Bigram(bigram_counts(stream, vocab_size), best_k)


def masked_log_prob(table: torch.Tensor, unigram: torch.Tensor, left: torch.Tensor,
                    right: torch.Tensor, target: torch.Tensor, chunk: int = 1024) -> torch.Tensor:
    """log P(target | left, right) for masked positions, ``[m]`` each.

    ``left`` / ``right`` hold -1 where that neighbour is missing or is to be ignored.
    ``table`` ``[vocab, vocab]`` log P(next | current); ``unigram`` ``[vocab]`` log P(t).
    """
    out = []
    for s in range(0, len(target), chunk):
        lf, rt, tg = left[s:s + chunk], right[s:s + chunk], target[s:s + chunk]
        # [m, vocab] scores over candidate tokens t for each masked position
        scores = torch.where((lf >= 0)[:, None], table[lf.clamp(min=0)], unigram[None])
        scores = scores + torch.where((rt >= 0)[:, None], table[:, rt.clamp(min=0)].T, 0.0)
        logp = scores.log_softmax(-1)
        out.append(logp.gather(1, tg[:, None])[:, 0])
    return torch.cat(out) if out else torch.zeros(0)
