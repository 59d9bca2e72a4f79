"""The "Inside one head" tab: every stage of the selected head, X to the output projection."""

from __future__ import annotations

import gradio as gr

from explorer.server.lab_session import registry, sources
from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.views.controls import parse_controls
from explorer.views.inside import INTRO, KEYS, SECTIONS, inside_view

TAB = "inside"
HEADINGS = [f"#### {heading}" for heading, _ in SECTIONS]


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update."""
    status = gr.Markdown(elem_id="inside-status")
    gr.Markdown(INTRO)
    plots: dict[str, gr.Plot] = {}

    def plot(key: str) -> None:
        plots[key] = gr.Plot(show_label=False, elem_id=f"inside-{key}", min_width=260)

    gr.Markdown(HEADINGS[0], elem_classes="caption")
    plot("x")
    gr.Markdown(HEADINGS[1], elem_classes="caption")
    with gr.Row(equal_height=False):
        for key in ("q", "k", "v"):
            plot(key)
    with gr.Column(visible=False) as rotary_box:
        gr.Markdown(HEADINGS[2], elem_classes="caption")
        with gr.Row(equal_height=False):
            plot("rot_q")
            plot("rot_k")
    gr.Markdown(HEADINGS[3], elem_classes="caption")
    with gr.Row(equal_height=False):
        plot("scores")
        plot("scaled")
    with gr.Row(equal_height=False):
        plot("masked")
        plot("pattern")
    gr.Markdown(HEADINGS[4], elem_classes="caption")
    plot("z")
    plot("concat")
    plot("out")
    outputs = [status, rotary_box, *(plots[k] for k in KEYS)]
    blank = [None] * len(KEYS)
    # "my Lab model": the session's own (explorer/server/lab_session.py)
    models = registry(demo, zoo)

    @guarded("inside one head", lambda message: [message, gr.Column(visible=False), *blank])
    def update(request: gr.Request, text, *controls):
        c = parse_controls(*controls)
        v = inside_view(*sources(models, request, zoo, tok, c, text), text, c)
        return [v.status, gr.Column(visible=v.rotary), *v.in_order()]

    wire_live(panel, TAB, dict(fn=update, inputs=panel.inputs, outputs=outputs))
