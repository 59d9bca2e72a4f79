"""Figure builders: escaping, repeated tokens, grid shape/content, serialisation, themes.

Strings are inspected after ``json.loads(fig.to_json())``: plotly's JSON writer
turns ``<``, ``>`` and ``/`` into ``\\u003c``-style escapes, so searching the raw
JSON text for ``<a`` would pass even if a token went out unescaped.
"""

import base64
import functools
import json

import numpy as np
import plotly.graph_objects as go
import pytest

from explorer.figures.attention import (
    GRID_LABEL_CHARS,
    _grid_skeleton,
    attention_grid,
    attention_grid_reference,
    head_heatmap,
)
from explorer.figures.head_view import LINE_THRESHOLD, head_view
from explorer.figures.labels import axis_labels
from explorer.figures.predictions import predictions_bar
from explorer.figures.themes import get_theme

HOSTILE = (
    '<a href="https://evil">x</a>', '<span style="font-size:99px">', "&amp;", "<b>", "<br>",
    "the", " cat", "the", "$x$", "'q'", '"dq"', "\x00", "\u200d", "שלום", "😀", "\ud83d",
)
ESCAPED = ["&lt;a␣href=&#34;", "&lt;span␣", "&amp;amp;", "&lt;b&gt;", "&lt;br&gt;", "&#36;x&#36;"]


def causal_patterns(shape, seed=0):
    """Random attention weights [..., T, T]: causal, rows sum to 1, float32."""
    rng = np.random.default_rng(seed)
    x = np.tril(rng.random(shape, dtype=np.float32) + 0.01)
    return (x / x.sum(-1, keepdims=True)).astype(np.float32)


@functools.lru_cache(maxsize=8)  # read-only use: building the reference grid takes ~0.3 s
def all_figures(tokens, theme="light"):
    n = len(tokens)
    p = causal_patterns((2, 2, n, n))
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(n, n)).astype(np.float32)
    preds = [(t, 1 / (i + 2)) for i, t in enumerate(tokens)]
    return {
        "grid": attention_grid(p, tokens, theme=theme, selected=(1, 1)),
        "grid_ref": attention_grid_reference(p, tokens, theme=theme, selected=(1, 1)),
        "heatmap": head_heatmap(p[0, 1], tokens, scores=scores, scaled=scores / 4,
                                  title=" ".join(tokens), theme=theme),
        "head_view": head_view(p[1], tokens, theme=theme, title=tokens[0]),
        "bars": predictions_bar(preds, compare=preds[::-1][:4], title=tokens[0],
                                  name=tokens[3], compare_name=tokens[4], theme=theme),
    }


def strings(node):
    """Every string (keys included) anywhere in a JSON value."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings(value)


def effective_axis(layout, name):
    """An axis as Plotly.js sees it: template.layout.xaxis/yaxis under the axis' own keys."""
    base = layout.get("template", {}).get("layout", {}).get(name[:5], {})
    return {**base, **layout.get(name, {})}


def decode(spec):
    """A plotly typed-array spec back to numpy."""
    assert isinstance(spec, dict) and spec["dtype"] == "f4", spec
    arr = np.frombuffer(base64.b64decode(spec["bdata"]), dtype=np.float32)
    return arr.reshape([int(s) for s in spec["shape"].split(",")]) if "shape" in spec else arr


# --------------------------------------------------------------------------- escaping


@pytest.mark.parametrize("name", ["grid", "grid_ref", "heatmap", "head_view", "bars"])
def test_user_text_never_reaches_plotly_as_markup(name):
    hostile = list(strings(json.loads(all_figures(HOSTILE)[name].to_json())))
    benign = list(strings(json.loads(
        all_figures(tuple(f"tok{i}" for i in range(len(HOSTILE))))[name].to_json())))
    joined = "\n".join(hostile)
    for tag in ("<a", "<span", "\u202e"):
        assert tag not in joined.lower()
    # Our own markup (hovertemplate <br>, the selected head's <b>) is fixed; tokens add none.
    for tag in ("<b>", "<br>", "</a>", "$x$"):
        assert joined.count(tag) == "\n".join(benign).count(tag), tag
    for escaped in ESCAPED:
        assert escaped in joined, escaped
    assert "\x00" not in joined and "\ud83d" not in joined


def test_every_figure_is_valid_plotly():
    # The builders skip plotly.py's validation for speed; rebuilding with it on
    # proves every property name and value we emit is one Plotly knows.
    for theme in ("light", "dark"):
        for fig in all_figures(HOSTILE, theme).values():
            go.Figure(json.loads(fig.to_json()))


# --------------------------------------------------------------------------- positions


