"""The "Positional encodings" tab: the selected model's encoding drawn as it is, positions
compared with each other, and the word-shuffle test."""

from __future__ import annotations

import dataclasses
import logging

import gradio as gr

from explorer.analysis.positional_views import (
    KIND_NAMES,
    encoding_view,
    equivariance_gap,
    shuffle_experiment,
)
from explorer.analysis.run import prepare
from explorer.analysis.stages import model_line, pick
from explorer.figures.positional import encoding_figures, shuffle_figures
from explorer.views.controls import EMPTY_STATE, BadControl, parse_controls
from ui.controls import Panel, refresh_js, wire_live

log = logging.getLogger("attention_explorer")
TAB = "positional"
FAILED = "⚠️ Something went wrong with this request. Please try again."

WHY = {
    "none": "Attention compares every token with every other by content alone, so without "
            "help it cannot tell *the dog bit the man* from *the man bit the dog*.",
    "sinusoidal": "A fixed table of sines and cosines (the 2017 paper) is **added** to the "
                  "token embeddings, so each position has its own vector. Here it is "
                  "multiplied by one trained number first: added at full size, it drowned "
                  "out the words and the model learned far worse.",
    "learned": "A table with one trained vector per position (GPT-2, BERT) is **added** to "
               "the token embeddings.",
    "rotary": "Nothing is added to the embeddings: inside every head, each pair of query and "
              "key dimensions is **rotated** by an angle proportional to the position, so "
              "q·k depends on how far apart two tokens are.",
    "alibi": "Nothing is added to the embeddings: each head's scores get a **penalty "
             "proportional to the distance** between query and key, with its own slope.",
}

SHUFFLE_INTRO = """#### The shuffle test
Your words are shuffled (whole words, so every token stays the same) and the model reads
both orders. For this test the **causal mask is off** (`AttentionSettings(causal=False)`):
with the mask on, the triangle itself tells each word how many came before it. Then the
shuffled attention is put back into your order and compared. With **no positional
encoding** the attention just moves with the words — the difference is zero up to rounding.
With any encoding the model knows where each word is, so the attention really changes.
Switch *Positional encoding* to compare."""


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    status = gr.Markdown(elem_id="pe-status")
    picture = gr.Plot(show_label=False, elem_id="pe-picture")
    with gr.Row(equal_height=False):
        detail = gr.Plot(show_label=False, elem_id="pe-detail", min_width=300)
        similarity = gr.Plot(show_label=False, elem_id="pe-similarity", min_width=300)
    gr.Markdown(SHUFFLE_INTRO)
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

    def update(text, *values):
        *controls, shuffle_seed = values
        try:
            return compute(text, parse_controls(*controls), int(shuffle_seed or 0))
        except BadControl as exc:
            return [f"⚠️ {exc}", None, shown(None), shown(None), "", *no_test]
        except Exception:
            log.exception("positional view failed")
            return [FAILED, None, shown(None), shown(None), "", *no_test]

    def compute(text, c, shuffle_seed):
        picked = pick(zoo, c)
        model = picked.model
        if model is not None:
            config = model.config
        else:  # not trained (yet): the formula-based encodings can still be drawn
            base = zoo.get(zoo.default_name).config
            config = dataclasses.replace(base, pos_encoding=c.pos, n_heads=int(c.heads),
                                         causal=c.objective.startswith("next"))
        prep = prepare(tok, text or "", config.n_ctx, masked_word=not config.causal)
        view = encoding_view(config, model, len(prep.ids))
        pic, det, sim = encoding_figures(view, prep.pieces, theme=c.theme)
        head = [f"**{KIND_NAMES[config.pos_encoding]}.** {WHY[config.pos_encoding]}"]
        if model is None:
            head.insert(0, "⚠️ " + picked.missing + " The pictures below come from the "
                        "encoding's definition; the shuffle test needs the trained model.")
            return ["\n\n".join(head), pic, shown(det), shown(sim),
                    "*The shuffle test needs a trained model: pick a combination that "
                    "exists.*", *no_test]
        head.insert(0, model_line(zoo, picked, len(prep.ids)))
        if not prep.ids:
            return [EMPTY_STATE, pic, shown(det), shown(sim), "", *no_test]
        settings = dataclasses.replace(c.settings(), causal=False)
        r = shuffle_experiment(model, tok, text, settings, picked.layer, picked.head,
                               seed=shuffle_seed)
        head += [f"⚠️ {n}" for n in (*picked.notes, *r.notices)]
        lines = [equivariance_gap(r)]
        if r.perm is None:
            return ["\n\n".join(head), pic, shown(det), shown(sim), lines[0], *no_test]
        lines.append(f"Largest difference for layer {r.layer}, head {r.head}: "
                     f"**{r.max_diff_head:.2g}**; over every head: **{r.max_diff_all:.2g}**. "
                     f"The top guess changed at **{r.top_changed} of {len(r.tokens)}** "
                     "tokens (compared token by token).")
        if r.interventions:
            lines.append("🧪 Settings that differ from training here: "
                         + "; ".join(r.interventions) + ".")
        a, b, d = shuffle_figures(r, theme=c.theme)
        return ["\n\n".join(head), pic, shown(det), shown(sim), "\n\n".join(lines),
                gr.Column(visible=True), a, b, d]

    wire_live(panel, TAB, dict(fn=update, inputs=[*panel.inputs, seed], outputs=outputs))
    again.click(lambda s: int(s or 0) + 1, seed, seed, api_name=False).then(
        None, None, None, js=refresh_js(TAB))
