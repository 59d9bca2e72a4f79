"""Plotly figures for the teaching views: inside one head, shapes, positional encodings,
lessons. Pure functions of numpy arrays, token strings and our own labels.

Conventions (the same as :mod:`explorer.figures`): every user-derived string goes
through :mod:`explorer.labels`; token axes are numeric with ``ticktext`` so
repeated tokens keep their own positions, and ``%{y}``/``%{x}`` in a hover
template show the token while ``%{y:d}`` shows the position; titles are
annotations (Gradio forces a 100 px margin for ``layout.title``); figures are
built as dicts and handed to ``go.Figure(..., _validate=False)`` (tests rebuild
them with validation on); data goes out as float32 arrays. Our own labels and
titles are escaped with :func:`~explorer.labels.plotly_safe` too, and long
explanatory lines are wrapped so they fit a phone.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.labels import axis_labels, plotly_safe
from explorer.themes import COLORSCALE, Theme, base_layout, get_theme

TICK_LIMIT = 64  # label every token up to this many
CELL_TEXT_LIMIT = 24  # write numbers into cells up to this many rows and columns
MASK_TEXT_LIMIT = 14  # write "−∞" into masked cells up to this many
WRAP = 46  # characters per subtitle line (a figure on a 390 px phone fits about this many)
MINUS_INF = "−∞"

DIVERGING = {
    "light": ((0.0, "#2166ac"), (0.25, "#92c5de"), (0.5, "#f7f7f7"), (0.75, "#f4a582"),
              (1.0, "#b2182b")),
    "dark": ((0.0, "#4393c3"), (0.25, "#2c5a7a"), (0.5, "#1f2430"), (0.75, "#8a3b36"),
             (1.0, "#e0685a")),
}
# Penalties (ALiBi): 0 is the background colour, the most negative the darkest blue.
NEGATIVE = {
    "light": ((0.0, "#08306b"), (0.35, "#2171b5"), (0.7, "#9ecae1"), (1.0, "#f7fbff")),
    "dark": ((0.0, "#c6dbef"), (0.35, "#6baed6"), (0.7, "#2c5a7a"), (1.0, "#1f2430")),
}
# A cyclic scale for angles (0 and 2π meet in the same colour).
CYCLIC = ((0.0, "#e8d9e6"), (0.17, "#9fb0d6"), (0.33, "#5866b0"), (0.5, "#2f1e4f"),
          (0.67, "#8a3a5c"), (0.83, "#d3917a"), (1.0, "#e8d9e6"))
SERIES = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#999999",
          "#f0e442")


# --------------------------------------------------------------------------- helpers


def _f32(values) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.float32)


def _figure(data: list[dict], layout: dict) -> go.Figure:
    return go.Figure({"data": data, "layout": layout}, _validate=False)


def _wrap(text: str, width: int = WRAP) -> str:
    """Our own explanatory text, escaped, wrapped into <br>-separated lines."""
    lines = textwrap.wrap(text, width=width, break_long_words=False) or [""]
    return "<br>".join(plotly_safe(line) for line in lines)


def _top_legend(labels: Sequence[str]) -> tuple[dict, int]:
    """A vertical legend just above the plot area (under the titles), and its height in
    pixels. Below the plot it collides with the x-axis title once a phone wraps a
    horizontal one; a vertical one has a height we know in advance."""
    return ({"orientation": "v", "x": 0, "xanchor": "left", "y": 1, "yanchor": "bottom",
             "font": {"size": 11}, "bgcolor": "rgba(0,0,0,0)", "tracegroupgap": 0},
            19 * len(labels) + 6)


def _titles(title: str, subtitle: str, theme: Theme,
            wrap: int = WRAP, extra: int = 0) -> tuple[list[dict], int]:
    """Title and subtitle annotations above the plot area (and ``extra`` pixels, e.g. for
    a legend, between them and the plot), and the top margin they need."""
    notes, top = [], 8 + extra
    sub = _wrap(subtitle, wrap) if subtitle else ""
    n_sub = sub.count("<br>") + 1 if sub else 0
    if title:
        head = _wrap(title, 32)
        n_head = head.count("<br>") + 1
        notes.append({"text": "<b>" + head + "</b>", "xref": "paper",
                      "yref": "paper", "x": 0, "y": 1, "xanchor": "left", "yanchor": "bottom",
                      "yshift": 8 + 15 * n_sub + extra, "showarrow": False, "align": "left",
                      "font": {"size": 13}})
        top += 8 + 17 * n_head
    if sub:
        notes.append({"text": sub, "xref": "paper", "yref": "paper", "x": 0, "y": 1,
                      "xanchor": "left", "yanchor": "bottom", "yshift": 4 + extra,
                      "showarrow": False, "align": "left",
                      "font": {"size": 10.5, "color": theme.muted}})
        top += 15 * n_sub + 4
    return notes, top


def _colorscale(kind: str, theme: Theme) -> list:
    if kind == "weights":
        return [list(s) for s in COLORSCALE]
    if kind == "cyclic":
        return [list(s) for s in CYCLIC]
    if kind == "negative":
        return [list(s) for s in NEGATIVE[theme.name]]
    return [list(s) for s in DIVERGING[theme.name]]


def _colorbar(theme: Theme, title: str = "") -> dict:
    bar = {"thickness": 10, "len": 0.8, "outlinewidth": 0,
           "tickfont": {"size": 10, "color": theme.font}}
    if title:
        bar["title"] = {"text": plotly_safe(title), "side": "right"}
    return bar


def _labels_axis(labels: list[str], title: str, theme: Theme, *, show: bool = True) -> dict:
    """Numeric axis 0..n−1 whose tick text is ``labels`` (already escaped)."""
    axis = {"tickmode": "array", "tickvals": list(range(len(labels))), "ticktext": labels,
            "showticklabels": show and len(labels) <= TICK_LIMIT, "showgrid": False,
            "zeroline": False, "ticks": "", "automargin": True,
            "tickfont": {"size": 11 if len(labels) <= 32 else 9, "color": theme.font}}
    if title:
        axis["title"] = {"text": plotly_safe(title), "font": {"size": 11}}
    return axis


def _number_axis(title: str, theme: Theme, **extra) -> dict:
    axis = {"showgrid": False, "zeroline": False, "automargin": True,
            "tickfont": {"size": 10, "color": theme.font}, **extra}
    if title:
        axis["title"] = {"text": plotly_safe(title), "font": {"size": 11}}
    return axis


def _symmetric_range(values: np.ndarray) -> float:
    finite = values[np.isfinite(values)]
    peak = float(np.abs(finite).max()) if finite.size else 1.0
    return peak if peak > 0 else 1.0


def message_figure(text: str, theme: str | Theme = "light", height: int = 160) -> go.Figure:
    """A figure that only says something (e.g. 'this model adds no positions')."""
    th = get_theme(theme)
    layout = base_layout(th)
    hidden = {"visible": False, "range": [0, 1], "fixedrange": True}
    layout.update(height=height, xaxis=hidden, yaxis=hidden, annotations=[{
        "text": _wrap(text, 50), "x": 0.5, "y": 0.5, "xref": "paper", "yref": "paper",
        "showarrow": False, "font": {"size": 13, "color": th.muted}}])
    # One invisible point: Plotly keeps a figure with no traces blank, which reads as broken.
    data = [{"type": "scatter", "x": [0.5], "y": [0.5], "mode": "markers",
             "marker": {"opacity": 0}, "hoverinfo": "skip"}]
    return _figure(data, layout)


# --------------------------------------------------------------------------- matrices


def matrix_figure(
    values: np.ndarray,
    *,
    title: str = "",
    subtitle: str = "",
    theme: str | Theme = "light",
    row_tokens: Sequence[str] | None = None,
    col_tokens: Sequence[str] | None = None,
    row_names: Sequence[str] | None = None,
    col_names: Sequence[str] | None = None,
    row_title: str = "",
    col_title: str = "",
    colors: str = "diverging",
    zrange: tuple[float, float] | None = None,
    blocked: np.ndarray | None = None,
    cell_text: str | None = None,
    head_columns: tuple[int, int] | None = None,
    group_width: int | None = None,
    row_sums: bool = False,
    square: bool = False,
    height: int | None = None,
    value_name: str = "value",
    wrap: int = WRAP,
    blocked_text: str = MINUS_INF,
    side: int | None = None,
) -> go.Figure:
    """One matrix as a heatmap: rows top to bottom, columns left to right.

    ``row_tokens``/``col_tokens`` are the student's tokens (made visible and escaped);
    ``row_names``/``col_names`` are our own labels (escaped); without either an axis
    is numbered. ``blocked`` (bool) cells -- and any −∞ -- are drawn grey, hover
    ``blocked_text`` ("−∞"), and say it in the cell while the matrix is small.
    ``cell_text`` (a d3 format such as ".4f") writes every value into its cell while the
    matrix is small.
    ``head_columns`` outlines columns [start, stop); ``group_width`` draws a thin line
    every that many columns (the heads of a concatenation). ``row_sums`` adds a narrow
    column with each row's sum (attention rows sum to 1)."""
    th = get_theme(theme)
    z = np.array(values, dtype=np.float32)
    if z.ndim != 2:
        raise ValueError(f"values must be 2-D, got shape {z.shape}")
    n_rows, n_cols = z.shape
    gone = np.isneginf(z) if blocked is None else (np.asarray(blocked, bool) | np.isneginf(z))
    shown = np.where(gone, np.float32(np.nan), z)

    def labels(tokens, names, n):
        if tokens is not None:
            if len(tokens) != n:
                raise ValueError(f"{len(tokens)} tokens for an axis of {n}")
            return axis_labels(tokens)
        if names is not None:
            if len(names) != n:
                raise ValueError(f"{len(names)} names for an axis of {n}")
            return [plotly_safe(str(s)) for s in names]
        return None

    rows = labels(row_tokens, row_names, n_rows)
    cols = labels(col_tokens, col_names, n_cols)
    row_word = row_title or "row"
    col_word = col_title or "column"
    y_hover = f"{row_word} %{{y:d}}: %{{y}}" if rows else f"{row_word} %{{y:d}}"
    x_hover = f"{col_word} %{{x:d}}: %{{x}}" if cols else f"{col_word} %{{x:d}}"
    where = plotly_safe(y_hover) + "<br>" + plotly_safe(x_hover) + "<br>"

    if colors == "weights":
        lo, hi = zrange or (0.0, 1.0)
    elif colors == "cyclic":
        lo, hi = zrange or (0.0, 2 * math.pi)
    else:
        peak = _symmetric_range(shown) if zrange is None else None
        lo, hi = zrange or (-peak, peak)
    small = n_rows <= CELL_TEXT_LIMIT and n_cols <= CELL_TEXT_LIMIT
    tiny = n_rows <= MASK_TEXT_LIMIT and n_cols <= MASK_TEXT_LIMIT
    main = {
        "type": "heatmap", "z": shown, "zmin": lo, "zmax": hi, "xgap": 0, "ygap": 0,
        "colorscale": _colorscale(colors, th), "colorbar": _colorbar(th, value_name),
        "hoverongaps": False, "name": plotly_safe(value_name),
        "hovertemplate": where + plotly_safe(value_name) + " %{z:.4f}<extra></extra>",
    }
    if cell_text and small:  # the numbers are in the cells: no colour bar needed
        main["texttemplate"] = "%{z:" + cell_text + "}"
        main["textfont"] = {"size": 10 if n_cols <= 8 else 8}
        main["showscale"] = False
    data = [main]
    if gone.any():
        grey = {
            "type": "heatmap", "z": np.where(gone, np.float32(1), np.float32(np.nan)),
            "colorscale": [[0, th.masked], [1, th.masked]], "showscale": False,
            "hoverongaps": False, "name": "masked",
            "hovertemplate": where + "masked: " + plotly_safe(blocked_text)
            + "<extra></extra>",
        }
        if tiny or (cell_text and small):
            grey["text"] = np.where(gone, plotly_safe(blocked_text), "").tolist()
            grey["texttemplate"] = "%{text}"
            grey["textfont"] = {"size": 10, "color": th.font}  # muted: < 4.5:1 on grey
        data.append(grey)

    layout = base_layout(th)
    notes, top = _titles(title, subtitle, th, wrap)
    xaxis = (_labels_axis(cols, col_title, th) if cols is not None
             else _number_axis(col_title, th))
    yaxis = (_labels_axis(rows, row_title, th) if rows is not None
             else _number_axis(row_title, th))
    yaxis["autorange"] = "reversed"
    if square:
        yaxis.update(scaleanchor="x", constrain="domain", constraintoward="top")
        xaxis["constrain"] = "domain"
    shapes = []
    if row_sums:
        if square:  # keep the square next to its row-sum column
            xaxis["constraintoward"] = "right"
        sums = np.nansum(np.where(gone, 0, z), axis=1).astype(np.float32)[:, None]
        xaxis["domain"] = [0.0, 0.86]
        data.append({
            "type": "heatmap", "z": sums, "xaxis": "x2", "yaxis": "y", "zmin": 0, "zmax": 2,
            "colorscale": [[0, th.paper], [1, th.paper]], "showscale": False,
            "texttemplate": "%{z:.3f}" if n_rows <= 40 else "", "textfont": {"size": 9},
            "hovertemplate": plotly_safe(y_hover) + "<br>row sum %{z:.6f}<extra></extra>",
            "name": "row sum", "xgap": 1, "ygap": 1,
        })
        layout["xaxis2"] = {"domain": [0.88, 1.0], "anchor": "y", "tickmode": "array",
                            "tickvals": [0], "ticktext": ["row sum"], "side": "top",
                            "showgrid": False, "zeroline": False, "fixedrange": True,
                            "tickfont": {"size": 10, "color": th.muted}}
        main["colorbar"]["x"] = 1.02
    if head_columns is not None:
        a, b = head_columns
        shapes.append({"type": "rect", "xref": "x", "yref": "y", "x0": a - 0.5, "x1": b - 0.5,
                       "y0": -0.5, "y1": n_rows - 0.5, "layer": "above",
                       "line": {"color": th.accent, "width": 3}})
    if group_width and group_width < n_cols:
        for c in range(group_width, n_cols, group_width):
            shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": c - 0.5,
                           "x1": c - 0.5, "y0": 0, "y1": 1, "layer": "above",
                           "line": {"color": th.font, "width": 1, "dash": "dot"}})
    if height is None:
        per = 20 if small else (14 if n_rows <= 64 else 6)
        height = int(min(760, max(200, 90 + top + per * n_rows)))
        if square:  # the plot is about as wide as a half-page column: keep it near square
            if side is None:
                side = 46 * n_rows if (cell_text and small) else 16 * n_rows
            height = int(top + 90 + min(400, max(200, side)))
    if square:  # a short, slim colour bar next to the square: phones have little width
        main["colorbar"].update(len=0.6, y=1, yanchor="top", thickness=8)
        main["colorbar"].pop("title", None)
    layout.update(height=height, xaxis=xaxis, yaxis=yaxis, annotations=notes, shapes=shapes,
                  margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0})
    return _figure(data, layout)


