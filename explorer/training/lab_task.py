"""The Lab's task: random tokens in which a random block is said twice.

Each sequence is ``[BOS, block, block, filler]``: token 0 starts it, then a block of
``min_block``..``max_block`` random tokens (1..vocab-1), the same block again, then random
tokens up to ``n_ctx``. A model can predict the second copy only by finding where the
current token appeared before and reading what came next: an induction head. Everything
else is unpredictable (its loss stays near ln(vocab - 1)). The block's length is random,
so that no head can copy by a fixed offset instead (with a fixed length, one can).

:func:`batch` gives the tokens ``[batch, n_ctx]`` and two masks over the next-token
targets ``[batch, n_ctx - 1]``: ``copy`` (a second-copy token that the first copy
predicts, all but its first) and ``fresh`` (the filler after the copies, predictable by
nothing). Deterministic in its ``torch.Generator``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

BOS = 0


@dataclass(frozen=True)
class RepeatTask:
    vocab_size: int = 64
    n_ctx: int = 64
    min_block: int = 8
    max_block: int = 31

    def __post_init__(self) -> None:
        if not 2 <= self.min_block <= self.max_block or 1 + 2 * self.max_block > self.n_ctx:
            raise ValueError("blocks must be 2 or longer and fit twice in the context")
        if self.vocab_size < 3:
            raise ValueError("the vocabulary needs BOS and at least two tokens")


@dataclass
class Batch:
    tokens: torch.Tensor  # [batch, n_ctx] int64
    copy: torch.Tensor  # [batch, n_ctx - 1] bool: target predictable from the first copy
    fresh: torch.Tensor  # [batch, n_ctx - 1] bool: a filler target, predictable by nothing


def batch(task: RepeatTask, size: int, gen: torch.Generator) -> Batch:
    """``size`` sequences of the task (see the module docstring)."""
    n = task.n_ctx
    tokens = torch.randint(1, task.vocab_size, (size, n), generator=gen)
    tokens[:, 0] = BOS
    lengths = torch.randint(task.min_block, task.max_block + 1, (size,), generator=gen)
    pos = torch.arange(n)[None, :]  # [1, n]
    length = lengths[:, None]  # [batch, 1]
    second = (pos > length) & (pos <= 2 * length)  # positions of the second copy
    source = (pos - length).clamp(min=0)  # where each second-copy token was first said
    tokens = torch.where(second, tokens.gather(1, source), tokens)
    # target i is tokens[:, i + 1]; it is a copy the model can read when i + 1 is in the
    # second block and not its first token (which nothing announces)
    target = pos[:, 1:]
    copy = (target > length + 1) & (target <= 2 * length)
    fresh = target > 2 * length
    return Batch(tokens, copy, fresh)


def probe(task: RepeatTask, seed: int = 0, block: int = 12) -> torch.Tensor:
    """One fixed sequence ``[1, n]`` (BOS, a block of ``block`` tokens, it again, nothing
    after), whose patterns the Lab draws as they form."""
    gen = torch.Generator().manual_seed(seed)
    words = torch.randint(1, task.vocab_size, (block,), generator=gen)
    return torch.cat([torch.tensor([BOS]), words, words])[None]
