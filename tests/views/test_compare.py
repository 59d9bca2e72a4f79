"""Compare: two configurations on one sentence. Numbers on tiny seeded models, figures,
then the tab's API (``/compare``, ``/compare_swap``, ``/compare_copy``) against a real
server running the Compare and Ablate tabs (``build_tabs_app``, shared with the Ablate
and browser tests so they do not depend on how ``app.py`` composes the page)."""

from __future__ import annotations

import json

import gradio as gr
import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from explorer.figures import compare as CF
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.views.compare import compare_runs, moved_share, prediction_rows, run
from tests.conftest import tiny_model
from tests.plotdata import figure_json, heatmaps
from tests.server import tabs_page

torch.set_num_threads(1)  # a shared 2-core machine: one thread per test process

SENTENCE = "The cat sat on the mat. The cat"
TEXT_WITH_MASK = "The cat sat on the [mask]."


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


def small(tok, **overrides):
    return tiny_model(vocab_size=tok.vocab_size, **overrides)


# --------------------------------------------------------------------------- the app


def build_tabs_app(tok, zoo) -> gr.Blocks:
    """The shared sentence box and knobs plus the Compare and Ablate tabs."""
    from explorer.ui import ablate_tab, compare_tab

    return tabs_page("compare, ablate", tok, zoo, [("Compare", "compare", compare_tab),
                                                  ("Ablate", "ablate", ablate_tab)])


# --------------------------------------------------------------------------- numbers


def test_a_run_captures_every_head_and_the_whole_distribution(tok):
    model = small(tok)
    r = run(model, tok, SENTENCE, name="tiny")
    n = len(r.tokens)
    assert r.patterns.shape == (2, 4, n, n) and r.predict_at == n - 1
    np.testing.assert_allclose(r.patterns.sum(-1), 1.0, atol=1e-5)
    assert r.probs.shape == (tok.vocab_size,) and r.probs.sum() == pytest.approx(1.0, abs=1e-4)
    assert r.blocked[0, 1] and not r.blocked[1, 0]


def test_a_configuration_compared_with_itself_differs_by_exactly_zero(tok):
    model = small(tok)
    settings = AttentionSettings(causal=False, temperature=2.0)
    c = compare_runs(run(model, tok, SENTENCE, settings), run(model, tok, SENTENCE, settings),
                     tok)
    assert not c.per_layer and c.diff.shape == (2, 4, *c.left.patterns.shape[-2:])
    assert np.all(c.diff == 0) and np.all(c.moved == 0)
    assert all(p_left == p_right for _, p_left, p_right in c.predictions)


def test_swapping_the_sides_negates_the_difference(tok):
    model = small(tok)
    a = run(model, tok, SENTENCE)
    b = run(model, tok, SENTENCE, AttentionSettings(causal=False, scale="none"))
    ab, ba = compare_runs(a, b, tok), compare_runs(b, a, tok)
    assert np.abs(ab.diff).max() > 0.01
    np.testing.assert_allclose(ab.diff, -ba.diff, atol=1e-7)
    np.testing.assert_allclose(ab.moved, ba.moved, atol=1e-7)
    assert 0 < ab.moved.max() <= 1
    # with the mask off the right side also looks at later tokens
    assert np.abs(np.triu(ab.diff[0, 0], 1)).sum() > 0
    assert np.array_equal(ab.pair(1, 2)[0], a.patterns[1, 2])


def test_different_head_counts_compare_layer_averages_and_say_so(tok):
    two, four = small(tok, n_heads=2), small(tok, n_heads=4, seed=1)
    a, b = run(two, tok, SENTENCE), run(four, tok, SENTENCE)
    c = compare_runs(a, b, tok)
    n = len(a.tokens)
    assert c.per_layer and c.diff.shape == (2, 1, n, n) and c.moved.shape == (2, 1)
    np.testing.assert_allclose(c.diff[1, 0], b.patterns[1].mean(0) - a.patterns[1].mean(0),
                               atol=1e-6)
    assert any("different head counts" in note for note in c.notes)
    left, right = c.pair(1, 3)
    np.testing.assert_allclose(right - left, c.diff[1, 0], atol=1e-6)


