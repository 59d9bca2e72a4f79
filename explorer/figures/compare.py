"""Figures for comparing two runs: pure functions of numpy arrays and token strings.

* :func:`difference_heatmap` -- right − left of one head (or one layer's average) on a
  diverging, colour-blind-safe scale (ColorBrewer RdBu, reversed: blue = the left
  configuration attends more, red = the right one does) centred at 0 and symmetric;
* :func:`head_difference_grid` -- a small ``[layer, head]`` grid of numbers (mean
  absolute difference per head, or anything else per head), each cell labelled;
* :func:`prediction_change_bar` -- the union of two top-k lists with *both*
  probabilities of every row (grouped bars), e.g. left vs right or before vs after;
* :func:`mark_heads_off` -- grey out switched-off heads in
  :func:`explorer.figures.attention.attention_grid`.

Conventions as in :mod:`explorer.figures.attention`: numeric axes with ``ticktext``, every
user-derived string through :mod:`explorer.figures.labels`, titles as annotations,
``go.Figure(..., _validate=False)`` (tests rebuild each figure with validation on).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.attention import HEATMAP_TICK_LIMIT
from explorer.figures.labels import axis_labels, safe_text
from explorer.figures.style import _top_legend
from explorer.figures.themes import Theme, base_layout, get_theme

# ColorBrewer RdBu (11 classes), reversed: negative blue, 0 near-white, positive red.
_RDBU = ("#053061", "#2166ac", "#4393c3", "#92c5de", "#d1e5f0", "#f7f7f7", "#fddbc7",
         "#f4a582", "#d6604d", "#b2182b", "#67001f")
DIVERGING = tuple((i / (len(_RDBU) - 1), c) for i, c in enumerate(_RDBU))
# ColorBrewer Purples (from its second class): magnitudes, distinct from Viridis (= weight).
_PURPLES = ("#efedf5", "#dadaeb", "#bcbddc", "#9e9ac8", "#807dba", "#6a51a3", "#54278f",
            "#3f007d")
SEQUENTIAL = tuple((i / (len(_PURPLES) - 1), c) for i, c in enumerate(_PURPLES))
TITLE_LINE_PX = 20  # a 14 px title's second line (Big screen may raise it a little)
LEGEND_SPARE = 2  # px a legend line may grow when Big screen raises its font to 12 px
MIN_RANGE = 0.05  # colour range floor, so an all-zero difference is white, not noise


def _figure(data: list[dict], layout: dict) -> go.Figure:
    return go.Figure({"data": data, "layout": layout}, _validate=False)


def _title(text: str) -> dict:
    return {"text": safe_text(text), "xref": "paper", "yref": "paper", "x": 0, "y": 1,
            "xanchor": "left", "yanchor": "bottom", "yshift": 6, "showarrow": False,
            "font": {"size": 14}}


def _axis(labels: list[str], *, show: bool, theme: Theme, size: int = 11) -> dict:
    return {"tickmode": "array", "tickvals": list(range(len(labels))), "ticktext": labels,
            "showticklabels": show, "showgrid": False, "zeroline": False, "ticks": "",
            "automargin": True, "tickfont": {"size": size, "color": theme.font}}


def nice_range(peak: float, floor: float = MIN_RANGE) -> float:
    """A round colour limit >= peak: steps of 0.05, never below ``floor``."""
    if not math.isfinite(peak):
        return 1.0
    return max(floor, math.ceil(round(peak / 0.05, 6)) * 0.05)


def difference_heatmap(
    left: np.ndarray,
    right: np.ndarray,
    tokens: Sequence[str],
    *,
    blocked: np.ndarray | None = None,
    title: str = "",
    theme: str | Theme = "light",
) -> go.Figure:
    """right − left for one ``[T, T]`` pattern pair (query rows, key columns).

    The colour range is symmetric around 0 (``±nice_range(max |diff|)``), so white always
    means "no change". ``blocked`` (bool ``[T, T]``) marks cells masked in *both* runs:
    drawn in the theme's masked grey. Hover shows both weights and the difference.
    """
    a = np.ascontiguousarray(left, dtype=np.float32)
    b = np.ascontiguousarray(right, dtype=np.float32)
    if a.shape != b.shape or a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"left {a.shape} and right {b.shape} must be the same [T, T]")
    if a.shape[0] != len(tokens):
        raise ValueError(f"patterns are [{a.shape[0]}, {a.shape[0]}] but there are "
                         f"{len(tokens)} tokens")
    th = get_theme(theme)
    diff = b - a
    gap = np.zeros(diff.shape, bool) if blocked is None else np.asarray(blocked, bool)
    limit = nice_range(float(np.abs(diff).max(initial=0.0)))
    where = "query %{y:d}: %{y}<br>key %{x:d}: %{x}<br>"
    data = [{
        "type": "heatmap", "z": np.where(gap, np.float32(np.nan), diff),
        "customdata": np.stack([a, b], axis=-1), "coloraxis": "coloraxis",
        "name": "difference", "hoverongaps": False,
        "hovertemplate": where + "left %{customdata[0]:.4f}<br>right %{customdata[1]:.4f}"
                         "<br>right − left %{z:+.4f}<extra></extra>",
    }]
    if gap.any():
        data.append({"type": "heatmap", "z": np.where(gap, np.float32(1), np.float32(np.nan)),
                     "colorscale": [[0, th.masked], [1, th.masked]], "showscale": False,
                     "name": "masked", "hoverongaps": False,
                     "hovertemplate": where + "masked in both<extra></extra>"})
    labels = axis_labels(tokens)
    show = len(tokens) <= HEATMAP_TICK_LIMIT
    layout = base_layout(th)
    layout.update(
        height=min(800, max(380, 220 + 16 * len(tokens))),
        coloraxis={"cmin": -limit, "cmax": limit, "cmid": 0.0,
                   "colorscale": [list(s) for s in DIVERGING],
                   "colorbar": {"thickness": 10, "len": 0.75, "outlinewidth": 0,
                                "title": {"text": "right − left", "side": "right"},
                                "tickfont": {"size": 10, "color": th.font}}},
        xaxis={**_axis(labels, show=show, theme=th), "title": {"text": "key"},
               "constrain": "domain"},
        yaxis={**_axis(labels, show=show, theme=th), "title": {"text": "query"},
               "autorange": "reversed", "scaleanchor": "x", "constrain": "domain",
               "constraintoward": "top"},
        margin={"l": 8, "r": 8, "t": 32 if title else 12, "b": 8, "pad": 0},
    )
    if title:
        layout["annotations"] = [_title(title)]
    return _figure(data, layout)


def head_difference_grid(
    values: np.ndarray,
    *,
    columns: Sequence[str] | None = None,
    selected: tuple[int, int] | None = None,
    off: Iterable[tuple[int, int]] = (),
    title: str = "",
    colorbar: str = "",
    number_format: str = ".2f",
    theme: str | Theme = "light",
) -> go.Figure:
    """A ``[layer, column]`` grid of non-negative numbers, each cell labelled with its value
    (``number_format``, a Python format spec, e.g. ``".0%"``).

    ``columns``: column labels (default ``H0``, ``H1``...; e.g. ``["layer average"]``);
    ``selected``: a cell to outline; ``off``: cells labelled "off" instead of a number.
    """
    v = np.ascontiguousarray(values, dtype=np.float32)
    if v.ndim != 2:
        raise ValueError(f"values must be [layer, column], got shape {v.shape}")
    n_layers, n_cols = v.shape
    columns = [f"H{h}" for h in range(n_cols)] if columns is None else list(columns)
    if len(columns) != n_cols:
        raise ValueError(f"{len(columns)} column labels for {n_cols} columns")
    th = get_theme(theme)
    off = {(int(la), int(h)) for la, h in off}
    text = [["off" if (la, h) in off else format(float(v[la, h]), number_format)
             for h in range(n_cols)]
            for la in range(n_layers)]
    limit = nice_range(float(v.max(initial=0.0)))
    data = [{
        "type": "heatmap", "z": v, "text": text, "texttemplate": "%{text}",
        "textfont": {"size": 11}, "zmin": 0.0, "zmax": limit,
        "colorscale": [list(s) for s in SEQUENTIAL], "xgap": 2, "ygap": 2,
        "colorbar": {"thickness": 8, "len": 0.9, "outlinewidth": 0,
                     "title": {"text": safe_text(colorbar), "side": "right"},
                     "tickfont": {"size": 9, "color": th.font}},
        "hovertemplate": "%{y} %{x}: %{z:.4f}<extra></extra>", "name": "per head",
    }]
    layout = base_layout(th)
    layout.update(
        height=70 + 34 * n_layers,
        xaxis={**_axis([safe_text(c) for c in columns], show=True, theme=th),
               "side": "top", "fixedrange": True},
        yaxis={**_axis([f"L{la}" for la in range(n_layers)], show=True, theme=th),
               "autorange": "reversed", "fixedrange": True},
        margin={"l": 8, "r": 8, "t": 52 if title else 28, "b": 8, "pad": 0},
    )
    if selected is not None:
        la, h = selected
        if not (0 <= la < n_layers and 0 <= h < n_cols):
            raise ValueError(f"selected={selected} outside {n_layers} x {n_cols}")
        layout["shapes"] = [{"type": "rect", "xref": "x", "yref": "y", "x0": h - 0.5,
                             "x1": h + 0.5, "y0": la - 0.5, "y1": la + 0.5, "layer": "above",
                             "line": {"color": th.accent, "width": 2.5},
                             "fillcolor": "rgba(0,0,0,0)"}]
    if title:
        layout["annotations"] = [{**_title(title), "yshift": 26}]
    return _figure(data, layout)


Row = tuple[str, float, float]  # (token text, probability left/before, right/after)


def prediction_change_bar(
    rows: Sequence[Row],
    *,
    names: tuple[str, str] = ("left", "right"),
    title: str | Sequence[str] = "",
    theme: str | Theme = "light",
    title_side: str = "left",
) -> go.Figure:
    """Grouped horizontal bars, one row per token (kept in the given order, top first),
    both probabilities of every row. Rows are positions, so two tokens that decode to
    the same text stay two rows. ``title``: a string, or its lines; ``title_side="right"``:
    it ends at the bars' right end (long token labels push the plot right, and a narrow
    figure, Ablate's at a projector, cut a title that started after them)."""
    th = get_theme(theme)
    lines = [title] if isinstance(title, str) else list(title)  # each escaped on its own
    labels = axis_labels([text for text, _, _ in rows])
    ypos = np.arange(len(rows), dtype=np.float32)
    first = np.array([p for _, p, _ in rows], dtype=np.float32)
    second = np.array([p for _, _, p in rows], dtype=np.float32)
    hover = "%{y}<br>%{fullData.name}: p = %{x:.4f}<extra></extra>"
    data = [
        {"type": "bar", "orientation": "h", "x": first, "y": ypos, "name": safe_text(names[0]),
         "marker": {"color": th.bar}, "hovertemplate": hover,
         "texttemplate": "%{x:.0%}", "textposition": "outside", "cliponaxis": False,
         "textfont": {"size": 10}},
        {"type": "bar", "orientation": "h", "x": second, "y": ypos, "name": safe_text(names[1]),
         "marker": {"color": th.compare}, "hovertemplate": hover,
         "texttemplate": "%{x:.0%}", "textposition": "outside", "cliponaxis": False,
         "textfont": {"size": 10}},
    ]
    peak = max(1e-6, float(first.max(initial=0)), float(second.max(initial=0)))
    # The legend: one name a line under the title, with room for its lines at Big screen's
    # 12 px. Side by side they collided on phones; one line that wraps in a narrow column
    # grew into the title on a projector (853 x 480 at 150 %: #30).
    legend, legend_px = _top_legend(names)
    legend["traceorder"] = "normal"
    legend_px += LEGEND_SPARE * len(names)
    layout = base_layout(th)
    layout.update(
        height=max(180, 80 + 30 * len(rows) + legend_px - 24), barmode="group", bargap=0.25,
        bargroupgap=0.05, showlegend=True, legend=legend,
        xaxis={"range": [0, min(1.0, peak * 1.25)], "tickformat": ".0%", "fixedrange": True,
               "gridcolor": th.grid, "zeroline": False, "automargin": True},
        yaxis={**_axis(labels, show=True, theme=th), "autorange": "reversed",
               "fixedrange": True},
        margin={"l": 8, "r": 24, "t": legend_px + (28 + TITLE_LINE_PX * (len(lines) - 1)
                                                   if title else 8), "b": 8, "pad": 0},
    )
    if title:
        layout["annotations"] = [{**_title(lines[0]), "yshift": legend_px + 2,
                                  "text": "<br>".join(safe_text(line) for line in lines)}]
        if title_side == "right":
            layout["annotations"][0].update(x=1, xanchor="right", align="right")
    return _figure(data, layout)


