"""Figures of the Patch view: restored shares per head and per (layer, position), the logit
lens grid and direct logit attribution. Pure functions of arrays and token strings.

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

from explorer.figures.labels import axis_labels, plotly_safe, token_label
from explorer.figures.style import (
    CELL_TEXT_LIMIT,
    _colorbar,
    _colorscale,
    _f32,
    _figure,
    _labels_axis,
    _number_axis,
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


def head_share_grid(shares: np.ndarray, *, selected: tuple[int, int] | None = None,
                    title: str = "", subtitle: str = "",
                    theme: str | Theme = "light") -> go.Figure:
    """``[layer, head]`` share of the logit difference restored, written as percentages;
    red = toward the clean answer, blue = away from it. ``selected``: a cell to outline."""
    v = _f32(shares)
    if v.ndim != 2:
        raise ValueError(f"shares must be [layer, head], got shape {v.shape}")
    th = get_theme(theme)
    n_layers, n_heads = v.shape
    limit = _share_range(v)
    text = [[_pct(x) for x in row] for row in v]
    data = [{
        "type": "heatmap", "z": v, "text": text, "texttemplate": "%{text}",
        "textfont": {"size": 11}, "zmin": -limit, "zmax": limit, "xgap": 2, "ygap": 2,
        "colorscale": _colorscale("diverging", th), "colorbar": _colorbar(th, "restored"),
        "customdata": _cell_ids(n_layers, n_heads), "name": "heads",
        "hovertemplate": "L%{customdata[0]} H%{customdata[1]}: %{z:.0%} restored"
                         "<extra></extra>",
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
    its probability; hovering a cell lists all k."""
    p = _f32(top_probs)
    if p.ndim != 3 or p.shape[1] != len(tokens):
        raise ValueError(f"top_probs {p.shape} do not match {len(tokens)} tokens")
    th = get_theme(theme)
    n_layers, n, k = p.shape
    top = [[token_label(top_tokens[la][i][0], 10) for i in range(n)] for la in range(n_layers)]
    hover = [["<br>".join(f"{token_label(top_tokens[la][i][j], 16)}  {float(p[la, i, j]):.0%}"
                          for j in range(k)) for i in range(n)] for la in range(n_layers)]
    data = [{
        "type": "heatmap", "z": p[:, :, 0], "zmin": 0.0, "zmax": 1.0, "xgap": 1, "ygap": 2,
        "colorscale": _colorscale("weights", th), "colorbar": _colorbar(th, "top guess"),
        "customdata": hover, "name": "lens",
        "hovertemplate": "after L%{y}, reading %{x}:<br>%{customdata}<extra></extra>",
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


def attribution_bar(labels: Sequence[str], values: Sequence[float], *, title: str = "",
                    subtitle: str = "", theme: str | Theme = "light") -> go.Figure:
    """Direct logit attribution: one horizontal bar per part (our labels, e.g. "L3 H2",
    "embeddings"), positive = toward the answer; drawn in the order given, top first."""
    if len(labels) != len(values):
        raise ValueError(f"{len(labels)} labels for {len(values)} values")
    th = get_theme(theme)
    v = _f32(values)
    colours = [th.bar if x >= 0 else th.muted for x in v]
    data = [{
        "type": "bar", "orientation": "h", "x": v, "y": list(range(len(v))),
        "marker": {"color": colours}, "name": "attribution",
        "customdata": [plotly_safe(s) for s in labels],
        "hovertemplate": "%{customdata}: %{x:+.2f}<extra></extra>",
    }]
    notes, top = _titles(title, subtitle, th)
    # Titles start at the plot area's left edge (paper x = 0), which the bar labels push
    # right: shift them back over the labels (~6.5 px per character at 11 px).
    shift = min(180, int(6.5 * max((len(s) for s in labels), default=0)) + 8)
    for note in notes:
        note["xshift"] = -shift
    layout = base_layout(th)
    layout.update(
        height=top + 50 + 20 * len(v), annotations=notes,
        margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0},
        xaxis=_number_axis("push on the logit difference", th, zeroline=True,
                           zerolinecolor=th.grid),
        yaxis={**_labels_axis([plotly_safe(s) for s in labels], "", th),
               "autorange": "reversed", "fixedrange": True})
    return _figure(data, layout)
