"""The live path draws the same numbers as the straightforward path.

The Explore tab's keystroke update (:func:`explorer.views.explore_live`) skips plotly.py
and Gradio's serialisation and draws the grid as a uint8 mosaic; the ``/explore`` API
(:func:`explorer.views.explore`) builds ``go.Figure`` objects the obvious way. Here:
the fast JSON equals ``go.Figure.to_json()`` for every builder, the mosaic holds every
panel rounded to whole percent where its layout says, with hover text naming panel,
position and token, and on the real
model both paths give the same figures, status and table.
"""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from explorer import figures as F
from explorer.labels import axis_labels
from explorer.live_figures import attention_mosaic_spec, panel, to_percent
from explorer.plotly_json import plot_value, to_json, typed_array
from tests.plotdata import decode_array, figure_json, heatmaps
from tests.test_figures import HOSTILE, causal_patterns


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
    spec = getattr(F, name + "_spec")(*args, **extra, **kw)
    return spec, getattr(F, name)(*args, **extra, **kw)


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


@pytest.mark.parametrize(("shape", "selected", "theme"), [
    ((4, 4, 6, 6), (1, 2), "light"),
    ((2, 8, 11, 11), None, "dark"),
    ((4, 2, 40, 40), (3, 1), "light"),
    ((1, 1, 1, 1), (0, 0), "light"),
])
def test_mosaic_holds_every_panel_in_whole_percent(shape, selected, theme):
    p = causal_patterns(shape, seed=shape[-1])
    n_layers, n_heads, n = shape[0], shape[1], shape[-1]
    tokens = [f"w{i % 5}" for i in range(n)]
    grid = json.loads(F.attention_grid(p, tokens, theme=theme, selected=selected).to_json())
    fig = json.loads(to_json(attention_mosaic_spec(p, tokens, theme=theme, selected=selected)))
    assert fig.pop("config") == {"displayModeBar": False}
    go.Figure(fig)  # valid Plotly
    reference = {t["name"]: decode_array(t["z"]) for t in grid["data"]}
    (heat,) = [t for t in fig["data"] if t["type"] == "heatmap"]  # ONE heatmap
    z = decode_array(heat["z"])
    assert z.dtype == np.uint8 and z.shape == (n_layers * n, n_heads * n)
    lay = fig["layout"]
    assert lay["meta"] == {"tokens": n, "layers": n_layers, "heads": n_heads}
    for layer in range(n_layers):
        for head in range(n_heads):
            ref = reference[f"L{layer} H{head}"]
            got = panel(z, n, layer, head)
            np.testing.assert_array_equal(got, np.rint(ref * 100))
            assert np.abs(got / 100 - ref).max() <= 0.005 + 1e-6
    assert (lay["coloraxis"]["cmin"], lay["coloraxis"]["cmax"]) == (0, 100)
    # hover: %{x}/%{y} read the hidden axes' tick text at each cell: panel, position, token
    labels = axis_labels(tokens, F.GRID_LABEL_CHARS)
    assert lay["xaxis"]["tickvals"] == list(range(n_heads * n))
    assert lay["yaxis"]["tickvals"] == list(range(n_layers * n))
    assert lay["xaxis"]["ticktext"] == [f"H{h} · key {k}: {labels[k]}"
                                        for h in range(n_heads) for k in range(n)]
    assert lay["yaxis"]["ticktext"] == [f"L{la} · query {q}: {labels[q]}"
                                        for la in range(n_layers) for q in range(n)]
    assert "%{x}" in heat["hovertemplate"] and "%{z}%" in heat["hovertemplate"]
    # a label for each column and row, centred on its panels
    assert lay["xaxis2"]["ticktext"] == [f"H{h}" for h in range(n_heads)]
    assert lay["yaxis2"]["ticktext"] == [f"L{la}" for la in range(n_layers)]
    assert lay["xaxis2"]["tickvals"][-1] == (n_heads - 1) * n + (n - 1) / 2
    outline = [s for s in lay["shapes"] if s["type"] == "rect"]
    separators = [s for s in lay["shapes"] if s["type"] == "line"]
    assert len(separators) == n_heads - 1 + n_layers - 1
    if selected is None:
        assert outline == []
    else:
        (box,) = outline
        layer, head = selected
        assert (box["x0"], box["x1"]) == (head * n - 0.5, (head + 1) * n - 0.5)
        assert (box["y0"], box["y1"]) == (layer * n - 0.5, (layer + 1) * n - 0.5)


def test_mosaic_tick_labels_only_while_they_fit_and_user_text_is_escaped():
    p = causal_patterns((4, 4, 5, 5))
    fig = json.loads(to_json(attention_mosaic_spec(p, ["<b>", "a", "&", "$x$", "c"])))
    assert fig["layout"]["xaxis3"]["showticklabels"] is True  # 5 tokens x 4 heads fit
    assert fig["layout"]["xaxis3"]["ticktext"][:5] == ["&lt;b&gt;", "a", "&amp;", "&#36;x&#36;",
                                                       "c"]
    text = json.dumps(fig["layout"])
    assert "<b>" not in text and "&lt;b&gt;" in text and "&#36;x&#36;" in text
    long = attention_mosaic_spec(causal_patterns((4, 4, 64, 64)), [str(i) for i in range(64)])
    assert "xaxis3" not in long["layout"] and "yaxis3" not in long["layout"]
    assert long["layout"]["xaxis"]["showticklabels"] is False


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
    from explorer.views import Controls, explore, explore_live

    tok, zoo = resources
    controls = Controls(**changes)
    slow = explore(zoo, tok, text, controls)
    fast = explore_live(zoo, tok, text, controls)
    assert (fast.status, fast.head_table) == (slow.status, slow.head_table)
    if slow.grid is None:
        assert (fast.grid, fast.head, fast.lines, fast.predictions) == (None,) * 4
        return
    for live, ref in ((fast.head, slow.head), (fast.lines, slow.lines),
                      (fast.predictions, slow.predictions)):
        if ref is None:
            assert live is None
            continue
        assert live["type"] == "plotly"
        assert figure_json(live) == json.loads(ref.to_json())  # the same numbers, exactly
    reference = heatmaps(json.loads(slow.grid.to_json()))
    fig = figure_json(fast.grid)
    (z,) = heatmaps(fig)
    meta = fig["layout"]["meta"]
    assert meta["layers"] * meta["heads"] == len(reference)
    for i, ref in enumerate(reference):
        got = panel(z, meta["tokens"], *divmod(i, meta["heads"]))
        np.testing.assert_array_equal(got, np.rint(ref * 100))


@pytest.mark.parametrize("objective", ["next word (causal)", "masked word (bidirectional)"])
def test_logits_at_one_position_are_the_full_forwards(resources, objective):
    """``analyse`` unembeds only the position it shows guesses for (``logits_at``): the
    same numbers as the full forward there, so the same guesses."""
    import torch

    from explorer.analysis import analyse, top_predictions
    from explorer.views import Controls

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
