"""Shared style of the teaching figures: axes, titles, colour scales, and a message figure.

Conventions (the same as :mod:`explorer.figures.attention`): every user-derived string goes
through :mod:`explorer.figures.labels`; token axes are numeric with ``ticktext`` so
repeated tokens keep their own positions, and ``%{y}``/``%{x}`` in a hover
template show the token while ``%{y:d}`` shows the position; titles are
annotations (Gradio forces a 100 px margin for ``layout.title``); figures are
built as dicts and handed to ``go.Figure(..., _validate=False)`` (tests rebuild
them with validation on); data goes out as float32 arrays. Our own labels and
titles are escaped with :func:`~explorer.figures.labels.plotly_safe` too, and long
explanatory lines are wrapped so they fit a phone.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.labels import plotly_safe
from explorer.figures.themes import COLORSCALE, Theme, base_layout, get_theme

TICK_LIMIT = 64  # label every token up to this many
CELL_TEXT_LIMIT = 24  # write numbers into cells up to this many rows and columns
MASK_TEXT_LIMIT = 14  # write "−∞" into masked cells up to this many
WRAP = 46  # characters per subtitle line (a figure on a 390 px phone fits about this many)
MINUS_INF = "−∞"
SUBTITLE_GAP = 10  # px between a figure's subtitle and its plot

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
    a legend, between them and the plot), and the top margin they need. The subtitle ends
    ``SUBTITLE_GAP`` px above the plot (at 4 px its last line touched the heatmap under it:
    Inside one head's panel 8, #30)."""
    notes, top = [], 8 + extra
    sub = _wrap(subtitle, wrap) if subtitle else ""
    n_sub = sub.count("<br>") + 1 if sub else 0
    if title:
        head = _wrap(title, 32)
        n_head = head.count("<br>") + 1
        notes.append({"text": "<b>" + head + "</b>", "xref": "paper",
                      "yref": "paper", "x": 0, "y": 1, "xanchor": "left", "yanchor": "bottom",
                      "yshift": (SUBTITLE_GAP + 4 + 15 * n_sub if sub else 8) + extra,
                      "showarrow": False, "align": "left", "font": {"size": 13}})
        top += 8 + 17 * n_head
    if sub:
        notes.append({"text": sub, "xref": "paper", "yref": "paper", "x": 0, "y": 1,
                      "xanchor": "left", "yanchor": "bottom", "yshift": SUBTITLE_GAP + extra,
                      "showarrow": False, "align": "left",
                      "font": {"size": 10.5, "color": theme.muted}})
        top += 15 * n_sub + SUBTITLE_GAP
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
            # "allow": Plotly otherwise measures every tick label for overflow on each
            # draw, most of Inside one head's seconds of busy page at 20 tokens
            "ticklabeloverflow": "allow",
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
