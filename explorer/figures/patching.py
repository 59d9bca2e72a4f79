"""Figures of the Patch view: restored shares per head and per (layer, position), the logit
lens grid and direct logit attribution (a layer × head heatmap, Ablate shows it too). Pure
functions of arrays and token strings.

Every token string goes through :mod:`explorer.figures.labels` (escaped, made visible);
our own titles through ``_titles`` (escaped too). Axes with token ticks are numeric with
``ticktext`` so repeated tokens keep their own positions (see :mod:`.style`).

Click targets: the two share heatmaps are single ``heatmap`` traces whose cell
``customdata`` is ``[layer, index]`` (index = head or position), so the page's click
listener can name the cell without parsing labels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.labels import axis_labels, token_label
from explorer.figures.style import (
    CELL_TEXT_LIMIT,
    _colorbar,
    _colorscale,
    _f32,
    _figure,
    _labels_axis,
    _titles,
)
from explorer.figures.themes import Theme, base_layout, get_theme


def _share_range(values: np.ndarray) -> float:
    """Symmetric colour range: at least 1 (100 %), more if a patch overshoots."""
    finite = values[np.isfinite(values)]
    return max(1.0, float(np.abs(finite).max())) if finite.size else 1.0


def _pct(x: float) -> str:
    """A share as a whole percentage, with no "-0%" for a tiny negative."""
    return f"{0.0 if abs(x) < 0.005 else float(x):.0%}"


def _cell_ids(n_rows: int, n_cols: int) -> list[list[list[int]]]:
    return [[[r, c] for c in range(n_cols)] for r in range(n_rows)]


def _layer_axis(n_layers: int, theme: Theme) -> dict:
    return {**_labels_axis([f"L{la}" for la in range(n_layers)], "layer", theme),
            "autorange": "reversed", "fixedrange": True}


def _head_grid(v: np.ndarray, text: list[list[str]], limit: float, *, colorbar: str,
               hover: str, name: str, selected: tuple[int, int] | None, title: str,
               subtitle: str, th: Theme) -> go.Figure:
    """A ``[layer, head]`` diverging heatmap, one written value a cell (the Patch view's
    restored shares and the direct logit attribution share it)."""
    n_layers, n_heads = v.shape
    data = [{
        "type": "heatmap", "z": v, "text": text, "texttemplate": "%{text}",
        "textfont": {"size": 11}, "zmin": -limit, "zmax": limit, "xgap": 2, "ygap": 2,
        "colorscale": _colorscale("diverging", th), "colorbar": _colorbar(th, colorbar),
        "customdata": _cell_ids(n_layers, n_heads), "name": name,
        "hovertemplate": "L%{customdata[0]} H%{customdata[1]}: " + hover + "<extra></extra>",
    }]
    notes, top = _titles(title, subtitle, th)
    layout = base_layout(th)
    layout.update(
        height=top + 60 + 40 * n_layers, annotations=notes,
        margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0},
        xaxis={**_labels_axis([f"H{h}" for h in range(n_heads)], "head", th),
               "fixedrange": True},
        yaxis=_layer_axis(n_layers, th))
    if selected is not None and 0 <= selected[0] < n_layers and 0 <= selected[1] < n_heads:
        la, h = selected
        layout["shapes"] = [{"type": "rect", "xref": "x", "yref": "y", "x0": h - 0.5,
                             "x1": h + 0.5, "y0": la - 0.5, "y1": la + 0.5, "layer": "above",
                             "line": {"color": th.accent, "width": 2.5},
                             "fillcolor": "rgba(0,0,0,0)"}]
    return _figure(data, layout)


def _layer_head(values: np.ndarray) -> np.ndarray:
    v = _f32(values)
    if v.ndim != 2:
        raise ValueError(f"values must be [layer, head], got shape {v.shape}")
    return v


def head_share_grid(shares: np.ndarray, *, selected: tuple[int, int] | None = None,
                    title: str = "", subtitle: str = "",
                    theme: str | Theme = "light") -> go.Figure:
    """``[layer, head]`` share of the logit difference restored, written as percentages;
    red = toward the clean answer, blue = away from it. ``selected``: a cell to outline."""
    v = _layer_head(shares)
    return _head_grid(v, [[_pct(x) for x in row] for row in v], _share_range(v),
                      colorbar="restored", hover="%{z:.0%} restored", name="heads",
                      selected=selected, title=title, subtitle=subtitle, th=get_theme(theme))


def _signed(x: float) -> str:
    """A logit push with its sign, and no "-0.0" for a tiny negative."""
    return f"{0.0 if abs(x) < 0.05 else float(x):+.1f}"


def head_attribution_grid(pushes: np.ndarray, *, title: str = "", subtitle: str = "",
                          theme: str | Theme = "light") -> go.Figure:
    """Direct logit attribution ``[layer, head]``: how far each head's output alone pushes
    the logit difference (red = toward the answer, blue = against it), written signed."""
    v = _layer_head(pushes)
    finite = v[np.isfinite(v)]
    limit = max(0.5, float(np.abs(finite).max())) if finite.size else 1.0
    return _head_grid(v, [[_signed(x) for x in row] for row in v], limit, colorbar="push",
                      hover="pushes %{z:+.2f}", name="attribution", selected=None,
                      title=title, subtitle=subtitle, th=get_theme(theme))


def position_share_grid(shares: np.ndarray, tokens: Sequence[str], *, title: str = "",
                        subtitle: str = "", theme: str | Theme = "light") -> go.Figure:
    """``[layer, position]`` share restored by patching the residual stream after that
    layer at that position; the x axis names the (clean run's) tokens."""
    v = _f32(shares)
    if v.ndim != 2 or v.shape[1] != len(tokens):
        raise ValueError(f"shares {v.shape} do not match {len(tokens)} tokens")
    th = get_theme(theme)
    n_layers, n = v.shape
    limit = _share_range(v)
    ticks = axis_labels(tokens)
    data = [{
        "type": "heatmap", "z": v, "zmin": -limit, "zmax": limit, "xgap": 1, "ygap": 2,
        "colorscale": _colorscale("diverging", th), "colorbar": _colorbar(th, "restored"),
        "customdata": _cell_ids(n_layers, n), "name": "positions",
        "hovertemplate": "after L%{customdata[0]}, %{x} (position %{customdata[1]}): "
                         "%{z:.0%} restored<extra></extra>",
    }]
    if n <= CELL_TEXT_LIMIT:
        data[0].update(text=[[_pct(x) for x in row] for row in v],
                       texttemplate="%{text}", textfont={"size": 9})
    notes, top = _titles(title, subtitle, th)
    layout = base_layout(th)
    layout.update(
        height=top + 110 + 36 * n_layers, annotations=notes,
        margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0},
        xaxis={**_labels_axis(ticks, "", th), "tickangle": -60, "fixedrange": True},
        yaxis=_layer_axis(n_layers, th))
    # hover's %{x} shows the tick text of the numeric axis (the token)
    return _figure(data, layout)


