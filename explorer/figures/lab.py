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
          unit: str = "", about: str = "") -> dict:
    """One curve; ``name`` its short legend entry, ``about`` its longer name on hover."""
    return {"type": "scatter", "mode": "lines", "x": list(x), "y": list(y), "yaxis": axis,
            "name": name, "line": {"color": colour, "width": 2.5, "dash": dash},
            "hovertemplate": f"step %{{x}}<br>{about or name}: %{{y:{fmt}}}{unit}<extra></extra>"}


def _title(text: str, y: float, inside: str | None = None) -> dict:
    """A panel's title above ``y`` (paper units), or, with ``inside`` (the paper's colour),
    just under it, inside the panel, on a backing of that colour."""
    if inside is None:
        return {"text": text, "xref": "paper", "yref": "paper", "x": 0, "y": y,
                "xanchor": "left", "yanchor": "bottom", "yshift": 4, "showarrow": False,
                "font": {"size": 14}}
    return {"text": text, "xref": "paper", "yref": "paper", "x": 0, "y": y, "xanchor": "left",
            "yanchor": "top", "xshift": 2, "yshift": -2, "showarrow": False,
            "font": {"size": 14}, "bgcolor": inside}


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
    data = _curves(events, steps, last, chance, bar, th)
    axis = {"showgrid": True, "gridcolor": th.grid, "zeroline": False, "automargin": True,
            "tickfont": {"size": 12, "color": th.font}, "fixedrange": True}
    layout = base_layout(th)
    layout.update(
        height=460, showlegend=True, hovermode="x unified",
        # the legend at the chart's bottom edge, its room a fixed margin: placed in the
        # plot's units (y -0.12) it ran into the tick labels once a step's status left the
        # chart little height
        # ... two entries a row, a half of the width each: Plotly gave a phone's legend
        # one entry a row (its columns as wide as the longest entry), six rows
        legend={"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom",
                "font": {"size": 12}, "entrywidth": 0.5, "entrywidthmode": "fraction"},
        # no axis title: on a phone or a projector the legend below ran into it; the lower
        # panel's title says what x is
        xaxis={**axis, "anchor": "y2",
               "range": [0, last]},
        # The lower panel's title sits INSIDE its panel, on a backing (_title(inside=...)):
        # in the gap between the panels, a fixed share of the height, the loss axis ran
        # onto it when a step's long status left the chart 220 px (issue 42 item 12).
        # (no 100% tick: at the top of the lower panel it ran into the loss axis's 0)
        yaxis={**axis, "title": {"text": "loss"}, "domain": [0.54, 1.0],
               "rangemode": "tozero", "nticks": 4},
        yaxis2={**axis, "title": {"text": "score"}, "domain": [0.0, 0.46], "range": [0, 1.0],
                "tickformat": ".0%", "anchor": "x", "tickvals": [0, 0.5]},
        margin={"l": 8, "r": 8, "t": 28, "b": 84, "pad": 0},  # 3 legend rows, ticks
        # short titles: a phone's chart is ~330 px wide and Plotly does not wrap them
        annotations=[_title("Loss: second copy, fresh tokens", 1.0),
                     _title("Best head's score, by training step", 0.46, inside=th.paper)],
        shapes=[],
    )
    if not events:
        layout["annotations"].append({
            "text": "Curves appear as it learns.",
            "xref": "paper", "yref": "paper", "x": 0.5, "y": 0.78, "showarrow": False,
            "font": {"size": 14, "color": th.font}})
    if formed_at is not None:
        _mark_formed(layout, formed_at, last, th)
    return {"data": data, "layout": layout}


def _curves(events: Sequence[dict], steps: list[int], last: int, chance: float, bar: float,
            th: Theme) -> list[dict]:
    """The two losses and chance (upper panel), the two best scores and the bar (lower)."""
    # Every legend entry its own colour or dash (issue 42 item 12: two shared one blue, two
    # one grey dash): solid lines in four of the heads' colours, the two references dashed
    # and dotted, in grey and in the text's colour.
    # Short legend entries (the panels' titles say loss or score): a phone's legend of six
    # long names took six rows, and a step's short chart had no room left for the curves.
    return [
        _line(steps, [e["loss_copy"] for e in events], "second copy", th.heads[0], "y",
              about="loss on the second copy"),
        _line(steps, [e["loss_fresh"] for e in events], "fresh tokens", th.heads[1], "y",
              about="loss on fresh tokens"),
        _line([0, last], [chance, chance], "chance", th.muted, "y", dash="dash",
              about="guessing at random"),
        _line(steps, [e["best_induction"] for e in events], "induction", th.heads[3], "y2",
              fmt=".0%", about="best induction score"),
        _line(steps, [e["best_previous_token"] for e in events], "previous token",
              th.heads[4], "y2", fmt=".0%", about="best previous-token score"),
        _line([0, last], [bar, bar], "bar: formed", th.font, "y2", dash="dot", fmt=".0%",
              about="the bar for 'formed'"),
    ]


def _mark_formed(layout: dict, formed_at: int, last: int, th: Theme) -> None:
    """A dotted line at the step where the induction head formed, and its words."""
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


def lab_chart(*args, **kwargs) -> go.Figure:
    """:func:`lab_chart_spec` as a ``go.Figure``."""
    return go.Figure(lab_chart_spec(*args, **kwargs), _validate=False)