def stage_figure(stage, tokens: Sequence[str], *, theme: str | Theme = "light",
                 scale_range: float | None = None) -> go.Figure:
    """One stage of :mod:`explorer.stages` drawn with its real shape in the title."""
    nbsp = "\u00a0×\u00a0"  # a shape never breaks across lines
    shape = nbsp.join(str(n) for n in stage.values.shape)
    captured = nbsp.join(str(n) for n in stage.captured)
    title = f"{stage.step}. {stage.title} —\u00a0[{shape}]"
    sub = stage.formula
    if tuple(stage.values.shape) != tuple(stage.captured):
        sub += f". Captured tensor: [{captured}] ({', '.join(stage.captured_dims)})"
    # Q, K and V are drawn three across on a laptop: narrower lines there.
    kw: dict = dict(title=title, subtitle=sub, theme=theme, row_tokens=tokens,
                    wrap=36 if stage.key in ("q", "k", "v") else WRAP)
    if stage.square:
        kw.update(col_tokens=tokens, row_title="query", col_title="key", square=True)
        if stage.key == "pattern":
            return matrix_figure(stage.values, colors="weights", row_sums=True,
                                 blocked=stage.blocked, blocked_text="0",
                                 value_name="weight", **kw)
        return matrix_figure(stage.values, blocked=stage.blocked, value_name="score",
                             **kw)
    dim = stage.dims[1]
    group = None
    if stage.key == "concat" and stage.head_columns is not None:
        group = stage.head_columns[1] - stage.head_columns[0]
    zr = None if scale_range is None else (-scale_range, scale_range)
    return matrix_figure(stage.values, row_title="token", col_title=f"dimension ({dim})",
                         head_columns=stage.head_columns, group_width=group, zrange=zr, **kw)


