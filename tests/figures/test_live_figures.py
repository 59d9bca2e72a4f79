"""The live path draws the same numbers as the straightforward path.

The Explore tab's figures after a pause (:func:`explorer.views.explore.live_rest`) skip plotly.py
and Gradio's serialisation; its grid is a uint8 mosaic on a canvas
(:mod:`explorer.views.grid_payload`, tested in test_grid_payload.py); the ``/explore`` API
(:func:`explorer.views.explore.explore`) builds ``go.Figure`` objects the obvious way. Here: the
fast JSON equals ``go.Figure.to_json()`` for every builder, the mosaic holds every panel
rounded to whole percent, and on the real model both paths give the same figures, status
and table.
"""

import base64
import json

import numpy as np
import plotly.graph_objects as go
import pytest

from explorer.figures import attention, head_view, predictions
from explorer.figures.live_grid import mosaic, panel, to_percent
from explorer.figures.plotly_json import plot_value, to_json, typed_array
from tests.figures.test_figures import HOSTILE, causal_patterns
from tests.plotdata import decode_array, figure_json, heatmaps


def spec_and_figure(name: str, tokens, **kw):
    """(plain-dict spec, go.Figure) of one builder for the same inputs."""
    n = len(tokens)
    p = causal_patterns((2, 3, n, n), seed=n)
    rng = np.random.default_rng(n)
    scores = rng.normal(size=(n, n)).astype(np.float32)
    args = {
        "attention_grid": (p, tokens),
        "head_heatmap": (p[1, 2], tokens),
        "head_view": (p[0], tokens),
        "predictions_bar": ([(t, 1 / (i + 2)) for i, t in enumerate(tokens[:8])],),
    }[name]
    extra = {"head_heatmap": dict(scores=scores, scaled=scores / 3, title="L1 H2"),
             "head_view": dict(title=tokens[0], top_k=2),
             "predictions_bar": dict(compare=[(tokens[0], 0.5)], name=tokens[1]),
             "attention_grid": dict(selected=(1, 1))}[name]
    module = {"head_view": head_view, "predictions_bar": predictions}.get(name, attention)
    spec = getattr(module, name + "_spec")(*args, **extra, **kw)
    return spec, getattr(module, name)(*args, **extra, **kw)


@pytest.mark.parametrize("name", ["attention_grid", "head_heatmap", "head_view",
                                  "predictions_bar"])
@pytest.mark.parametrize("tokens", [HOSTILE, tuple(f"w{i % 4}" for i in range(40))])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_fast_json_is_plotly_json(name, tokens, theme):
    spec, fig = spec_and_figure(name, tokens, theme=theme)
    fast = json.loads(to_json(spec))
    assert fast == json.loads(fig.to_json())
    go.Figure(fast)  # validation on: every key is one Plotly knows


def test_plot_value_is_what_gr_plot_sends():
    gr = pytest.importorskip("gradio")
    spec, fig = spec_and_figure("head_heatmap", tuple("abcdefg"))
    value = plot_value(spec)
    sent = gr.Plot().postprocess(fig).model_dump()
    assert value["type"] == sent["type"] == "plotly"
    assert json.loads(value["plot"]) == json.loads(sent["plot"])
    assert plot_value(None) is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int8, np.int16,
                                   np.int64, np.uint16])
def test_typed_arrays_round_trip(dtype):
    arr = (np.arange(24).reshape(2, 3, 4) * 3 - 20).astype(dtype)
    if np.issubdtype(dtype, np.unsignedinteger):
        arr = np.abs(arr).astype(dtype)
    spec = typed_array(arr)
    np.testing.assert_array_equal(decode_array(spec), arr)
    if dtype is np.int64:
        assert spec["dtype"] == "i1"  # narrowed as plotly.py does
    assert typed_array(np.zeros(0, np.float32)) == []


# --------------------------------------------------------------------------- the mosaic


