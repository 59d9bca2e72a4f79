"""explorer.notebook without a browser: what head_view reads (arrays, transformers-style
tuples of tensors), what it refuses and what it draws with a notice, the embedded payload
(the page's own mosaic), and HTML that asks for nothing from the network.
tests/test_notebook_browser.py draws it in Chromium."""

import base64
import json
import re

import numpy as np
import pytest
import torch

from explorer.figures.live_grid import mosaic
from explorer.notebook import AttentionInputError, AttentionView, head_view, show
from explorer.paths import STATIC
from explorer.views.grid_markup import grid_css, grid_markup
from explorer.views.notebook_input import MAX_PANELS, MAX_TOKENS
from explorer.views.notebook_view import FALLBACK

TOKENS = ["The", " cat", " sat", " down"]


def softmaxed(*shape: int, seed: int = 0) -> np.ndarray:
    a = np.random.default_rng(seed).random(shape) + 0.01
    return a / a.sum(-1, keepdims=True)


def embedded(view: AttentionView) -> dict:
    match = re.search(r'<script type="application/json" class="ae-nb-data">(.*?)</script>',
                      view.html, re.S)
    return json.loads(match.group(1))


def test_an_array_is_drawn_as_the_pages_mosaic():
    a = softmaxed(2, 3, 4, 4)
    view = head_view(a, TOKENS, layer=1, head=2)
    p = embedded(view)["payload"]
    assert (p["layers"], p["heads"], p["n"], p["selected"]) == (2, 3, 4, [1, 2])
    z = np.frombuffer(base64.b64decode(p["z"]), np.uint8)
    assert np.array_equal(z, mosaic(a).ravel())
    assert p["tokens"] == ["The", "␣cat", "␣sat", "␣down"]  # spaces shown as on the page
    assert view.notices == []


def test_a_transformers_style_tuple_of_tensors_is_read_per_layer():
    layers = tuple(torch.tensor(softmaxed(2, 3, 4, 4, seed=s), requires_grad=True)
                   .to(torch.bfloat16) for s in range(5))  # [batch, heads, q, k] each
    view = head_view(layers, TOKENS, batch_index=1)
    assert view.attention.shape == (5, 3, 4, 4)
    expected = layers[3][1].detach().float().numpy()
    assert np.allclose(view.attention[3], expected, atol=1e-6)
    nested = head_view(softmaxed(1, 2, 4, 4).tolist(), TOKENS)  # plain lists work too
    assert nested.attention.shape == (1, 2, 4, 4)


@pytest.mark.parametrize(("attention", "tokens", "message"), [
    (np.ones((4, 4)), TOKENS, "expected [layers, heads, query, key]"),
    (np.full((1, 1, 3, 4), 0.25), TOKENS[:3], "3 queries x 4 keys"),
    (softmaxed(1, 2, 4, 4), TOKENS[:3], "3 tokens for attention over 4 positions"),
    (softmaxed(1, 2, 4, 4), "The cat sat down", "a list of strings"),
    (np.full((1, 1, 4, 4), np.nan), TOKENS, "16 NaN or infinite"),
    (softmaxed(1, 1, 4, 4) - 0.5, TOKENS, "negative weights"),
    ((np.ones((1, 2, 4, 4)), np.ones((1, 3, 4, 4))), TOKENS, "different shapes"),
    ("not numbers", TOKENS, "could not be read"),
])
def test_bad_input_gets_a_sentence_saying_why(attention, tokens, message):
    with pytest.raises(AttentionInputError, match=re.escape(message)):
        head_view(attention, tokens)


def test_odd_or_huge_input_is_drawn_with_a_notice():
    raw = np.random.default_rng(0).random((1, 2, 4, 4))  # scores, not a softmax
    view = head_view(raw, TOKENS)
    assert "rows do not sum to 1" in view.notices[0]
    assert "rows do not sum to 1" in embedded(view)["payload"]["caption"]
    n = MAX_TOKENS + 10
    big = head_view(softmaxed(1, 1, n, n), [f"t{i}" for i in range(n)])
    assert big.attention.shape[-1] == MAX_TOKENS
    assert f"first {MAX_TOKENS} of {n} tokens" in " ".join(big.notices)
    many = head_view(np.full((MAX_PANELS // 4 + 3, 8, 2, 2), 0.5), ["a", "b"])
    assert many.attention.shape[0] * many.attention.shape[1] <= MAX_PANELS
    assert "Showing layers 0-" in many.notices[-1]
    padded = np.full((1, 1, 4, 4), 0.25)
    padded[..., 3, :] = 0  # an all-zero row (a padded position) is not odd
    assert head_view(padded, TOKENS).notices == []


def test_the_html_is_self_contained_and_each_view_has_its_own_ids(tmp_path):
    view = head_view(softmaxed(1, 2, 4, 4), ["<b>", "</script>", "&amp;", "x"])
    page = view.html
    assert not re.search(r"https?://|\bsrc=|\bhref=|@import|url\(", page)
    assert page.count("</script>") == 2  # the data and the script; a token cannot close one
    first, second = view._repr_html_(), view._repr_html_()
    ids = [re.search(r'id="(ae-nb-[0-9a-f]+)"', h).group(1) for h in (first, second)]
    assert ids[0] != ids[1]
    # the renderer's bundle itself, inlined (static/build/notebook.js: live_grid.js and
    # notebook.js), and its one markup and CSS (explorer/views/grid_markup.py)
    assert (STATIC / "build" / "notebook.js").read_text(encoding="utf-8") in first
    assert grid_markup("grid", FALLBACK) in first and grid_markup("head") in first
    assert grid_css(f"#{ids[0]}") in first
    saved = view.save(tmp_path / "v.html")
    assert saved.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_show_runs_the_projects_model_with_the_pages_knobs():
    view = show("The cat sat on the mat. The cat", heads=2, pos="rotary", mask="off")
    p = embedded(view)["payload"]
    assert p["ok"] and p["heads"] == 2 and p["n"] == len(view.tokens)
    assert "causal mask off" in p["caption"]
    assert len(view.guesses) == 3 and all(0 <= q <= 1 for _, q in view.guesses)
    as_trained = show("The cat sat on the mat. The cat", heads=2, pos="rotary")
    assert not np.allclose(view.attention, as_trained.attention)  # the mask did something
    assert np.allclose(np.triu(as_trained.attention, 1), 0)
    empty = embedded(show("", heads=2))["payload"]
    assert not empty["ok"] and "Type a sentence" in empty["caption"]
    with pytest.raises(ValueError, match="pos='rotory'"):
        show("x", pos="rotory")
    with pytest.raises(ValueError, match="heads"):
        show("x", heads=3)