# --------------------------------------------------------------------------- shapes


def tensor_sizes_figure(sizes: Sequence[tuple], n_tokens: int, layer: int, n_ctx: int, *,
                        theme: str | Theme = "light") -> go.Figure:
    """How many numbers each tensor of one layer (plus embeddings, final, logits) holds for
    this sentence (filled bars) and for a full context of ``n_ctx`` tokens (outlines).
    ``sizes``: ``(name, shape, numbers, numbers at n_ctx)`` as in
    :attr:`explorer.shapes.ShapeTrace.sizes`."""
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


# --------------------------------------------------------------------------- positional


def lines_figure(x: np.ndarray, series: dict[str, np.ndarray], *, title: str = "",
                 subtitle: str = "", x_title: str = "", y_title: str = "",
                 theme: str | Theme = "light", mark_x: float | None = None,
                 band: tuple[float, float] | None = None, band_label: str = "",
                 log_x: bool = False, dashed: Sequence[str] = (), height: int = 320,
                 y_range: tuple[float, float] | None = None,
                 colors: dict[str, str] | None = None,
                 markers: dict[str, tuple[float, float]] | None = None,
                 log_dtick: float | None = None,
                 x_ticks: Sequence[float] | None = None) -> go.Figure:
    """Lines sharing one x axis; ``series`` labels are ours (escaped). ``band`` shades an
    x range (e.g. the sentence's positions); ``mark_x`` draws a vertical line; ``colors``
    fixes a series' colour; ``markers`` puts a dot on a series at (x, y)."""
    th = get_theme(theme)
    data = []
    colors = colors or {}
    for i, (label, y) in enumerate(series.items()):
        colour = colors.get(label, SERIES[i % len(SERIES)])
        data.append({"type": "scatter", "mode": "lines", "x": _f32(x), "y": _f32(y),
                     "name": plotly_safe(label),
                     "line": {"color": colour, "width": 2,
                              "dash": "dash" if label in dashed else "solid"},
                     "hovertemplate": plotly_safe(label) + "<br>" + plotly_safe(x_title or "x")
                     + " %{x}<br>%{y:.4f}<extra></extra>"})
        if markers and label in markers:
            mx, my = markers[label]
            data.append({"type": "scatter", "mode": "markers", "x": [float(mx)],
                         "y": [float(my)], "showlegend": False, "hoverinfo": "skip",
                         "marker": {"color": colour, "size": 10}})
    layout = base_layout(th)
    legend, legend_px = _top_legend(list(series)) if len(series) > 1 else ({}, 0)
    notes, top = _titles(title, subtitle, th, extra=legend_px)
    shapes = []
    if band is not None:
        shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": band[0],
                       "x1": band[1], "y0": 0, "y1": 1, "layer": "below", "line": {"width": 0},
                       "fillcolor": th.grid, "opacity": 0.5})
        if band_label:
            notes.append({"text": plotly_safe(band_label), "x": band[0], "y": 0,
                          "xref": "x", "yref": "paper", "xanchor": "left", "yanchor": "bottom",
                          "showarrow": False, "font": {"size": 10, "color": th.muted}})
    if mark_x is not None:
        shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": mark_x,
                       "x1": mark_x, "y0": 0, "y1": 1,
                       "line": {"color": th.accent, "width": 2, "dash": "dot"}})
    xaxis = _number_axis(x_title, th, showgrid=True, gridcolor=th.grid)
    if log_x:
        xaxis["type"] = "log"
        if log_dtick:
            xaxis["dtick"] = log_dtick
    if x_ticks is not None:
        xaxis.update(tickmode="array", tickvals=[float(v) for v in x_ticks],
                     ticktext=[f"{v:g}" for v in x_ticks])
    yaxis = _number_axis(y_title, th, showgrid=True, gridcolor=th.grid, zeroline=True,
                         zerolinecolor=th.grid)
    if y_range is not None:
        yaxis["range"] = list(y_range)
    layout.update(
        height=height + top, annotations=notes, shapes=shapes, showlegend=len(series) > 1,
        legend=legend,
        xaxis=xaxis, yaxis=yaxis, hovermode="closest",
        margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0},
    )
    return _figure(data, layout)


