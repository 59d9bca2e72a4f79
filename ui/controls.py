"""The sentence box and the knobs, shared by every tab.

Every tab reads the same controls, so flipping a knob changes what every view
shows; only the tab that is open recomputes (``active_tab`` is per-user state).
"""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from explorer.analysis import MAX_CHARS
from explorer.views import (
    HEADS,
    MASK_CHOICES,
    OBJECTIVES,
    POSITIONAL,
    SCALE_CHOICES,
    TEMPERATURE_RANGE,
)

EXAMPLES = [
    "Once there was a girl named Mia. Mia had a red ball. One day Mia gave the ball to",
    "red, cat, tree, box, sun. red, cat, tree, box, sun.",
    "The dog that the boys liked was happy. The dogs that the boy liked",
    "The animal didn't cross the street because it was too tired.",
    "The animal didn't cross the street because it was too wide.",
    "The animal didn't cross the street because [mask] was too tired.",
    "Lily and Ben went to the park. They played on the swings and ate ice cream. "
    "When the sun went down, Lily said to Ben that it was time to go home, and",
]

HELP = {
    "objective": "Next word: a decoder trained to predict the next token (GPT-style). "
                 "Masked word: an encoder trained to fill in a [mask] (BERT-style).",
    "heads": "Each choice is a separate model trained with that many heads (same size).",
    "pos": "How the model knows word order. Each is a separate trained model.",
    "mask": "Causal mask: a word may only look at earlier words. 'Off' lets it see the future.",
    "scaling": "Scores are divided by √d_head so the softmax doesn't saturate as d grows.",
    "temperature": "Divides the scores: >1 flattens attention, <1 sharpens it.",
}


@dataclass
class Panel:
    text: gr.Textbox
    objective: gr.Radio
    heads: gr.Radio
    pos: gr.Radio
    mask: gr.Radio
    scaling: gr.Radio
    temperature: gr.Slider
    layer: gr.Slider
    head: gr.Slider
    theme: gr.Radio
    active_tab: gr.State

    @property
    def inputs(self) -> list:
        """The values every view is a function of, in ``parse_controls`` order after text."""
        return [self.text, self.objective, self.heads, self.pos, self.mask, self.scaling,
                self.temperature, self.layer, self.head, self.theme]


def build_sentence() -> gr.Textbox:
    text = gr.Textbox(label="Your sentence", lines=2, max_length=MAX_CHARS, value=EXAMPLES[0],
                      elem_id="sentence", info="Updates as you type.")
    with gr.Accordion("Examples that show something", open=False, elem_id="examples"):
        gr.Examples(EXAMPLES, inputs=text, label=None)
    return text


def build_knobs(text: gr.Textbox) -> Panel:
    """The knobs column; ``text`` is the sentence box they share with every view."""
    with gr.Accordion("Knobs", open=True):
        objective = gr.Radio(list(OBJECTIVES), value=next(iter(OBJECTIVES)), label="Model",
                             info=HELP["objective"], elem_id="objective")
        heads = gr.Radio(list(HEADS), value=4, label="Heads per layer", info=HELP["heads"],
                         elem_id="heads")
        pos = gr.Radio(list(POSITIONAL), value="rotary", label="Positional encoding",
                       info=HELP["pos"], elem_id="pos")
        mask = gr.Radio(list(MASK_CHOICES), value="as trained", label="Causal mask",
                        info=HELP["mask"], elem_id="mask")
        scaling = gr.Radio(list(SCALE_CHOICES), value="1/√d_head", label="Scaling",
                           info=HELP["scaling"], elem_id="scaling")
        temperature = gr.Slider(*TEMPERATURE_RANGE, value=1.0, step=0.05, label="Temperature",
                                info=HELP["temperature"], elem_id="temperature")
        with gr.Row():
            layer = gr.Slider(0, 3, value=0, step=1, label="Layer", elem_id="layer")
            head = gr.Slider(0, 7, value=0, step=1, label="Head", elem_id="head")
        theme = gr.Radio(["light", "dark"], value="light", label="Figure colours",
                         elem_id="theme")
    return Panel(text, objective, heads, pos, mask, scaling, temperature, layer, head, theme,
                 gr.State("explore"))


# A Plotly figure drawn while its tab was hidden keeps a stale width; a resize event fixes it.
RESIZE_JS = "() => { setTimeout(() => window.dispatchEvent(new Event('resize')), 100); }"


def wire_tab_live(tab: gr.Tab, tab_id: str, panel: Panel, live: dict) -> None:
    """Run ``live`` (event kwargs whose ``fn`` skips unless its tab is open) on typing, on
    every knob, and when the tab opens (then refit its figures)."""
    panel.text.input(**live)
    for control in panel.inputs[1:]:
        control.change(**live)
    tab.select(lambda: tab_id, None, panel.active_tab, api_name=False).then(**live).then(
        None, None, None, js=RESIZE_JS)