def test_prediction_rows_are_the_union_of_both_top_k_with_true_probabilities(tok):
    rng = np.random.default_rng(0)
    left = rng.dirichlet(np.ones(tok.vocab_size)).astype(np.float32)
    right = rng.dirichlet(np.ones(tok.vocab_size)).astype(np.float32)
    rows = prediction_rows(tok, left, right, k=5)
    top = set(np.argsort(-left)[:5]) | set(np.argsort(-right)[:5])
    assert len(rows) == len(top)
    by_text = {tok.decode([int(i)]): (float(left[i]), float(right[i])) for i in top}
    for text, p_left, p_right in rows:
        assert (p_left, p_right) == pytest.approx(by_text[text])  # both real, never 0-filled
    peaks = [max(p, q) for _, p, q in rows]
    assert peaks == sorted(peaks, reverse=True)
    assert prediction_rows(tok, None, None) == []


def test_models_that_read_different_tokens_are_not_subtracted(tok):
    causal, bidir = small(tok), small(tok, causal=False)
    a, b = run(causal, tok, TEXT_WITH_MASK), run(bidir, tok, TEXT_WITH_MASK)
    assert a.ids != b.ids and tok.mask_id in b.ids and b.predict_at == b.ids.index(tok.mask_id)
    c = compare_runs(a, b, tok)
    assert c.diff is None and c.moved is None
    assert any("different tokens" in n for n in c.notes)
    assert any("different questions" in n for n in c.notes)
    assert c.predictions  # the guesses can still be put side by side


# --------------------------------------------------------------------------- figures


def test_the_difference_is_drawn_on_a_diverging_scale_centred_at_zero():
    rng = np.random.default_rng(1)
    a, b = rng.dirichlet(np.ones(4), 4), rng.dirichlet(np.ones(4), 4)
    fig = json.loads(CF.difference_heatmap(a, b, ["a", "<b>", "c", "d"]).to_json())
    axis = fig["layout"]["coloraxis"]
    assert axis["cmid"] == 0 and axis["cmin"] == -axis["cmax"] > -1.0001
    assert axis["colorscale"][0][1] == "#053061" and axis["colorscale"][-1][1] == "#67001f"
    np.testing.assert_allclose(heatmaps(fig)[0], b - a, atol=1e-6)
    assert "&lt;b&gt;" in fig["layout"]["yaxis"]["ticktext"]
    same = json.loads(CF.difference_heatmap(a, a, list("abcd")).to_json())
    assert np.all(heatmaps(same)[0] == 0)
    assert same["layout"]["coloraxis"]["cmax"] == CF.MIN_RANGE


def test_every_new_figure_is_valid_plotly():
    a = np.tril(np.ones((3, 3))) / np.arange(1, 4)[:, None]
    figs = []
    for theme in ("light", "dark"):
        figs += [
            CF.difference_heatmap(a, a.T / a.T.sum(1, keepdims=True), ["x", "y", "z"],
                                  blocked=np.triu(np.ones((3, 3), bool), 1), title="t",
                                  theme=theme),
            CF.head_difference_grid(np.random.default_rng(0).random((4, 4)), selected=(1, 2),
                                    off=[(0, 1)], title="grid", theme=theme),
            CF.head_difference_grid(np.zeros((4, 1)), columns=["layer average"], theme=theme),
            CF.prediction_change_bar([("a", 0.5, 0.1), ("<i>b", 0.2, 0.3)], title="p",
                                     theme=theme),
        ]
        from explorer.figures.attention import attention_grid
        grid = attention_grid(np.broadcast_to(a, (2, 2, 3, 3)), ["x", "y", "z"], theme=theme)
        figs.append(CF.mark_heads_off(grid, 2, [(1, 0)], theme))
    for fig in figs:
        go.Figure(json.loads(fig.to_json()))
    off = json.loads(figs[-1].to_json())["layout"]
    assert off["shapes"][-1]["xref"] == "x3 domain"  # L1 H0 = the third panel
    assert off["annotations"][-1]["text"] == "<b>off</b>"