def rope_arrows_figure(thetas: np.ndarray, tokens: Sequence[str], pairs: Sequence[int], *,
                       theme: str | Theme = "light", max_labels: int = 8) -> go.Figure:
    """Pair ``i`` of a query (the unit vector (1, 0)) turned by ``position × θᵢ``, one arrow
    per token of the sentence; one circle per pair, side by side. Hover names the token."""
    th = get_theme(theme)
    n = len(tokens)
    labels = axis_labels(tokens, 16)
    data, layout_axes, notes = [], {}, []
    gap = 0.06
    width = (1 - gap * (len(pairs) - 1)) / len(pairs)
    pos = np.arange(n, dtype=np.float64)
    every = max(1, math.ceil(n / max_labels))
    for j, pair in enumerate(pairs):
        s = "" if j == 0 else str(j + 1)
        angle = pos * float(thetas[pair])
        tip_x, tip_y = np.cos(angle), np.sin(angle)
        seg_x = np.full(3 * n, np.nan, dtype=np.float32)
        seg_y = np.full(3 * n, np.nan, dtype=np.float32)
        seg_x[0::3], seg_y[0::3] = 0, 0
        seg_x[1::3], seg_y[1::3] = tip_x, tip_y
        circle = np.linspace(0, 2 * np.pi, 97)
        data.append({"type": "scatter", "mode": "lines", "x": _f32(np.cos(circle)),
                     "y": _f32(np.sin(circle)), "xaxis": "x" + s, "yaxis": "y" + s,
                     "hoverinfo": "skip", "line": {"color": th.grid, "width": 1},
                     "showlegend": False})
        data.append({"type": "scatter", "mode": "lines", "x": seg_x, "y": seg_y,
                     "xaxis": "x" + s, "yaxis": "y" + s, "hoverinfo": "skip",
                     "line": {"color": th.muted, "width": 1}, "showlegend": False})
        text = [str(i) if i % every == 0 else "" for i in range(n)]
        hover = [f"position {i}: {lab}<br>turned {np.degrees(a) % 360:.1f}°"
                 for i, (lab, a) in enumerate(zip(labels, angle, strict=True))]
        data.append({
            "type": "scatter", "mode": "markers+text", "x": _f32(tip_x * 1.0),
            "y": _f32(tip_y), "xaxis": "x" + s, "yaxis": "y" + s, "text": text,
            "hovertext": hover, "hovertemplate": "%{hovertext}<extra></extra>",
            "textposition": "middle right", "textfont": {"size": 10, "color": th.muted},
            "cliponaxis": False, "showlegend": False,
            "marker": {"size": 8, "color": _f32(pos),
                       "colorscale": [list(c) for c in COLORSCALE], "cmin": 0,
                       "cmax": max(1, n - 1)},
        })
        x0 = j * (width + gap)
        hidden = {"visible": False, "range": [-1.35, 1.35], "fixedrange": True}
        layout_axes["xaxis" + s] = {**hidden, "domain": [x0, x0 + width], "anchor": "y" + s}
        layout_axes["yaxis" + s] = {**hidden, "domain": [0, 0.78], "anchor": "x" + s,
                                    "scaleanchor": "x" + s}
        notes.append({"text": f"<b>pair {pair}</b><br>{float(thetas[pair]):.3g} rad/position",
                      "x": x0 + width / 2, "y": 0.8, "xref": "paper", "yref": "paper",
                      "xanchor": "center", "yanchor": "bottom", "showarrow": False,
                      "font": {"size": 11}})
    layout = base_layout(th)
    title_notes, top = _titles("RoPE: one pair of q (or k) turning with position",
                               "The same 2-D pair placed at each token's position (numbers: "
                               "positions; dark = early, yellow = late). Fast pairs spin, "
                               "slow pairs barely move.", th)
    layout.update(height=250 + top, annotations=title_notes + notes, **layout_axes,
                  margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0})
    return _figure(data, layout)


