"""Figures of the "Through the layers" and "Through training" tabs.

Same conventions as :mod:`explorer.figures.attention`: pure functions of numpy arrays and
token strings; every user-derived string through :mod:`explorer.figures.labels`; token
axes are numeric positions with ``ticktext`` (never categorical, so repeated words
keep their own columns); titles are annotations; ``go.Figure(..., _validate=False)``
(``tests/analysis/test_rollout.py`` and ``tests/analysis/test_snapshots.py`` rebuild each figure
with validation on); light and dark themes from :mod:`explorer.figures.themes`.

* :func:`rollout_heatmap` -- ``[layer, input token]``: how much of one output
  token, after each layer, comes from each input token;
* :func:`training_chart` -- validation loss over training with the snapshots
  marked, and under it how strongly the most previous-token-like head attends to
  the previous token at each snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.labels import axis_labels, safe_text
from explorer.figures.themes import COLORSCALE, Theme, base_layout, get_theme

TICK_LIMIT = 64  # label every input token up to this many


def _figure(data: list[dict], layout: dict) -> go.Figure:
    return go.Figure({"data": data, "layout": layout}, _validate=False)


def _title(text: str, y: float = 1.0, yref: str = "paper") -> dict:
    return {"text": safe_text(text), "xref": "paper", "yref": yref, "x": 0, "y": y,
            "xanchor": "left", "yanchor": "bottom", "yshift": 4, "showarrow": False,
            "font": {"size": 13}}


def _copy_curve(x: np.ndarray, y: Sequence[float], steps: np.ndarray, name: str,
                colour: str, dash: str, symbol: str, where: str) -> dict:
    """One copy-target curve of the training chart's lower panel."""
    return {"type": "scatter", "mode": "lines+markers", "x": x,
            "y": np.asarray(y, dtype=np.float64), "yaxis": "y2", "customdata": steps,
            "name": name, "line": {"color": colour, "width": 2, "dash": dash},
            "marker": {"size": 6, "symbol": symbol},
            "hovertemplate": f"snapshot at step %{{customdata:d}}<br>{where}, the strongest "
                             "head puts %{y:.0%} on the copy target<extra></extra>"}


def _this_snapshot(x: float, y: float, yaxis: str, th: Theme) -> dict:
    """The ring around the snapshot shown, at (x, y) on the panel of ``yaxis``."""
    return {"type": "scatter", "mode": "markers", "x": [x], "y": [y], "yaxis": yaxis,
            "name": "this snapshot", "hoverinfo": "skip",
            "marker": {"color": th.accent, "size": 13, "symbol": "circle-open",
                       "line": {"width": 3, "color": th.accent}}}


def rollout_heatmap(values: np.ndarray, tokens: Sequence[str], *, position: int,
                    title: str = "", theme: str | Theme = "light") -> go.Figure:
    """``values`` ``[layer, T]``: row ``l`` is the output token's rollout after layer ``l``
    (rows sum to 1). Layer 0 on top. The output token's own column is outlined.

    The colour scale runs from 0 to the largest share in the figure (not 0..1 like
    the attention heatmaps): rollout spreads thin with depth, and a fixed 0..1
    scale would paint every deep row the same dark colour. The colour bar says so.
    """
    v = np.ascontiguousarray(values, dtype=np.float32)
    if v.ndim != 2 or v.shape[1] != len(tokens):
        raise ValueError(f"values must be [layer, {len(tokens)}], got {v.shape}")
    n_layers, n_tok = v.shape
    if not 0 <= position < n_tok:
        raise ValueError(f"position {position} outside 0..{n_tok - 1}")
    th = get_theme(theme)
    peak = float(v.max(initial=0.0))
    labels = axis_labels(tokens)
    data = [{
        "type": "heatmap", "z": v, "name": "rollout", "hoverongaps": False,
        "colorscale": [list(stop) for stop in COLORSCALE], "zmin": 0.0,
        "zmax": max(peak, 1e-6),
        "colorbar": {"thickness": 10, "len": 0.9, "outlinewidth": 0,
                     "title": {"text": "share", "side": "right"},
                     "tickfont": {"size": 10, "color": th.font}},
        "hovertemplate": "after layer %{y:d}<br>input %{x:d}: %{x}<br>share %{z:.4f}"
                         "<extra></extra>",
    }]
    layout = base_layout(th)
    layout.update(
        height=150 + 44 * n_layers + (60 if n_tok <= TICK_LIMIT else 0),
        xaxis={"tickmode": "array", "tickvals": list(range(n_tok)), "ticktext": labels,
               "showticklabels": n_tok <= TICK_LIMIT, "showgrid": False, "zeroline": False,
               "ticks": "", "automargin": True, "tickfont": {"size": 11, "color": th.font},
               "title": {"text": "input token"}},
        yaxis={"tickmode": "array", "tickvals": list(range(n_layers)),
               "ticktext": [f"after L{la}" for la in range(n_layers)], "autorange": "reversed",
               "showgrid": False, "zeroline": False, "ticks": "", "automargin": True,
               "tickfont": {"size": 11, "color": th.font}},
        shapes=[{"type": "rect", "xref": "x", "yref": "paper", "x0": position - 0.5,
                 "x1": position + 0.5, "y0": 0, "y1": 1, "layer": "above",
                 "line": {"color": th.accent, "width": 2.5}, "fillcolor": "rgba(0,0,0,0)"}],
        margin={"l": 8, "r": 8, "t": 32 if title else 12, "b": 8, "pad": 0},
    )
    if title:
        layout["annotations"] = [_title(title)]
    return _figure(data, layout)


