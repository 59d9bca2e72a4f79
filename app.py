"""Attention Explorer: the Gradio app. Run ``python app.py`` and open the printed address.

This file only declares components and wires events; every computation lives
in ``explorer/`` (``explorer.views.explore`` for the live update). Models and
the tokenizer are loaded once at start-up and are read-only shared state;
everything a student chooses travels with their own request.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import gradio as gr
import torch

from explorer.analysis import MAX_CHARS
from explorer.tokenizer import Tokenizer
from explorer.views import (
    HEADS,
    MASK_CHOICES,
    OBJECTIVES,
    POSITIONAL,
    SCALE_CHOICES,
    TEMPERATURE_RANGE,
    BadControl,
    explore,
    parse_controls,
)
from explorer.zoo import CHECKPOINT_DIR, load_zoo

ROOT = Path(__file__).resolve().parent
log = logging.getLogger("attention_explorer")

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

INTRO = """# Attention Explorer
Type a sentence and watch what every attention head of a small **trained** transformer does
with it. Then flip a knob — the mask, the scaling, the number of heads, the positional
encoding — and see what changes, and why each knob exists."""

HELP = {
    "objective": "Next word: a decoder trained to predict the next token (GPT-style). "
                 "Masked word: an encoder trained to fill in a [mask] (BERT-style).",
    "heads": "Each choice is a separate model trained with that many heads (same size).",
    "pos": "How the model knows word order. Each is a separate trained model.",
    "mask": "Causal mask: a word may only look at earlier words. 'Off' lets it see the future.",
    "scaling": "Scores are divided by √d_head so the softmax doesn't saturate as d grows.",
    "temperature": "Divides the scores: >1 flattens attention, <1 sharpens it.",
}


def load_resources():
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    zoo = load_zoo(CHECKPOINT_DIR, vocab_size=tok.vocab_size)
    return tok, zoo


def build_app(tok: Tokenizer, zoo) -> gr.Blocks:
    def update(text, objective, heads, pos, mask, scaling, temperature, layer, head, theme):
        try:
            controls = parse_controls(objective, heads, pos, mask, scaling, temperature,
                                      layer, head, theme)
            r = explore(zoo, tok, text, controls)
        except BadControl as exc:
            return None, None, None, None, f"⚠️ {exc}", ""
        except Exception:  # never show a student a stack trace; keep it in the server log
            log.exception("explore failed")
            return (None, None, None, None,
                    "⚠️ Something went wrong with this request. Please try again.", "")
        return r.grid, r.head, r.lines, r.predictions, r.status, r.head_table

    with gr.Blocks(title="Attention Explorer", fill_width=True) as demo:
        gr.Markdown(INTRO, elem_id="intro")
        text = gr.Textbox(label="Your sentence", lines=2, max_length=MAX_CHARS,
                          value=EXAMPLES[0], elem_id="sentence", info="Updates as you type.")
        with gr.Accordion("Examples that show something", open=False, elem_id="examples"):
            gr.Examples(EXAMPLES, inputs=text, label=None)
        with gr.Row(equal_height=False):
            with gr.Column(scale=1, min_width=280, elem_id="controls"):
                with gr.Accordion("Knobs", open=True):
                    objective = gr.Radio(list(OBJECTIVES), value=next(iter(OBJECTIVES)),
                                         label="Model", info=HELP["objective"],
                                         elem_id="objective")
                    heads = gr.Radio(list(HEADS), value=4, label="Heads per layer",
                                     info=HELP["heads"], elem_id="heads")
                    pos = gr.Radio(list(POSITIONAL), value="rotary",
                                   label="Positional encoding", info=HELP["pos"], elem_id="pos")
                    mask = gr.Radio(list(MASK_CHOICES), value="as trained", label="Causal mask",
                                    info=HELP["mask"], elem_id="mask")
                    scaling = gr.Radio(list(SCALE_CHOICES), value="1/√d_head", label="Scaling",
                                       info=HELP["scaling"], elem_id="scaling")
                    temperature = gr.Slider(*TEMPERATURE_RANGE, value=1.0, step=0.05,
                                            label="Temperature", info=HELP["temperature"],
                                            elem_id="temperature")
                    with gr.Row():
                        layer = gr.Slider(0, 3, value=0, step=1, label="Layer",
                                          elem_id="layer")
                        head = gr.Slider(0, 7, value=0, step=1, label="Head", elem_id="head")
                    theme = gr.Radio(["light", "dark"], value="light", label="Figure colours",
                                     elem_id="theme")
            with gr.Column(scale=3, min_width=320):
                status = gr.Markdown(elem_id="status")
                gr.Markdown("#### Every head — rows are layers, columns are heads; each row of "
                            "a square is one token looking back at the tokens (columns)",
                            elem_classes="caption")
                grid = gr.Plot(show_label=False, elem_id="grid")
                with gr.Row(equal_height=False):
                    big = gr.Plot(show_label=False, elem_id="head-large")
                    preds = gr.Plot(show_label=False, elem_id="predictions")
                lines = gr.Plot(show_label=False, elem_id="head-view")
                table = gr.Markdown(elem_id="head-table")

        inputs = [text, objective, heads, pos, mask, scaling, temperature, layer, head, theme]
        outputs = [grid, big, lines, preds, status, table]
        live = dict(fn=update, inputs=inputs, outputs=outputs, show_progress="hidden",
                    trigger_mode="always_last", api_name=False)
        text.input(**live)
        for control in inputs[1:]:
            control.change(**live)
        # Match the figures to the page's own light/dark mode once it has loaded.
        demo.load(None, None, theme,
                  js="() => document.querySelector('.dark') ? 'dark' : 'light'")
        demo.load(**{**live, "api_name": "explore"})
    return demo


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    torch.set_num_threads(1)  # one thread per request: two stall when the CPU is shared
    tok, zoo = load_resources()
    log.info("models: %s; unavailable: %s", sorted(zoo.models), sorted(zoo.unavailable))
    demo = build_app(tok, zoo)
    demo.queue(default_concurrency_limit=4, max_size=64)
    demo.launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
        css_paths=[ROOT / "static" / "style.css"],
        max_file_size="1kb",
        show_error=False,
    )


if __name__ == "__main__":
    main()
