"""Figures of positional encodings: curves, rotary arrows, small multiples, the shuffle test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.figures.labels import axis_labels, plotly_safe
from explorer.figures.matrices import matrix_figure
from explorer.figures.numbers import plain_number
from explorer.figures.style import (
    CELL_TEXT_LIMIT,
    SERIES,
    _colorbar,
    _colorscale,
    _f32,
    _figure,
    _number_axis,
    _symmetric_range,
    _titles,
    _top_legend,
    _wrap,
    message_figure,
)
from explorer.figures.themes import COLORSCALE, Theme, base_layout, get_theme

# --------------------------------------------------------------------------- positional


def lines_figure(x: np.ndarray, series: dict[str, np.ndarray], *, title: str = "",
                 subtitle: str = "", x_title: str = "", y_title: str = "",
                 theme: str | Theme = "light", mark_x: float | None = None,
                 band: tuple[float, float] | None = None, band_label: str = "",
                 log_x: bool = False, dashed: Sequence[str] = (), height: int = 320,
                 y_range: tuple[float, float] | None = None,
                 colors: dict[str, str] | None = None,
                 markers: dict[str, tuple[float, float]] | None = None,
                 log_dtick: float | None = None,
                 x_ticks: Sequence[float] | None = None) -> go.Figure:
    """Lines sharing one x axis; ``series`` labels are ours (escaped). ``band`` shades an
    x range (e.g. the sentence's positions); ``mark_x`` draws a vertical line; ``colors``
    fixes a series' colour; ``markers`` puts a dot on a series at (x, y)."""
    th = get_theme(theme)
    data = []
    colors = colors or {}
    for i, (label, y) in enumerate(series.items()):
        colour = colors.get(label, SERIES[i % len(SERIES)])
        data.append({"type": "scatter", "mode": "lines", "x": _f32(x), "y": _f32(y),
                     "name": plotly_safe(label),
                     "line": {"color": colour, "width": 2,
                              "dash": "dash" if label in dashed else "solid"},
                     "hovertemplate": plotly_safe(label) + "<br>" + plotly_safe(x_title or "x")
                     + " %{x}<br>%{y:.4f}<extra></extra>"})
        if markers and label in markers:
            mx, my = markers[label]
            data.append({"type": "scatter", "mode": "markers", "x": [float(mx)],
                         "y": [float(my)], "showlegend": False, "hoverinfo": "skip",
                         "marker": {"color": colour, "size": 10}})
    layout = base_layout(th)
    legend, legend_px = _top_legend(list(series)) if len(series) > 1 else ({}, 0)
    notes, top = _titles(title, subtitle, th, extra=legend_px)
    shapes = []
    if band is not None:
        shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": band[0],
                       "x1": band[1], "y0": 0, "y1": 1, "layer": "below", "line": {"width": 0},
                       "fillcolor": th.grid, "opacity": 0.5})
        if band_label:
            notes.append({"text": plotly_safe(band_label), "x": band[0], "y": 0,
                          "xref": "x", "yref": "paper", "xanchor": "left", "yanchor": "bottom",
                          "showarrow": False, "font": {"size": 10, "color": th.muted}})
    if mark_x is not None:
        shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": mark_x,
                       "x1": mark_x, "y0": 0, "y1": 1,
                       "line": {"color": th.accent, "width": 2, "dash": "dot"}})
    xaxis = _number_axis(x_title, th, showgrid=True, gridcolor=th.grid)
    if log_x:
        xaxis["type"] = "log"
        if log_dtick:
            xaxis["dtick"] = log_dtick
    if x_ticks is not None:
        xaxis.update(tickmode="array", tickvals=[float(v) for v in x_ticks],
                     ticktext=[f"{v:g}" for v in x_ticks])
    yaxis = _number_axis(y_title, th, showgrid=True, gridcolor=th.grid, zeroline=True,
                         zerolinecolor=th.grid)
    if y_range is not None:
        yaxis["range"] = list(y_range)
    layout.update(
        height=height + top, annotations=notes, shapes=shapes, showlegend=len(series) > 1,
        legend=legend,
        xaxis=xaxis, yaxis=yaxis, hovermode="closest",
        margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0},
    )
    return _figure(data, layout)


