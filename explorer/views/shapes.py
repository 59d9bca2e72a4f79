"""The "Shapes" view: every tensor of the forward pass, with this sentence's real sizes.

:func:`shapes_view` runs :func:`explorer.analysis.shapes.shape_trace` and returns the two
tables as plain rows (the UI turns them into data frames) and the tensor-size figure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import plotly.graph_objects as go

from explorer.analysis.shapes import SPLIT_HEADERS, TRACE_HEADERS, shape_trace
from explorer.analysis.stages import model_line
from explorer.figures.shapes import tensor_sizes_figure
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import Zoo
from explorer.views.controls import EMPTY_STATE, Controls, picked_or_status

__all__ = ["SPLIT_HEADERS", "TRACE_HEADERS", "ShapesView", "shapes_view"]


@dataclass(frozen=True)
class ShapesView:
    status: str
    split: list[list] = field(default_factory=list)  # rows under SPLIT_HEADERS
    sizes: go.Figure | None = None
    trace: list[list] = field(default_factory=list)  # rows under TRACE_HEADERS


def shapes_view(zoo: Zoo, tok: Tokenizer, text: str, c: Controls) -> ShapesView:
    picked, status = picked_or_status(zoo, c, text)
    if status:
        return ShapesView(status)
    r = shape_trace(picked.model, tok, text, c.settings(), picked.layer)
    if r.empty:
        return ShapesView(EMPTY_STATE)
    lines = [model_line(zoo, picked, r.n_tokens) + f" · layer {r.layer}"]
    lines += [f"⚠️ {n}" for n in (*picked.notes, *r.notices)]
    sizes = tensor_sizes_figure(r.sizes, r.n_tokens, r.layer, r.config.n_ctx, theme=c.theme)
    return ShapesView("\n\n".join(lines), r.split, sizes, r.trace)
