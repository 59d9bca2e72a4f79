"""Positional-encoding views and the shuffle test: with no positional encoding and no
mask, attention only moves with the words; every encoding breaks that."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from explorer.analysis.positional_views import (
    encoding_view,
    equivariance_gap,
    rotary_offset_scores,
    shuffle_from_ids,
    word_permutation,
    word_starts,
)
from explorer.figures.positional import encoding_figures, shuffle_figures
from explorer.models.positional import RotaryEncoding
from explorer.models.settings import AttentionSettings
from tests.conftest import tiny_config, tiny_model

torch.set_num_threads(1)

PIECES = ["The", " cat", " saw", " the", " dog", ".", " It", " ran", " home"]
IDS = [5, 6, 7, 5, 8, 9, 10, 11, 12]


def test_words_move_whole():
    assert word_starts(PIECES) == [0, 1, 2, 3, 4, 6, 7, 8]  # "." stays with "dog"
    perm = word_permutation(PIECES, seed=1)
    assert sorted(perm.tolist()) == list(range(len(PIECES)))
    assert not np.array_equal(perm, np.arange(len(PIECES)))
    where = {int(p): j for j, p in enumerate(perm)}
    assert where[5] == where[4] + 1  # "." still right after "dog"
    assert word_permutation(["Hello"], 0) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_without_positions_attention_just_permutes(seed):
    model = tiny_model(pos_encoding="none")
    r = shuffle_from_ids(model, IDS, PIECES, None, layer=1, head=2, seed=seed)
    assert r.max_diff_all < 1e-5 and r.top_changed == 0
    inverse = np.argsort(r.perm)
    np.testing.assert_allclose(r.shuffled[np.ix_(inverse, inverse)], r.original, atol=1e-5)
    assert r.shuffled_tokens == [PIECES[i] for i in r.perm]
    assert "only moved" in equivariance_gap(r)
    assert any("causal mask off" in i for i in r.interventions)  # said, never silent


@pytest.mark.parametrize("pos", ["sinusoidal", "learned", "rotary", "alibi"])
def test_any_encoding_changes_attention_when_shuffled(pos):
    model = tiny_model(pos_encoding=pos)
    if pos == "learned":  # the init is tiny (std 0.02); give the table a visible size
        with torch.no_grad():
            model.pos.W_pos.weight.mul_(50)
    r = shuffle_from_ids(model, IDS, PIECES, None, layer=1, head=0, seed=0)
    assert r.max_diff_all > 1e-3, pos
    assert "changed" in equivariance_gap(r)


def test_shuffle_runs_with_the_mask_off_even_if_asked_on():
    model = tiny_model(pos_encoding="none")
    r = shuffle_from_ids(model, IDS, PIECES, AttentionSettings(causal=True), seed=0)
    assert r.max_diff_all < 1e-5  # with the mask on it would not be a permutation
    assert np.triu(r.original, 1).sum() > 0


def test_encoding_views_match_the_model():
    n = 10
    sin = encoding_view(tiny_config(pos_encoding="sinusoidal"), None, n)
    assert sin.n == 24 and sin.table.shape == (24, 32)  # at least 32, capped at n_ctx
    np.testing.assert_allclose(np.diag(sin.similarity), 1, atol=1e-6)
    model = tiny_model(pos_encoding="learned")
    learned = encoding_view(model.config, model, n)
    np.testing.assert_array_equal(learned.table, model.pos.W_pos.weight[:24].detach().numpy())
    assert not encoding_view(model.config, None, n).trained
    rot_model = tiny_model(pos_encoding="rotary")
    rot = encoding_view(rot_model.config, rot_model, n)
    rope = RotaryEncoding(rot_model.config)
    np.testing.assert_allclose(np.mod(rot.angles, 2 * np.pi),
                               np.mod(rope.angles(24).numpy(), 2 * np.pi), atol=1e-4)
    alibi_model = tiny_model(pos_encoding="alibi")
    ali = encoding_view(alibi_model.config, alibi_model, n)
    np.testing.assert_allclose(ali.bias, alibi_model.pos.score_bias(24, 24).numpy())
    assert "no position" in encoding_view(tiny_config(pos_encoding="none"), None, n).note


def test_rotary_score_depends_only_on_offset():
    d, base = 8, 10000.0
    curves = rotary_offset_scores(d, base, 12)
    model = tiny_model(pos_encoding="rotary", n_heads=4)  # d_head 8
    v = torch.ones(1, 1, 12, d)
    q, k = model.pos.rotate(v, v)
    scores = (q[0, 0] @ k[0, 0].T).numpy()
    for offset in range(1, 5):
        diagonal = np.diagonal(scores, offset)
        np.testing.assert_allclose(diagonal, diagonal[0], rtol=1e-4)
        assert curves["q = k = all ones"][offset] == pytest.approx(diagonal[0], rel=1e-4)


@pytest.mark.parametrize("pos", ["none", "sinusoidal", "learned", "rotary", "alibi"])
def test_encoding_and_shuffle_figures_are_valid(pos):
    model = tiny_model(pos_encoding=pos)
    view = encoding_view(model.config, model, len(PIECES))
    figs = [f for f in encoding_figures(view, PIECES, theme="dark") if f is not None]
    assert figs
    r = shuffle_from_ids(model, IDS, PIECES, None, seed=0)
    figs += list(shuffle_figures(r))
    for fig in figs:
        spec = json.loads(fig.to_json())
        go.Figure(spec)
        assert spec["data"]


def test_student_text_never_becomes_markup_in_the_shuffle_figures():
    hostile = ["<a href='x'>", " <b>bold</b>", " $x$", " \u202eevil", " &lt;", " ok"]
    model = tiny_model(pos_encoding="none")
    r = shuffle_from_ids(model, IDS[:6], hostile, None, seed=0)
    view = encoding_view(tiny_config(pos_encoding="rotary"), None, 6)
    text = json.dumps([json.loads(f.to_json()) for f in
                       [*shuffle_figures(r), *encoding_figures(view, hostile)] if f])
    for bad in ("<a href", "<b>bold", "$x$", "\\u202e"):
        assert bad not in text, bad
