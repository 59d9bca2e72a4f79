"""What kind of head is this? A plain-words pattern type per head, from measured scores.

Input: one sentence's attention ``patterns`` ``[layer, head, query, key]`` (rows sum
to 1) and its token ids. The numbers come from :func:`explorer.analysis.head_stats.head_stats`
(weight on the previous token, on the first token, on itself, normalised entropy)
and the labels from :func:`explorer.analysis.head_stats.classify`, so a head has the same name
here as in the Explore tab's table. What this module adds is the one pattern that
needs the *token ids*, not just the weights:

**copy / induction** -- a token attends to the token that came right after an
earlier occurrence of the same token ("... Mia had ... Mia" -> looks at "had").
For every query position ``i`` whose token appeared before at ``j < i``, the
*target* is ``j + 1``. Targets that coincide with ``i`` (the token itself) or
``i - 1`` (the previous token) are dropped: there a self or previous-token head
would score too, and the measure would no longer tell them apart. The induction
score of a head is its mean total weight on the targets, over the query rows that
have at least one target. A sentence without a repeated token has no such row:
the score is then *not measurable* (``None``) and the result says so.

Pure numpy; no gradio, no torch, no user text in any string written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from explorer.analysis.head_stats import EXPLANATIONS, HeadStats, classify, head_stats

INDUCTION_THRESHOLD = 0.4  # mean weight on copy targets above which a head is "induction"

KINDS = ("previous-token", "first-token/sink", "self", "uniform", "induction", "no clear pattern")

# explorer.analysis.head_stats names -> ours (the sink is the same head; the longer name says why)
_FROM_STATS = {"first-token": "first-token/sink", "mixed": "no clear pattern"}

PLAIN = {
    "previous-token": "looks at the word just before",
    "first-token/sink": "parks its attention on the first token",
    "self": "looks at the word itself",
    "uniform": "spreads evenly over everything it may see",
    "induction": "looks at what followed this word last time",
    "no clear pattern": "depends on the words",
}

_INDUCTION_WHY = ("Looks at the word that followed an earlier copy of the current word, so the "
                  "model can guess that what came next last time comes next again: the trick "
                  "behind repeating names and phrases (an induction head).")
_FALLBACK_WHY = {
    "previous-token": "Tells the next layer which word came right before each word.",
    "first-token/sink": "A resting place for heads with nothing to do here (an attention "
                        "sink), not a sign that the first word matters.",
    "self": "Keeps each token's own information.",
    "uniform": "Averages everything seen so far: a rough summary of the sentence.",
    "no clear pattern": "No single rule: what it looks at depends on the words, often a "
                        "blend of the patterns above that these simple scores cannot name.",
}

NOT_MEASURABLE = ("No token repeats in this sentence, so copy/induction heads cannot show "
                  "themselves here: try a sentence that says something twice.")


def why(kind: str) -> str:
    """One or two sentences on why heads of this kind exist (shared with the Explore tab's
    explanations where it has one)."""
    if kind == "induction":
        return _INDUCTION_WHY
    if kind == "no clear pattern":  # (the Explore tab's text points at its own large view)
        return _FALLBACK_WHY["no clear pattern"]
    stats_name = {v: k for k, v in _FROM_STATS.items()}.get(kind, kind)
    return EXPLANATIONS.get(stats_name) or _FALLBACK_WHY.get(kind, "")


def induction_targets(ids: Sequence[int]) -> np.ndarray:
    """bool ``[query, key]``: True at (i, j + 1) for every earlier occurrence j < i of the
    token at i, except where j + 1 is i itself or i - 1."""
    ids = np.asarray(ids)
    n = len(ids)
    targets = np.zeros((n, n), dtype=bool)
    if n < 3:
        return targets
    same = ids[:, None] == ids[None, :]  # [i, j]
    earlier = np.tril(same, -1)  # j < i
    targets[:, 1:] = earlier[:, :-1]  # (i, j) -> (i, j + 1)
    idx = np.arange(n)
    targets[idx, idx] = False
    targets[idx[1:], idx[:-1]] = False
    return targets


def induction_scores(patterns: np.ndarray, ids: Sequence[int]) -> np.ndarray | None:
    """``[layer, head]`` mean weight on copy targets over rows that have one, or None when
    no row has one (nothing repeats)."""
    p = np.asarray(patterns, dtype=np.float64)
    if p.shape[-1] != len(ids):
        raise ValueError(f"patterns have {p.shape[-1]} positions but there are {len(ids)} ids")
    targets = induction_targets(ids)
    rows = targets.any(-1)
    if not rows.any():
        return None
    per_row = (p * targets).sum(-1)  # [L, H, q]
    return per_row[..., rows].mean(-1)


@dataclass(frozen=True)
class HeadTypes:
    kinds: np.ndarray  # [layer, head] str, one of KINDS
    evidence: np.ndarray  # [layer, head] str, the measured number behind the kind
    induction: np.ndarray | None  # [layer, head] copy-target score, None if not measurable
    stats: HeadStats

    @property
    def induction_measurable(self) -> bool:
        return self.induction is not None

    @property
    def note(self) -> str:
        """What the student should know about this measurement ("" when nothing)."""
        return "" if self.induction_measurable else NOT_MEASURABLE

    def kind(self, layer: int, head: int) -> str:
        return str(self.kinds[layer, head])

    def present(self) -> list[str]:
        """The kinds that occur, in KINDS order (any kind a newer ``classify`` adds last)."""
        seen = list(dict.fromkeys(self.kinds.ravel().tolist()))
        return [k for k in KINDS if k in seen] + [k for k in seen if k not in KINDS]


def _evidence(kind: str, s: HeadStats, layer: int, head: int, induction: float | None) -> str:
    if kind == "induction":
        return f"{induction:.2f} on copy targets"
    if kind == "previous-token":
        return f"{s.prev_share[layer, head]:.2f} on previous"
    if kind == "first-token/sink":
        return f"{s.first_share[layer, head]:.2f} on first"
    if kind == "self":
        return f"{s.self_share[layer, head]:.2f} on itself"
    if kind == "uniform":
        return f"spread {s.entropy_norm[layer, head]:.2f} of max"
    # no clear pattern: name the strongest of the measured tendencies
    leans = {"previous": s.prev_share[layer, head], "first": s.first_share[layer, head],
             "itself": s.self_share[layer, head]}
    if induction is not None:
        leans["copy targets"] = induction
    name, value = max(leans.items(), key=lambda kv: float(kv[1]))
    return f"leans to {name} {float(value):.2f}"


def head_types(patterns: np.ndarray, ids: Sequence[int],
               stats: HeadStats | None = None) -> HeadTypes:
    """Type every head of one sentence. ``stats`` (from :func:`head_stats` of the same
    patterns) is computed when not given."""
    p = np.asarray(patterns)
    if p.ndim != 4:
        raise ValueError(f"patterns must be [layer, head, query, key], got shape {p.shape}")
    stats = head_stats(p) if stats is None else stats
    induction = induction_scores(p, ids) if p.shape[-1] else None
    n_layers, n_heads = p.shape[:2]
    kinds = np.empty((n_layers, n_heads), dtype=object)
    evidence = np.empty((n_layers, n_heads), dtype=object)
    for layer in range(n_layers):
        for head in range(n_heads):
            score = None if induction is None else float(induction[layer, head])
            if score is not None and score > INDUCTION_THRESHOLD:
                kind = "induction"
            else:
                kind = classify(stats, layer, head)
                kind = _FROM_STATS.get(kind, kind)
            kinds[layer, head] = kind
            evidence[layer, head] = _evidence(kind, stats, layer, head, score)
    return HeadTypes(kinds, evidence, induction, stats)
