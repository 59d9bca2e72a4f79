"""Inside one head and the shape trace: every stage has its real shape and every stage
follows from the one before it, exactly as the model computes it."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from explorer.analysis.shapes import SPLIT_HEADERS, TRACE_HEADERS, trace_from_ids
from explorer.analysis.stages import hook_names, pick, stages_from_ids
from explorer.figures.matrices import matrix_figure, stage_figure
from explorer.figures.shapes import tensor_sizes_figure
from explorer.models.settings import AttentionSettings
from tests.conftest import tiny_model

torch.set_num_threads(1)

LENGTHS = (1, 5, 37)


def softmax_rows(s: np.ndarray) -> np.ndarray:
    s = s.astype(np.float64)
    top = np.max(s, -1, keepdims=True)
    e = np.exp(s - np.where(np.isfinite(top), top, 0))
    return e / e.sum(-1, keepdims=True)


def ids_of(n: int, vocab: int = 61) -> list[int]:
    return [(7 * i + 3) % vocab for i in range(n)]


def check_consistent(model, r, settings: AttentionSettings) -> None:
    """Every stage from the previous ones, with the model's own weights."""
    cfg = model.config
    rs = settings.resolve(cfg)
    attn = model.blocks[r.layer].attn
    h, dh = r.head, cfg.d_head
    cols = slice(h * dh, (h + 1) * dh)
    X = r["x"].values.astype(np.float64)
    for role, W in (("q", attn.W_Q), ("k", attn.W_K), ("v", attn.W_V)):
        expected = X @ W.weight.detach().double().numpy().T[:, cols]
        np.testing.assert_allclose(r[role].values, expected, atol=1e-4, rtol=1e-4)
    q = r["rot_q"].values if "rot_q" in r.stages else r["q"].values
    k = r["rot_k"].values if "rot_k" in r.stages else r["k"].values
    np.testing.assert_allclose(r["scores"].values, q.astype(np.float64) @ k.T, atol=1e-4,
                               rtol=1e-4)
    bias = 0.0
    if cfg.pos_encoding == "alibi":
        n = len(r.ids)
        bias = model.pos.score_bias(n, n)[h].numpy()
    # temperature divides the whole score, ALiBi's bias included (rs.scale holds its 1/T)
    np.testing.assert_allclose(r["scaled"].values,
                               r["scores"].values * rs.scale + bias / rs.temperature,
                               atol=1e-4, rtol=1e-4)
    masked = r["masked"].values
    blocked = r["masked"].blocked
    assert np.array_equal(blocked, np.isneginf(masked))
    if rs.causal:
        assert np.array_equal(blocked, np.triu(np.ones_like(blocked), 1))
    else:
        assert not blocked.any()
    np.testing.assert_array_equal(masked[~blocked], r["scaled"].values[~blocked])
    pattern = r["pattern"].values
    np.testing.assert_allclose(pattern, softmax_rows(masked), atol=1e-6)  # softmax(masked)
    np.testing.assert_allclose(pattern.sum(-1), 1.0, atol=1e-5)
    assert np.all(pattern[blocked] == 0)
    np.testing.assert_allclose(r["z"].values, pattern @ r["v"].values, atol=1e-5)  # A V
    np.testing.assert_array_equal(r["concat"].values[:, cols], r["z"].values)  # this slice
    W_O = attn.W_O.weight.detach().numpy()
    np.testing.assert_allclose(r["out"].values, r["concat"].values @ W_O.T, atol=1e-5)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("pos", ["rotary", "alibi", "sinusoidal", "none"])