def small_multiples(panels: Sequence[dict], *, columns: int, title: str = "",
                    subtitle: str = "", theme: str | Theme = "light",
                    panel_height: int = 170, colors: str = "diverging",
                    zrange: tuple[float, float] | None = None, value_name: str = "value",
                    cell_text: str | None = None, show_ticks: bool = False) -> go.Figure:
    """Heatmaps on a grid, one shared colour scale. Each panel: ``{"z": 2-D array,
    "title": str}`` (our own text) and optional ``"rows"``/``"cols"`` names."""
    th = get_theme(theme)
    n = len(panels)
    rows = math.ceil(n / columns)
    if zrange is None:
        if colors == "weights":
            zrange = (0.0, 1.0)
        else:
            peak = max(_symmetric_range(np.asarray(p["z"], dtype=np.float32)) for p in panels)
            zrange = (-peak, peak)
    title_chars = {1: 60, 2: 22}.get(columns, 16)  # a phone gives a panel ~110 px
    title_lines = max(_wrap(p["title"], title_chars).count("<br>") + 1 for p in panels)
    title_px = 16 * title_lines + 4
    has_rows = any("rows" in p for p in panels) or show_ticks
    has_cols = any("cols" in p for p in panels) or show_ticks
    row_px = title_px + panel_height + (18 if has_cols else 6)
    notes_top, top = _titles(title, subtitle, th)
    area = rows * row_px  # plot-area height in pixels
    xgap = 0.08 if has_rows else 0.05
    cell_w = (1 - xgap * (columns - 1)) / columns
    data, axes, notes = [], {}, []
    for i, panel in enumerate(panels):
        r, c = divmod(i, columns)
        s = "" if i == 0 else str(i + 1)
        z = np.array(panel["z"], dtype=np.float32)
        x0 = c * (cell_w + xgap)
        y_top = 1 - (r * row_px + title_px) / area
        y_bottom = y_top - panel_height / area
        trace = {"type": "heatmap", "z": np.where(np.isfinite(z), z, np.float32(np.nan)),
                 "xaxis": "x" + s, "yaxis": "y" + s, "coloraxis": "coloraxis",
                 "hoverongaps": False, "name": plotly_safe(panel["title"]),
                 "hovertemplate": "row %{y}<br>column %{x}<br>" + plotly_safe(value_name)
                 + " %{z:.4f}<extra></extra>"}
        if cell_text and max(z.shape) <= CELL_TEXT_LIMIT:
            trace["texttemplate"] = "%{z:" + cell_text + "}"
            trace["textfont"] = {"size": 9}
        data.append(trace)
        tick = {"showgrid": False, "zeroline": False, "showticklabels": show_ticks,
                "ticks": "", "tickfont": {"size": 9, "color": th.muted}, "fixedrange": True}
        xa = {**tick, "domain": [x0, x0 + cell_w], "anchor": "y" + s}
        ya = {**tick, "domain": [max(0.0, y_bottom), y_top], "anchor": "x" + s,
              "autorange": "reversed"}
        for key, axis in (("cols", xa), ("rows", ya)):
            if key in panel:
                names = [plotly_safe(str(v)) for v in panel[key]]
                axis.update(tickmode="array", tickvals=list(range(len(names))), ticktext=names,
                            showticklabels=True)
        axes["xaxis" + s], axes["yaxis" + s] = xa, ya
        notes.append({"text": _wrap(panel["title"], title_chars), "x": x0,
                      "y": y_top, "xref": "paper", "yref": "paper", "xanchor": "left",
                      "yanchor": "bottom", "yshift": 2, "showarrow": False,
                      "font": {"size": 11}, "align": "left"})
    layout = base_layout(th)
    layout.update(
        height=top + area + 8, annotations=notes_top + notes, **axes,
        coloraxis={"cmin": zrange[0], "cmax": zrange[1], "colorscale": _colorscale(colors, th),
                   "colorbar": {**_colorbar(th, value_name), "len": min(0.8, 300 / area),
                                "y": 1, "yanchor": "top"}},
        margin={"l": 30 if has_rows else 8, "r": 8, "t": top, "b": 8, "pad": 0},
    )
    return _figure(data, layout)


