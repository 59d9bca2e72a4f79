"""The classifier tab's own figure: a heat strip of per-token evidence, one row per measure.

Same conventions as :mod:`explorer.figures.attention` (whose grid, single-head heatmap and
probability bars the tab reuses): a pure function of numpy arrays and token
strings; token axes are numeric positions with ``ticktext`` (repeated words keep
their own columns); every user-derived string goes through :mod:`explorer.figures.labels`;
the title is an annotation; ``go.Figure(..., _validate=False)`` (tests rebuild it
with validation on); light and dark themes.

Each row keeps its own colour scale, because the rows measure different things:
``"weight"`` rows are sequential from 0 (Viridis, like the attention heatmaps),
``"signed"`` rows are diverging around 0 (blue for the answer, orange against it;
colour-blind safe), with a fixed range when one is given so colours compare across
sentences. A colour key above the rows (:func:`colour_key`) says what the colours mean:
there is one scale per row, so no single colour bar could.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from explorer.figures.labels import axis_labels, safe_text
from explorer.figures.themes import COLORSCALE, base_layout, get_theme

TEXT_LIMIT = 10  # write the numbers into the cells up to this many tokens (fits a phone)
TICK_LIMIT = 64
FOR, AGAINST = "#0072b2", "#d55e00"  # Okabe-Ito blue / vermillion


@dataclass(frozen=True)
class StripRow:
    label: str  # row name (fixed text, may hold <br>; not user text)
    values: np.ndarray  # [pos]
    kind: str  # "weight" (0..max) or "signed" (around 0)
    hover: str  # what a value means, e.g. "P drops by"
    fmt: str = ".2f"  # Python number format in the cell (short: cells are narrow on phones)
    hover_fmt: str = ".3f"  # ... and in the hover
    limit: float | None = None  # "signed": fixed ±limit colour range (else the row's max)


def _scale(row: StripRow, paper: str) -> tuple[list, float, float]:
    values = np.nan_to_num(np.asarray(row.values, dtype=np.float32))
    if row.kind == "weight":
        return [list(s) for s in COLORSCALE], 0.0, max(1e-6, float(values.max(initial=0)))
    top = row.limit or max(1e-6, float(np.abs(values).max(initial=0)))
    return [[0.0, AGAINST], [0.5, paper], [1.0, FOR]], -top, top


def _number(value: float, fmt: str) -> str:
    """``format(value, fmt)``, with "–" for NaN and no "-0.00" for a tiny negative."""
    if np.isnan(value):
        return "–"
    text = format(value, fmt)
    zero = format(0.0, fmt)
    return zero if text.lstrip("+-") == zero.lstrip("+-") else text


KEY_LINE_PX = 16  # one line of the colour key


def colour_key_lines(rows: Sequence[StripRow], theme: str = "light") -> list[str]:
    """The strip's colour key as lines of Plotly rich text (our own fixed text, no user
    text). Short lines: Plotly does not wrap annotations, and a phone's strip is ~330 px."""
    th = get_theme(theme)
    lines = []
    if any(r.kind == "signed" for r in rows):
        lines += [f'<span style="color:{FOR}">■</span> blue: for the answer   '
                  f'<span style="color:{AGAINST}">■</span> orange: against it',
                  "pale: hardly either way"]
    if any(r.kind == "weight" for r in rows):
        lines += [f'<span style="color:{COLORSCALE[0][1]}">■</span> dark purple: little '
                  "attention … yellow: much",
                  "(each row scaled to its own largest value)"]
    return [f'<span style="color:{th.font}">{line}</span>' for line in lines]


def colour_key(rows: Sequence[StripRow], theme: str = "light") -> str:
    """The colour key as one annotation's text."""
    return "<br>".join(colour_key_lines(rows, theme))


def evidence_strip(tokens: Sequence[str], rows: Sequence[StripRow], *, title: str = "",
                   theme: str = "light") -> go.Figure:
    """Rows of per-token numbers over the sentence: row ``i`` is drawn at ``y = i`` (top
    first), one heatmap trace per row so each has its own colour scale."""
    th = get_theme(theme)
    n_tok = len(tokens)
    x = np.arange(n_tok, dtype=np.float32)
    data = []
    for i, row in enumerate(rows):
        values = np.ascontiguousarray(row.values, dtype=np.float32).reshape(1, n_tok)
        colorscale, zmin, zmax = _scale(row, th.paper)
        # Numbers formatted here (Plotly.js's d3 formats reject a "+" sign flag in templates);
        # they are our numbers, never user text, and reach the page as data.
        text = [[_number(float(v), row.fmt) for v in values[0]]]
        exact = [[_number(float(v), row.hover_fmt) for v in values[0]]]
        trace = {
            "type": "heatmap", "z": values, "x": x, "y": [i], "zmin": zmin, "zmax": zmax,
            "colorscale": colorscale, "showscale": False, "xgap": 2, "name": f"row {i}",
            "hoverongaps": False, "text": text, "customdata": exact,
            "hovertemplate": "%{x}<br>" + row.hover + " %{customdata}<extra></extra>",
        }
        if n_tok <= TEXT_LIMIT:
            trace.update(texttemplate="%{text}", textfont={"size": 9})
        data.append(trace)
    layout = base_layout(th)
    key_px = KEY_LINE_PX * len(colour_key_lines(rows, theme)) + 6
    # The key starts over the row names, not at the squares: from the figure's left edge
    # (the names are our fixed text: at least 6 px a character at 11 px, plus the margin).
    names_px = 8 + 6 * max((len(part) for r in rows for part in r.label.split("<br>")),
                           default=0)
    top = (30 if title else 8) + key_px
    layout.update(
        height=110 + key_px + 52 * len(rows),
        xaxis={"tickmode": "array", "tickvals": list(range(n_tok)),
               "ticktext": axis_labels(tokens), "showticklabels": n_tok <= TICK_LIMIT,
               "showgrid": False, "zeroline": False, "ticks": "", "automargin": True,
               "tickfont": {"size": 11, "color": th.font}, "ticklabeloverflow": "allow",
               "fixedrange": True},
        yaxis={"tickmode": "array", "tickvals": list(range(len(rows))),
               "ticktext": [r.label for r in rows], "autorange": "reversed",
               "showgrid": False, "zeroline": False, "automargin": True, "fixedrange": True,
               "tickfont": {"size": 11, "color": th.font}},
        margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0},
    )
    layout["annotations"] = [{
        "text": colour_key(rows, theme), "xref": "paper", "yref": "paper", "x": 0, "y": 1,
        "xanchor": "left", "yanchor": "bottom", "yshift": 4, "xshift": -names_px,
        "align": "left", "showarrow": False, "font": {"size": 11}}]
    if title:
        layout["annotations"].append({
            "text": safe_text(title), "xref": "paper", "yref": "paper", "x": 0, "y": 1,
            "xanchor": "left", "yanchor": "bottom", "yshift": key_px + 6,
            "xshift": -names_px, "showarrow": False, "font": {"size": 14}})
    return go.Figure({"data": data, "layout": layout}, _validate=False)
