"""The "Classify" tab: an encoder whose pooled output picks a class, with its attention."""

from __future__ import annotations

import gradio as gr
from gradio.context import get_blocks_context

from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.views.classify import classify_view, load_classifier
from explorer.views.controls import BOX_CHARS, TOKENS_HELP, parse_controls

TAB = "classify"

INTRO = """A transformer does not have to predict words. This one is an **encoder with a
classification head**: it reads the whole sentence and answers *negative* or *positive*; a
**not** / **never** in the feeling word's own clause flips the answer. How it works and what to
look for is below the figures."""

ABOUT = """#### About this classifier

It was trained by this project on sentences it generated, where the answer hangs on a few
words: the feeling word and a **not** / **never** in its own clause — *"The dog was not happy
because the ball was red"* is negative, *"The dog was happy because the ball was not red"* is
positive. Its held-out accuracy is measured on word and sentence-shape pairs it never saw. It
is a model of its own, with its own sentence box: the *Model*, *Heads per layer* and
*Positional encoding* knobs choose language models and are switched off here; the mask,
scaling, temperature, layer and head knobs apply.

"""

HOW = ABOUT + """- **Mean pooling.** After the last block every token has a vector; the classifier
  averages them (padding left out) into one vector and a single linear layer turns it into
  class scores.
  Because that layer comes after an average, each token's share of the score is exact: the
  bottom row of the strip. It is often about the same for every token: the blocks have already
  copied the evidence into every position, which is just what an average rewards.
- **Looking both ways.** A classifier answers once, after reading everything, so nothing
  needs hiding: it is trained *without* the causal mask and a word may attend to words after
  it. Switch the mask **on** to see what it loses.
- **Where to look.** In layer 0 of the grid, find the heads in which almost every token looks
  at the *not*, and the ones in which they look at the feeling word: the two words the answer
  needs, gathered into every position, so that each position can tell "not … happy" from
  "happy". The strip's middle row deletes one token at a time: the words the answer depends
  on light up. With a *not* only in the other clause, its column stays dark."""

EXAMPLES = [
    "The little dog was not happy because the rain was cold.",
    "The little dog was happy because the rain was not cold.",
    "When the ball was not red, Tom was glad.",
    "I am not sad.",
    "We were never angry at the park, and the sky was blue.",
    "Mia did not feel very proud when the kite was green.",
    "The weather was lovely.",
]


def bound_layer_slider(panel: Panel, tab: gr.Tab, n_layers: int) -> None:
    """While this view is open the shared Layer slider offers the classifier's layers only:
    it went to 3 on a 2-layer model and showed layer 1 (#30). Opening any other view gives
    it its whole range back (its value stays where the student left it). Only the range
    and, on the way in, a value past it are sent: which knobs are on is the live loop's."""
    full = int(panel.layer.maximum)
    top = max(n_layers - 1, 1)  # a slider needs two stops
    quiet = dict(queue=False, show_progress="hidden", api_name=False)

    def opened(layer):
        try:
            inside = 0 <= int(layer) <= n_layers - 1
        except (TypeError, ValueError):
            inside = False
        if inside:
            return gr.Slider(maximum=top)
        return gr.Slider(maximum=top, value=n_layers - 1)

    def left():
        return gr.Slider(maximum=full)

    tab.select(opened, panel.layer, panel.layer, **quiet)

    def wire_the_other_tabs():  # once every tab is built (finish_live runs it)
        others = [b for b in get_blocks_context().blocks.values()
                  if isinstance(b, gr.Tab) and b is not tab]
        for other in others:
            other.select(left, None, panel.layer, **quiet)

    panel.after_tabs.append(wire_the_other_tabs)


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update.
    The classifier is loaded here, once: read-only shared state like the zoo, on its device."""
    loaded = load_classifier(vocab_size=tok.vocab_size, device=zoo.device)
    if loaded.model is not None:
        bound_layer_slider(panel, tab, loaded.model.config.n_layers)
    gr.Markdown(INTRO, elem_id="classify-intro")
    # Its own box: its examples are for this model, and must not replace the sentence the
    # other views show.
    text = gr.Textbox(EXAMPLES[0], label="Sentence for the classifier", lines=1,
                      max_length=BOX_CHARS, elem_id="classify-text")
    status = gr.Markdown(elem_id="classify-status")
    with gr.Row(equal_height=False):
        probs = gr.Plot(show_label=False, elem_id="classify-probs", min_width=260, scale=2)
        evidence = gr.Plot(show_label=False, elem_id="classify-evidence", min_width=300,
                           scale=3)
    gr.Markdown(TOKENS_HELP, elem_classes="tokens-help")
    gr.Examples(EXAMPLES, inputs=text, label="Sentences for this model",
                api_name="classify_example", api_visibility="private")
    gr.Markdown("#### Every head's attention (rows: layers, columns: heads; the outlined one "
                "is below, pick it with *Layer* and *Head*)", elem_classes="caption")
    grid = gr.Plot(show_label=False, elem_id="classify-grid")
    head = gr.Plot(show_label=False, elem_id="classify-head")
    gr.Markdown(HOW, elem_id="classify-how")
    api = gr.Button("classify", visible=False)  # the API endpoint: no open-tab check
    outputs = [status, probs, evidence, grid, head]

    @guarded("classify", lambda message: [message, None, None, None, None])
    def compute(text, *controls):
        v = classify_view(loaded, tok, text, parse_controls(*controls))
        return [v.status, v.probs, v.evidence, v.grid, v.head]

    inputs = [text, *panel.inputs[1:]]
    # Its own box (every edit, an example too) and the knobs that act on the classifier.
    wire_live(panel, TAB, dict(fn=compute, inputs=inputs, outputs=outputs),
              extra=(text.change,),
              watch=("mask", "scaling", "temperature", "layer", "head", "theme"),
              note="Classify reads its own sentence box, below; of the knobs only Causal "
                   "mask, Scaling, Temperature, Layer, Head and Figure colours apply.")
    api.click(compute, panel.inputs, outputs, api_name="classify")
