"""Figure slips of #30 item 10, read from the plotly JSON: the grid's selection outline
stays on its panel (it crossed the title and ran past the figure's bottom), grid labels
only where their rows are tall enough, a subtitle clear of its plot (Inside one head's
panel 8 touched its heatmap), the shuffle test's squares with rows a label tall, and the
before/after legend clear of its title on a projector."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from explorer.figures.attention import GRID_ROW_PX, attention_grid, grid_row_px
from explorer.figures.compare import prediction_change_bar
from explorer.figures.matrices import stage_figure
from explorer.figures.positional import SHUFFLE_ROW_PX, shuffle_figures, shuffle_side
from explorer.figures.style import SUBTITLE_GAP, _titles
from explorer.figures.themes import get_theme

BIG_SCREEN_FONT = 12  # static/fit.js MIN_FONT: what Big screen raises figure text to


def patterns(n_layers: int, n_heads: int, n_tok: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    p = rng.random((n_layers, n_heads, n_tok, n_tok)).astype(np.float32)
    return p / p.sum(-1, keepdims=True)


def tokens(n: int) -> list[str]:
    return [" w" + str(i) for i in range(n)]  # every label carries the ␣ mark


@pytest.mark.parametrize("selected", [(0, 0), (1, 3)])  # top row, bottom row (Classify: 2 layers)
def test_the_selection_outline_is_the_panels_own_border(selected):
    fig = attention_grid(patterns(2, 4, 12), tokens(12), selected=selected).to_plotly_json()
    (shape,) = fig["layout"]["shapes"]
    assert shape["xref"].endswith(" domain") and shape["yref"].endswith(" domain")
    assert (shape["x0"], shape["x1"], shape["y0"], shape["y1"]) == (0, 1, 0, 1)
    # half the line is outside the panel: less than the figure's bottom margin
    assert shape["line"]["width"] / 2 < fig["layout"]["margin"]["b"]


@pytest.mark.parametrize("n_layers, n_tok, shown", [(2, 12, True), (2, 15, True),
                                                    (2, 20, False), (4, 13, True),
                                                    (4, 16, False)])
def test_grid_query_labels_only_where_a_row_is_a_label_tall(n_layers, n_tok, shown):
    """2 layers x 20 tokens was labelled (20 x 2 <= 64) in 7.6 px rows under 9 px labels."""
    fig = attention_grid(patterns(n_layers, 4, n_tok), tokens(n_tok)).to_plotly_json()
    layout = fig["layout"]
    assert (grid_row_px(n_layers, n_tok) >= GRID_ROW_PX) is shown
    assert layout.get("yaxis", {}).get("showticklabels", False) is shown
    if shown:  # and each row really is that tall in the height it is sent with
        plot = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
        panel = plot * (1 - layout["grid"]["ygap"]) / (n_layers - layout["grid"]["ygap"])
        assert panel / n_tok >= GRID_ROW_PX


def test_a_subtitle_ends_clear_of_its_plot():
    notes, top = _titles("8. Scaled scores — [21 × 21]",
                         "S × 1/√d_head = 1/√32 ≈ 0.1768. Captured tensor: [1 × 4 × 21 × 21] "
                         "(batch, head, query pos, key pos)", get_theme("light"))
    title, sub = notes
    n_sub = sub["text"].count("<br>") + 1
    assert sub["yshift"] >= SUBTITLE_GAP >= 8
    assert title["yshift"] >= sub["yshift"] + 15 * n_sub  # the title above the subtitle
    assert top >= title["yshift"] + 17  # and the margin holds both


def test_inside_one_heads_scaled_scores_keep_the_gap():
    n = 21
    stage = SimpleNamespace(
        key="scaled", step="8", title="Scaled scores", square=True, dims=("query", "key"),
        formula="S × 1/√d_head = 1/√32 ≈ 0.1768", captured=(1, 4, n, n),
        captured_dims=("batch", "head", "query pos", "key pos"),
        values=np.zeros((n, n), np.float32), blocked=None, head_columns=None)
    fig = stage_figure(stage, tokens(n)).to_plotly_json()
    sub = [a for a in fig["layout"]["annotations"] if "Captured" in a["text"]][0]
    assert sub["yshift"] >= SUBTITLE_GAP


@pytest.mark.parametrize("n", [5, 16, 21, 30])
def test_the_shuffle_squares_give_every_row_a_label_s_height(n):
    assert shuffle_side(n) / n >= SHUFFLE_ROW_PX or shuffle_side(n) == 400
    assert SHUFFLE_ROW_PX >= BIG_SCREEN_FONT + 2
    result = SimpleNamespace(layer=1, head=1, tokens=tokens(n), shuffled_tokens=tokens(n),
                             original=np.eye(n), shuffled=np.eye(n), restored=np.eye(n))
    for fig in shuffle_figures(result):
        layout = fig.to_plotly_json()["layout"]
        # the figure is sent tall enough for its square (title, subtitle, labels below)
        assert layout["height"] - layout["margin"]["t"] >= shuffle_side(n)


def test_the_before_after_legend_stays_under_its_title_at_big_screen_size():
    rows = [(" the", 0.47, 0.60), (" her", 0.49, 0.36), (" a", 0.02, 0.02)]
    fig = prediction_change_bar(rows, names=("all heads on", "heads off"),
                                title="Guesses: before → after").to_plotly_json()
    layout = fig["layout"]
    legend = layout["legend"]
    assert legend["orientation"] == "v"  # one name a line: it cannot wrap into the title
    assert (legend["y"], legend["yanchor"]) == (1, "bottom")
    # two lines at Big screen's 12 px: Plotly gives a line about 1.3 x the font, + 4 px gap
    needed = 2 * (round(BIG_SCREEN_FONT * 1.3) + 4) + 6
    (title,) = layout["annotations"]
    assert title["yshift"] >= needed
    assert layout["margin"]["t"] >= title["yshift"] + 20  # the 14 px title fits above it
