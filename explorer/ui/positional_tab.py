"""The "Positional encodings" tab: the selected model's encoding drawn as it is, positions
compared with each other, and the word-shuffle test."""

from __future__ import annotations

import gradio as gr

from explorer.ui.controls import Panel, refresh_js, wire_live
from explorer.ui.errors import guarded
from explorer.ui.step_bar import declare as step_bar
from explorer.views.controls import parse_controls
from explorer.views.positional import positional_view

TAB = "positional"

SHUFFLE_INTRO = """#### The shuffle test
Your words are shuffled (whole words, so every token stays the same) and the model reads
both orders. For this test the **causal mask is off** (every word sees every word): with
the mask on, the triangle itself tells each word how many came before it. Then the
shuffled attention is put back into your order and compared. With **no positional
encoding** the attention just moves with the words — the difference is zero up to rounding.
With any encoding the model knows where each word is, so the attention really changes.
Switch *Positional encoding* to compare."""


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    step_bar(panel, TAB)  # a Start-here step that opened this view, at its top
    status = gr.Markdown(elem_id="pe-status")
    picture = gr.Plot(show_label=False, elem_id="pe-picture")
    with gr.Row(equal_height=False):
        detail = gr.Plot(show_label=False, elem_id="pe-detail", min_width=300)
        similarity = gr.Plot(show_label=False, elem_id="pe-similarity", min_width=300)
    gr.Markdown(SHUFFLE_INTRO, elem_id="pe-shuffle-intro")  # covered in step 5 (start_here.py)
    seed = gr.State(0)
    summary = gr.Markdown(elem_id="pe-shuffle-summary")
    with gr.Column(visible=False) as shuffle_box:
        again = gr.Button("🔀 Shuffle again", size="sm", elem_id="pe-shuffle-again")
        with gr.Row(equal_height=False):
            original = gr.Plot(show_label=False, elem_id="pe-shuffle-original", min_width=280)
            shuffled = gr.Plot(show_label=False, elem_id="pe-shuffle-shuffled", min_width=280)
            difference = gr.Plot(show_label=False, elem_id="pe-shuffle-difference",
                                 min_width=280)
    outputs = [status, picture, detail, similarity, summary, shuffle_box, original, shuffled,
               difference]
    no_test = [gr.Column(visible=False), None, None, None]

    def shown(fig):
        return gr.update(value=fig, visible=fig is not None)

    @guarded("positional view",
             lambda message: [message, None, shown(None), shown(None), "", *no_test])
    def update(text, *values):
        *controls, shuffle_seed = values
        v = positional_view(zoo, tok, text, parse_controls(*controls), int(shuffle_seed or 0))
        test = (no_test if v.shuffled is None
                else [gr.Column(visible=True), *v.shuffled])
        return [v.status, v.picture, shown(v.detail), shown(v.similarity), v.summary, *test]

    wire_live(panel, TAB, dict(fn=update, inputs=[*panel.inputs, seed], outputs=outputs))
    again.click(lambda s: int(s or 0) + 1, seed, seed, api_name=False).then(
        None, None, None, js=refresh_js(TAB))