def rope_arrows_figure(thetas: np.ndarray, tokens: Sequence[str], pairs: Sequence[int], *,
                       theme: str | Theme = "light", max_labels: int = 8) -> go.Figure:
    """Pair ``i`` of a query (the unit vector (1, 0)) turned by ``position × θᵢ``, one arrow
    per token of the sentence; one circle per pair, side by side. Hover names the token."""
    th = get_theme(theme)
    n = len(tokens)
    labels = axis_labels(tokens, 16)
    data, layout_axes, notes = [], {}, []
    gap = 0.06
    width = (1 - gap * (len(pairs) - 1)) / len(pairs)
    pos = np.arange(n, dtype=np.float64)
    every = max(1, math.ceil(n / max_labels))
    for j, pair in enumerate(pairs):
        s = "" if j == 0 else str(j + 1)
        angle = pos * float(thetas[pair])
        tip_x, tip_y = np.cos(angle), np.sin(angle)
        seg_x = np.full(3 * n, np.nan, dtype=np.float32)
        seg_y = np.full(3 * n, np.nan, dtype=np.float32)
        seg_x[0::3], seg_y[0::3] = 0, 0
        seg_x[1::3], seg_y[1::3] = tip_x, tip_y
        circle = np.linspace(0, 2 * np.pi, 97)
        data.append({"type": "scatter", "mode": "lines", "x": _f32(np.cos(circle)),
                     "y": _f32(np.sin(circle)), "xaxis": "x" + s, "yaxis": "y" + s,
                     "hoverinfo": "skip", "line": {"color": th.grid, "width": 1},
                     "showlegend": False})
        data.append({"type": "scatter", "mode": "lines", "x": seg_x, "y": seg_y,
                     "xaxis": "x" + s, "yaxis": "y" + s, "hoverinfo": "skip",
                     "line": {"color": th.muted, "width": 1}, "showlegend": False})
        text = [str(i) if i % every == 0 else "" for i in range(n)]
        hover = [f"position {i}: {lab}<br>turned {np.degrees(a) % 360:.1f}°"
                 for i, (lab, a) in enumerate(zip(labels, angle, strict=True))]
        data.append({
            "type": "scatter", "mode": "markers+text", "x": _f32(tip_x * 1.0),
            "y": _f32(tip_y), "xaxis": "x" + s, "yaxis": "y" + s, "text": text,
            "hovertext": hover, "hovertemplate": "%{hovertext}<extra></extra>",
            "textposition": "middle right", "textfont": {"size": 10, "color": th.muted},
            "cliponaxis": False, "showlegend": False,
            "marker": {"size": 8, "color": _f32(pos),
                       "colorscale": [list(c) for c in COLORSCALE], "cmin": 0,
                       "cmax": max(1, n - 1)},
        })
        x0 = j * (width + gap)
        hidden = {"visible": False, "range": [-1.35, 1.35], "fixedrange": True}
        layout_axes["xaxis" + s] = {**hidden, "domain": [x0, x0 + width], "anchor": "y" + s}
        layout_axes["yaxis" + s] = {**hidden, "domain": [0, 0.78], "anchor": "x" + s,
                                    "scaleanchor": "x" + s}
        notes.append({"text": f"<b>pair {pair}</b><br>{float(thetas[pair]):.3g} rad/position",
                      "x": x0 + width / 2, "y": 0.8, "xref": "paper", "yref": "paper",
                      "xanchor": "center", "yanchor": "bottom", "showarrow": False,
                      "font": {"size": 11}})
    layout = base_layout(th)
    title_notes, top = _titles("RoPE: one pair of q (or k) turning with position",
                               "The same 2-D pair placed at each token's position (numbers: "
                               "positions; dark = early, yellow = late). Fast pairs spin, "
                               "slow pairs barely move.", th)
    layout.update(height=250 + top, annotations=title_notes + notes, **layout_axes,
                  margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0})
    return _figure(data, layout)


