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
    rows = _axis_names(row_tokens, row_names, n_rows)
    cols = _axis_names(col_tokens, col_names, n_cols)
    y_hover = _hover_line(row_title or "row", "y", rows is not None)
    where = plotly_safe(y_hover) + "<br>" \
        + plotly_safe(_hover_line(col_title or "column", "x", cols is not None)) + "<br>"
    small = n_rows <= CELL_TEXT_LIMIT and n_cols <= CELL_TEXT_LIMIT
    main = _main_trace(shown, _value_range(colors, shown, zrange), colors, th, value_name,
                       where, cell_text if small else None, n_cols)
    data = [main]
    if gone.any():
        tiny = n_rows <= MASK_TEXT_LIMIT and n_cols <= MASK_TEXT_LIMIT
        data.append(_blocked_trace(gone, where, blocked_text, th,
                                   tiny or bool(cell_text and small)))
    layout = base_layout(th)
    notes, top = _titles(title, subtitle, th, wrap)
    xaxis, yaxis = _axes(rows, cols, row_title, col_title, square, th)
    if row_sums:
        if square:  # keep the square next to its row-sum column
            xaxis["constraintoward"] = "right"
        xaxis["domain"] = [0.0, 0.86]
        data.append(_row_sum_trace(z, gone, y_hover, th))
        layout["xaxis2"] = _row_sum_axis(th)
        main["colorbar"]["x"] = 1.02
    if height is None:
        height = _auto_height(n_rows, top, small, square, side, bool(cell_text and small))
    if square:  # a short, slim colour bar next to the square: phones have little width
        main["colorbar"].update(len=0.6, y=1, yanchor="top", thickness=8)
        main["colorbar"].pop("title", None)
    layout.update(height=height, xaxis=xaxis, yaxis=yaxis, annotations=notes,
                  shapes=_guides(head_columns, group_width, n_rows, n_cols, th),
                  margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0})
    return _figure(data, layout)


def _axis_names(tokens, names, n: int) -> list[str] | None:
    """An axis's labels: the student's ``tokens`` (made visible and escaped), or our own
    ``names`` (escaped), or None (the axis is numbered)."""
    if tokens is not None:
        if len(tokens) != n:
            raise ValueError(f"{len(tokens)} tokens for an axis of {n}")
        return axis_labels(tokens)
    if names is not None:
        if len(names) != n:
            raise ValueError(f"{len(names)} names for an axis of {n}")
        return [plotly_safe(str(s)) for s in names]
    return None


def _hover_line(word: str, axis: str, labelled: bool) -> str:
    """A hover line naming a cell's row or column by number (and its label if any)."""
    return f"{word} %{{{axis}:d}}: %{{{axis}}}" if labelled else f"{word} %{{{axis}:d}}"


def _value_range(colors: str, shown: np.ndarray, zrange) -> tuple[float, float]:
    """The colour scale's (low, high): weights 0..1, angles 0..2π, else symmetric."""
    if colors == "weights":
        return zrange or (0.0, 1.0)
    if colors == "cyclic":
        return zrange or (0.0, 2 * math.pi)
    peak = _symmetric_range(shown) if zrange is None else None
    return zrange or (-peak, peak)


def _main_trace(shown, zrange, colors: str, th: Theme, value_name: str, where: str,
                cell_text: str | None, n_cols: int) -> dict:
    """The values' heatmap; ``cell_text`` (a d3 format) writes each into its cell."""
    lo, hi = zrange
    main = {
        "type": "heatmap", "z": shown, "zmin": lo, "zmax": hi, "xgap": 0, "ygap": 0,
        "colorscale": _colorscale(colors, th), "colorbar": _colorbar(th, value_name),
        "hoverongaps": False, "name": plotly_safe(value_name),
        "hovertemplate": where + plotly_safe(value_name) + " %{z:.4f}<extra></extra>",
    }
    if cell_text:  # the numbers are in the cells: no colour bar needed
        main["texttemplate"] = "%{z:" + cell_text + "}"
        main["textfont"] = {"size": 10 if n_cols <= 8 else 8}
        main["showscale"] = False
    return main


def _blocked_trace(gone: np.ndarray, where: str, blocked_text: str, th: Theme,
                   with_text: bool) -> dict:
    """The blocked cells in grey, hover (and, ``with_text``, the cell) ``blocked_text``."""
    grey = {
        "type": "heatmap", "z": np.where(gone, np.float32(1), np.float32(np.nan)),
        "colorscale": [[0, th.masked], [1, th.masked]], "showscale": False,
        "hoverongaps": False, "name": "masked",
        "hovertemplate": where + "masked: " + plotly_safe(blocked_text) + "<extra></extra>",
    }
    if with_text:
        grey["text"] = np.where(gone, plotly_safe(blocked_text), "").tolist()
        grey["texttemplate"] = "%{text}"
        grey["textfont"] = {"size": 10, "color": th.font}  # muted: < 4.5:1 on grey
    return grey


def _axes(rows, cols, row_title: str, col_title: str, square: bool,
          th: Theme) -> tuple[dict, dict]:
    """The x and y axes: labelled or numbered, rows top to bottom, ``square`` cells."""
    xaxis = (_labels_axis(cols, col_title, th) if cols is not None
             else _number_axis(col_title, th))
    yaxis = (_labels_axis(rows, row_title, th) if rows is not None
             else _number_axis(row_title, th))
    yaxis["autorange"] = "reversed"
    if square:
        yaxis.update(scaleanchor="x", constrain="domain", constraintoward="top")
        xaxis["constrain"] = "domain"
    return xaxis, yaxis


def _row_sum_trace(z: np.ndarray, gone: np.ndarray, y_hover: str, th: Theme) -> dict:
    """A narrow column of each row's sum (blocked cells count 0) on the second x axis."""
    sums = np.nansum(np.where(gone, 0, z), axis=1).astype(np.float32)[:, None]
    return {
        "type": "heatmap", "z": sums, "xaxis": "x2", "yaxis": "y", "zmin": 0, "zmax": 2,
        "colorscale": [[0, th.paper], [1, th.paper]], "showscale": False,
        "texttemplate": "%{z:.3f}" if z.shape[0] <= 40 else "", "textfont": {"size": 9},
        "hovertemplate": plotly_safe(y_hover) + "<br>row sum %{z:.6f}<extra></extra>",
        "name": "row sum", "xgap": 1, "ygap": 1,
    }


def _row_sum_axis(th: Theme) -> dict:
    return {"domain": [0.88, 1.0], "anchor": "y", "tickmode": "array",
            "tickvals": [0], "ticktext": ["row sum"], "side": "top",
            "showgrid": False, "zeroline": False, "fixedrange": True,
            "tickfont": {"size": 10, "color": th.muted}}


def _guides(head_columns, group_width, n_rows: int, n_cols: int, th: Theme) -> list[dict]:
    """An outline round columns ``head_columns`` [start, stop) and a dotted line every
    ``group_width`` columns (the heads of a concatenation)."""
    shapes = []
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
    return shapes


def _auto_height(n_rows: int, top: int, small: bool, square: bool, side: int | None,
                 numbers_in_cells: bool) -> int:
    """A height for ``n_rows`` rows under a title ``top`` px tall; a ``square`` one about
    as wide as a half-page column (``side`` px, else from the rows)."""
    if square:
        if side is None:
            side = 46 * n_rows if numbers_in_cells else 16 * n_rows
        return int(top + 90 + min(400, max(200, side)))
    per = 20 if small else (14 if n_rows <= 64 else 6)
    return int(min(760, max(200, 90 + top + per * n_rows)))


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
