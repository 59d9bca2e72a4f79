"""The Shapes view's figure: the size of every tensor in one forward pass.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.labels import plotly_safe
from explorer.figures.style import _figure, _labels_axis, _titles, _top_legend
from explorer.figures.themes import Theme, base_layout, get_theme

# --------------------------------------------------------------------------- shapes


def tensor_sizes_figure(sizes: Sequence[tuple], n_tokens: int, layer: int, n_ctx: int, *,
                        theme: str | Theme = "light") -> go.Figure:
    """How many numbers each tensor of one layer (plus embeddings, final, logits) holds for
    this sentence (filled bars) and for a full context of ``n_ctx`` tokens (outlines).
    ``sizes``: ``(name, shape, numbers, numbers at n_ctx)`` as in
    :attr:`explorer.analysis.shapes.ShapeTrace.sizes`."""
    th = get_theme(theme)
    names = [plotly_safe(row[0]) for row in sizes]
    now = np.array([max(row[2], 1) for row in sizes], dtype=np.float32)
    full = np.array([max(row[3], 1) for row in sizes], dtype=np.float32)
    shapes = [" × ".join(str(n) for n in row[1]) for row in sizes]
    y = np.arange(len(sizes), dtype=np.float32)
    data = [
        {"type": "bar", "orientation": "h", "x": full, "y": y,
         "name": f"at {n_ctx} tokens (the full context)",
         "marker": {"color": "rgba(0,0,0,0)", "line": {"color": th.compare, "width": 1.5}},
         "hovertemplate": "%{y}<br>%{x:,} numbers at " + str(n_ctx) + " tokens<extra></extra>"},
        {"type": "bar", "orientation": "h", "x": now, "y": y, "customdata": shapes,
         "name": f"your {n_tokens} tokens", "marker": {"color": th.bar},
         "hovertemplate": "%{y}<br>shape %{customdata}<br>%{x:,} numbers<extra></extra>"},
    ]
    layout = base_layout(th)
    legend, legend_px = _top_legend([d["name"] for d in data])
    notes, top = _titles(f"Numbers per tensor (layer {layer})",
                         "Log scale. Scores and patterns hold tokens × tokens numbers per "
                         f"head: at {n_ctx} tokens they outgrow everything but the logits.",
                         th, wrap=30, extra=legend_px)
    layout.update(
        height=max(320, 50 + top + 20 * len(sizes)), annotations=notes, showlegend=True,
        barmode="overlay", bargap=0.25, legend=legend,
        xaxis={"type": "log", "showgrid": True, "gridcolor": th.grid, "automargin": True,
               "fixedrange": True, "dtick": 1},
        yaxis={**_labels_axis(names, "", th), "autorange": "reversed", "fixedrange": True},
        margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0},
    )
    return _figure(data, layout)
