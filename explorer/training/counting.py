"""Small counting helpers of the evaluation (:mod:`explorer.training.evaluate`): a
binomial share's interval, where a character's token is, and where token ids occur.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.models.tokenizer import Tokenizer
from explorer.training.head_scores import _r


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval for a binomial share."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return _r(centre - half), _r(centre + half)


def token_at(tok: Tokenizer, text: str, char: int) -> int:
    """Index of the token whose character span holds ``char``."""
    for i, (_, _, (start, end)) in enumerate(tok.token_pieces(text)):
        if start <= char < end:
            return i
    raise ValueError(f"no token covers character {char} of {text!r}")


def occurs_in(stream_bytes: bytes, ids: list[int]) -> bool:
    """Whether the token ids occur consecutively in a uint16 stream given as bytes (an
    odd byte offset is a false match across two tokens, so the search goes on)."""
    needle = np.asarray(ids, dtype=np.uint16).tobytes()
    at = stream_bytes.find(needle)
    while at != -1 and at % 2:
        at = stream_bytes.find(needle, at + 1)
    return at != -1


def find_subsequence(seq: list[int], sub: list[int]) -> list[int]:
    """Start indices of every occurrence of ``sub`` in ``seq``."""
    k = len(sub)
    return [i for i in range(len(seq) - k + 1) if seq[i:i + k] == sub]