def shuffle_figures(result, *, theme: str | Theme = "light") -> tuple[go.Figure, go.Figure,
                                                                      go.Figure]:
    """(original pattern, pattern on the shuffled sentence as the model read it,
    difference after putting the shuffled one back in the original order)."""
    th = get_theme(theme)
    where = f"layer {result.layer}, head {result.head}, mask off"
    a = matrix_figure(result.original, title="Your sentence", subtitle=where, theme=th, wrap=34,
                      row_tokens=result.tokens, col_tokens=result.tokens, row_title="query",
                      col_title="key", colors="weights", square=True, value_name="weight",
                      side=220)
    b = matrix_figure(result.shuffled, title="Words shuffled",
                      subtitle="the same words in a new order, as the model read them",
                      theme=th, wrap=34, row_tokens=result.shuffled_tokens,
                      col_tokens=result.shuffled_tokens, row_title="query", col_title="key",
                      colors="weights", square=True, value_name="weight", side=220)
    diff = result.original - result.restored
    peak = max(0.1, float(np.abs(diff).max()))
    c = matrix_figure(diff, title="Difference",
                      subtitle=(f"your sentence − shuffled (put back in your order); "
                                f"largest {float(np.abs(diff).max()):.2g}"),
                      theme=th, wrap=34, row_tokens=result.tokens, col_tokens=result.tokens,
                      row_title="query", col_title="key", zrange=(-peak, peak), square=True,
                      value_name="difference", side=220)
    return a, b, c


# --------------------------------------------------------------------------- lessons


