"""The Lab's chart: a training run's losses and head scores, step by step.

Same conventions as :mod:`explorer.figures.layers_and_training`: a pure function of plain
numbers, titles as annotations, light and dark themes. Two panels over the training step:

* top: the loss on the second copy (what an induction head makes predictable) and on the
  fresh tokens after it (what nothing can predict), with chance (ln of the vocabulary
  less the start token) dashed;
* bottom: the strongest head's induction score and previous-token score, the 0.3 bar
  that counts as "formed" dashed, and the step where it was first passed marked.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from explorer.figures.themes import Theme, base_layout, get_theme


def _line(x, y, name: str, colour: str, axis: str, dash: str = "solid", fmt: str = ".3f",
          unit: str = "") -> dict:
    return {"type": "scatter", "mode": "lines", "x": list(x), "y": list(y), "yaxis": axis,
            "name": name, "line": {"color": colour, "width": 2.5, "dash": dash},
            "hovertemplate": f"step %{{x}}<br>{name}: %{{y:{fmt}}}{unit}<extra></extra>"}


def _title(text: str, y: float) -> dict:
    return {"text": text, "xref": "paper", "yref": "paper", "x": 0, "y": y, "xanchor": "left",
            "yanchor": "bottom", "yshift": 4, "showarrow": False, "font": {"size": 14}}


def lab_chart_spec(events: Sequence[dict], *, chance: float, formed_at: int | None = None,
                   bar: float = 0.3, until: int | None = None,
                   theme: str | Theme = "light") -> dict:
    """``events``: the run's points (``step``, ``loss_copy``, ``loss_fresh``,
    ``best_induction``, ``best_previous_token``), oldest first; ``formed_at``: the step
    where the best induction score first reached ``bar`` (None: not yet); ``until``: the
    steps planned, the x range while there is no point yet (the chart is drawn before a run
    starts: its axes, chance and the bar, and a line saying the curves come)."""
    th = get_theme(theme)
    steps = [e["step"] for e in events]
    last = max(steps[-1] if steps else (until or 1), 1)
    data = [
        _line(steps, [e["loss_copy"] for e in events], "loss on the second copy", th.heads[0],
              "y"),
        _line(steps, [e["loss_fresh"] for e in events], "loss on fresh tokens", th.muted, "y"),
        _line([0, last], [chance, chance], "guessing at random", th.grid, "y", dash="dash"),
        _line(steps, [e["best_induction"] for e in events], "best induction score",
              th.heads[0], "y2", fmt=".0%"),
        _line(steps, [e["best_previous_token"] for e in events], "best previous-token score",
              th.heads[2], "y2", fmt=".0%"),
        _line([0, last], [bar, bar], "the bar for 'formed'", th.grid, "y2", dash="dash",
              fmt=".0%"),
    ]
    axis = {"showgrid": True, "gridcolor": th.grid, "zeroline": False, "automargin": True,
            "tickfont": {"size": 12, "color": th.font}, "fixedrange": True}
    layout = base_layout(th)
    layout.update(
        height=460, showlegend=True, hovermode="x unified",
        legend={"orientation": "h", "y": -0.12, "yanchor": "top", "font": {"size": 12}},
        # no axis title: on a phone or a projector the legend below ran into it; the lower
        # panel's title says what x is
        xaxis={**axis, "anchor": "y2",
               "range": [0, last]},
        yaxis={**axis, "title": {"text": "loss"}, "domain": [0.56, 1.0],
               "rangemode": "tozero"},
        yaxis2={**axis, "title": {"text": "score"}, "domain": [0.0, 0.42], "range": [0, 1],
                "tickformat": ".0%", "anchor": "x"},
        margin={"l": 8, "r": 8, "t": 28, "b": 8, "pad": 0},
        # short titles: a phone's chart is ~330 px wide and Plotly does not wrap them
        annotations=[_title("Loss: second copy, fresh tokens", 1.0),
                     _title("Best head's score, by training step", 0.42)],
        shapes=[],
    )
    if not events:
        layout["annotations"].append({
            "text": "Curves appear as it learns.",
            "xref": "paper", "yref": "paper", "x": 0.5, "y": 0.78, "showarrow": False,
            "font": {"size": 14, "color": th.font}})
    if formed_at is not None:
        layout["shapes"].append({"type": "line", "xref": "x", "yref": "paper", "x0": formed_at,
                                 "x1": formed_at, "y0": 0, "y1": 1, "layer": "below",
                                 "line": {"color": th.accent, "width": 2, "dash": "dot"}})
        layout["annotations"].append({
            "text": f"formed at step {formed_at}", "x": formed_at, "xref": "x",
            "y": 0.6, "yref": "paper", "yanchor": "bottom", "showarrow": False,
            # beside the line, on the side with room
            "xanchor": "left" if formed_at < last / 2 else "right",
            "xshift": 4 if formed_at < last / 2 else -4,
            "font": {"size": 13, "color": th.accent}})
    return {"data": data, "layout": layout}


def lab_chart(*args, **kwargs) -> go.Figure:
    """:func:`lab_chart_spec` as a ``go.Figure``."""
    return go.Figure(lab_chart_spec(*args, **kwargs), _validate=False)
