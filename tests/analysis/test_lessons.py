"""The lessons compute what the reference notebooks print and teach."""

from __future__ import annotations

import json
import math

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from explorer.analysis import lessons as L
from explorer.analysis.positional_views import ENCODINGS, encodings_side_by_side
from explorer.figures.lessons import block_figure, block_stats_figure, scaling_figures
from explorer.figures.matrices import matrix_figure
from explorer.figures.positional import encoding_panel_figure, small_multiples

torch.set_num_threads(1)


# --------------------------------------------------------------------------- lesson 1


def test_seed_notebook_numbers_are_reproduced_to_4_decimals():
    # Notebook 002 prints A* = X Xᵀ, A = softmax(A*) and Y = A X for its 5 × 3 X.
    r = L.self_attention(L.SEED_X)
    printed_scores = np.array([[0.7546, 1.1000, 0.7998, 0.5795, 0.5576],
                               [1.1000, 1.9859, 1.0474, 1.2124, 0.9966],
                               [0.7998, 1.0474, 1.1659, 0.6167, 0.7289],
                               [0.5795, 1.2124, 0.6167, 0.8463, 0.6854],
                               [0.5576, 0.9966, 0.7289, 0.6854, 0.6353]])
    np.testing.assert_array_equal(np.round(r.scores, 4), printed_scores)
    np.testing.assert_array_equal(np.round(r.A, 4), np.array(L.SEED_A))
    np.testing.assert_array_equal(np.round(r.Y, 4), np.array(L.SEED_Y))
    np.testing.assert_allclose(r.A.sum(1), 1.0)


def test_lesson_one_defaults_to_the_notebook_matrix():
    X, notes = L.parse_matrix(None)
    np.testing.assert_array_equal(X, np.array(L.SEED_X))
    assert notes == []


@pytest.mark.parametrize("value,expected_note", [
    ([[1, "x", None], [2, 3, 4]], "not numbers"),
    ([[1e9, 0, 0]], "limited"),
    ([[1, 2, 3]] * 30, "first 10 rows"),
    ([[float("nan"), 1, 2]], "not numbers"),
])
def test_edited_tables_are_bounded_and_explained(value, expected_note):
    X, notes = L.parse_matrix(value)
    assert np.all(np.isfinite(X)) and np.abs(X).max() <= L.MAX_ABS
    assert X.shape[0] <= L.MAX_ROWS and X.shape[1] <= L.MAX_COLS
    assert any(expected_note in n for n in notes)
    r = L.self_attention(X)
    assert np.all(np.isfinite(r.A)) and np.allclose(r.A.sum(1), 1)


# --------------------------------------------------------------------------- lesson 2


def test_spread_of_q_dot_k_grows_like_sqrt_dk_and_scaling_undoes_it():
    c = L.scaling_curves(samples=300)
    ratio = c.std_raw / np.sqrt(c.d)
    assert np.all(np.abs(ratio - 1) < 0.15), ratio
    assert np.all(np.abs(c.std_scaled - 1) < 0.15)
    # Unscaled, the softmax saturates as d_k grows; scaled, it does not.
    assert c.max_raw[-1] > 0.85 and c.max_raw[0] < 0.35
    assert np.all(c.max_scaled < 0.4)
    assert c.entropy_raw[-1] < c.entropy_scaled[-1] - 1.5
    ex = L.scaling_example(256)
    assert abs(ex.std_raw / math.sqrt(256) - 1) < 0.1 and abs(ex.std_scaled - 1) < 0.1
    assert ex.weights_raw.max() > ex.weights_scaled.max()


# --------------------------------------------------------------------------- lesson 3


@pytest.mark.parametrize("heads", [1, 2, 4, 8])
@pytest.mark.parametrize("scale", ["d_model", "d_head"])
@pytest.mark.parametrize("causal", [False, True])
def test_wide_projection_split_equals_separate_heads_stacked(heads, scale, causal):
    r = L.multihead_compare(heads, d_model=8, n_tokens=4, scale_name=scale, causal=causal)
    assert r.max_diff <= 1e-6
    np.testing.assert_allclose(r.wide, r.stacked, atol=1e-6)
    assert r.wide.shape == r.stacked.shape == (4, 8)
    assert r.patterns.shape == (heads, 4, 4)
    dh = 8 // heads
    assert r.scale == pytest.approx(1 / math.sqrt(8 if scale == "d_model" else dh))
    shapes = dict(r.wide_shapes)
    assert shapes[".view(tokens, heads, d_head)"] == (4, heads, dh)
    assert shapes[".transpose(0, 1)"] == (heads, 4, dh)
    if causal:
        assert np.all(r.patterns[:, np.triu_indices(4, 1)[0], np.triu_indices(4, 1)[1]] == 0)


def test_multi_head_matches_torch_reference():
    # The same computation through torch's own multi-head attention (no biases).
    r = L.multihead_compare(2, d_model=8, n_tokens=4, scale_name="d_head", seed=3)
    gen = torch.Generator().manual_seed(3)
    X = torch.randn(4, 8, generator=gen)
    Wq, Wk, Wv = (torch.randn(8, 8, generator=gen) / math.sqrt(8) for _ in range(3))
    q, k, v = ((X @ W.T).view(4, 2, 4).transpose(0, 1) for W in (Wq, Wk, Wv))
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v)  # 1/√d_head
    np.testing.assert_allclose(r.wide, ref.transpose(0, 1).reshape(4, 8).numpy(), atol=1e-6)