def scaling_figures(curves, example, *, theme: str | Theme = "light") -> tuple[go.Figure,
                                                                               go.Figure,
                                                                               go.Figure]:
    """Lesson 2: spread of q·k against d_k, softmax saturation against d_k, and one query's
    weights at the chosen d_k with and without scaling."""
    th = get_theme(theme)
    d = curves.d
    spread = lines_figure(
        d, {"std of q·k (measured)": curves.std_raw, "√d_k": np.sqrt(d),
            "std of q·k / √d_k (measured)": curves.std_scaled},
        title="The spread of q·k grows like √d_k",
        subtitle="q and k have independent N(0, 1) entries; dividing by √d_k brings the "
                 "spread back to 1 for every d_k.",
        x_title="d_k (log scale)", y_title="standard deviation", theme=theme,
        mark_x=example.d_k, log_x=True, dashed=("√d_k",), log_dtick=math.log10(4),
        colors={"std of q·k (measured)": th.compare, "√d_k": th.muted,
                "std of q·k / √d_k (measured)": th.bar})
    uniform = np.full_like(d, 1.0 / curves.n_keys)
    saturation = lines_figure(
        d, {"largest weight, no scaling": curves.max_raw,
            "largest weight, ÷ √d_k": curves.max_scaled,
            f"uniform (1/{curves.n_keys})": uniform},
        title="Without scaling the softmax saturates",
        subtitle=f"Mean largest softmax weight over {curves.n_keys} keys. Near 1 means one-hot: "
                 "almost no gradient reaches the other keys.",
        x_title="d_k (log scale)", y_title="largest weight", theme=theme, mark_x=example.d_k,
        log_x=True, dashed=(f"uniform (1/{curves.n_keys})",), y_range=(0, 1.05),
        log_dtick=math.log10(4),
        colors={"largest weight, no scaling": th.compare, "largest weight, ÷ √d_k": th.bar,
                f"uniform (1/{curves.n_keys})": th.muted})
    keys = np.arange(len(example.dots), dtype=np.float32)
    data = [
        {"type": "bar", "x": keys, "y": example.weights_raw, "name": "softmax(q·k)",
         "marker": {"color": th.compare}, "hovertemplate": "key %{x}<br>%{y:.4f}<extra></extra>"},
        {"type": "bar", "x": keys, "y": example.weights_scaled, "name": "softmax(q·k / √d_k)",
         "marker": {"color": th.bar}, "hovertemplate": "key %{x}<br>%{y:.4f}<extra></extra>"},
    ]
    layout = base_layout(th)
    legend, legend_px = _top_legend([d["name"] for d in data])
    notes, top = _titles(f"One query, {len(keys)} keys, d_k = {example.d_k}",
                         f"Measured std of q·k: {example.std_raw:.2f} (√d_k = "
                         f"{math.sqrt(example.d_k):.2f}); after ÷ √d_k: "
                         f"{example.std_scaled:.2f}.", th, extra=legend_px)
    layout.update(height=300 + top, annotations=notes, showlegend=True, barmode="group",
                  legend=legend,
                  xaxis=_number_axis("key", th, dtick=1),
                  yaxis=_number_axis("weight", th, range=[0, 1.02], showgrid=True,
                                     gridcolor=th.grid),
                  margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0})
    return spread, saturation, _figure(data, layout)


def block_figure(orders, *, theme: str | Theme = "light") -> go.Figure:
    """Lesson 5: every step of a pre-LN and a post-LN block, side by side."""
    panels = []
    for (pre_name, pre), (post_name, post) in zip(orders.pre, orders.post, strict=True):
        panels.append({"z": pre, "title": "pre-LN: " + pre_name})
        panels.append({"z": post, "title": "post-LN: " + post_name})
    return small_multiples(panels, columns=2, title="The same block, two orders",
                           subtitle="Left: x + f(LN(x)), as in GPT-2 and this app's models. "
                                    "Right: LN(x + f(x)), as in the 2017 paper. Rows "
                                    "are tokens, columns features.",
                           theme=theme, panel_height=120, value_name="value")


def block_stats_figure(sweep: dict, scale: float, current: tuple[float, float], *,
                       theme: str | Theme = "light") -> go.Figure:
    """Lesson 5: the block output's size against the input's size, pre-LN vs post-LN.
    ``sweep``: {"scale": [k], "pre": [k], "post": [k]} (mean per-token std of the output)."""
    th = get_theme(theme)
    x = np.asarray(sweep["scale"], dtype=np.float32)
    return lines_figure(
        x, {"pre-LN output": sweep["pre"], "post-LN output": sweep["post"]},
        title="Output size against input size",
        subtitle="Mean over tokens of each output vector's standard deviation. Post-LN always "
                 "ends in a LayerNorm (std 1); pre-LN passes the input's scale straight "
                 "through the residual path.",
        x_title="input multiplied by (log scale)", y_title="output std", theme=th,
        log_x=True, mark_x=float(scale), height=260, x_ticks=(0.1, 0.2, 0.5, 1, 2, 5, 10, 20),
        colors={"pre-LN output": th.bar, "post-LN output": th.compare},
        markers={"pre-LN output": (scale, current[0]),
                 "post-LN output": (scale, current[1])})


def encoding_panel_figure(panel, *, theme: str | Theme = "light") -> go.Figure:
    """Lesson 6: one encoding, what it contributes (top) and position vs position (bottom)."""
    th = get_theme(theme)
    pic = np.asarray(panel.picture, dtype=np.float32)
    cmp_ = np.asarray(panel.compare, dtype=np.float32)
    p_lo, p_hi = panel.picture_range or (-_symmetric_range(pic), _symmetric_range(pic))
    c_lo, c_hi = panel.compare_range or (-_symmetric_range(cmp_), _symmetric_range(cmp_))
    data = [
        {"type": "heatmap", "z": pic, "xaxis": "x", "yaxis": "y",
         "colorscale": _colorscale("diverging", th), "zmin": p_lo, "zmax": p_hi,
         "showscale": False,
         "hovertemplate": "position %{y}<br>column %{x}<br>%{z:.3f}<extra></extra>",
         "name": "encoding"},
        {"type": "heatmap", "z": cmp_, "xaxis": "x2", "yaxis": "y2",
         "colorscale": _colorscale("diverging", th), "zmin": c_lo, "zmax": c_hi,
         "showscale": False, "name": "comparison",
         "hovertemplate": "position %{y}<br>position %{x}<br>%{z:.3f}<extra></extra>"},
    ]
    axis = {"showgrid": False, "zeroline": False, "ticks": "", "fixedrange": True,
            "tickfont": {"size": 9, "color": th.muted}}
    names = {"none": "none", "sinusoidal": "sinusoidal", "learned": "learned",
             "rotary": "rotary (RoPE)", "alibi": "ALiBi"}
    layout = base_layout(th)
    layout.update(
        height=470,
        xaxis={**axis, "domain": [0, 1], "anchor": "y"},
        yaxis={**axis, "domain": [0.56, 0.88], "anchor": "x", "autorange": "reversed",
               "title": {"text": "position", "font": {"size": 10}}},
        xaxis2={**axis, "domain": [0, 1], "anchor": "y2"},
        yaxis2={**axis, "domain": [0.0, 0.4], "anchor": "x2", "autorange": "reversed",
                "title": {"text": "position", "font": {"size": 10}}},
        annotations=[
            {"text": "<b>" + plotly_safe(names.get(panel.kind, panel.kind)) + "</b>", "x": 0,
             "y": 1.0, "xref": "paper", "yref": "paper", "xanchor": "left",
             "yanchor": "top", "showarrow": False, "font": {"size": 13}},
            {"text": _wrap(panel.picture_what, 26), "x": 0, "y": 0.885, "xref": "paper",
             "yref": "paper", "xanchor": "left", "yanchor": "bottom", "showarrow": False,
             "font": {"size": 10, "color": th.muted}, "align": "left"},
            {"text": _wrap(panel.compare_what, 26), "x": 0, "y": 0.405, "xref": "paper",
             "yref": "paper", "xanchor": "left", "yanchor": "bottom", "showarrow": False,
             "font": {"size": 10, "color": th.muted}, "align": "left"},
        ],
        margin={"l": 34, "r": 8, "t": 8, "b": 8, "pad": 0},
    )
    return _figure(data, layout)