def test_repeated_tokens_keep_distinct_positions():
    tokens = ["the", " cat", " saw", " the", " cat"]
    p = causal_patterns((4, 2, 5, 5))
    grid = json.loads(attention_grid(p, tokens).to_json())["layout"]
    heat = json.loads(head_heatmap(p[0, 0], tokens).to_json())["layout"]
    for axis in ("xaxis", "yaxis", "xaxis8", "yaxis5"):
        ax = effective_axis(grid, axis)
        assert ax["tickmode"] == "array"
        assert ax["tickvals"] == [0, 1, 2, 3, 4]
        assert ax["ticktext"] == ["the", "␣cat", "␣saw", "␣the", "␣cat"]
    for axis in ("xaxis", "yaxis"):
        assert heat[axis]["tickvals"] == [0, 1, 2, 3, 4]
        assert len(heat[axis]["ticktext"]) == 5
        assert heat[axis].get("type") != "category"
    bars = predictions_bar([("the", 0.4), ("the", 0.3), (" cat", 0.2)])
    assert bars.layout.yaxis.ticktext == ("the", "the", "␣cat")
    np.testing.assert_allclose(bars.data[0].x, [0.4, 0.3, 0.2])


# --------------------------------------------------------------------------- grid


@pytest.mark.parametrize("n_heads", [1, 2, 4, 8])
def test_grid_has_one_panel_per_layer_and_head(n_heads):
    p = causal_patterns((4, n_heads, 7, 7), seed=n_heads)
    fig = attention_grid(p, [f"t{i}" for i in range(7)])
    assert len(fig.data) == 4 * n_heads
    assert {t.type for t in fig.data} == {"heatmap"}
    assert len({(t.xaxis, t.yaxis) for t in fig.data}) == 4 * n_heads
    for i, trace in enumerate(fig.data):
        layer, head = divmod(i, n_heads)
        np.testing.assert_array_equal(trace.z, p[layer, head])
        assert trace.coloraxis == "coloraxis"  # ONE shared scale
        assert trace.name == f"L{layer} H{head}"
    assert (fig.layout.coloraxis.cmin, fig.layout.coloraxis.cmax) == (0, 1)
    assert [a.text for a in fig.layout.annotations] == [t.name for t in fig.data]
    assert fig.layout.grid.rows == 4 and fig.layout.grid.columns == n_heads


def _grid_content(fig):
    """What a student gets from a grid, independent of how the layout is spelt."""
    d = json.loads(fig.to_json())
    lay = d["layout"]
    traces = [(t["name"], t["xaxis"] if "xaxis" in t else "x", t["yaxis"] if "yaxis" in t else "y",
               t["coloraxis"], t["hovertemplate"], decode(t["z"]).tolist()) for t in d["data"]]
    axes = {}
    for t in d["data"]:
        for ref in (t.get("xaxis", "x"), t.get("yaxis", "y")):
            name = ref[0] + "axis" + ref[1:]
            ax = effective_axis(lay, name)
            axes[name] = {k: ax.get(k) for k in (
                "tickmode", "tickvals", "ticktext", "showticklabels", "autorange", "showgrid")}
    annotations = [(a["text"], a.get("font")) for a in lay["annotations"]]
    shapes = [{k: v for k, v in s.items()} for s in lay.get("shapes", [])]
    keep = ("coloraxis", "paper_bgcolor", "plot_bgcolor", "font", "height", "hoverlabel")
    return traces, axes, annotations, shapes, {k: lay.get(k) for k in keep}


@pytest.mark.parametrize(("shape", "selected", "theme", "seed"), [
    ((4, 4, 6, 6), None, "light", 0),
    ((2, 8, 11, 11), (1, 5), "dark", 1),
    ((4, 2, 40, 40), (0, 0), "light", 2),
])
def test_fast_grid_matches_make_subplots_reference(shape, selected, theme, seed):
    p = causal_patterns(shape, seed)
    tokens = [f"w{i % 5}" for i in range(shape[-1])]  # repeats on purpose
    fast = _grid_content(attention_grid(p, tokens, theme=theme, selected=selected))
    ref = _grid_content(attention_grid_reference(p, tokens, theme=theme, selected=selected))
    assert fast == ref


def test_grid_labels_only_the_outer_panels():
    lay = json.loads(attention_grid(causal_patterns((4, 2, 5, 5)), list("abcde")).to_json())
    shown = {name for name in [f"{a}axis{i if i > 1 else ''}" for a in "xy" for i in range(1, 9)]
             if effective_axis(lay["layout"], name)["showticklabels"]}
    assert shown == {"xaxis7", "xaxis8", "yaxis", "yaxis3", "yaxis5", "yaxis7"}


