"""The Patch view's figures: valid Plotly, the numbers where they belong, tokens escaped."""

import numpy as np
import plotly.graph_objects as go
import pytest

from explorer.figures.patching import (
    head_attribution_grid,
    head_share_grid,
    logit_lens_grid,
    position_share_grid,
)

EVIL = ["<b>a</b>", " $x$", "&amp;"]


def _valid(fig):
    go.Figure(fig.to_dict())  # rebuilds with validation on: raises if anything is invalid
    return fig


def test_head_grid_cells_and_click_ids():
    shares = np.array([[0.0, 0.5], [1.0, -0.2]])
    fig = _valid(head_share_grid(shares, selected=(1, 0), title="t <i>"))
    trace = fig.data[0]
    assert trace.text[1][0] == "100%" and trace.text[1][1] == "-20%"
    assert head_share_grid(np.array([[-0.001]])).data[0].text[0][0] == "0%"  # no "-0%"
    assert list(trace.customdata[1][0]) == [1, 0]
    assert trace.zmin == -1 and trace.zmax == 1  # symmetric, at least 100 %
    assert "<i>" not in fig.layout.annotations[0].text
    assert fig.layout.shapes[0].x0 == -0.5 and fig.layout.shapes[0].y0 == 0.5
    over = head_share_grid(np.array([[1.4, 0.0]]))
    assert over.data[0].zmax == pytest.approx(1.4)
    with pytest.raises(ValueError):
        head_share_grid(np.zeros(3))


def test_position_and_lens_grids_escape_tokens():
    fig = _valid(position_share_grid(np.zeros((2, 3)), EVIL))
    ticks = fig.layout.xaxis.ticktext
    assert all("<b>" not in t and "$" not in t for t in ticks)
    probs = np.array([[[0.6, 0.3], [0.5, 0.1], [0.9, 0.05]]] * 2)
    names = [[["<b>", "x"], ["$", "y"], ["&amp;", "z"]]] * 2
    lens = _valid(logit_lens_grid(probs, names, EVIL))
    assert lens.data[0].z.shape == (2, 3) and lens.data[0].z[0][2] == pytest.approx(0.9)
    assert list(lens.data[0].customdata[1][2][:2]) == [1, 2]  # a click names [layer, pos]
    shown = str(lens.data[0].text) + str(lens.data[0].customdata)
    assert "<b>" not in shown and "$" not in shown
    assert "&amp;amp;" in shown  # a literal "&amp;" token stays those five characters
    with pytest.raises(ValueError):
        position_share_grid(np.zeros((2, 4)), EVIL)


def test_head_attribution_grid_writes_signed_pushes():
    fig = _valid(head_attribution_grid(np.array([[2.5, -1.0], [0.01, -0.02]])))
    assert list(fig.data[0].text[0]) == ["+2.5", "-1.0"]
    assert list(fig.data[0].text[1]) == ["+0.0", "+0.0"]  # no "-0.0" for a tiny push
    assert fig.data[0].zmin == -2.5 and fig.data[0].zmax == 2.5  # symmetric: 0 is white
    with pytest.raises(ValueError):
        head_attribution_grid(np.zeros(3))