def test_uneven_head_split_is_refused():
    with pytest.raises(ValueError):
        L.multihead_compare(3, d_model=8)


# --------------------------------------------------------------------------- lesson 4


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("n_pad", [0, 1, 2, 4])
def test_masks_give_exactly_zero_weight(causal, n_pad):
    r = L.mask_example(causal, n_pad)
    T = len(r.tokens)
    assert r.tokens.count(L.PAD) == n_pad and r.pattern.shape == (T, T)
    np.testing.assert_allclose(r.pattern.sum(1), 1.0, atol=1e-6)
    if n_pad:
        assert np.all(r.pattern[:, -n_pad:] == 0.0)  # padding keys: exactly zero
        assert np.all(np.isneginf(r.masked[:, -n_pad:]))
    if causal:
        upper = np.triu(np.ones((T, T), bool), 1)
        assert np.all(r.pattern[upper] == 0.0) and np.all(np.isneginf(r.masked[upper]))
    blocked = r.causal_blocked | r.pad_blocked
    assert np.array_equal(np.isneginf(r.masked), blocked)
    assert np.all(r.pattern[~blocked] > 0)  # everything else keeps some weight
    # The unmasked scores are the same whatever the mask: masking only removes.
    np.testing.assert_array_equal(r.masked[~blocked], r.scores[~blocked])


# --------------------------------------------------------------------------- lesson 5


def test_pre_and_post_ln_step_by_step_equal_the_model_block():
    r = L.block_orders()
    assert r.pre_matches_model and r.post_matches_model
    assert len(r.pre) == len(r.post) == 7
    pre_mean, pre_std = L.row_stats(r.pre[-1][1])
    post_mean, post_std = L.row_stats(r.post[-1][1])
    # Post-LN ends in a LayerNorm (initial gain 1, bias 0): every token has mean 0, std 1.
    np.testing.assert_allclose(post_mean, 0, atol=1e-5)
    np.testing.assert_allclose(post_std, 1, atol=1e-3)
    big = L.block_orders(np.array(L.BLOCK_X) * 10)
    assert L.output_std(big)[0] > 5 * L.output_std(r)[0] / 2  # pre-LN keeps the scale
    assert L.output_std(big)[1] == pytest.approx(1, abs=1e-3)
    sweep = L.block_sweep()
    assert np.all(np.abs(sweep["post"] - 1) < 1e-3) and sweep["pre"][-1] > 5


# --------------------------------------------------------------------------- lesson 6


def test_five_encodings_side_by_side():
    panels = encodings_side_by_side(n=24, d_model=32, n_heads=4)
    assert [p.kind for p in panels] == list(ENCODINGS)
    none, sin, learned, rotary, alibi = panels
    assert not none.picture.any() and sin.picture.shape == (24, 32)
    np.testing.assert_allclose(np.diag(sin.compare), 1, atol=1e-6)
    assert not learned.trained and "UNTRAINED" in learned.picture_what
    assert rotary.picture.shape == (24, 4)
    # q·k of one vector at positions i and j depends only on j − i (Toeplitz).
    c = rotary.compare
    np.testing.assert_allclose(c[3, 7], c[10, 14], rtol=1e-5)
    assert alibi.picture[0, 5] == pytest.approx(-5 * 2 ** -2)
    trained = encodings_side_by_side(n=8, d_model=16, n_heads=2,
                                       learned_table=np.ones((128, 16)))
    assert trained[2].trained and trained[2].picture.shape == (8, 16)


def test_lesson_figures_are_valid_plotly():
    figs = []
    r = L.self_attention(L.SEED_X)
    figs.append(matrix_figure(r.A, row_names=["a", "b", "c", "d", "e"], colors="weights",
                                cell_text=".4f", row_sums=True, square=True))
    figs += scaling_figures(L.scaling_curves(samples=50), L.scaling_example(64))
    m = L.multihead_compare(2)
    figs.append(small_multiples([{"z": m.wide, "title": "a"}, {"z": m.stacked,
                                   "title": "b"}], columns=2, cell_text=".2f"))
    me = L.mask_example(True, 2)
    figs.append(matrix_figure(me.masked, row_tokens=me.tokens, col_tokens=me.tokens,
                                cell_text=".2f", square=True))
    b = L.block_orders()
    figs.append(block_figure(b))
    figs.append(block_stats_figure(L.block_sweep(), 1.0, L.output_std(b)))
    figs += [encoding_panel_figure(p) for p in encodings_side_by_side()]
    for theme in ("light", "dark"):
        figs.append(block_figure(b, theme=theme))
    for fig in figs:
        spec = json.loads(fig.to_json())
        go.Figure(spec)
        assert spec["data"], "a figure with nothing drawn"
    masked = json.dumps(json.loads(figs[5].to_json()))
    assert "<pad>" not in masked and "&lt;pad&gt;" in masked  # tokens escaped for Plotly