def test_grid_hides_tick_labels_when_too_many_but_hover_still_names_tokens():
    tokens = [f"t{i}" for i in range(64)]
    lay = json.loads(attention_grid(causal_patterns((4, 4, 64, 64)), tokens).to_json())["layout"]
    for i in range(1, 17):
        sfx = "" if i == 1 else str(i)
        for axis in ("xaxis" + sfx, "yaxis" + sfx):
            ax = effective_axis(lay, axis)
            assert ax["showticklabels"] is False
            assert ax["ticktext"] == axis_labels(tokens, GRID_LABEL_CHARS)  # drives %{x}/%{y}


def test_grid_skeleton_is_shared_and_never_mutated():
    p = causal_patterns((4, 4, 9, 9))
    tokens = [f"t{i}" for i in range(9)]
    sk = _grid_skeleton(4, 4, get_theme("light"))

    def snapshot():
        parts = [dict(t) for t in sk.traces] + [dict(t) for t in sk.titles]
        return json.dumps(parts + [dict(sk.layout), dict(sk.axis_style)], sort_keys=True)

    before = snapshot()
    figs = [attention_grid(p, tokens, selected=(i % 4, 1)) for i in range(3)]
    figs[0].update_layout(height=123, annotations=[{"text": "x"}])
    figs[1].data[0].update(name="changed")
    assert snapshot() == before
    assert _grid_skeleton(4, 4, get_theme("light")) is sk
    assert _grid_skeleton.cache_info().maxsize is not None


def test_grid_rejects_inconsistent_input():
    p = causal_patterns((4, 2, 5, 5))
    with pytest.raises(ValueError):
        attention_grid(p, ["a", "b"])
    with pytest.raises(ValueError):
        attention_grid(p[0], ["a"] * 5)
    with pytest.raises(ValueError):
        attention_grid(p, ["a"] * 5, selected=(4, 0))


# --------------------------------------------------------------------------- gradio