def small_multiples(panels: Sequence[dict], *, columns: int, title: str = "",
                    subtitle: str = "", theme: str | Theme = "light",
                    panel_height: int = 170, colors: str = "diverging",
                    zrange: tuple[float, float] | None = None, value_name: str = "value",
                    cell_text: str | None = None, show_ticks: bool = False) -> go.Figure:
    """Heatmaps on a grid, one shared colour scale. Each panel: ``{"z": 2-D array,
    "title": str}`` (our own text) and optional ``"rows"``/``"cols"`` names."""
    th = get_theme(theme)
    n = len(panels)
    rows = math.ceil(n / columns)
    if zrange is None:
        if colors == "weights":
            zrange = (0.0, 1.0)
        else:
            peak = max(_symmetric_range(np.asarray(p["z"], dtype=np.float32)) for p in panels)
            zrange = (-peak, peak)
    title_chars = {1: 60, 2: 22}.get(columns, 16)  # a phone gives a panel ~110 px
    title_lines = max(_wrap(p["title"], title_chars).count("<br>") + 1 for p in panels)
    title_px = 16 * title_lines + 4
    has_rows = any("rows" in p for p in panels) or show_ticks
    has_cols = any("cols" in p for p in panels) or show_ticks
    row_px = title_px + panel_height + (18 if has_cols else 6)
    notes_top, top = _titles(title, subtitle, th)
    area = rows * row_px  # plot-area height in pixels
    xgap = 0.08 if has_rows else 0.05
    cell_w = (1 - xgap * (columns - 1)) / columns
    data, axes, notes = [], {}, []
    for i, panel in enumerate(panels):
        r, c = divmod(i, columns)
        s = "" if i == 0 else str(i + 1)
        z = np.array(panel["z"], dtype=np.float32)
        x0 = c * (cell_w + xgap)
        y_top = 1 - (r * row_px + title_px) / area
        y_bottom = y_top - panel_height / area
        trace = {"type": "heatmap", "z": np.where(np.isfinite(z), z, np.float32(np.nan)),
                 "xaxis": "x" + s, "yaxis": "y" + s, "coloraxis": "coloraxis",
                 "hoverongaps": False, "name": plotly_safe(panel["title"]),
                 "hovertemplate": "row %{y}<br>column %{x}<br>" + plotly_safe(value_name)
                 + " %{z:.4f}<extra></extra>"}
        if cell_text and max(z.shape) <= CELL_TEXT_LIMIT:
            trace["texttemplate"] = "%{z:" + cell_text + "}"
            trace["textfont"] = {"size": 9}
        data.append(trace)
        tick = {"showgrid": False, "zeroline": False, "showticklabels": show_ticks,
                "ticks": "", "tickfont": {"size": 9, "color": th.muted}, "fixedrange": True}
        xa = {**tick, "domain": [x0, x0 + cell_w], "anchor": "y" + s}
        ya = {**tick, "domain": [max(0.0, y_bottom), y_top], "anchor": "x" + s,
              "autorange": "reversed"}
        for key, axis in (("cols", xa), ("rows", ya)):
            if key in panel:
                names = [plotly_safe(str(v)) for v in panel[key]]
                axis.update(tickmode="array", tickvals=list(range(len(names))), ticktext=names,
                            showticklabels=True)
        axes["xaxis" + s], axes["yaxis" + s] = xa, ya
        notes.append({"text": _wrap(panel["title"], title_chars), "x": x0,
                      "y": y_top, "xref": "paper", "yref": "paper", "xanchor": "left",
                      "yanchor": "bottom", "yshift": 2, "showarrow": False,
                      "font": {"size": 11}, "align": "left"})
    layout = base_layout(th)
    layout.update(
        height=top + area + 8, annotations=notes_top + notes, **axes,
        coloraxis={"cmin": zrange[0], "cmax": zrange[1], "colorscale": _colorscale(colors, th),
                   "colorbar": {**_colorbar(th, value_name), "len": min(0.8, 300 / area),
                                "y": 1, "yanchor": "top"}},
        margin={"l": 30 if has_rows else 8, "r": 8, "t": top, "b": 8, "pad": 0},
    )
    return _figure(data, layout)


SHUFFLE_ROW_PX = 14  # a row as tall as a 12 px label (Big screen's smallest) and its ␣ mark


def shuffle_side(n_tokens: int) -> int:
    """The side of the shuffle test's squares: 220 px, or more while each token's row would
    be thinner than ``SHUFFLE_ROW_PX`` (at 220 px, 21 tokens got 10.5 px rows under 12 px
    labels on a projector, the ␣ of one label touching the next: #30), at most 400
    (matrix_figure's largest square)."""
    return int(min(400, max(220, SHUFFLE_ROW_PX * n_tokens)))


