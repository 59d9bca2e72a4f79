"""Per-head numbers computed from attention patterns, and what they usually mean.

Input everywhere: ``patterns`` float ``[layer, head, query_pos, key_pos]`` (one
sentence, rows sum to 1). Outputs are ``[layer, head]`` arrays, so the UI can
show a table without doing any math itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class HeadStats:
    entropy: np.ndarray  # [layer, head] mean row entropy, bits
    entropy_norm: np.ndarray  # [layer, head] entropy / log2(keys the row could see), 0..1
    max_weight: np.ndarray  # [layer, head] mean of each row's largest weight
    prev_share: np.ndarray  # [layer, head] mean weight on the previous token (rows 1..)
    first_share: np.ndarray  # [layer, head] mean weight on the first token (rows 1..)
    self_share: np.ndarray  # [layer, head] mean weight on the token itself


def previous_token_share(patterns: np.ndarray) -> np.ndarray:
    """``[layer, head]``: mean weight each query (from the 2nd on) puts on the token
    right before it. 0 for a one-token sentence."""
    p = np.asarray(patterns, dtype=np.float64)
    n = p.shape[-1]
    if n < 2:
        return np.zeros(p.shape[:2])
    idx = np.arange(1, n)
    return p[..., idx, idx - 1].mean(-1)


def head_stats(patterns: np.ndarray) -> HeadStats:
    p = np.asarray(patterns, dtype=np.float64)
    n = p.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(p > 0, p * np.log2(p), 0.0)
    row_entropy = -plogp.sum(-1)  # [L, H, q]
    # Normalise by what a uniform row over the keys the row *could* see would have: for a
    # causal pattern row i sees i + 1 keys; otherwise all n.
    causal = np.allclose(np.triu(p, 1), 0)
    could_see = np.arange(1, n + 1) if causal else np.full(n, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        norm = np.where(could_see > 1, row_entropy / np.log2(np.maximum(could_see, 2)), 0.0)
    rows = slice(1, None) if n > 1 else slice(0, None)
    idx = np.arange(n)
    return HeadStats(
        entropy=row_entropy.mean(-1),
        entropy_norm=(norm[..., rows].mean(-1) if n > 1 else np.zeros(p.shape[:2])),
        max_weight=p.max(-1).mean(-1),
        prev_share=previous_token_share(p),
        first_share=p[..., rows, 0].mean(-1),
        self_share=p[..., idx, idx].mean(-1),
    )


# One plain sentence per pattern type, for students.
EXPLANATIONS = {
    "first-token": "Puts most weight on the first token. Heads often 'park' attention there "
                   "when nothing in the sentence matters to them: a do-nothing resting place "
                   "(an attention sink), not a sign the first word is important.",
    "previous-token": "Looks at the word just before. Such heads let the next layer know "
                      "what came right before each word, a building block of copying.",
    "self": "Looks at the word itself, keeping each token's own information.",
    "uniform": "Spreads attention evenly, averaging everything seen so far: a rough "
               "'bag of words' summary of the sentence.",
    "mixed": "A mixture: it depends on the words. Tap or hover over the large view to see which.",
}


def classify(stats: HeadStats, layer: int, head: int) -> str:
    """A rough label from measured scores (thresholds chosen to be conservative)."""
    if stats.first_share[layer, head] > 0.5:
        return "first-token"
    if stats.prev_share[layer, head] > 0.5:
        return "previous-token"
    if stats.self_share[layer, head] > 0.5:
        return "self"
    if stats.entropy_norm[layer, head] > 0.9:
        return "uniform"
    return "mixed"
