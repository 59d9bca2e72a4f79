"""A matrix as a labelled heatmap, and one stage of one head's computation (Inside one head).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.labels import axis_labels, plotly_safe
from explorer.figures.style import (
    CELL_TEXT_LIMIT,
    MASK_TEXT_LIMIT,
    MINUS_INF,
    WRAP,
    _colorbar,
    _colorscale,
    _figure,
    _labels_axis,
    _number_axis,
    _symmetric_range,
    _titles,
)
from explorer.figures.themes import Theme, base_layout, get_theme

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
    """One stage of :mod:`explorer.analysis.stages` drawn with its real shape in the title."""
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