def shuffle_figures(result, *, theme: str | Theme = "light") -> tuple[go.Figure, go.Figure,
                                                                      go.Figure]:
    """(original pattern, pattern on the shuffled sentence as the model read it,
    difference after putting the shuffled one back in the original order)."""
    th = get_theme(theme)
    where = f"layer {result.layer}, head {result.head}, mask off"
    side = shuffle_side(len(result.tokens))
    a = matrix_figure(result.original, title="Your sentence", subtitle=where, theme=th, wrap=34,
                      row_tokens=result.tokens, col_tokens=result.tokens, row_title="query",
                      col_title="key", colors="weights", square=True, value_name="weight",
                      side=side)
    b = matrix_figure(result.shuffled, title="Words shuffled",
                      subtitle="the same words in a new order, as the model read them",
                      theme=th, wrap=34, row_tokens=result.shuffled_tokens,
                      col_tokens=result.shuffled_tokens, row_title="query", col_title="key",
                      colors="weights", square=True, value_name="weight", side=side)
    diff = result.original - result.restored
    peak = max(0.1, float(np.abs(diff).max()))
    c = matrix_figure(diff, title="Difference",
                      subtitle=(f"your sentence − shuffled (put back in your order); "
                                f"largest {plain_number(float(np.abs(diff).max()))}"),
                      theme=th, wrap=34, row_tokens=result.tokens, col_tokens=result.tokens,
                      row_title="query", col_title="key", zrange=(-peak, peak), square=True,
                      value_name="difference", side=side)
    return a, b, c


def encoding_panel_figure(panel, *, theme: str | Theme = "light") -> go.Figure:
    """Lesson 6: one encoding, what it contributes (top) and position vs position (bottom)."""
    th = get_theme(theme)
    pic = np.asarray(panel.picture, dtype=np.float32)
    cmp_ = np.asarray(panel.compare, dtype=np.float32)
    p_lo, p_hi = panel.picture_range or (-_symmetric_range(pic), _symmetric_range(pic))
    c_lo, c_hi = panel.compare_range or (-_symmetric_range(cmp_), _symmetric_range(cmp_))
    data = [
        {"type": "heatmap", "z": pic, "xaxis": "x", "yaxis": "y",
         "colorscale": _colorscale("diverging", th), "zmin": p_lo, "zmax": p_hi,
         "showscale": False,
         "hovertemplate": "position %{y}<br>column %{x}<br>%{z:.3f}<extra></extra>",
         "name": "encoding"},
        {"type": "heatmap", "z": cmp_, "xaxis": "x2", "yaxis": "y2",
         "colorscale": _colorscale("diverging", th), "zmin": c_lo, "zmax": c_hi,
         "showscale": False, "name": "comparison",
         "hovertemplate": "position %{y}<br>position %{x}<br>%{z:.3f}<extra></extra>"},
    ]
    axis = {"showgrid": False, "zeroline": False, "ticks": "", "fixedrange": True,
            "tickfont": {"size": 9, "color": th.muted}}
    names = {"none": "none", "sinusoidal": "sinusoidal", "learned": "learned",
             "rotary": "rotary (RoPE)", "alibi": "ALiBi"}
    layout = base_layout(th)
    layout.update(
        height=470,
        xaxis={**axis, "domain": [0, 1], "anchor": "y"},
        yaxis={**axis, "domain": [0.56, 0.88], "anchor": "x", "autorange": "reversed",
               "title": {"text": "position", "font": {"size": 10}}},
        xaxis2={**axis, "domain": [0, 1], "anchor": "y2"},
        yaxis2={**axis, "domain": [0.0, 0.4], "anchor": "x2", "autorange": "reversed",
                "title": {"text": "position", "font": {"size": 10}}},
        annotations=[
            {"text": "<b>" + plotly_safe(names.get(panel.kind, panel.kind)) + "</b>", "x": 0,
             "y": 1.0, "xref": "paper", "yref": "paper", "xanchor": "left",
             "yanchor": "top", "showarrow": False, "font": {"size": 13}},
            {"text": _wrap(panel.picture_what, 26), "x": 0, "y": 0.885, "xref": "paper",
             "yref": "paper", "xanchor": "left", "yanchor": "bottom", "showarrow": False,
             "font": {"size": 10, "color": th.muted}, "align": "left"},
            {"text": _wrap(panel.compare_what, 26), "x": 0, "y": 0.405, "xref": "paper",
             "yref": "paper", "xanchor": "left", "yanchor": "bottom", "showarrow": False,
             "font": {"size": 10, "color": th.muted}, "align": "left"},
        ],
        margin={"l": 34, "r": 8, "t": 8, "b": 8, "pad": 0},
    )
    return _figure(data, layout)