def encoding_figures(view, tokens: Sequence[str], *, theme: str | Theme = "light"
                     ) -> tuple[go.Figure, go.Figure | None, go.Figure | None]:
    """(what the encoding is, a closer look, position against position) for an
    :class:`explorer.pe_views.EncodingView`; None where a kind has nothing to show."""
    th = get_theme(theme)
    n_tok = len(tokens)
    positions = np.arange(view.n, dtype=np.float32)
    band = (-0.5, min(n_tok, view.n) - 0.5) if n_tok else None
    if view.kind in ("sinusoidal", "learned"):
        if view.table is None:
            return message_figure(view.note, th), None, None
        fixed = view.kind == "sinusoidal"
        pic = matrix_figure(
            view.table, theme=th, row_title="position", col_title="dimension",
            title=f"The {view.kind} position table — [{view.n} × {view.d_model}]",
            subtitle=("PE[p, 2i] = sin(p / 10000^(2i/d_model)), PE[p, 2i+1] = cos(same). "
                      if fixed else "Trained along with the model. ")
            + "Row p is added to the embedding of the token at position p.")
        detail = lines_figure(
            positions, view.waves, theme=th, x_title="position", y_title="value",
            title="A few dimensions along the positions",
            subtitle=("Low dimensions wave fast, high ones slowly: together every position "
                      "gets its own pattern." if fixed else
                      "What training put into the first few dimensions."),
            band=band, band_label="your sentence", height=280)
        sim = matrix_figure(
            view.similarity, theme=th, row_title="position", col_title="position",
            square=True, zrange=(-1.0, 1.0), value_name="cosine",
            title="How alike are two positions?",
            subtitle="Cosine similarity of the position vectors (1 = the same direction).")
        return pic, detail, sim
    if view.kind == "rotary":
        pairs = view.angles.shape[1]
        pic = matrix_figure(
            np.mod(view.angles, 2 * math.pi), theme=th, colors="cyclic",
            row_title="position", col_title="pair (2i, 2i+1)", value_name="angle (rad)",
            height=440,
            title=f"RoPE: the angle each pair is turned — [{view.n} × {pairs}]",
            subtitle="Pair i of every query and key is turned by position × θᵢ, "
                     f"θᵢ = base^(−2i/d_head) (d_head = {view.d_head}). Colours wrap at 2π.")
        chosen = sorted({0, min(3, pairs - 1), min(8, pairs - 1)})
        detail = rope_arrows_figure(view.thetas, list(tokens)[: view.n], chosen, theme=th)
        offsets = np.arange(view.n, dtype=np.float32)
        sim = lines_figure(
            offsets, view.offset_score, theme=th, x_title="offset (key position − query "
            "position)", y_title="q · k", height=280,
            title="The score depends only on the offset",
            subtitle="One vector used as both q and k, placed at positions m and m + offset: "
                     "the same curve for every m.")
        return pic, detail, sim
    if view.kind == "alibi":
        heads = view.bias.shape[0]
        panels = [{"z": view.bias[h], "title": f"head {h}: slope {view.slopes[h]:.3g}"}
                  for h in range(heads)]
        peak = float(np.abs(view.bias).max()) or 1.0
        pic = small_multiples(panels, columns=min(4, heads), theme=th, value_name="bias",
                              colors="negative", zrange=(-peak, 0.0),
                              title="ALiBi: the bias added to each head's scores",
                              subtitle="−slope × |query position − key position|; rows are "
                                       "queries, columns keys. No vectors are added.",
                              panel_height=190 if heads <= 4 else 150, show_ticks=False)
        distance = np.arange(view.n, dtype=np.float32)
        lines = {f"head {h} (slope {view.slopes[h]:.3g})": -view.slopes[h] * distance
                 for h in range(heads)}
        detail = lines_figure(distance, lines, theme=th, x_title="distance |i − j|",
                              y_title="bias", title="Bias against distance",
                              subtitle="Steep heads look only nearby; flat heads see far.",
                              height=280)
        return pic, detail, None
    return message_figure(view.note or "No positional encoding.", th), None, None