def test_grid_cells_say_off_and_outline_the_selection():
    fig = json.loads(CF.head_difference_grid(np.full((2, 3), 0.1), selected=(1, 2),
                                             off=[(0, 0)]).to_json())
    text = fig["data"][0]["text"]
    assert text[0][0] == "off" and text[1][2] == "0.10"
    rect = fig["layout"]["shapes"][0]
    assert (rect["x0"], rect["x1"], rect["y0"], rect["y1"]) == (1.5, 2.5, 0.5, 1.5)
    pct = json.loads(CF.head_difference_grid(np.full((1, 1), 0.25), number_format=".0%")
                     .to_json())
    assert pct["data"][0]["text"] == [["25%"]]


def test_moved_share_is_the_share_of_each_rows_attention_that_moved():
    eye = np.eye(3)
    assert moved_share(eye, eye) == 0
    assert moved_share(eye, eye[[1, 2, 0]]) == pytest.approx(1.0)  # every row moved fully
    half = eye.copy()
    half[0] = [0.5, 0.5, 0]
    assert moved_share(eye, half) == pytest.approx(0.5 / 3)
    assert moved_share(np.stack([eye, eye]), np.stack([eye, half])).tolist() == \
        pytest.approx([0, 0.5 / 3])


# --------------------------------------------------------------------------- the API

LEFT = dict(objective="next word (causal)", heads=4, pos="rotary", mask="as trained",
            scaling="1/√d_head", temperature=1.0)


@pytest.fixture(scope="module")
def client(compare_url):
    from gradio_client import Client

    return Client(compare_url, verbose=False)


def compare(client, text=SENTENCE, left=None, right=None, layer=0, head=0):
    left = {**LEFT, **(left or {})}
    right = {**LEFT, **(right or {})}
    return client.predict(text, *left.values(), layer, head, "light", *right.values(),
                          api_name="/compare")


def test_api_identical_sides_give_an_all_zero_difference(client):
    left, right, diff, per_head, preds, status = compare(client, layer=2, head=1)
    z = np.nan_to_num(heatmaps(figure_json(diff))[0])
    assert z.shape[0] == z.shape[1] > 5 and np.all(z == 0)
    assert np.all(heatmaps(figure_json(per_head))[0] == 0)
    np.testing.assert_allclose(np.nan_to_num(heatmaps(figure_json(left))[0]),
                               np.nan_to_num(heatmaps(figure_json(right))[0]))
    assert "identically" in status
    assert "layer 2, head 1" in json.dumps(figure_json(diff)["layout"]["annotations"])
    rows = figure_json(preds)["data"]
    assert rows[0]["name"] == "left" and rows[1]["name"] == "right"


def test_api_mask_off_on_the_right_shows_the_future_in_red(client):
    _, right, diff, per_head, _, status = compare(client, right={"mask": "off"})
    z = np.nan_to_num(heatmaps(figure_json(diff))[0])
    assert np.triu(z, 1).max() > 0  # weight the left (causal) could never give
    assert heatmaps(figure_json(per_head))[0].shape == (4, 4)
    assert "causal mask off" in status and "of each token's attention moved" in status


def test_api_swapping_twice_is_the_identity(client):
    left = list(LEFT.values())
    right = ["next word (causal)", 8, "alibi", "off", "none", 2.5]
    once = client.predict(*left, *right, api_name="/compare_swap")
    assert list(once[:6]) == [*right[:1], 8, *right[2:]] and list(once[6:]) == left
    twice = client.predict(*once, api_name="/compare_swap")
    assert list(twice) == left + right


def test_api_copy_left_to_right(client):
    values = ["next word (causal)", 4, "rotary", "on", "1/√d_model", 0.5]
    assert list(client.predict(*values, api_name="/compare_copy")) == values


def test_api_a_missing_model_on_either_side_is_named(client):
    *figs, status = compare(client, right={"heads": 8})
    if figs[0] is None:  # not trained yet
        assert "Right" in status and "causal-h8-rotary" in status
    else:  # trained: 4 vs 8 heads are compared per layer
        assert "different head counts" in status
        assert heatmaps(figure_json(figs[3]))[0].shape == (4, 1)


def test_api_empty_text_is_a_friendly_state(client):
    *figs, status = compare(client, text="  ")
    assert all(f is None for f in figs) and "Type a sentence" in status
