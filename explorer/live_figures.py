"""The Explore tab's grid of every head, built to be cheap to send and cheap to draw.

:func:`attention_mosaic_spec` shows the same panels as
:func:`explorer.figures.attention_grid` (rows = layers, columns = heads, query on y, key
on x, one colour scale) but as ONE heatmap trace on one pair of axes: panel (layer, head)
is the block of cells ``z[layer*T:(layer+1)*T, head*T:(head+1)*T]``, the panels touch and
thin lines in the background colour separate them. Plotly.js then lays out one image and
a few axes instead of 16 images and 32 axes: in Chromium on the 2-core box that drew in
about a third of the time of the one-subplot-per-head grid (benchmarks/run_all.py
measures keystroke -> grid drawn). Also:

* weights are whole percent in ``uint8`` (1 byte a cell instead of 4; the hover shows
  ``12%``); the exact weights are in the large single-head view and the exports;
* the hover names the panel, the positions and the tokens from the tick text of the
  hidden axes (``%{y}`` -> ``L1 · query 3: ␣the``; see :mod:`explorer.figures` for why
  hover reads tick text), so nothing per cell is sent but the weight;
* row and column labels (``L0``..., ``H0``...) are the tick labels of two overlay axes,
  cheaper to draw than an annotation per panel; tokens are drawn as tick labels only
  while they fit (two more overlay axes);
* no colour bar and no mode bar (both are drawn again on every keystroke; the large view
  below has the 0..1 scale);
* ``layout.meta`` says what the figure shows (token count, layers, heads), for the page's
  click handler (a click's x, y -> the panel) and for scripts that read the figure.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from explorer.figures import (
    GRID_LABEL_CHARS,
    X_TICK_BUDGET,
    Y_TICK_BUDGET,
    _check_square,
    _coloraxis,
    _f32,
    _grid_height,
    _selected_index,
)
from explorer.labels import axis_labels
from explorer.themes import Theme, base_layout, get_theme

HOVER = "%{y}<br>%{x}<br>weight %{z}%<extra></extra>"
SEPARATOR_PX = 3


def to_percent(patterns: np.ndarray) -> np.ndarray:
    """Weights 0..1 -> whole percent 0..100 as uint8 (rounded to nearest)."""
    return np.rint(np.clip(patterns, 0.0, 1.0) * 100).astype(np.uint8)


def mosaic(patterns: np.ndarray) -> np.ndarray:
    """``[n_layers, n_heads, T, T]`` -> ``[n_layers*T, n_heads*T]`` whole percent, uint8."""
    n_layers, n_heads, n, _ = patterns.shape
    return np.ascontiguousarray(
        to_percent(patterns).transpose(0, 2, 1, 3).reshape(n_layers * n, n_heads * n))


def panel(z: np.ndarray, n_tok: int, layer: int, head: int) -> np.ndarray:
    """Panel (layer, head) back out of a mosaic ``z`` (the inverse of :func:`mosaic`)."""
    return z[layer * n_tok:(layer + 1) * n_tok, head * n_tok:(head + 1) * n_tok]


def _axis(th: Theme, **keys) -> dict:
    return {"tickmode": "array", "showgrid": False, "zeroline": False, "ticks": "",
            "ticklabeloverflow": "allow", "fixedrange": False,
            "tickfont": {"size": 9, "color": th.font}, **keys}


def attention_mosaic_spec(
    patterns: np.ndarray,
    tokens: Sequence[str],
    *,
    theme: str | Theme = "light",
    selected: tuple[int, int] | None = None,
) -> dict:
    """Every head of every layer as one heatmap (see the module docstring).

    ``patterns``: ``[n_layers, n_heads, T, T]`` weights; ``tokens``: T strings;
    ``selected``: ``(layer, head)`` to outline.
    """
    p = _f32(patterns, 4, "patterns")
    n_layers, n_heads = p.shape[:2]
    n = _check_square(p, tokens, "patterns")
    th = get_theme(theme)
    sel = _selected_index(selected, n_layers, n_heads)
    labels = axis_labels(tokens, GRID_LABEL_CHARS)
    width, height = n_heads * n, n_layers * n
    x_range, y_range = [-0.5, width - 0.5], [height - 0.5, -0.5]  # y reversed: L0 on top

    data = [{"type": "heatmap", "z": mosaic(p), "coloraxis": "coloraxis",
             "hovertemplate": HOVER},
            # carries the overlay axes of the row and column labels (one empty point)
            {"type": "scatter", "x": [None], "y": [None], "xaxis": "x2", "yaxis": "y2",
             "hoverinfo": "skip", "showlegend": False}]
    layout = base_layout(th)
    layout.update(
        height=_grid_height(n_layers),
        coloraxis={**_coloraxis(th), "cmax": 100.0, "showscale": False},
        # fixed room for the H and L labels (automargin would measure and lay out twice)
        margin={"l": 8, "r": 26, "t": 22, "b": 8, "pad": 0},
        meta={"tokens": n, "layers": n_layers, "heads": n_heads},
        hovermode="closest",
        # hidden tick text = the hover text of each cell's column and row
        xaxis=_axis(th, showticklabels=False, range=x_range,
                    tickvals=list(range(width)),
                    ticktext=[f"H{h} · key {k}: {labels[k]}"
                              for h in range(n_heads) for k in range(n)]),
        yaxis=_axis(th, showticklabels=False, range=y_range,
                    tickvals=list(range(height)),
                    ticktext=[f"L{la} · query {q}: {labels[q]}"
                              for la in range(n_layers) for q in range(n)]),
        xaxis2=_axis(th, overlaying="x", matches="x", side="top",
                     tickvals=[h * n + (n - 1) / 2 for h in range(n_heads)],
                     ticktext=[f"H{h}" for h in range(n_heads)],
                     tickfont={"size": 11, "color": th.font}),
        yaxis2=_axis(th, overlaying="y", matches="y", side="right",
                     tickvals=[la * n + (n - 1) / 2 for la in range(n_layers)],
                     ticktext=[f"L{la}" for la in range(n_layers)],
                     tickfont={"size": 11, "color": th.font}),
    )
    if n * n_heads <= X_TICK_BUDGET or n * n_layers <= Y_TICK_BUDGET:
        # short sentences: the tokens along the bottom and the left, on two more axes
        data.append({"type": "scatter", "x": [None], "y": [None], "xaxis": "x3",
                     "yaxis": "y3", "hoverinfo": "skip", "showlegend": False})
        layout["xaxis3"] = _axis(th, overlaying="x", matches="x", side="bottom",
                                 showticklabels=n * n_heads <= X_TICK_BUDGET, automargin=True,
                                 tickvals=list(range(width)), ticktext=labels * n_heads)
        layout["yaxis3"] = _axis(th, overlaying="y", matches="y", side="left",
                                 showticklabels=n * n_layers <= Y_TICK_BUDGET, automargin=True,
                                 tickvals=list(range(height)), ticktext=labels * n_layers)
    line = {"color": th.paper, "width": SEPARATOR_PX}
    shapes = [{"type": "line", "xref": "x", "yref": "y", "layer": "above", "line": line,
               "x0": h * n - 0.5, "x1": h * n - 0.5, "y0": -0.5, "y1": height - 0.5}
              for h in range(1, n_heads)]
    shapes += [{"type": "line", "xref": "x", "yref": "y", "layer": "above", "line": line,
                "x0": -0.5, "x1": width - 0.5, "y0": la * n - 0.5, "y1": la * n - 0.5}
               for la in range(1, n_layers)]
    if sel >= 0:
        layer, head = divmod(sel, n_heads)
        shapes.append({"type": "rect", "xref": "x", "yref": "y", "layer": "above",
                       "x0": head * n - 0.5, "x1": (head + 1) * n - 0.5,
                       "y0": layer * n - 0.5, "y1": (layer + 1) * n - 0.5,
                       "line": {"color": th.accent, "width": 2.5},
                       "fillcolor": "rgba(0,0,0,0)"})
    layout["shapes"] = shapes
    # No mode bar: one less set of DOM nodes per keystroke's redraw (zoom is a drag,
    # double-click resets; the Take it home tab saves pictures). Gradio's plot reads it.
    return {"data": data, "layout": layout, "config": {"displayModeBar": False}}