def test_stage_shapes_and_consistency(n, pos):
    model = tiny_model(pos_encoding=pos, n_ctx=40)
    cfg = model.config
    r = stages_from_ids(model, ids_of(n), None, layer=1, head=2)
    dm, dh, nh = cfg.d_model, cfg.d_head, cfg.n_heads
    expected = {"x": (n, dm), "q": (n, dh), "k": (n, dh), "v": (n, dh), "scores": (n, n),
                "scaled": (n, n), "masked": (n, n), "pattern": (n, n), "z": (n, dh),
                "concat": (n, dm), "out": (n, dm)}
    if pos == "rotary":
        expected.update(rot_q=(n, dh), rot_k=(n, dh))
    assert {k: s.shape for k, s in r.stages.items()} == expected
    assert list(r.stages) == [k for k in ("x", "q", "k", "v", "rot_q", "rot_k", "scores",
                                          "scaled", "masked", "pattern", "z", "concat", "out")
                              if k in expected]  # the order the model computes them
    assert r["q"].captured == (1, nh, n, dh) and r["pattern"].captured == (1, nh, n, n)
    assert r["concat"].head_columns == (2 * dh, 3 * dh)
    assert [s.step for s in r.stages.values()] == [str(i + 1) for i in range(len(expected))]
    check_consistent(model, r, AttentionSettings())


@pytest.mark.parametrize("settings", [
    AttentionSettings(causal=False),
    AttentionSettings(scale="none", temperature=2.0),
    AttentionSettings(scale="d_model", causal=True),
])
def test_every_control_reaches_the_stages(settings):
    model = tiny_model(pos_encoding="alibi")
    r = stages_from_ids(model, ids_of(9), settings, layer=0, head=3)
    check_consistent(model, r, settings)
    rs = settings.resolve(model.config)
    assert "ALiBi" in r["scaled"].formula
    if rs.temperature != 1:
        assert "temperature 2" in r["scaled"].formula
        assert r["scaled"].formula.startswith("(S ") and ") ÷ temperature 2" in \
            r["scaled"].formula  # the bias is inside what temperature divides
    if not rs.causal:
        assert "no mask" in r["masked"].formula


def test_scale_is_named_with_its_factor():
    model = tiny_model()  # d_head 8, d_model 32
    r = stages_from_ids(model, ids_of(4))
    assert "1/√8" in r["scaled"].formula and f"{1 / math.sqrt(8):.4f}" in r["scaled"].formula
    r = stages_from_ids(model, ids_of(4), AttentionSettings(scale="d_model"))
    assert "1/√32" in r["scaled"].formula


def test_one_capture_limited_to_one_layer():
    model = tiny_model(pos_encoding="rotary")
    names = hook_names(model.config, 1)
    assert all(n.startswith("blocks.1.attn.") for n in names) and len(names) == 13
    plain = hook_names(tiny_model(pos_encoding="learned").config, 1)
    assert len(plain) == 11 and "blocks.1.attn.hook_rot_q" not in plain


def test_layer_and_head_are_clamped_to_the_model():
    model = tiny_model()
    r = stages_from_ids(model, ids_of(3), None, layer=9, head=9)
    assert (r.layer, r.head) == (1, 3)


@pytest.mark.parametrize("layer, head, notes", [
    (1, 3, ()),
    (9, 2, ("This model has 2 layers: showing layer 1.",)),
    (0, 7, ("This model has 4 heads per layer: showing head 3.",)),
    (-1, 9, ("This model has 2 layers: showing layer 0.",
             "This model has 4 heads per layer: showing head 3.")),
])
def test_the_knobs_pick_a_head_the_model_has_and_say_so(layer, head, notes):
    model = tiny_model()
    zoo = SimpleNamespace(get=lambda name: model if name == "tiny" else None)
    controls = SimpleNamespace(checkpoint=lambda: "tiny", layer=layer, head=head)
    picked = pick(zoo, controls)
    assert (picked.layer, picked.head) == model.config.clamp(layer, head)
    assert picked.notes == notes


