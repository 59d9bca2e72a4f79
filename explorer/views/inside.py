"""The "Inside one head" view: every stage of one head, from X to the output projection.

:func:`inside_view` runs :func:`explorer.analysis.stages.head_stages` for the head the
*Layer*/*Head* knobs pick and draws each stage with
:func:`explorer.figures.matrices.stage_figure`. The status line names the model, the head
and any experiment; no user text reaches it (tokens only reach Plotly labels).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import plotly.graph_objects as go

from explorer.analysis.stages import head_stages, model_line
from explorer.figures.matrices import stage_figure
from explorer.figures.style import DIVERGING, MINUS_INF
from explorer.figures.themes import get_theme
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import Zoo
from explorer.views.controls import EMPTY_STATE, Controls, picked_or_status

# Stage keys in page order; rot_q / rot_k only exist for rotary models.
KEYS = ("x", "q", "k", "v", "rot_q", "rot_k", "scores", "scaled", "masked", "pattern", "z",
        "concat", "out")

# The view's words, the app's tab (explorer/ui/inside_tab.py) and the static edition's
# (explorer/site/config.py) alike: the introduction, and the headings of the stages' groups
# in page order with the stages under each (the rotary group only on a rotary model).
INTRO = """Follow **one head** (pick it with *Layer* and *Head*) through one attention layer,
on your sentence: the input **X** becomes queries, keys and values; every query is compared
with every key (**Q·Kᵀ**); the scores are **scaled**, **masked** and turned into weights by a
**softmax**; the weights average the values (**A·V**); all heads are **concatenated** and
**projected** back. Each picture's title gives its real shape. Every knob applies here too —
turn off the mask or the scaling and watch which step changes. Tap or hover over a cell for
its value."""
SECTIONS = (
    ("1 · The input", ("x",)),
    ("2 · Queries, keys and values of this head", ("q", "k", "v")),
    ("2b · Rotary: q and k turned by position (v is not)", ("rot_q", "rot_k")),
    ("3 · Scores, scaling, mask", ("scores", "scaled", "masked", "pattern")),
    ("4 · Weighted values, heads merged, output", ("z", "concat", "out")),
)
assert tuple(k for _, keys in SECTIONS for k in keys) == KEYS


@dataclass(frozen=True)
class InsideView:
    status: str
    figures: dict[str, go.Figure] = field(default_factory=dict)  # by stage key; absent: none
    rotary: bool = False  # show the rotary row (q and k turned by position)

    def in_order(self) -> list[go.Figure | None]:
        """One entry per :data:`KEYS`, None where this model has no such stage."""
        return [self.figures.get(k) for k in KEYS]


def inside_view(zoo: Zoo, tok: Tokenizer, text: str, c: Controls) -> InsideView:
    picked, status = picked_or_status(zoo, c, text)
    if status:
        return InsideView(status)
    r = head_stages(picked.model, tok, text, c.settings(), picked.layer, picked.head)
    if r.empty:
        return InsideView(EMPTY_STATE)
    lines = [model_line(zoo, picked, len(r.tokens)) + f" · **layer {r.layer}, head {r.head}**"]
    if r.resolved.interventions:
        lines.append("🧪 **Experiment on the trained model:** "
                     + "; ".join(r.resolved.interventions) + ".")
    lines += [f"⚠️ {n}" for n in (*picked.notes, *r.notices)]
    figures = {k: stage_figure(r.stages[k], r.tokens, theme=c.theme)
               for k in KEYS if k in r.stages}
    return InsideView("\n\n".join(lines), figures, rotary="rot_q" in r.stages)


def stage_colors(theme: str) -> dict:
    """What the static edition's heatmaps of the stages draw with (static/site/inside_draw.js),
    as :func:`explorer.figures.matrices.stage_figure` does: the diverging scale of every
    stage but the pattern (which is drawn on the weights' scale, the grid's), the blocked
    cells' grey and the word a masked score's cell says."""
    return {"diverging": [list(s) for s in DIVERGING[theme]],
            "masked": get_theme(theme).masked, "minusInf": MINUS_INF}
