"""The clear heads of one model, from its evaluation on held-out text (``eval/NAME.json``).

The page's pointer "clear heads in this model" lists only heads whose score cleared
the evaluation's threshold on held-out text (:mod:`explorer.training.evaluate`), and, for
next-word models, whose switch-off check showed the job: without the induction head
the copy gain falls. A model where nothing emerged gets an empty list and a sentence
that says so, which is a lesson of its own (no positional encoding, one head, ...).

Pure functions of the evaluation dict; no torch, no gradio, no user text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

_LABEL = re.compile(r"^L(\d{1,2}) H(\d{1,2}) · ")  # (a request may send anything)
_NAME = re.compile(r"^causal-h(\d+)-(\w+)$")  # next-word models: heads, positions


@dataclass(frozen=True)
class ClearHead:
    kind: str  # "previous-token", "induction", "next-token"
    layer: int
    head: int
    score: float  # on held-out text
    # How often the page names it on held-out story openings (explorer.analysis.page_check):
    # (named, of), or None where that was not measured. Not part of the equality a test or
    # a pointer value relies on.
    on_page: tuple[int, int] | None = field(default=None, compare=False)

    @property
    def rarely_named(self) -> bool:
        """Whether the page named it on under a quarter of the held-out openings (a head
        whose held-out average does not carry over to a class's own sentences)."""
        return bool(self.on_page) and self.on_page[0] * 4 < self.on_page[1]

    @property
    def label(self) -> str:
        return f"L{self.layer} H{self.head} · {self.kind} ({self.score:.2f})"


def clear_heads(result: dict | None) -> list[ClearHead]:
    """The heads named in ``result`` (an ``eval/NAME.json`` dict), layer order."""
    if not result:
        return []
    found = []
    off = result.get("switched_off") or {}
    ind = (result.get("induction") or {}).get("random_repeat") or {}
    if ind.get("emerged"):
        b = ind["best"]
        gain_off = (off.get("induction") or {}).get("copy_gain_nats")
        # the job: with the head off, the copy gain must fall (by at least a third)
        if gain_off is None or gain_off < ind["copy_gain_nats"] * 2 / 3:
            found.append(ClearHead("induction", b["layer"], b["head"], b["score"]))
    for key, kind in (("previous_token", "previous-token"), ("next_token", "next-token")):
        r = result.get(key) or {}
        if r.get("emerged"):
            b = r["best"]
            found.append(ClearHead(kind, b["layer"], b["head"], b["score"]))
    page = {(h.get("layer"), h.get("head"), h.get("kind")): (h.get("named"), h.get("of"))
            for h in ((result.get("on_the_page") or {}).get("heads") or [])}
    found = [replace(c, on_page=page.get((c.layer, c.head, c.kind))) for c in found]
    return sorted(found, key=lambda c: (c.layer, c.head))


def on_page_sentence(heads: list[ClearHead], lists: dict | None = None) -> str:
    """What a class will see of these heads on its own sentences, from the counts of
    :mod:`explorer.analysis.page_check`; "" where none were measured. ``lists``: the
    evaluation's ``list_continuation``, for a copying head that copies lists far more
    often than stories."""
    measured = [h for h in heads if h.on_page]
    if not measured:
        return ""
    n = measured[0].on_page[1]
    parts = [f"L{h.layer} H{h.head} {h.kind} on {h.on_page[0]}"
             + (" (each said twice)" if h.kind == "induction" else "") for h in measured]
    text = (f" On the openings of {n} held-out stories, the page named "
            + ", ".join(parts) + ": a name on *your* sentence needs the pattern there too.")
    weak = [h for h in measured if h.kind == "induction" and h.rarely_named]
    lists = lists or {}
    if weak and lists.get("lists") and lists.get("continued", 0) * 2 > lists["lists"]:
        text += (f" Its copying head continued {lists['continued']} of {lists['lists']} "
                 "held-out lists of words said twice, but hardly copies a story said twice: "
                 "it learned to copy from the lists of random words in its training. Try the "
                 "list example.")
    return text


def _and(items: list) -> str:
    """[1, 2, 4] -> "1, 2 and 4"."""
    words = [str(i) for i in items]
    return " and ".join(filter(None, [", ".join(words[:-1]), words[-1]]))


def copying_models(evals: dict[str, dict]) -> dict[str, list[int]]:
    """Positional encoding -> head counts of the next-word models in ``evals`` (name ->
    ``eval/NAME.json``) with a clear induction head, e.g. ``{"rotary": [1, 2, 4, 8]}``."""
    found: dict[str, list[int]] = {}
    for name, result in sorted(evals.items()):
        m = _NAME.match(name)
        if m and any(h.kind == "induction" for h in clear_heads(result)):
            found.setdefault(m[2], []).append(int(m[1]))
    return {pos: sorted(counts) for pos, counts in sorted(found.items())}


def summary(name: str, heads: list[ClearHead], evaluated: bool,
            evaluation: dict | None = None, copiers: dict[str, list[int]] | None = None) -> str:
    """One plain sentence for the page (Markdown, no user text); ``evaluation`` (the
    model's ``eval/NAME.json``) adds its list check to what the page counts say, and
    ``copiers`` (:func:`copying_models` of the zoo) where to look when a model has none."""
    if not evaluated:
        return (f"**{name}** has not been evaluated yet "
                f"(`python -m explorer.training.evaluate {name}`).")
    if not heads:
        where = "; ".join(f"**{pos}** ({_and(counts)} head{'s' if counts != [1] else ''})"
                          for pos, counts in (copiers or {}).items())
        return (f"**{name}**: no head passed the held-out checks (previous-token ≥ 0.5, "
                "induction ≥ 0.3 with a copy gain ≥ 1 nat). Whether such heads grow depends on "
                "the knobs" + (f": in this zoo the models with an induction head are {where}; "
                               "pick one to compare." if where else "."))
    items = ", ".join(h.label for h in heads)
    return (f"**Clear heads in {name}** (measured on held-out text, not on your sentence): "
            f"{items}. Pick one to open it large."
            + on_page_sentence(heads, (evaluation or {}).get("list_continuation")))


def parse_label(label: object) -> tuple[int, int] | None:
    """``"L1 H2 · ..."`` -> (1, 2); None for anything else a request may send."""
    m = _LABEL.match(str(label or ""))
    return (int(m[1]), int(m[2])) if m else None