def encoding_figures(view, tokens: Sequence[str], *, theme: str | Theme = "light"
                     ) -> tuple[go.Figure, go.Figure | None, go.Figure | None]:
    """(what the encoding is, a closer look, position against position) for an
    :class:`explorer.analysis.positional_views.EncodingView`; None where a kind has nothing
    to show."""
    th = get_theme(theme)
    n_tok = len(tokens)
    positions = np.arange(view.n, dtype=np.float32)
    band = (-0.5, min(n_tok, view.n) - 0.5) if n_tok else None
    if view.kind in ("sinusoidal", "learned"):
        if view.table is None:
            return message_figure(view.note, th), None, None
        fixed = view.kind == "sinusoidal"
        pic = matrix_figure(
            view.table, theme=th, row_title="position", col_title="dimension",
            title=f"The {view.kind} position table — [{view.n} × {view.d_model}]",
            subtitle=("PE[p, 2i] = sin(p / 10000^(2i/d_model)), PE[p, 2i+1] = cos(same). "
                      if fixed else "Trained along with the model. ")
            + "Row p is added to the embedding of the token at position p.")
        detail = lines_figure(
            positions, view.waves, theme=th, x_title="position", y_title="value",
            title="A few dimensions along the positions",
            subtitle=("Low dimensions wave fast, high ones slowly: together every position "
                      "gets its own pattern." if fixed else
                      "What training put into the first few dimensions."),
            band=band, band_label="your sentence", height=280)
        sim = matrix_figure(
            view.similarity, theme=th, row_title="position", col_title="position",
            square=True, zrange=(-1.0, 1.0), value_name="cosine",
            title="How alike are two positions?",
            subtitle="Cosine similarity of the position vectors (1 = the same direction).")
        return pic, detail, sim
    if view.kind == "rotary":
        pairs = view.angles.shape[1]
        pic = matrix_figure(
            np.mod(view.angles, 2 * math.pi), theme=th, colors="cyclic",
            row_title="position", col_title="pair (2i, 2i+1)", value_name="angle (rad)",
            height=440,
            title=f"RoPE: the angle each pair is turned — [{view.n} × {pairs}]",
            subtitle="Pair i of every query and key is turned by position × θᵢ, "
                     f"θᵢ = base^(−2i/d_head) (d_head = {view.d_head}). Colours wrap at 2π.")
        chosen = sorted({0, min(3, pairs - 1), min(8, pairs - 1)})
        detail = rope_arrows_figure(view.thetas, list(tokens)[: view.n], chosen, theme=th)
        offsets = np.arange(view.n, dtype=np.float32)
        sim = lines_figure(
            offsets, view.offset_score, theme=th, x_title="offset (key position − query "
            "position)", y_title="q · k", height=280,
            title="The score depends only on the offset",
            subtitle="One vector used as both q and k, placed at positions m and m + offset: "
                     "the same curve for every m.")
        return pic, detail, sim
    if view.kind == "alibi":
        heads = view.bias.shape[0]
        panels = [{"z": view.bias[h], "title": f"head {h}: slope {view.slopes[h]:.3g}"}
                  for h in range(heads)]
        peak = float(np.abs(view.bias).max()) or 1.0
        pic = small_multiples(panels, columns=min(4, heads), theme=th, value_name="bias",
                              colors="negative", zrange=(-peak, 0.0),
                              title="ALiBi: the bias added to each head's scores",
                              subtitle="−slope × |query position − key position|; rows are "
                                       "queries, columns keys. No vectors are added.",
                              panel_height=190 if heads <= 4 else 150, show_ticks=False)
        distance = np.arange(view.n, dtype=np.float32)
        lines = {f"head {h} (slope {view.slopes[h]:.3g})": -view.slopes[h] * distance
                 for h in range(heads)}
        detail = lines_figure(distance, lines, theme=th, x_title="distance |i − j|",
                              y_title="bias", title="Bias against distance",
                              subtitle="Steep heads look only nearby; flat heads see far.",
                              height=280)
        return pic, detail, None
    return message_figure(view.note or "No positional encoding.", th), None, None
