"""The "Shapes" tab: every tensor of the forward pass with this sentence's real numbers."""

from __future__ import annotations

import gradio as gr
import pandas as pd

from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.views.controls import parse_controls
from explorer.views.shapes import SPLIT_HEADERS, TRACE_HEADERS, shapes_view

TAB = "shapes"

SPLIT_INTRO = """#### How one attention layer splits into heads and merges them back
Read it top to bottom: one wide projection, cut into heads, the heads axis moved in front so
that every head is its own small attention, then the same moves backwards. The operations
are written as in PyTorch: `.view` reshapes a tensor without moving its numbers,
`.transpose(1, 2)` swaps axes 1 and 2. The numbers are your sentence's, taken from the
tensors the model really made wherever such a tensor exists. Column *read from* names where
inside the model the app recorded that tensor: `blocks.1.attn.hook_q` is layer 1 (counting
from 0), its attention (`attn`), and the point called `hook_q`, where the app records the
queries (`hook_x` is what attention reads, `hook_z` each head's output). Same layer as the
*Layer* knob."""

TRACE_INTRO = """#### Every tensor of the forward pass, in the order the model made it
Names as above: `blocks.2` is layer 2, `attn` its attention, a `hook_…` a point where the app
records a tensor; *what it holds* says the same in words. `batch` is 1 here (one sentence).
`hook_x` is what attention reads: the LayerNorm of the residual stream in a pre-LN model,
the stream itself in a post-LN one."""


def _frame(rows: list[list], headers: list[str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=headers)


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    status = gr.Markdown(elem_id="shapes-status")
    gr.Markdown(SPLIT_INTRO)
    # Widths in percent, so the table fits its column at any width (in pixels they added up
    # to more than a laptop's column and cut off the last one). On a phone the percentages
    # gave one letter a line: there each table is laid out wider and its box scrolls
    # sideways (.ae-scroll-x, static/css/70-views.css).
    with gr.Column(elem_classes="ae-scroll-x"):
        split = gr.Dataframe(headers=SPLIT_HEADERS, interactive=False, wrap=True,
                             elem_id="shapes-split", max_height=900,
                             column_widths=["7%", "15%", "22%", "34%", "22%"])
    sizes = gr.Plot(show_label=False, elem_id="shapes-sizes")
    gr.Markdown(TRACE_INTRO)
    with gr.Column(elem_classes="ae-scroll-x"):
        trace = gr.Dataframe(headers=TRACE_HEADERS, interactive=False, wrap=True,
                             elem_id="shapes-trace", max_height=900,
                             column_widths=["5%", "21%", "12%", "21%", "9%", "32%"])
    outputs = [status, split, sizes, trace]
    empty = [_frame([], SPLIT_HEADERS), None, _frame([], TRACE_HEADERS)]

    @guarded("shape trace", lambda message: [message, *empty])
    def update(text, *controls):
        v = shapes_view(zoo, tok, text, parse_controls(*controls))
        return [v.status, _frame(v.split, SPLIT_HEADERS), v.sizes, _frame(v.trace, TRACE_HEADERS)]

    wire_live(panel, TAB, dict(fn=update, inputs=panel.inputs, outputs=outputs))
