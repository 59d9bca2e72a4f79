"""The Explore tab's grid of every head, built to be cheap to send and cheap to draw.

:func:`attention_mosaic_spec` shows the same panels as
:func:`explorer.figures.attention_grid` (rows = layers, columns = heads, query on y, key
on x, one colour scale) but

* on ONE pair of axes: each panel is its own heatmap trace placed with ``x0``/``y0`` next
  to the others, with empty space between them. Plotly.js lays out 2 axes instead of
  2 per panel (32 for 4 x 4), which was most of the browser's time per keystroke
  (benchmarks/run_all.py measures keystroke -> grid drawn in Chromium). Each trace keeps
  its name ``"L1 H2"``, so a click still says which head it was and the hover still
  ends with the panel's name;
* with weights as whole percent in ``uint8`` (1 byte a cell instead of 4; the hover
  shows ``12%``). The exact weights are in the large single-head view and the exports.

Hover text comes from the tick text of the shared axes (``%{x}``/``%{y}`` show the
token, see :mod:`explorer.figures`); tick labels are drawn only while they fit. The
figure says what it shows in ``layout.meta`` (token count, layers x heads, where panel
(0, 0) starts and the step between panels, in axis units) for scripts that read it.
"""

from __future__ import annotations

import math
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

# %{y}/%{x}: the tokens (tick text of the shared axes); %{z}: whole percent
HOVER = "query %{y}<br>key %{x}<br>weight %{z}%"


def to_percent(patterns: np.ndarray) -> np.ndarray:
    """Weights 0..1 -> whole percent 0..100 as uint8 (rounded to nearest)."""
    return np.rint(np.clip(patterns, 0.0, 1.0) * 100).astype(np.uint8)


def mosaic_steps(n_tok: int) -> tuple[int, int]:
    """(gap between columns, gap above each row) in cells: the row gap holds the title."""
    return max(1, math.ceil(0.15 * n_tok)), max(2, math.ceil(0.3 * n_tok))


def attention_mosaic_spec(
    patterns: np.ndarray,
    tokens: Sequence[str],
    *,
    theme: str | Theme = "light",
    selected: tuple[int, int] | None = None,
) -> dict:
    """Every head of every layer on one pair of axes (see the module docstring).

    ``patterns``: ``[n_layers, n_heads, T, T]`` weights; ``tokens``: T strings;
    ``selected``: ``(layer, head)`` to outline.
    """
    p = _f32(patterns, 4, "patterns")
    n_layers, n_heads = p.shape[:2]
    n = _check_square(p, tokens, "patterns")
    th = get_theme(theme)
    sel = _selected_index(selected, n_layers, n_heads)
    gap_x, gap_y = mosaic_steps(n)
    step_x, step_y = n + gap_x, n + gap_y
    pct = to_percent(p)  # [layer, head, T, T], contiguous: each panel a view

    data = []
    for layer in range(n_layers):
        for head in range(n_heads):
            name = f"L{layer} H{head}"
            data.append({
                "type": "heatmap", "z": pct[layer, head], "coloraxis": "coloraxis",
                "x0": head * step_x, "dx": 1, "y0": layer * step_y + gap_y, "dy": 1,
                "name": name, "hovertemplate": HOVER + f"<extra>{name}</extra>",
            })

    labels = axis_labels(tokens, GRID_LABEL_CHARS)
    axis = {"tickmode": "array", "showgrid": False, "zeroline": False, "ticks": "",
            "automargin": True, "ticklabeloverflow": "allow",
            "tickfont": {"size": 9, "color": th.font}}
    layout = base_layout(th)
    layout.update(
        height=_grid_height(n_layers),
        coloraxis={**_coloraxis(th), "cmax": 100.0},
        margin={"l": 8, "r": 8, "t": 8, "b": 8, "pad": 0},
        meta={"tokens": n, "layers": n_layers, "heads": n_heads,
              "origin": [0, gap_y], "step": [step_x, step_y]},
        xaxis={**axis, "showticklabels": n * n_heads <= X_TICK_BUDGET,
               "tickvals": [h * step_x + k for h in range(n_heads) for k in range(n)],
               "ticktext": labels * n_heads,
               "range": [-0.5 - gap_x / 2, n_heads * step_x - gap_x / 2 - 0.5]},
        yaxis={**axis, "showticklabels": n * n_layers <= Y_TICK_BUDGET,
               "tickvals": [la * step_y + gap_y + q for la in range(n_layers) for q in range(n)],
               "ticktext": labels * n_layers,
               "range": [n_layers * step_y - 0.5 + gap_y / 4, -0.5]},  # reversed: row 0 on top
    )
    layout["coloraxis"]["colorbar"] = {**layout["coloraxis"]["colorbar"],
                                       "title": {"text": "weight %", "side": "right"}}
    titles = [{"text": f"L{layer} H{head}", "xref": "x", "yref": "y",
               "x": head * step_x + (n - 1) / 2, "y": layer * step_y + gap_y - 0.5,
               "xanchor": "center", "yanchor": "bottom", "showarrow": False,
               "font": {"size": 11}}
              for layer in range(n_layers) for head in range(n_heads)]
    if sel >= 0:
        layer, head = divmod(sel, n_heads)
        pad = gap_x * 0.4
        titles[sel].update(text=f"<b>{titles[sel]['text']}</b>",
                           font={"size": 11, "color": th.accent})
        layout["shapes"] = [{
            "type": "rect", "xref": "x", "yref": "y", "layer": "above",
            "x0": head * step_x - 0.5 - pad, "x1": head * step_x + n - 0.5 + pad,
            "y0": layer * step_y + 0.5 + gap_y * 0.05,
            "y1": layer * step_y + gap_y + n - 0.5 + pad,
            "line": {"color": th.accent, "width": 2.5}, "fillcolor": "rgba(0,0,0,0)",
        }]
    layout["annotations"] = titles
    return {"data": data, "layout": layout}
