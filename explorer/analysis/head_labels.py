"""Head labels a teacher can trust: a pattern on this sentence *and* a job it does.

A head is named only when two things hold on the student's own input:

1. **its score clears a stated threshold** (``THRESHOLDS``), measured on this sentence:
   the weight on the previous token, on the next token (masked-word models only: they
   see both sides), on the first token (a resting place, "sink"), on itself; and, for
   induction, on a repeated copy of the sentence (the sentence followed by itself):
   from each word of the second copy, the weight on the word that followed it in the
   first copy;
2. **switching it off changes what the label predicts**, for the kinds in ``CHECKED``
   (induction, previous-token, next-token): without an induction head the model guesses
   the repeated copy worse; without a previous-token head too, since the induction head
   reads what it wrote, or the sentence itself gets harder to predict; without a
   next-token head the hidden word. "Worse" means the loss on those tokens rises by at
   least ``CHECK_NATS``. Heads doing the same job are also switched off together, so two
   heads that share one job are both still named.

First-token/sink and self heads are named on the threshold alone: neither predicts a
loss that switching it off should raise (a sink is where a head rests when nothing
matters to it), so no check is made, and the page says so (explorer/views/explore.py,
``named_line``).

Otherwise the head has **no clear pattern on this sentence**. That is the honest
answer for most heads of a small model on most sentences; it is not a failure.

Shapes: patterns ``[layer, head, query_pos, key_pos]`` of one sentence. Costs one
forward pass of the doubled sentence plus one per checked head (a few ms each at the
page's sentence lengths), so this runs when typing pauses, not on every keystroke.
No gradio; no user text in any string written here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import torch

from explorer.analysis.head_stats import HeadStats, head_stats
from explorer.analysis.losses import LossSpec, loss_spec, positions_spec, spec_loss
from explorer.models.capture import run_with_cache
from explorer.models.settings import AttentionSettings
from explorer.models.transformer import Transformer

# Kinds, most specific first: a head clearing two thresholds gets the first.
INDUCTION, PREVIOUS, NEXT, SINK, SELF = ("induction", "previous-token", "next-token",
                                         "first-token/sink", "self")
NO_PATTERN = "no clear pattern on this sentence"
KINDS = (INDUCTION, PREVIOUS, NEXT, SINK, SELF, NO_PATTERN)

THRESHOLDS = {INDUCTION: 0.3, PREVIOUS: 0.5, NEXT: 0.5, SINK: 0.5, SELF: 0.5}
CHECKED = (INDUCTION, PREVIOUS, NEXT)  # kinds that must also pass the switch-off check
CHECK_NATS = 0.1  # loss rise (nats per token) that counts as "switching it off breaks it"

PLAIN = {
    INDUCTION: "looks at what followed this word last time, so a repeat can be copied",
    PREVIOUS: "looks at the word just before",
    NEXT: "looks at the word just after",
    SINK: "parks its attention on the first token when nothing else matters to it",
    SELF: "looks at the word itself",
    NO_PATTERN: "no single rule on this sentence: what it looks at depends on the words",
}


@dataclass(frozen=True)
class HeadLabels:
    """Per head: the kind, its score on this input, and what switching it off did."""

    kinds: np.ndarray  # [layer, head] str, one of KINDS
    scores: dict[str, np.ndarray]  # kind -> [layer, head] score on this input
    rise: np.ndarray  # [layer, head] loss rise (nats) when the head alone is off; nan: unchecked
    group_rise: dict[str, float]  # kind -> loss rise when every candidate of it is off
    repeated: bool  # whether induction was measured (the doubled sentence fits the context)

    def kind(self, layer: int, head: int) -> str:
        return str(self.kinds[layer, head])

    def named(self) -> list[tuple[int, int, str]]:
        """(layer, head, kind) of every head with a name, in layer order."""
        return [(la, h, str(k)) for (la, h), k in np.ndenumerate(self.kinds) if k != NO_PATTERN]

    def evidence(self, layer: int, head: int) -> str:
        """The numbers behind the label, in plain words."""
        kind = self.kind(layer, head)
        if kind == NO_PATTERN:
            best = max(self.scores, key=lambda k: self.scores[k][layer, head] / THRESHOLDS[k])
            score = self.scores[best][layer, head]
            if score >= THRESHOLDS[best]:  # the pattern is there; switching it off did little
                own = self.rise[layer, head]
                return (f"{score:.2f} {_WHAT[best]} like a {best} head, but switching it off "
                        f"changes little (+{below(own, CHECK_NATS)} nats; a name needs "
                        f"+{CHECK_NATS:.2f})")
            return (f"closest: {best} {below(score, THRESHOLDS[best])} (a name needs "
                    f"{THRESHOLDS[best]:.2f}"
                    + (" and a job" if best in CHECKED else "") + ")")
        text = f"{self.scores[kind][layer, head]:.2f} {_WHAT[kind]}"
        if kind in CHECKED:
            own = self.rise[layer, head]
            text += f"; off: +{own:.2f} nats" if np.isfinite(own) else ""
        return text


def below(value: float, bar: float) -> str:
    """``value`` to two decimals, or cut (not rounded) to three where two would round it
    up to ``bar``: 0.4997 shown as "0.50 (a name needs 0.50)" reads as a contradiction."""
    text = f"{value:.2f}"
    return f"{math.floor(value * 1000) / 1000:.3f}" if value < bar <= float(text) else text


_WHAT = {INDUCTION: "on the copy target", PREVIOUS: "on the previous word",
         NEXT: "on the next word", SINK: "on the first token", SELF: "on itself"}


def offset_scores(patterns: np.ndarray, offset: int) -> np.ndarray:
    """[layer, head] mean weight of query i on key i + offset, over the queries that have
    one (offset +1: the next token; -1 and 0 are :func:`explorer.analysis.head_stats.head_stats`'
    ``prev_share`` and ``self_share``)."""
    n = patterns.shape[-1]
    q = np.arange(max(0, -offset), min(n, n - offset))
    if len(q) == 0:
        return np.zeros(patterns.shape[:2])
    return patterns[..., q, q + offset].mean(-1)


def doubled(ids: Sequence[int], n_ctx: int) -> list[int] | None:
    """The sentence followed by itself, or None when that does not fit or is too short to
    say anything (fewer than three tokens)."""
    ids = list(ids)
    if len(ids) < 3 or 2 * len(ids) > n_ctx:
        return None
    return ids + ids


def copy_scores(patterns: np.ndarray, n: int) -> np.ndarray:
    """Patterns of a doubled sentence (2n tokens) -> [layer, head] mean weight from each
    second-copy token j (queries n + 1 .. 2n - 1) on the first-copy token after j's twin,
    key (j - n) + 1."""
    q = np.arange(n + 1, 2 * n)
    return patterns[..., q, q - n + 1].mean(-1)


def label_heads(model: Transformer, ids: Sequence[int], patterns: np.ndarray,
                settings: AttentionSettings | None = None, mask_id: int | None = None,
                stats: HeadStats | None = None) -> HeadLabels:
    """Name the heads of ``model`` on the sentence ``ids`` whose ``patterns`` (``[layer,
    head, q, k]``, under ``settings``) were already captured. ``mask_id`` is needed for
    masked-word models (their loss hides one word at a time). ``stats``: the same patterns'
    :func:`~explorer.analysis.head_stats.head_stats`, computed when not given."""
    cfg = model.config
    settings = settings or AttentionSettings()
    p = np.asarray(patterns, dtype=np.float64)
    shape = (cfg.n_layers, cfg.n_heads)
    stats = head_stats(p) if stats is None else stats
    scores = {PREVIOUS: stats.prev_share, SINK: stats.first_share, SELF: stats.self_share}
    if not cfg.causal:
        scores[NEXT] = offset_scores(p, +1)
    ids = list(ids)
    rep = doubled(ids, cfg.n_ctx) if cfg.causal else None
    if rep is not None:
        _, cache = run_with_cache(model, torch.tensor([rep]), settings, names="*hook_pattern")
        rep_patterns = cache.stack("attn.hook_pattern")[:, 0].double().numpy()
        scores[INDUCTION] = copy_scores(rep_patterns, len(ids))
    kinds = np.full(shape, NO_PATTERN, dtype=object)
    for kind in (k for k in KINDS if k in scores):
        free = kinds == NO_PATTERN
        kinds[free & (scores[kind] >= THRESHOLDS[kind])] = kind

    # The switch-off check: what each checked kind predicts, as a loss that should rise.
    def losses(off: Sequence[tuple[int, int]]) -> dict[str, float]:
        s = replace(settings, head_mask=tuple(settings.head_mask) + tuple(off))
        out = {}
        if rep is not None:  # the second copy, from its second token: what copying predicts
            n = len(ids)
            out["copy"] = spec_loss(model, positions_spec(rep, range(n, 2 * n - 1)), s)
        if cfg.causal or mask_id is not None:
            spec = loss_spec(ids, cfg.causal, mask_id if mask_id is not None else -1)
            out["text"] = spec_loss(model, spec, s) if isinstance(spec, LossSpec) else np.nan
        return out

    needs = {INDUCTION: ("copy",), PREVIOUS: ("copy", "text"), NEXT: ("text",)}
    rise = np.full(shape, np.nan)
    group_rise: dict[str, float] = {}
    base = losses(()) if any((kinds == k).any() for k in CHECKED) else {}
    for kind in CHECKED:
        heads = [(int(la), int(h)) for la, h in zip(*np.nonzero(kinds == kind), strict=True)]
        if not heads:
            continue
        keys = [k for k in needs[kind] if k in base]

        def rise_of(off, keys=keys):
            after = losses(off)
            return max((after[k] - base[k] for k in keys), default=float("nan"))

        for head in heads:
            rise[head] = rise_of([head])
        group_rise[kind] = rise_of(heads) if len(heads) > 1 else float(rise[heads[0]])
        if not group_rise[kind] >= CHECK_NATS:  # nan (nothing to check) fails too
            for head in heads:
                kinds[head] = NO_PATTERN
    return HeadLabels(kinds, scores, rise, group_rise, rep is not None)