@pytest.mark.parametrize("shape", [(4, 4, 6, 6), (2, 8, 11, 11), (4, 2, 40, 40), (1, 1, 1, 1)])
def test_mosaic_holds_every_panel_in_whole_percent(shape):
    p = causal_patterns(shape, seed=shape[-1])
    n_layers, n_heads, n = shape[0], shape[1], shape[-1]
    z = mosaic(p)
    assert z.dtype == np.uint8 and z.shape == (n_layers * n, n_heads * n)
    assert z.flags.c_contiguous  # sent as its raw bytes
    for layer in range(n_layers):
        for head in range(n_heads):
            got = panel(z, n, layer, head)
            np.testing.assert_array_equal(got, np.rint(p[layer, head] * 100))
            assert np.abs(got / 100 - p[layer, head]).max() <= 0.005 + 1e-6


def test_to_percent_rounds_and_clips():
    np.testing.assert_array_equal(to_percent(np.array([0, 0.004, 0.005001, 0.999, 1, 1.2])),
                                  [0, 0, 1, 100, 100, 100])


# --------------------------------------------------------------------------- real model


@pytest.mark.parametrize(("text", "changes"), [
    ("The cat sat on the mat. The cat", {}),
    ("Once there was a girl named Mia. Mia had a red ball. One day Mia gave the ball to "
     "her friend Tom, and Tom said thank you to Mia.", {"layer": 2, "head": 3}),
    ("The cat sat.", {"mask": "off", "temperature": 2.0, "theme": "dark"}),
    ("The cat sat on the [mask].", {"objective": "masked word (bidirectional)"}),
    ("", {}),
])
def test_live_update_equals_the_straightforward_one(resources, text, changes):
    """The figures after a pause and the keystroke's grid equal the ``/explore`` API's."""
    from explorer.views.controls import Controls
    from explorer.views.explore import explore, settled_update
    from explorer.views.grid_payload import grid_payload

    tok, zoo = resources
    controls = Controls(**changes)
    slow = explore(zoo, tok, text, controls)
    head, lines, preds, table, status = settled_update(zoo, tok, text, controls)
    assert (status, table) == (slow.status, slow.head_table)
    if slow.grid is None:
        assert (head, lines, preds) == (None, None, None)
        assert grid_payload(zoo, tok, text, controls)["ok"] is False
        return
    for live, ref in ((head, slow.head), (lines, slow.lines), (preds, slow.predictions)):
        if ref is None:
            assert live is None
            continue
        assert live["type"] == "plotly"
        assert figure_json(live) == json.loads(ref.to_json())  # the same numbers, exactly
    reference = heatmaps(json.loads(slow.grid.to_json()))
    payload = grid_payload(zoo, tok, text, controls)
    n, n_heads = payload["n"], payload["heads"]
    z = np.frombuffer(base64.b64decode(payload["z"]), np.uint8).reshape(-1, n_heads * n)
    assert payload["layers"] * n_heads == len(reference)
    for i, ref in enumerate(reference):
        got = panel(z, n, *divmod(i, n_heads))
        np.testing.assert_array_equal(got, np.rint(ref * 100))


@pytest.mark.parametrize("objective", ["next word (causal)", "masked word (bidirectional)"])
def test_logits_at_one_position_are_the_full_forwards(resources, objective):
    """``analyse`` unembeds only the position it shows guesses for (``logits_at``): the
    same numbers as the full forward there, so the same guesses."""
    import torch

    from explorer.analysis.run import analyse, top_predictions
    from explorer.views.controls import Controls

    tok, zoo = resources
    model = zoo.get(Controls(objective=objective).checkpoint())
    if model is None:
        pytest.skip(f"{objective} model is not trained")
    ids = torch.tensor([[p[0] for p in tok.token_pieces("The cat sat on the mat and the dog")]])
    with torch.inference_mode():
        full = model(ids)
        some = model(ids, logits_at=torch.tensor([3, ids.shape[1] - 1]))
    assert some.shape == (1, 2, full.shape[-1])
    torch.testing.assert_close(some, full[:, [3, ids.shape[1] - 1]], rtol=1e-5, atol=1e-5)
    text = "The cat sat on the [mask] and the dog" if "mask" in objective else \
        "The cat sat on the mat and the dog"
    r = analyse(model, tok, text)
    with torch.inference_mode():
        every = model(torch.tensor([r.ids]))
    assert r.predict_at is not None
    expected = top_predictions(tok, every[0, r.predict_at])
    assert [t for t, _ in r.predictions] == [t for t, _ in expected]
    np.testing.assert_allclose([p for _, p in r.predictions], [p for _, p in expected],
                               rtol=1e-4, atol=1e-6)