def mark_heads_off(fig: go.Figure, n_heads: int, off: Iterable[tuple[int, int]],
                   theme: str | Theme = "light") -> go.Figure:
    """Grey veil + "off" over the panels of switched-off heads in an
    :func:`explorer.figures.attention.attention_grid` (panel index = layer * n_heads + head)."""
    th = get_theme(theme)
    shapes = list(fig.layout.shapes or ())
    notes = list(fig.layout.annotations or ())
    veil = "rgba(110,110,110,0.6)" if th.name == "light" else "rgba(20,20,20,0.65)"
    for layer, head in sorted(set(off)):
        index = layer * n_heads + head + 1
        s = "" if index == 1 else str(index)
        shapes.append({"type": "rect", "xref": f"x{s} domain", "yref": f"y{s} domain",
                       "x0": 0, "x1": 1, "y0": 0, "y1": 1, "layer": "above",
                       "fillcolor": veil, "line": {"width": 0}})
        # on a dark label, as the canvas grid's (static/grid_draw.js drawOff): readable on
        # every colour of the scale, and at a projector
        notes.append({"text": "<b>off</b>", "xref": f"x{s} domain", "yref": f"y{s} domain",
                      "x": 0.5, "y": 0.5, "showarrow": False, "bgcolor": "rgba(17,24,39,0.9)",
                      "borderpad": 3, "font": {"size": 16, "color": "#ffffff"}})
    fig.layout.shapes = shapes
    fig.layout.annotations = notes
    return fig