def logit_lens_grid(top_probs: np.ndarray, top_tokens: Sequence[Sequence[Sequence[str]]],
                    tokens: Sequence[str], *, title: str = "", subtitle: str = "",
                    theme: str | Theme = "light") -> go.Figure:
    """The logit lens: ``top_probs`` ``[layer, pos, k]`` (likeliest first) and the guessed
    tokens' text ``top_tokens[layer][pos][k]``. Colour and cell text = the top guess and
    its probability; hovering a cell lists all k (a click names the cell: customdata
    ``[layer, position, text]``)."""
    p = _f32(top_probs)
    if p.ndim != 3 or p.shape[1] != len(tokens):
        raise ValueError(f"top_probs {p.shape} do not match {len(tokens)} tokens")
    th = get_theme(theme)
    n_layers, n, k = p.shape
    top = [[token_label(top_tokens[la][i][0], 10) for i in range(n)] for la in range(n_layers)]
    # customdata [layer, position, the top k as hover text]: a click names the cell
    cells = [[[la, i, "<br>".join(f"{token_label(top_tokens[la][i][j], 16)}  "
                                  f"{float(p[la, i, j]):.0%}" for j in range(k))]
              for i in range(n)] for la in range(n_layers)]
    data = [{
        "type": "heatmap", "z": p[:, :, 0], "zmin": 0.0, "zmax": 1.0, "xgap": 1, "ygap": 2,
        "colorscale": _colorscale("weights", th), "colorbar": _colorbar(th, "top guess"),
        "customdata": cells, "name": "lens",
        "hovertemplate": "after L%{y}, reading %{x}:<br>%{customdata[2]}<extra></extra>",
    }]
    if n <= CELL_TEXT_LIMIT:
        data[0].update(text=top, texttemplate="%{text}", textfont={"size": 9})
    notes, top_margin = _titles(title, subtitle, th)
    layout = base_layout(th)
    layout.update(
        height=top_margin + 110 + 36 * n_layers, annotations=notes,
        margin={"l": 8, "r": 8, "t": top_margin, "b": 8, "pad": 0},
        xaxis={**_labels_axis(axis_labels(tokens), "", th), "tickangle": -60,
               "fixedrange": True},
        yaxis=_layer_axis(n_layers, th))
    return _figure(data, layout)