def test_stage_figures_are_valid_plotly_with_tokens_as_ticks():
    model = tiny_model(pos_encoding="rotary")
    tokens = ["<b>x</b>", " the", " the", "$y$", "\u202e"]
    r = stages_from_ids(model, ids_of(5))
    for theme in ("light", "dark"):
        for stage in r.stages.values():
            fig = stage_figure(stage, tokens, theme=theme)
            spec = json.loads(fig.to_json())
            go.Figure(spec)  # validation on: every key we emit exists
            y = spec["layout"]["yaxis"]
            assert y["tickvals"] == [0, 1, 2, 3, 4]  # numeric: repeated tokens stay apart
            text = json.dumps(spec)
            assert "<b>x</b>" not in text and "\u202e" not in text
    masked = json.loads(stage_figure(r["masked"], tokens).to_json())
    grey = [t for t in masked["data"] if t.get("name") == "masked"]
    assert len(grey) == 1 and "−∞" in grey[0]["hovertemplate"]
    pattern = json.loads(stage_figure(r["pattern"], tokens).to_json())
    assert any(t.get("name") == "row sum" for t in pattern["data"])
    concat = json.loads(stage_figure(r["concat"], tokens).to_json())
    assert concat["layout"]["shapes"][0]["type"] == "rect"  # this head's slice outlined


def test_matrix_figure_rejects_wrong_labels():
    with pytest.raises(ValueError):
        matrix_figure(np.zeros((2, 3)), row_tokens=["a"])


@pytest.mark.parametrize("n", LENGTHS)
def test_shape_trace_follows_cache_shapes(n):
    model = tiny_model(pos_encoding="rotary", n_ctx=40)
    cfg = model.config
    r = trace_from_ids(model, ids_of(n), None, layer=1)
    assert len(r.trace[0]) == len(TRACE_HEADERS) and len(r.split[0]) == len(SPLIT_HEADERS)
    names = [row[1] for row in r.trace]
    assert names[0] == "hook_embed" and names[-1] == "logits"
    assert names.index("blocks.0.attn.hook_q") < names.index("blocks.0.attn.hook_scores") \
        < names.index("blocks.0.hook_mlp_out") < names.index("blocks.1.hook_resid_pre")
    shapes = {row[1]: row[2] for row in r.trace}
    h, dh, dm = cfg.n_heads, cfg.d_head, cfg.d_model
    assert shapes["blocks.1.attn.hook_q"] == f"1 × {h} × {n} × {dh}"
    assert shapes["blocks.1.attn.hook_pattern"] == f"1 × {h} × {n} × {n}"
    assert shapes["logits"] == f"1 × {n} × {cfg.vocab_size}"
    split = [row[1] for row in r.split]
    assert split[:4] == [f"1 × {n} × {dm}", f"1 × {n} × {dm}", f"1 × {n} × {h} × {dh}",
                         f"1 × {h} × {n} × {dh}"]
    assert f"1 × {h} × {n} × {n}" in split and split[-1] == f"1 × {n} × {dm}"
    full = {name: (count, at_ctx) for name, _, count, at_ctx in r.sizes}
    assert full["attn.hook_pattern"] == (h * n * n, h * cfg.n_ctx ** 2)
    go.Figure(json.loads(tensor_sizes_figure(r.sizes, n, 1, cfg.n_ctx).to_json()))


def test_real_checkpoint_stages_when_installed():
    from explorer.models.checkpoint import load_model
    from explorer.models.zoo import CHECKPOINT_DIR, read_manifest

    path = CHECKPOINT_DIR / "causal-h4-rotary.safetensors"
    manifest = read_manifest(CHECKPOINT_DIR)
    if not path.exists() or path.name not in manifest:
        pytest.skip("the default checkpoint is not installed")
    model = load_model(path, expected_sha256=manifest[path.name])
    for n in LENGTHS:
        r = stages_from_ids(model, ids_of(n, model.config.vocab_size), None, 2, 1)
        assert r["x"].shape == (n, model.config.d_model)
        check_consistent(model, r, AttentionSettings())