def test_gr_plot_accepts_figures_and_ships_float32_typed_arrays():
    gr = pytest.importorskip("gradio")
    tokens = [f"t{i}" for i in range(12)]
    p = causal_patterns((4, 4, 12, 12))
    plot = gr.Plot()
    payload = plot.postprocess(attention_grid(p, tokens))
    assert payload.type == "plotly"
    data = json.loads(payload.plot)["data"]
    for i, trace in enumerate(data):
        assert trace["z"]["dtype"] == "f4" and trace["z"]["shape"] == "12, 12"
        np.testing.assert_array_equal(decode(trace["z"]), p[i // 4, i % 4])
    for fig in all_figures(HOSTILE).values():
        assert plot.postprocess(fig).type == "plotly"


# --------------------------------------------------------------------------- one head


def _path_cells(path: str, n: int) -> np.ndarray:
    """The cells a head_heatmap mask path covers (its rectangles filled), as bool [n, n]."""
    import re

    covered = np.zeros((n, n), dtype=bool)
    for x0, y0, x1, y1 in re.findall(r"M(-?[\d.]+),(-?[\d.]+)H(-?[\d.]+)V(-?[\d.]+)H", path):
        q0, q1 = int(float(y0) + 0.5), int(float(y1) + 0.5)
        k0, k1 = int(float(x0) + 0.5), int(float(x1) + 0.5)
        assert not covered[q0:q1, k0:k1].any(), "rectangles overlap"
        covered[q0:q1, k0:k1] = True
    return covered


@pytest.mark.parametrize("mask", ["causal", "random", "none"])
def test_head_heatmap_hover_has_scores_and_marks_masked_cells(mask):
    p = causal_patterns((6, 6))
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(6, 6)).astype(np.float32)
    scaled = (scores / np.sqrt(8)).astype(np.float32)
    blocked = {"causal": np.triu(np.ones((6, 6), dtype=bool), 1),
               "random": rng.random((6, 6)) < 0.4, "none": np.zeros((6, 6), bool)}[mask]
    fig = head_heatmap(p, list("abcdef"), scores=scores, scaled=scaled, mask=blocked)
    (weights,) = fig.data  # the scores travel once, in this one trace
    np.testing.assert_array_equal(weights.z, p)
    np.testing.assert_array_equal(weights.customdata, np.stack([scores, scaled], -1))
    for needle in ("%{y}", "%{x}", "%{z:.4f}", "raw score %{customdata[0]",
                   "scaled %{customdata[1]"):
        assert needle in weights.hovertemplate
    assert weights.coloraxis == "coloraxis" and fig.layout.coloraxis.cmax == 1
    shapes = fig.layout.shapes
    if mask == "none":
        assert not shapes
    else:  # one grey path covers exactly the masked cells
        (shape,) = shapes
        assert shape.type == "path" and shape.fillcolor == get_theme("light").masked
        np.testing.assert_array_equal(_path_cells(shape.path, 6), blocked)
    # No mask given: exact zeros are taken as masked; no zeros, no mask shape.
    np.testing.assert_array_equal(
        _path_cells(head_heatmap(p, list("abcdef")).layout.shapes[0].path, 6), p == 0)
    assert not head_heatmap(np.full((3, 3), 1 / 3), list("abc")).layout.shapes
    assert "customdata" not in head_heatmap(p, list("abcdef")).data[0].hovertemplate


# --------------------------------------------------------------------------- head view


def _segments(fig):
    """(head name, query, key) for every drawn line segment."""
    out = []
    for trace in fig.data:
        if trace.mode != "lines" or trace.showlegend:
            continue
        x, y = np.asarray(trace.x, float), np.asarray(trace.y, float)
        assert np.isnan(y[2::3]).all()  # the gap between segments (x is uint8)
        assert (x[0::3] == 0).all() and (x[1::3] == 1).all()
        out += [(trace.name, int(q), int(k)) for q, k in zip(y[0::3], y[1::3], strict=True)]
    return out


def test_head_view_draws_only_weights_above_threshold():
    p = causal_patterns((4, 10, 10), seed=5)
    fig = head_view(p, [f"t{i}" for i in range(10)])
    segs = _segments(fig)
    expected = {(f"head {h}", q, k) for h, q, k in zip(*np.nonzero(p >= LINE_THRESHOLD),
                                                        strict=True)}
    assert len(segs) == len(set(segs)) == len(expected)
    assert set(segs) == expected
    line_traces = [t for t in fig.data if t.mode == "lines"]
    assert len(line_traces) <= 4 * 5  # a few traces per head, not one per line


def test_head_view_top_k_keeps_each_querys_strongest_keys():
    p = causal_patterns((2, 12, 12), seed=7)
    fig = head_view(p, [f"t{i}" for i in range(12)], top_k=3)
    segs = set(_segments(fig))
    expected = set()
    for h in range(2):
        for q in range(12):
            strongest = np.argsort(-p[h, q], kind="stable")[:3]
            expected |= {(f"head {h}", q, int(k)) for k in strongest
                         if p[h, q, k] >= LINE_THRESHOLD}
    assert segs == expected
    assert set(_segments(head_view(p, [str(i) for i in range(12)], top_k=12))) == {
        (f"head {h}", q, k) for h, q, k in zip(*np.nonzero(p >= LINE_THRESHOLD),
                                               strict=True)}


def test_head_view_has_one_legend_entry_per_head():
    p = causal_patterns((8, 6, 6))
    tokens = list("abcdef")
    fig = head_view(p, tokens)
    assert [t.name for t in fig.data if t.showlegend] == [f"head {h}" for h in range(8)]
    fig = head_view(p, tokens, heads=[0, 2])
    assert [t.name for t in fig.data if t.showlegend] == ["head 0", "head 2"]
    assert {name for name, _, _ in _segments(fig)} <= {"head 0", "head 2"}
    # Uniform attention over 64 keys: no weight reaches 0.02, the legend entry stays.
    flat = np.full((2, 64, 64), 1 / 64, dtype=np.float32)
    fig = head_view(flat, [str(i) for i in range(64)])
    assert sum(t.showlegend is True for t in fig.data) == 2 and _segments(fig) == []


# --------------------------------------------------------------------------- bars


def test_predictions_bar_overlays_comparison_as_outline():
    fig = predictions_bar([(" cat", 0.5), (" dog", 0.25)], compare=[(" dog", 0.6), (" <b>", 0.1)])
    now, before = fig.data
    assert fig.layout.yaxis.ticktext == ("␣cat", "␣dog", "␣&lt;b&gt;")
    np.testing.assert_allclose(now.x, [0.5, 0.25, 0.0])
    np.testing.assert_allclose(before.x, [0.0, 0.6, 0.1])
    assert before.marker.color == "rgba(0,0,0,0)" and before.marker.line.width > 0
    assert fig.layout.barmode == "overlay"
    assert fig.layout.yaxis.autorange == "reversed"  # most likely on top
    assert len(predictions_bar([("a", 1.0)]).data) == 1


# --------------------------------------------------------------------------- themes


def _luminance(colour):
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_themes_set_background_and_font(theme):
    for name, fig in all_figures(("a", " b", "c", "d", "e", "f"), theme=theme).items():
        lay = fig.layout
        bg, fg = _luminance(lay.paper_bgcolor), _luminance(lay.font.color)
        if theme == "dark":
            assert bg < 0.2 and fg > 0.7, name
        else:
            assert bg > 0.9 and fg < 0.3, name
        assert lay.autosize is True and lay.width is None, name  # responsive width
        assert lay.title.text is None, name  # titles are annotations (Gradio pads layout.title)


def test_unknown_theme_is_an_error():
    with pytest.raises(ValueError):
        predictions_bar([("a", 1.0)], theme="sepia")
