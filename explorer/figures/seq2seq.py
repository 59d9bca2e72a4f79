"""Figures the encoder-decoder view needs and :mod:`explorer.figures.attention` has no builder for.

* :func:`cross_grid` -- every decoder layer x head of cross-attention, one small heatmap
  each, target positions down and source positions across. The same look as
  :func:`explorer.figures.attention.attention_grid` (one 0..1 Viridis colour axis, "L0 H1" titles,
  tokens in the hover), but rectangular: ``[tgt, src]`` panels, which the square-only
  grid refuses.
* :func:`batch_figure` -- a padded batch as a table of cells, one row per input, the
  word written in its cell and ``<pad>`` cells greyed.

Pure functions of arrays and token strings; every token passes through
:mod:`explorer.figures.labels`; built as dicts with ``_validate=False`` like the other figure
modules (tests rebuild them with validation on).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.labels import axis_labels, plotly_safe
from explorer.figures.themes import COLORSCALE, Theme, base_layout, get_theme

PANEL_PX = 170  # height of one grid row


def _figure(data: list[dict], layout: dict) -> go.Figure:
    return go.Figure({"data": data, "layout": layout}, _validate=False)


def _axis(labels: list[str], show: bool, theme: Theme, **extra) -> dict:
    return {"tickmode": "array", "tickvals": list(range(len(labels))), "ticktext": labels,
            "showticklabels": show, "showgrid": False, "zeroline": False, "ticks": "",
            "automargin": True, "ticklabeloverflow": "allow",
            "tickfont": {"size": 9, "color": theme.font}, **extra}


def cross_grid(patterns: np.ndarray, q_tokens: Sequence[str], k_tokens: Sequence[str], *,
               theme: str | Theme = "light", q_name: str = "output position",
               k_name: str = "source") -> go.Figure:
    """``patterns`` ``[n_layers, n_heads, T_q, T_k]`` -> rows = layers, columns = heads.
    Tick labels on the bottom row (keys) and left column (queries); hover always names
    both tokens and the weight."""
    p = np.ascontiguousarray(patterns, dtype=np.float32)
    if p.ndim != 4:
        raise ValueError(f"patterns must be 4-D, got shape {p.shape}")
    n_layers, n_heads, t_q, t_k = p.shape
    if (t_q, t_k) != (len(q_tokens), len(k_tokens)):
        raise ValueError(f"patterns are [..., {t_q}, {t_k}] for {len(q_tokens)} query and "
                         f"{len(k_tokens)} key tokens")
    th = get_theme(theme)
    q_labels, k_labels = axis_labels(q_tokens, 10), axis_labels(k_tokens, 10)
    hover = (f"{plotly_safe(q_name)} %{{y:d}}: %{{y}}<br>{plotly_safe(k_name)} %{{x:d}}: "
             "%{x}<br>weight %{z:.4f}")
    data, notes, layout = [], [], base_layout(th)
    for layer in range(n_layers):
        for head in range(n_heads):
            i = layer * n_heads + head + 1
            s = "" if i == 1 else str(i)
            data.append({"type": "heatmap", "z": p[layer, head], "xaxis": "x" + s,
                         "yaxis": "y" + s, "coloraxis": "coloraxis", "hoverongaps": False,
                         "hovertemplate": hover + f"<extra>L{layer} H{head}</extra>"})
            notes.append({"text": f"L{layer} H{head}", "xref": f"x{s} domain",
                          "yref": f"y{s} domain", "x": 0.5, "y": 1.0, "xanchor": "center",
                          "yanchor": "bottom", "showarrow": False, "font": {"size": 11}})
            layout["xaxis" + s] = _axis(k_labels, layer == n_layers - 1, th)
            layout["yaxis" + s] = _axis(q_labels, head == 0, th, autorange="reversed")
    layout.update(
        height=60 + PANEL_PX * n_layers, annotations=notes,
        grid={"rows": n_layers, "columns": n_heads, "pattern": "independent",
              "roworder": "top to bottom", "xgap": 0.12, "ygap": 0.3},
        coloraxis={"cmin": 0.0, "cmax": 1.0, "colorscale": [list(c) for c in COLORSCALE],
                   "colorbar": {"thickness": 10, "len": 0.75, "outlinewidth": 0,
                                "title": {"text": "weight", "side": "right"},
                                "tickfont": {"size": 10, "color": th.font}}},
        margin={"l": 8, "r": 8, "t": 24, "b": 8, "pad": 0},
    )
    return _figure(data, layout)


def batch_figure(rows: Sequence[Sequence[str]], padding: np.ndarray, *,
                 row_names: Sequence[str], theme: str | Theme = "light") -> go.Figure:
    """A padded batch: ``rows[i][j]`` the token at position j of input i (``padding``
    ``[batch, pos]`` True where it is padding). Real tokens are pale blue, padding grey."""
    th = get_theme(theme)
    pad = np.asarray(padding, dtype=bool)
    n_rows, n_cols = pad.shape
    if [len(r) for r in rows] != [n_cols] * n_rows or len(row_names) != n_rows:
        raise ValueError("rows, padding and row_names do not agree")
    text = [axis_labels(r, 10) for r in rows]  # escaped
    z = pad.astype(np.float32)  # 0 real, 1 padding
    data = [{"type": "heatmap", "z": z, "zmin": 0, "zmax": 1, "showscale": False,
             "colorscale": [[0, "#cfe3f3" if th.name == "light" else "#2c5a7a"],
                            [1, th.masked]], "xgap": 3, "ygap": 3,
             "text": text, "texttemplate": "%{text}", "textfont": {"size": 12},
             "hovertemplate": "%{y}, position %{x}: %{text}<extra></extra>"}]
    layout = base_layout(th)
    names = [plotly_safe(n) for n in row_names]
    layout.update(
        height=40 + 42 * n_rows,
        xaxis={**_axis([str(i) for i in range(n_cols)], True, th), "side": "top",
               "fixedrange": True, "title": {"text": "position", "font": {"size": 10}}},
        yaxis={**_axis(names, True, th, autorange="reversed"), "fixedrange": True},
        margin={"l": 8, "r": 8, "t": 8, "b": 8, "pad": 0},
    )
    return _figure(data, layout)
