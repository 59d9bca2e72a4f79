"""Figures of the Lessons: why scale (softmax saturation) and where LayerNorm goes.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from explorer.figures.positional import lines_figure, small_multiples
from explorer.figures.style import _figure, _number_axis, _titles, _top_legend
from explorer.figures.themes import Theme, base_layout, get_theme

# --------------------------------------------------------------------------- lessons


def scaling_figures(curves, example, *, theme: str | Theme = "light") -> tuple[go.Figure,
                                                                               go.Figure,
                                                                               go.Figure]:
    """Lesson 2: spread of q·k against d_k, softmax saturation against d_k, and one query's
    weights at the chosen d_k with and without scaling."""
    th = get_theme(theme)
    d = curves.d
    spread = lines_figure(
        d, {"std of q·k (measured)": curves.std_raw, "√d_k": np.sqrt(d),
            "std of q·k / √d_k (measured)": curves.std_scaled},
        title="The spread of q·k grows like √d_k",
        subtitle="q and k have independent N(0, 1) entries; dividing by √d_k brings the "
                 "spread back to 1 for every d_k.",
        x_title="d_k (log scale)", y_title="standard deviation", theme=theme,
        mark_x=example.d_k, log_x=True, dashed=("√d_k",), log_dtick=math.log10(4),
        colors={"std of q·k (measured)": th.compare, "√d_k": th.muted,
                "std of q·k / √d_k (measured)": th.bar})
    uniform = np.full_like(d, 1.0 / curves.n_keys)
    saturation = lines_figure(
        d, {"largest weight, no scaling": curves.max_raw,
            "largest weight, ÷ √d_k": curves.max_scaled,
            f"uniform (1/{curves.n_keys})": uniform},
        title="Without scaling the softmax saturates",
        subtitle=f"Mean largest softmax weight over {curves.n_keys} keys. Near 1 means one-hot: "
                 "almost no gradient reaches the other keys.",
        x_title="d_k (log scale)", y_title="largest weight", theme=theme, mark_x=example.d_k,
        log_x=True, dashed=(f"uniform (1/{curves.n_keys})",), y_range=(0, 1.05),
        log_dtick=math.log10(4),
        colors={"largest weight, no scaling": th.compare, "largest weight, ÷ √d_k": th.bar,
                f"uniform (1/{curves.n_keys})": th.muted})
    keys = np.arange(len(example.dots), dtype=np.float32)
    data = [
        {"type": "bar", "x": keys, "y": example.weights_raw, "name": "softmax(q·k)",
         "marker": {"color": th.compare}, "hovertemplate": "key %{x}<br>%{y:.4f}<extra></extra>"},
        {"type": "bar", "x": keys, "y": example.weights_scaled, "name": "softmax(q·k / √d_k)",
         "marker": {"color": th.bar}, "hovertemplate": "key %{x}<br>%{y:.4f}<extra></extra>"},
    ]
    layout = base_layout(th)
    legend, legend_px = _top_legend([d["name"] for d in data])
    notes, top = _titles(f"One query, {len(keys)} keys, d_k = {example.d_k}",
                         f"Measured std of q·k: {example.std_raw:.2f} (√d_k = "
                         f"{math.sqrt(example.d_k):.2f}); after ÷ √d_k: "
                         f"{example.std_scaled:.2f}.", th, extra=legend_px)
    layout.update(height=300 + top, annotations=notes, showlegend=True, barmode="group",
                  legend=legend,
                  xaxis=_number_axis("key", th, dtick=1),
                  yaxis=_number_axis("weight", th, range=[0, 1.02], showgrid=True,
                                     gridcolor=th.grid),
                  margin={"l": 8, "r": 8, "t": top, "b": 8, "pad": 0})
    return spread, saturation, _figure(data, layout)


def block_figure(orders, *, theme: str | Theme = "light") -> go.Figure:
    """Lesson 5: every step of a pre-LN and a post-LN block, side by side."""
    panels = []
    for (pre_name, pre), (post_name, post) in zip(orders.pre, orders.post, strict=True):
        panels.append({"z": pre, "title": "pre-LN: " + pre_name})
        panels.append({"z": post, "title": "post-LN: " + post_name})
    return small_multiples(panels, columns=2, title="The same block, two orders",
                           subtitle="Left: x + f(LN(x)), as in GPT-2 and this app's models. "
                                    "Right: LN(x + f(x)), as in the 2017 paper. Rows "
                                    "are tokens, columns features.",
                           theme=theme, panel_height=120, value_name="value")


def block_stats_figure(sweep: dict, scale: float, current: tuple[float, float], *,
                       theme: str | Theme = "light") -> go.Figure:
    """Lesson 5: the block output's size against the input's size, pre-LN vs post-LN.
    ``sweep``: {"scale": [k], "pre": [k], "post": [k]} (mean per-token std of the output)."""
    th = get_theme(theme)
    x = np.asarray(sweep["scale"], dtype=np.float32)
    return lines_figure(
        x, {"pre-LN output": sweep["pre"], "post-LN output": sweep["post"]},
        title="Output size against input size",
        subtitle="Mean over tokens of each output vector's standard deviation. Post-LN always "
                 "ends in a LayerNorm (std 1); pre-LN passes the input's scale straight "
                 "through the residual path.",
        x_title="input multiplied by (log scale)", y_title="output std", theme=th,
        log_x=True, mark_x=float(scale), height=260, x_ticks=(0.1, 0.2, 0.5, 1, 2, 5, 10, 20),
        colors={"pre-LN output": th.bar, "post-LN output": th.compare},
        markers={"pre-LN output": (scale, current[0]),
                 "post-LN output": (scale, current[1])})
