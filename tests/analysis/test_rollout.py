"""Attention rollout (classic and residual-aware), its figure, and the /layers API."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from explorer.analysis.rollout import (
    attention_rollout,
    clamp_position,
    mixing_matrices,
    residual_alpha,
    residual_rollout,
    rollout,
    rollout_for,
)
from explorer.figures.layers_and_training import rollout_heatmap
from tests.plotdata import figure_json, heatmaps

torch.set_num_threads(1)
CONTROLS = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0, "light"]


def random_patterns(n_layers=3, n_heads=2, n=5, causal=True, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(n_layers, n_heads, n, n))
    if causal:
        scores = np.where(np.triu(np.ones((n, n)), 1) > 0, -np.inf, scores)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@pytest.fixture(scope="module")
def real(resources):
    tok, zoo = resources
    return tok, zoo.get("causal-h4-rotary")


# --------------------------------------------------------------------------- the maths


def test_classic_rollout_is_the_product_of_half_attention_half_identity():
    p = random_patterns()
    n = p.shape[-1]
    a = [0.5 * p[la].mean(0) + 0.5 * np.eye(n) for la in range(3)]
    expected = [a[0], a[1] @ a[0], a[2] @ a[1] @ a[0]]
    np.testing.assert_allclose(attention_rollout(p), np.stack(expected), atol=1e-12)


def test_rollout_rows_are_shares_and_causal_stays_causal():
    r = attention_rollout(random_patterns(n_layers=4, n=7))
    np.testing.assert_allclose(r.sum(-1), 1.0, atol=1e-12)
    assert np.all(r >= 0) and np.all(np.triu(r, 1) == 0)


def test_a_token_that_only_looks_at_itself_keeps_itself():
    n = 4
    p = np.broadcast_to(np.eye(n), (2, 3, n, n))
    np.testing.assert_allclose(attention_rollout(p), np.broadcast_to(np.eye(n), (2, n, n)))


def test_renormalise_keeps_rows_that_attend_nowhere_at_zero():
    p = random_patterns(n_layers=1, n=3)
    p[0, :, 1] = 0.0  # row 1 attends nowhere (fully masked padding)
    m = mixing_matrices(p, 1.0)  # no identity: row 1 is all zero, not NaN
    assert np.all(np.isfinite(m)) and np.all(m[0, 1] == 0)


def test_residual_alpha_is_the_relative_norm_of_the_attention_output():
    resid = np.array([[[3.0, 4.0], [0.0, 0.0]]])  # norms 5 and 0
    attn = np.array([[[0.0, 5.0], [0.0, 0.0]]])  # norms 5 and 0
    np.testing.assert_allclose(residual_alpha(resid, attn), [[0.5, 0.5]])  # 0/0 -> 0.5
    resid = np.array([[[1.0, 0.0]]])
    attn = np.array([[[0.0, 3.0]]])
    np.testing.assert_allclose(residual_alpha(resid, attn), [[0.75]])


def test_residual_rollout_with_equal_norms_is_classic_and_with_no_attention_is_identity():
    p = random_patterns(n_layers=2, n=6)
    resid = np.random.default_rng(1).normal(size=(2, 6, 8))
    same, alpha = residual_rollout(p, resid, resid.copy())  # ‖attn‖ = ‖resid‖: alpha = 0.5
    np.testing.assert_allclose(alpha, 0.5)
    np.testing.assert_allclose(same, attention_rollout(p), atol=1e-12)
    silent, alpha = residual_rollout(p, resid, np.zeros_like(resid))
    np.testing.assert_allclose(alpha, 0.0)
    np.testing.assert_allclose(silent, np.broadcast_to(np.eye(6), (2, 6, 6)), atol=1e-12)


def test_per_token_alpha_mixes_row_by_row():
    p = random_patterns(n_layers=1, n=3)
    alpha = np.array([[0.0, 1.0, 0.25]])
    m = mixing_matrices(p, alpha)[0]
    mean = p[0].mean(0)
    np.testing.assert_allclose(m[0], np.eye(3)[0])
    np.testing.assert_allclose(m[1], mean[1])
    np.testing.assert_allclose(m[2], 0.25 * mean[2] + 0.75 * np.eye(3)[2])
    np.testing.assert_allclose(rollout(m[None])[0], m)


def test_bad_shapes_and_alphas_are_refused():
    with pytest.raises(ValueError):
        attention_rollout(np.zeros((2, 3, 4)))
    with pytest.raises(ValueError):
        mixing_matrices(random_patterns(n_layers=1, n=3), 1.5)
    with pytest.raises(ValueError):
        mixing_matrices(random_patterns(n_layers=1, n=3), np.zeros((2, 3)))


@pytest.mark.parametrize("given,expected", [(0, 0), (3, 3), (99, 4), (-5, 0), ("x", 4),
                                            (None, 4), (float("inf"), 4)])
def test_clamp_position(given, expected):
    assert clamp_position(given, 5) == expected


def test_rollout_for_reads_the_real_residual_stream(real):
    tok, model = real
    r = rollout_for(model, tok, "The cat sat on the mat. The cat")
    n = len(r.tokens)
    assert r.classic.shape == r.residual.shape == (4, n, n) and r.alpha.shape == (4, n)
    assert np.all((r.alpha > 0) & (r.alpha < 1))
    np.testing.assert_allclose(r.residual.sum(-1), 1.0, atol=1e-9)
    np.testing.assert_allclose(r.classic, attention_rollout(r.patterns), atol=1e-12)
    assert not np.allclose(r.classic, r.residual)
    assert r.for_output("residual", 99).shape == (4, n)
    assert rollout_for(model, tok, "").empty


# --------------------------------------------------------------------------- figure


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_rollout_heatmap_is_valid_plotly_and_escapes_tokens(theme):
    tokens = ["<b>", " x", "$y$", "&amp;"]
    values = attention_rollout(random_patterns(n=4))[:, 2]
    fig = rollout_heatmap(values, tokens, position=2, theme=theme, title="token <i>")
    go.Figure(fig.to_dict())  # validation on: every key is a real Plotly property
    raw = fig.to_json()
    assert "<b>" not in raw and "<i>" not in raw and "$y$" not in raw
    assert fig.layout.shapes[0].x0 == 1.5
    with pytest.raises(ValueError):
        rollout_heatmap(values, tokens, position=4)


def test_strip_value_keeps_text_as_text_and_marks_the_output():
    from explorer.views.layers import STRIP_MARK, STRIP_STRONGEST, strip_value

    value = strip_value(["<b>", " a\u202e", "x"], [0.2, 0.4, 0.1], 1)
    assert value[0] == ("<b>", 0.5 * STRIP_STRONGEST)
    assert value[1] == (" a⟨RLO⟩", STRIP_STRONGEST)  # invisible bidi override made visible
    assert value[2] == (STRIP_MARK, None) and value[3][0] == "x"


# --------------------------------------------------------------------------- API


@pytest.fixture(scope="module")
def client(extras_url):
    from gradio_client import Client

    return Client(extras_url, verbose=False)


def layers(client, text, *, method="rollout", position=127, **changes):
    controls = list(CONTROLS)
    names = ["objective", "heads", "pos", "mask", "scaling", "temperature", "layer", "head",
             "theme"]
    for key, value in changes.items():
        controls[names.index(key)] = value
    return client.predict(text, *controls, method, position, api_name="/layers")


def test_api_layers_returns_the_rollout_of_the_last_token(client, real):
    tok, model = real
    text = "The cat sat on the mat. The cat"
    status, fig, strip, position = layers(client, text)
    r = rollout_for(model, tok, text)
    n = len(r.tokens)
    assert position == n - 1 and f"{n} tokens" in status
    z = heatmaps(figure_json(fig))[0]
    np.testing.assert_allclose(z, r.classic[:, n - 1], atol=1e-6)
    assert [t["token"] for t in strip if t["class_or_confidence"] is not None] == r.tokens
    from explorer.views.layers import STRIP_STRONGEST  # the strongest token's shade (AA contrast)

    assert max(t["class_or_confidence"] for t in strip
               if t["class_or_confidence"]) == STRIP_STRONGEST


def test_api_layers_residual_method_and_chosen_position(client, real):
    tok, model = real
    text = "The cat sat on the mat. The cat"
    status, fig, strip, position = layers(client, text, method="residual", position=3)
    r = rollout_for(model, tok, text)
    assert position == 3 and "residual-aware" in status and "classic rollout uses" in status
    z = heatmaps(figure_json(fig))[0]
    np.testing.assert_allclose(z, r.residual[:, 3], atol=1e-6)
    assert np.all(z[:, 4:] == 0)  # causal: nothing from later tokens


def test_api_layers_mask_off_and_markup(client):
    status, fig, strip, _ = layers(client, 'a <a href="x">b</a> c', mask="off", position=0)
    assert "Experiment on the trained model" in status
    z = heatmaps(figure_json(fig))[0]
    assert z[:, 1:].sum() > 0  # mask off: the first token now draws on later ones
    raw = json.dumps(fig)
    assert "<a href" not in raw and "</a>" not in raw
    assert '<a href="x">' in "".join(t["token"] for t in strip)  # the characters typed


def test_api_layers_empty_text_and_missing_model(client):
    status, fig, strip, _ = layers(client, "   ")
    assert "Type a sentence" in status and fig is None
    status, fig, *_ = layers(client, "The cat", heads=8, pos="alibi")
    if fig is None:
        assert "causal-h8-alibi" in status