def training_chart(history: Sequence[dict], snapshots: Sequence[tuple[int, int, float | None]],
                   current: int, *, trend: Sequence[float] | None = None,
                   baseline: float | None = None, theme: str | Theme = "light",
                   induction: Sequence[float] | None = None,
                   induction_probe: Sequence[float] | None = None) -> go.Figure:
    """Loss over training (top) and, when ``trend`` is given, the strongest
    previous-token attention per snapshot (bottom), x = training tokens seen (log).

    ``history``: ``[{"tokens", "val_loss"}, ...]`` (the card's validation history);
    ``snapshots``: ``[(step, tokens, train_loss or None), ...]``; ``current``: index
    into ``snapshots`` drawn large in the accent colour, with a vertical line through
    both panels; every curve stops there, on an axis that spans the whole run.
    ``trend``: one value 0..1 per snapshot; ``baseline``: what spreading
    attention evenly would give (a dashed line). ``induction``: one value per snapshot,
    the strongest head's weight on the copy target when the sentence is said twice,
    drawn in the same lower panel (dotted); ``induction_probe``: the same on a built-in
    list of words said twice (dash-dot), where copying is the only way to predict.
    """
    th = get_theme(theme)
    if not 0 <= current < len(snapshots):
        raise ValueError(f"current {current} outside 0..{len(snapshots) - 1}")
    two = trend is not None
    if two and len(trend) != len(snapshots):
        raise ValueError("trend needs one value per snapshot")
    x_hist = np.array([row["tokens"] for row in history], dtype=np.float64)
    y_hist = np.array([row["val_loss"] for row in history], dtype=np.float64)
    steps = np.array([s[0] for s in snapshots], dtype=np.float64)
    x_snap = np.array([max(s[1], 1) for s in snapshots], dtype=np.float64)
    y_snap = np.array([np.nan if s[2] is None else s[2] for s in snapshots], dtype=np.float64)
    # Drawn up to this snapshot only, on the whole run's axis: the rest of training is
    # what a student is asked to predict (the curves to the end gave the answer away).
    x_range = np.log10([min(x_hist.min(initial=x_snap.min()), x_snap.min()),
                        max(x_hist.max(initial=x_snap.max()), x_snap.max())])
    seen = x_hist <= x_snap[current]
    x_hist, y_hist = x_hist[seen], y_hist[seen]
    upto = current + 1
    steps, x_snap, y_snap = steps[:upto], x_snap[:upto], y_snap[:upto]
    trend, induction, induction_probe = (None if c is None else list(c)[:upto]
                                         for c in (trend, induction, induction_probe))
    data = _loss_traces(x_hist, y_hist, x_snap, y_snap, steps, current, th)
    axis = {"showgrid": True, "gridcolor": th.grid, "zeroline": False, "automargin": True,
            "tickfont": {"size": 10, "color": th.font}, "fixedrange": True}
    layout = base_layout(th)
    layout.update(
        height=380 if two else 240,
        showlegend=False, hovermode="closest",
        xaxis={**axis, "type": "log", "title": {"text": "training tokens seen"},
               "range": list(x_range),
               "anchor": "y2" if two else "y", "exponentformat": "SI", "dtick": 1,
               "minor": {"showgrid": False}},
        yaxis={**axis, "title": {"text": "loss"}, "domain": [0.58, 1.0] if two else [0, 1]},
        shapes=[{"type": "line", "xref": "x", "yref": "paper", "x0": x_snap[current],
                 "x1": x_snap[current], "y0": 0, "y1": 1, "layer": "below",
                 "line": {"color": th.accent, "width": 1.5, "dash": "dot"}}],
        margin={"l": 8, "r": 8, "t": 26, "b": 8, "pad": 0},
        annotations=[_title("Loss (line: validation, dots: training)")],
    )
    if two:
        data += _lower_traces(x_snap, steps, current, trend, induction, induction_probe,
                              baseline, x_range, th)
        layout["yaxis2"] = {**axis, "domain": [0.0, 0.36], "anchor": "x", "tickformat": ".0%",
                            "range": [0, 1], "title": {"text": "weight"}}
        for k, line in enumerate(reversed(_lower_title(induction is not None,
                                                        induction_probe is not None))):
            layout["annotations"].append({**_title(line, y=0.36), "yshift": 4 + 16 * k,
                                          "xshift": -40, "font": {"size": 12}})
    return _figure(data, layout)


