"""The head view: BertViz-style lines from each query token to the key tokens it attends to.

A pure function of one head's pattern ``[query_pos, key_pos]`` and the token strings, with
the conventions of :mod:`explorer.figures.attention` (``*_spec`` as a plain dict for the
live path, the plain name as a ``go.Figure``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.attention import _check_square, _f32, _figure, _title_annotation
from explorer.figures.labels import axis_labels
from explorer.figures.themes import Theme, base_layout, get_theme

LINE_THRESHOLD = 0.02  # head view: weights below this draw no line

# Head view: weights are bucketed so each head needs only a few line traces.
_BIN_EDGES = np.array([0.1, 0.3, 0.6], dtype=np.float32)  # -> bins [.02,.1) [.1,.3) ...
_BIN_WIDTHS = (1.0, 2.0, 3.5, 5.0)
_BIN_OPACITY = (0.3, 0.5, 0.75, 0.95)


# --------------------------------------------------------------------------- head view


def _segments(q: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x, y for len(q) line segments (0, q) -> (1, k). Every third point has y = NaN,
    which Plotly draws as a gap whatever its x, so x fits in uint8 (3 bytes a segment)."""
    n = len(q)
    x = np.tile(np.array([0, 1, 0], dtype=np.uint8), n)
    y = np.full(3 * n, np.nan, dtype=np.float32)
    y[0::3], y[1::3] = q, k
    return x, y


def strongest_keys(patterns: np.ndarray, threshold: float, top_k: int | None) -> np.ndarray:
    """bool ``[..., T, T]``: weights >= ``threshold`` that are also among the ``top_k``
    largest of their query row (``top_k`` None: every weight >= threshold)."""
    keep = patterns >= threshold
    if top_k is not None and top_k < patterns.shape[-1]:
        top = np.argpartition(-patterns, top_k - 1, axis=-1)[..., :top_k]
        in_top = np.zeros_like(keep)
        np.put_along_axis(in_top, top, True, axis=-1)
        keep &= in_top
    return keep


def head_view_spec(
    patterns_layer: np.ndarray,
    tokens: Sequence[str],
    *,
    heads: Iterable[int] | None = None,
    theme: str | Theme = "light",
    threshold: float = LINE_THRESHOLD,
    title: str = "",
    top_k: int | None = None,
) -> dict:
    """BertViz-style lines for one layer: ``patterns_layer`` ``[n_heads, T, T]``.

    Query tokens on the left, key tokens on the right, a line for every weight
    >= ``threshold`` (and, with ``top_k``, only each query's ``top_k`` strongest: at
    long sentences the rest is an unreadable fan that costs bytes and drawing time);
    width and opacity grow with the weight (4 buckets), one colour per head, each head
    toggled by its legend entry. A head is a handful of Scatter traces with
    NaN-separated segments, not a trace per line.
    """
    p = _f32(patterns_layer, 3, "patterns_layer")
    n_heads = p.shape[0]
    n_tok = _check_square(p, tokens, "patterns_layer")
    th = get_theme(theme)
    head_ids = list(range(n_heads)) if heads is None else [int(h) for h in heads]
    if any(not 0 <= h < n_heads for h in head_ids):
        raise ValueError(f"heads={head_ids} outside 0..{n_heads - 1}")

    keep = strongest_keys(p, threshold, top_k)
    data = [trace for h in head_ids for trace in _head_lines(p[h], keep[h], h, th)]
    data += _token_columns(tokens, n_tok, th)

    hidden = {"visible": False, "fixedrange": True}
    layout = base_layout(th)
    layout.update(
        height=max(220, 90 + 18 * n_tok),
        showlegend=True,
        legend={"orientation": "h", "x": 0, "y": 1, "yanchor": "bottom",
                "groupclick": "togglegroup", "font": {"size": 11}},
        xaxis={**hidden, "range": [-1.0, 2.0]},
        yaxis={**hidden, "range": [n_tok - 0.5, -1.5]},  # reversed: token 0 on top
        annotations=[
            {"text": "query", "x": 0, "y": -1.2, "xref": "x", "yref": "y", "xanchor": "right",
             "showarrow": False, "font": {"color": th.muted, "size": 11}},
            {"text": "key", "x": 1, "y": -1.2, "xref": "x", "yref": "y", "xanchor": "left",
             "showarrow": False, "font": {"color": th.muted, "size": 11}},
        ],
        hovermode="closest",
        margin={"l": 4, "r": 4, "t": 28, "b": 4, "pad": 0},
    )
    if title:  # title on top; the legend goes under the lines, where no title can be hit
        # (at the top right it sat over a long title in a narrow column)
        layout["annotations"].append(_title_annotation(title))
        layout["legend"].update(y=0, yanchor="top")
        layout["margin"]["b"] = 30
        layout["height"] += 26
    return {"data": data, "layout": layout}


def _head_lines(pattern: np.ndarray, keep: np.ndarray, h: int, th: Theme) -> list[dict]:
    """Head ``h``'s lines (``pattern`` [T, T] where ``keep``): a legend entry and one
    trace per weight bucket, in the head's colour."""
    colour = th.heads[h % len(th.heads)]  # by head id: toggling never recolours
    group = f"head {h}"
    # A one-gap-point trace carries the legend entry, so every head has exactly
    # one even when no weight reaches the threshold (Plotly.js leaves traces
    # with no points out of the legend).
    data = [{"type": "scatter", "mode": "lines", "x": [None], "y": [None], "name": group,
             "legendgroup": group, "showlegend": True,
             "line": {"color": colour, "width": 4}}]
    q, k = np.nonzero(keep)
    buckets = np.digitize(pattern[q, k], _BIN_EDGES)
    for b, (width, opacity) in enumerate(zip(_BIN_WIDTHS, _BIN_OPACITY, strict=True)):
        sel = buckets == b
        if not sel.any():
            continue
        x, y = _segments(q[sel], k[sel])
        data.append({"type": "scatter", "mode": "lines", "x": x, "y": y, "name": group,
                     "legendgroup": group, "showlegend": False, "hoverinfo": "skip",
                     "opacity": opacity, "line": {"color": colour, "width": width}})
    return data


def _token_columns(tokens: Sequence[str], n_tok: int, th: Theme) -> list[dict]:
    """The query tokens on the left and the key tokens on the right, as labelled dots."""
    labels = axis_labels(tokens)
    pos = np.arange(n_tok, dtype=np.float32)
    return [{
        "type": "scatter", "mode": "markers+text", "x": np.full(n_tok, x, np.float32),
        "y": pos, "text": labels, "textposition": where, "cliponaxis": False,
        "marker": {"size": 6, "color": th.muted}, "textfont": {"size": 12},
        "showlegend": False, "name": side,
        "hovertemplate": side + " %{y:d}: %{text}<extra></extra>",
    } for side, x, where in (("query", 0.0, "middle left"), ("key", 1.0, "middle right"))]


def head_view(*args, **kwargs) -> go.Figure:
    """:func:`head_view_spec` as a ``go.Figure``."""
    return _figure(head_view_spec(*args, **kwargs))
