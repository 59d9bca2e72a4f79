"""Plotly figures of captured attention: pure functions of numpy arrays and token strings.

The head view is :mod:`explorer.figures.head_view`, the guesses' bars
:mod:`explorer.figures.predictions`.

Every builder comes twice: ``*_spec`` returns the figure as a plain dict (``{"data": [...],
"layout": {...}}``, numpy arrays inside) for the live path, which writes it to JSON with
:func:`explorer.figures.plotly_json.to_json`; the plain name returns the same figure as a
``plotly.graph_objects.Figure`` for ``gr.Plot`` and for callers that edit figures.

* :func:`attention_grid` -- every layer x head as a small heatmap (one subplot each), one
  shared 0..1 colour scale (the Explore tab draws the same weights on its own canvas
  instead: :mod:`explorer.views.grid_payload`);
* :func:`head_heatmap` -- one head large, with raw/scaled scores in the hover and the
  mask drawn as one grey path;
* :func:`attention_grid_reference` -- the straightforward ``make_subplots``
  version of the grid, kept as the oracle for tests and the baseline for
  ``benchmarks/bench_figures.py``.

How the grid stays fast (measured with plotly 7.1 and gradio 6.31 on a 2-core box; see
the benchmark): everything that depends only on ``(n_layers, n_heads, theme)``
-- trace stubs, titles, hover templates, layout -- is built once as plain dicts
(``functools.lru_cache``; read-only shared data, never per-user state). A call
shallow-copies those dicts, drops in the float32 ``z`` views and the tick labels
and hands them to ``go.Figure(..., _validate=False)``, which skips plotly.py's
per-property validation (the dominant cost; our keys are validated once, in
tests, by rebuilding every figure with validation on). The layout is lean on
purpose: ``layout.grid`` positions the subplots, so inner axes need no layout
entry at all, and tick values/labels shared by every axis live once in
``layout.template.layout.xaxis/yaxis`` (Plotly.js applies ``template.xaxis`` to
``xaxis2``, ``xaxis3``...). Per-axis layout objects were the main cost of the
``make_subplots`` version.

Hover without per-cell strings: on an axis with ``tickmode="array"`` Plotly.js
formats hover values through ``ticktext`` (``Axes.hoverLabelText`` ->
``tickText``), so ``%{x}``/``%{y}`` in a hovertemplate show the token at that
position while ``%{x:d}`` formats the raw number, i.e. the position. Tick labels
can therefore be *hidden* (too many to read) and still drive the hover.

Data goes out as float32 numpy arrays, which plotly >= 6 serialises as base64
typed arrays (``{"dtype": "f4", "bdata": ...}``) -- several times smaller and
faster than lists. Everything user-derived passes through :mod:`explorer.figures.labels`.
Titles are drawn as an annotation, not ``layout.title``: Gradio 6's plot
component forces a 100 px top margin whenever ``layout.title`` is set.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np
import plotly.graph_objects as go

from explorer.figures.labels import axis_labels, safe_text
from explorer.figures.themes import COLORSCALE, Theme, base_layout, get_theme

# Grid tick labels are drawn on the outer panels only while they fit: T x panels per
# row (x, rotated, width unknown -- phones are ~360 px) or, for y, rows at least
# GRID_ROW_PX tall in the height the grid is sent with (9 px labels in thinner rows
# overlapped, the ␣ mark of one touching the next: #30).
X_TICK_BUDGET = 32
GRID_ROW_PX = 10
HEATMAP_TICK_LIMIT = 64  # single-head heatmap: label every position up to this T
GRID_LABEL_CHARS = 12  # grid panels are small: shorter labels (also in their hover)

Prediction = tuple[str, float]


# --------------------------------------------------------------------------- helpers


def _f32(values: Any, ndim: int, what: str) -> np.ndarray:
    """C-contiguous float32 (base64 "f4" on the wire; views must be contiguous to encode)."""
    arr = np.ascontiguousarray(values, dtype=np.float32)
    if arr.ndim != ndim:
        raise ValueError(f"{what} must be {ndim}-D, got shape {arr.shape}")
    return arr


def _check_square(arr: np.ndarray, tokens: Sequence[str], what: str) -> int:
    t_q, t_k = arr.shape[-2:]
    if t_q != t_k or t_q != len(tokens):
        raise ValueError(f"{what} is [..., {t_q}, {t_k}] but there are {len(tokens)} tokens")
    return t_q


def _sfx(index: int) -> str:
    """Plotly axis suffix for 1-based subplot index: 1 -> "" (x, xaxis), 5 -> "5"."""
    return "" if index == 1 else str(index)


def _coloraxis(theme: Theme) -> dict:
    return {
        "cmin": 0.0, "cmax": 1.0, "colorscale": [list(stop) for stop in COLORSCALE],
        "colorbar": {
            "thickness": 10, "len": 0.75, "outlinewidth": 0,
            "title": {"text": "weight", "side": "right"},
            "tickfont": {"size": 10, "color": theme.font},
        },
    }


def _title_annotation(title: str) -> dict:
    return {
        "text": safe_text(title), "xref": "paper", "yref": "paper", "x": 0, "y": 1,
        "xanchor": "left", "yanchor": "bottom", "yshift": 6, "showarrow": False,
        "font": {"size": 14},
    }


def _figure(spec: dict) -> go.Figure:
    # _validate=False: skip plotly.py's per-property validation, which costs more
    # than everything else together. tests/figures/test_figures.py rebuilds every figure
    # with validation on, so a misspelt key cannot slip through.
    return go.Figure(spec, _validate=False)


def _token_axis(labels: list[str], *, show: bool, theme: Theme) -> dict:
    """Numeric position axis 0..T-1 with token tick text (never categorical)."""
    return {
        "tickmode": "array", "tickvals": list(range(len(labels))), "ticktext": labels,
        "showticklabels": show, "showgrid": False, "zeroline": False, "ticks": "",
        "automargin": True, "tickfont": {"size": 11, "color": theme.font},
        # Plotly.js otherwise measures every tick label to hide overflowing ones: the
        # dominant cost of drawing a token axis in the browser (benchmarks/whatif.py).
        "ticklabeloverflow": "allow",
    }


# --------------------------------------------------------------------------- grid


def _grid_hover(layer: int, head: int) -> str:
    # Static per trace; %{y}/%{x} resolve to tick text (the token), :d to position.
    return (
        "query %{y:d}: %{y}<br>key %{x:d}: %{x}<br>weight %{z:.4f}"
        f"<extra>L{layer} H{head}</extra>"
    )


GRID_YGAP = 0.22  # layout.grid ygap: the gap between two rows of panels, per panel
GRID_MARGIN = {"l": 8, "r": 8, "t": 24, "b": 8, "pad": 0}


def _grid_height(n_layers: int) -> int:
    return 50 + 165 * n_layers


def grid_row_px(n_layers: int, n_tok: int) -> float:
    """How tall one token's row of a grid panel is in the height the grid is sent with
    (Plotly's layout.grid gives each of n rows (1 - gap) / (n - gap) of the plot)."""
    plot = _grid_height(n_layers) - GRID_MARGIN["t"] - GRID_MARGIN["b"]
    panel = plot * (1 - GRID_YGAP) / (n_layers - GRID_YGAP) if n_layers > 1 else plot
    return panel / max(n_tok, 1)


class _GridSkeleton(NamedTuple):
    """Per-(n_layers, n_heads, theme) parts of the grid. Shared, so never mutated:
    callers copy the top level and plotly copies nested dicts on construction."""

    traces: tuple[MappingProxyType, ...]  # row-major (layer, head): all but z
    titles: tuple[MappingProxyType, ...]  # "L0 H1" annotations, same order
    layout: MappingProxyType  # all but template (ticks), annotations, shapes
    axis_style: MappingProxyType  # shared by every x and y axis via the template


@functools.lru_cache(maxsize=32)
def _grid_skeleton(n_layers: int, n_heads: int, theme: Theme) -> _GridSkeleton:
    traces, titles = [], []
    for layer in range(n_layers):
        for head in range(n_heads):
            s = _sfx(layer * n_heads + head + 1)
            traces.append(MappingProxyType({
                "type": "heatmap", "xaxis": "x" + s, "yaxis": "y" + s,
                "coloraxis": "coloraxis", "name": f"L{layer} H{head}",
                "hovertemplate": _grid_hover(layer, head), "hoverongaps": False,
            }))
            titles.append(MappingProxyType({
                "text": f"L{layer} H{head}", "xref": f"x{s} domain", "yref": f"y{s} domain",
                "x": 0.5, "y": 1.0, "xanchor": "center", "yanchor": "bottom",
                "showarrow": False, "font": {"size": 11},
            }))
    layout = base_layout(theme)
    layout.update(
        height=_grid_height(n_layers),
        grid={"rows": n_layers, "columns": n_heads, "pattern": "independent",
              "roworder": "top to bottom", "xgap": 0.12, "ygap": GRID_YGAP},
        coloraxis=_coloraxis(theme),
        margin=dict(GRID_MARGIN),
    )
    axis_style = _token_axis([], show=False, theme=theme)
    del axis_style["tickvals"], axis_style["ticktext"]
    axis_style["tickfont"]["size"] = 9
    return _GridSkeleton(tuple(traces), tuple(titles), MappingProxyType(layout),
                         MappingProxyType(axis_style))


def _selected_index(selected: tuple[int, int] | None, n_layers: int, n_heads: int) -> int:
    """0-based panel index of the selected (layer, head), or -1."""
    if selected is None:
        return -1
    layer, head = selected
    if not (0 <= layer < n_layers and 0 <= head < n_heads):
        raise ValueError(f"selected={selected} outside {n_layers} layers x {n_heads} heads")
    return layer * n_heads + head


def _highlight(index: int, theme: Theme) -> tuple[dict, dict]:
    """(outline shape, bold title patch) for the selected panel. The outline is the panel's
    own border: drawn a share of the panel away from it, it crossed the title above and,
    in the bottom row, ran past the figure's edge, where it was cut (#30)."""
    s = _sfx(index + 1)
    shape = {
        "type": "rect", "xref": f"x{s} domain", "yref": f"y{s} domain",
        "x0": 0, "x1": 1, "y0": 0, "y1": 1, "layer": "above",
        "line": {"color": theme.accent, "width": 2.5}, "fillcolor": "rgba(0,0,0,0)",
    }
    return shape, {"font": {"size": 11, "color": theme.accent}}


def attention_grid_spec(
    patterns: np.ndarray,
    tokens: Sequence[str],
    *,
    theme: str | Theme = "light",
    selected: tuple[int, int] | None = None,
) -> dict:
    """All heads of all layers: rows = layers, columns = heads, query on y (top to
    bottom), key on x, one colour scale fixed to 0..1.

    ``patterns``: ``[n_layers, n_heads, T, T]`` attention weights; ``tokens``: T
    strings; ``selected``: ``(layer, head)`` to outline. Tick labels are drawn on
    the outer panels while they fit (``X_TICK_BUDGET``, ``GRID_ROW_PX``); hover always
    shows query token, key token and the exact weight.
    """
    p = _f32(patterns, 4, "patterns")
    n_layers, n_heads = p.shape[:2]
    n_tok = _check_square(p, tokens, "patterns")
    th = get_theme(theme)
    sk = _grid_skeleton(n_layers, n_heads, th)
    sel = _selected_index(selected, n_layers, n_heads)

    data = [{**stub, "z": p[i // n_heads, i % n_heads]} for i, stub in enumerate(sk.traces)]

    ticks = {"tickvals": list(range(n_tok)), "ticktext": axis_labels(tokens, GRID_LABEL_CHARS)}
    layout = dict(sk.layout)
    layout["template"] = {"layout": {
        "xaxis": {**sk.axis_style, **ticks},
        "yaxis": {**sk.axis_style, **ticks, "autorange": "reversed"},
    }}
    if n_tok * n_heads <= X_TICK_BUDGET:  # bottom row shows key tokens
        for head in range(n_heads):
            layout["xaxis" + _sfx((n_layers - 1) * n_heads + head + 1)] = {"showticklabels": True}
    if grid_row_px(n_layers, n_tok) >= GRID_ROW_PX:  # left column shows query tokens
        for layer in range(n_layers):
            layout["yaxis" + _sfx(layer * n_heads + 1)] = {"showticklabels": True}

    titles = [dict(t) for t in sk.titles]
    if sel >= 0:
        shape, patch = _highlight(sel, th)
        titles[sel].update(patch, text=f"<b>{titles[sel]['text']}</b>")
        layout["shapes"] = [shape]
    layout["annotations"] = titles
    return {"data": data, "layout": layout}


def attention_grid_reference(
    patterns: np.ndarray,
    tokens: Sequence[str],
    *,
    theme: str | Theme = "light",
    selected: tuple[int, int] | None = None,
) -> go.Figure:
    """The same grid built the obvious way (``make_subplots``, ``add_trace``,
    ``update_xaxes`` per axis). ~100 ms for 4x4; the oracle for the fast path."""
    from plotly.subplots import make_subplots

    p = _f32(patterns, 4, "patterns")
    n_layers, n_heads = p.shape[:2]
    n_tok = _check_square(p, tokens, "patterns")
    th = get_theme(theme)
    sel = _selected_index(selected, n_layers, n_heads)
    names = [f"L{la} H{h}" for la in range(n_layers) for h in range(n_heads)]
    fig = make_subplots(rows=n_layers, cols=n_heads, subplot_titles=names,
                        horizontal_spacing=0.1 / n_heads, vertical_spacing=0.18 / n_layers)
    for layer in range(n_layers):
        for head in range(n_heads):
            fig.add_trace(go.Heatmap(
                z=p[layer, head], coloraxis="coloraxis", name=f"L{layer} H{head}",
                hovertemplate=_grid_hover(layer, head), hoverongaps=False,
            ), row=layer + 1, col=head + 1)
    fig.update_layout(base_layout(th), height=_grid_height(n_layers),
                      coloraxis=_coloraxis(th))
    fig.layout.template = go.layout.Template()  # update_layout merges, {} would keep the default
    style = _token_axis(axis_labels(tokens, GRID_LABEL_CHARS), show=False, theme=th)
    style["tickfont"]["size"] = 9
    fig.update_xaxes(**style)
    fig.update_yaxes(**style, autorange="reversed")
    if n_tok * n_heads <= X_TICK_BUDGET:
        fig.update_xaxes(showticklabels=True, row=n_layers)
    if grid_row_px(n_layers, n_tok) >= GRID_ROW_PX:
        fig.update_yaxes(showticklabels=True, col=1)
    for ann in fig.layout.annotations:
        ann.font = {"size": 11}
    if sel >= 0:
        shape, patch = _highlight(sel, th)
        fig.add_shape(shape)
        fig.layout.annotations[sel].update(patch, text=f"<b>{names[sel]}</b>")
    return fig


# --------------------------------------------------------------------------- one head


def head_heatmap_spec(
    pattern: np.ndarray,
    tokens: Sequence[str],
    *,
    scores: np.ndarray | None = None,
    scaled: np.ndarray | None = None,
    mask: np.ndarray | None = None,
    title: str = "",
    theme: str | Theme = "light",
) -> dict:
    """One head, large: ``pattern`` ``[T, T]`` (query rows, key columns).

    Hover shows query and key token, the weight and, when given, the raw score
    (``scores``, q.kᵀ) and the scaled score (``scaled``, before the mask), carried once
    as ``customdata`` ``[T, T, 2]``. ``mask`` (bool ``[T, T]``, True = blocked; e.g.
    ``np.isneginf(hook_masked)``) marks masked cells: one grey path shape covers them
    (a few bytes per row instead of a second ``[T, T]`` trace); their hover still gives
    weight 0 and the scores the mask threw away. Without ``mask``, a weight of exactly 0
    is taken as masked.
    """
    p = _f32(pattern, 2, "pattern")
    n_tok = _check_square(p, tokens, "pattern")
    th = get_theme(theme)
    blocked = (p == 0) if mask is None else np.asarray(mask, dtype=bool)
    if blocked.shape != p.shape:
        raise ValueError(f"mask shape {blocked.shape} != pattern shape {p.shape}")

    extras = [(name, _f32(arr, 2, name)) for name, arr in (("raw score", scores),
                                                           ("scaled", scaled)) if arr is not None]
    score_lines = "".join(f"<br>{name} %{{customdata[{i}]:.3f}}"
                          for i, (name, _) in enumerate(extras))
    weights = {
        "type": "heatmap", "z": p, "coloraxis": "coloraxis", "name": "weight",
        "hovertemplate": ("query %{y:d}: %{y}<br>key %{x:d}: %{x}<br>weight %{z:.4f}"
                          + score_lines + "<extra></extra>"),
    }
    if extras:
        weights["customdata"] = np.stack([arr for _, arr in extras], axis=-1)
    data = [weights]

    labels = axis_labels(tokens)
    show = n_tok <= HEATMAP_TICK_LIMIT
    layout = base_layout(th)
    layout.update(
        height=min(900, max(480, 260 + 18 * n_tok)),  # room for rotated key labels
        coloraxis=_coloraxis(th),
        xaxis={**_token_axis(labels, show=show, theme=th), "title": {"text": "key"},
               "constrain": "domain"},
        yaxis={**_token_axis(labels, show=show, theme=th), "title": {"text": "query"},
               "autorange": "reversed", "scaleanchor": "x", "constrain": "domain",
               "constraintoward": "top"},  # square cells; spare height goes below
        margin={"l": 8, "r": 8, "t": 32 if title else 12, "b": 8, "pad": 0},
    )
    if title:
        layout["annotations"] = [_title_annotation(title)]
    if blocked.any():
        layout["shapes"] = [{"type": "path", "path": mask_path(blocked), "xref": "x",
                             "yref": "y", "layer": "above", "fillcolor": th.masked,
                             "line": {"width": 0}}]
    return {"data": data, "layout": layout}


def mask_path(blocked: np.ndarray) -> str:
    """SVG path (data coordinates, cell i spans i-0.5..i+0.5) covering the True cells of a
    bool ``[T, T]`` mask: one rectangle per run of masked keys in each query row."""
    padded = np.zeros((blocked.shape[0], blocked.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = blocked
    edges = np.diff(padded, axis=1)  # +1 where a run starts, -1 after it ends
    rows, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)  # same row-major order as the starts
    return "".join(f"M{k0 - 0.5},{q - 0.5}H{k1 - 0.5}V{q + 0.5}H{k0 - 0.5}Z"
                   for q, k0, k1 in zip(rows.tolist(), starts.tolist(), ends.tolist(),
                                        strict=True))


# --------------------------------------------------------------------------- as go.Figure


def attention_grid(*args, **kwargs) -> go.Figure:
    """:func:`attention_grid_spec` as a ``go.Figure`` (what ``gr.Plot`` and callers that
    edit the figure, e.g. ``compare_figures.mark_heads_off``, take)."""
    return _figure(attention_grid_spec(*args, **kwargs))


def head_heatmap(*args, **kwargs) -> go.Figure:
    """:func:`head_heatmap_spec` as a ``go.Figure``."""
    return _figure(head_heatmap_spec(*args, **kwargs))
