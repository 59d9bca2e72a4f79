"""The model's guesses: top-k next-token probabilities as bars, optionally against a
second set drawn as outlines (Compare, Ablate).

Conventions as in :mod:`explorer.figures.attention`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.attention import Prediction, _figure, _title_annotation, _token_axis
from explorer.figures.labels import axis_labels, safe_text
from explorer.figures.themes import Theme, base_layout, get_theme

# --------------------------------------------------------------------------- predictions


def _keyed(preds: Sequence[Prediction]) -> list[tuple[tuple[str, int], float]]:
    """((text, n-th occurrence), prob): different token ids can decode to the same
    text, and those rows must stay apart rather than merge."""
    seen: dict[str, int] = {}
    out = []
    for text, prob in preds:
        n = seen.get(text, 0)
        seen[text] = n + 1
        out.append(((text, n), float(prob)))
    return out


def _columns(now, before) -> tuple[list[tuple[str, int]], np.ndarray, np.ndarray]:
    """The rows (every key of ``now`` then of ``before``, once, in that order) and each
    set's probability per row (0 where a set has no such key)."""
    index: dict[tuple[str, int], int] = {}
    for key, _ in now + before:
        index.setdefault(key, len(index))

    def column(items: list[tuple[tuple[str, int], float]]) -> np.ndarray:
        out = np.zeros(len(index), dtype=np.float32)
        for key, prob in items:
            out[index[key]] = prob
        return out

    return list(index), column(now), column(before)


def predictions_bar_spec(
    preds: Sequence[Prediction],
    *,
    title: str | Sequence[str] = "",
    theme: str | Theme = "light",
    compare: Sequence[Prediction] | None = None,
    name: str = "now",
    compare_name: str = "as trained",
    title_side: str = "left",
) -> dict:
    """Top-k next tokens as horizontal bars, most likely on top.

    ``preds``: ``[(token_text, probability), ...]``. ``compare`` (e.g. the
    untouched model's predictions) is drawn as outline bars over the same rows,
    so "before -> after" reads off one row; tokens only in ``compare`` get rows
    too (with no filled bar). ``title``: a string, or its lines. ``title_side="right"``:
    the title ends at the bars' right end instead of starting at their left one (long
    token labels push the bars right, and a narrow figure, Ablate's at a projector, cut a
    title that started there).
    """
    th = get_theme(theme)
    lines = [title] if isinstance(title, str) else list(title)  # a title's lines, each escaped
    rows, x_now, x_before = _columns(_keyed(preds),
                                     _keyed(compare) if compare is not None else [])
    ypos = np.arange(len(rows), dtype=np.float32)
    labels = axis_labels([text for text, _ in rows])
    hover = "%{y}<br>p = %{x:.4f}"
    data = [{
        "type": "bar", "orientation": "h", "x": x_now, "y": ypos, "name": safe_text(name),
        "marker": {"color": th.bar}, "texttemplate": "%{x:.1%}", "textposition": "auto",
        "cliponaxis": False, "hovertemplate": hover,
    }]
    if compare is not None:
        data.append({
            "type": "bar", "orientation": "h", "x": x_before, "y": ypos,
            "name": safe_text(compare_name), "hovertemplate": hover,
            "marker": {"color": "rgba(0,0,0,0)", "line": {"color": th.compare, "width": 2}},
        })
    peak = max(1e-6, float(x_now.max(initial=0)), float(x_before.max(initial=0)))
    layout = base_layout(th)
    layout.update(
        height=max(160, 70 + 26 * len(rows) + (24 if compare is not None else 0)),
        barmode="overlay", bargap=0.25, showlegend=compare is not None,
        # under the bars: at the top right it ran over the title once its names grew
        # ("as trained · loss 1.71", Explore under an experiment)
        legend={"orientation": "h", "x": 0, "xanchor": "left", "y": -0.06, "yanchor": "top"},
        xaxis={"range": [0, min(1.0, peak * 1.3)],  # room for the % label
               "tickformat": ".0%", "fixedrange": True, "gridcolor": th.grid,
               "zeroline": False, "automargin": True},
        yaxis={**_token_axis(labels, show=True, theme=th), "autorange": "reversed",
               "fixedrange": True},
        # (a title of two lines gets a second line's room)
        margin={"l": 8, "r": 8, "t": 28 + 20 * (len(lines) - 1) if title else 8, "b": 8,
                "pad": 0},
    )
    if title:
        layout["annotations"] = [{**_title_annotation(lines[0]),
                                  "text": "<br>".join(safe_text(line) for line in lines)}]
        if title_side == "right":  # ends where the bars do, over the labels' margin
            layout["annotations"][0].update(x=1, xanchor="right", align="right")
    return {"data": data, "layout": layout}


def predictions_bar(*args, **kwargs) -> go.Figure:
    """:func:`predictions_bar_spec` as a ``go.Figure``."""
    return _figure(predictions_bar_spec(*args, **kwargs))