def _lower_traces(x_snap, steps, current: int, trend, induction, induction_probe,
                  baseline: float | None, x_range, th: Theme) -> list[dict]:
    """The lower panel: the previous-token trend (the current snapshot large), the copy
    curves given, and the even spread (dashed)."""
    t = np.asarray(trend, dtype=np.float64)
    data = [{
        "type": "scatter", "mode": "lines+markers", "x": x_snap, "y": t, "yaxis": "y2",
        "customdata": steps, "name": "previous-token attention",
        "line": {"color": th.heads[2], "width": 2}, "marker": {"size": 6},
        "hovertemplate": "snapshot at step %{customdata:d}<br>strongest head puts "
                         "%{y:.0%} on the previous token<extra></extra>",
    }, _this_snapshot(x_snap[current], t[current], "y2", th)]
    for curve, name, colour, dash, symbol, where in (
            (induction, "induction (sentence said twice)", th.heads[0], "dot", "diamond",
             "on your sentence said twice"),
            (induction_probe, "induction (a word list said twice)", th.heads[1],
             "dashdot", "square", "on a word list said twice")):
        if curve is not None:
            data.append(_copy_curve(x_snap, curve, steps, name, colour, dash, symbol,
                                    where))
    if baseline is not None:
        data.append({"type": "scatter", "mode": "lines", "x": list(10 ** x_range),
                     "y": [baseline, baseline], "yaxis": "y2", "name": "even spread",
                     "line": {"color": th.muted, "width": 1, "dash": "dash"},
                     "hovertemplate": "spreading evenly: %{y:.0%}<extra></extra>"})
    return data


def _loss_traces(x_hist, y_hist, x_snap, y_snap, steps, current: int,
                 th: Theme) -> list[dict]:
    """The upper panel: validation loss (a line), training loss at each snapshot (dots),
    the current snapshot large."""
    return [{
        "type": "scatter", "mode": "lines", "x": x_hist, "y": y_hist, "yaxis": "y",
        "name": "validation loss", "line": {"color": th.bar, "width": 2},
        "hovertemplate": "%{x:,.0f} tokens<br>validation loss %{y:.3f}<extra></extra>",
    }, {
        "type": "scatter", "mode": "markers", "x": x_snap, "y": y_snap, "yaxis": "y",
        "customdata": steps, "name": "training loss at a snapshot",
        "marker": {"color": th.muted, "size": 7},
        "hovertemplate": "snapshot at step %{customdata:d}<br>%{x:,.0f} tokens<br>"
                         "training loss %{y:.3f}<extra></extra>",
    }, _this_snapshot(x_snap[current], y_snap[current], "y", th)]


def _lower_title(induction: bool, probe: bool) -> list[str]:
    """The lower panel's title, top line first.

    Short lines, starting over the axis' labels: a phone's chart is ~330 px wide and
    Plotly does not wrap annotations. Two lines at most: the gap between the panels
    shrinks with the chart (a phone's room under a step's bar), and a third line ran into
    the loss panel."""
    if induction and probe:
        return ["Best head's weight: previous word (solid),",
                "copy target (dotted: yours twice; dash-dot: a list)"]
    if induction:
        return ["Best head's weight: previous word (solid),",
                "copy target, your sentence twice (dotted)"]
    if probe:
        return ["Best head's weight: previous word (solid),",
                "copy target, a word list twice (dash-dot)"]
    return ["Best head's weight on the previous word"]
