"""The "Encoder–decoder" tab: a model that reverses a list of words, decoding step by step,
with its three kinds of attention and the masks that shape them."""

from __future__ import annotations

import gradio as gr

from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.views.controls import BOX_CHARS, parse_controls
from explorer.views.seq2seq import (
    EXAMPLES,
    MAX_WORDS,
    MIN_WORDS,
    OTHER_DEFAULT,
    WORDS,
    load_seq2seq,
    seq2seq_view,
    step_view,
)

TAB = "seq2seq"

INTRO = f"""Another kind of transformer, as in *Attention Is All You Need*: an **encoder**
reads your list, a **decoder** writes the answer **one word per step**, and at every step
**cross-attention** lets the decoder look back at the encoder's words. This small model
(trained by this project, own checkpoint) learnt one job you can check by eye:
**reverse a list** of {MIN_WORDS}–{MAX_WORDS} words — *cat sun box* → *box sun cat*.
It only knows the {len(WORDS)} words listed below (each is one token); other words are
refused rather than guessed, because the model never saw them. Of the knobs, *Causal
mask*, *Scaling* and *Temperature* act here (on the decoder's mask and on every head's
scores), *Layer*/*Head* pick the head in the padding view; the model choosers do not."""

MASKS = {
    "padding": "**Padding mask** (acts here and in cross-attention): `⟨pad⟩` positions that "
               "fill a short input up to the batch's length are removed as keys — weight "
               "exactly 0.",
    "causal": "**Causal mask** (acts only here): output position t may read positions ≤ t — "
              "the words written so far, never the ones still to come.",
    "cross": "**Cross-attention mask**: no causal mask across the two sequences — every "
             "output position may read every real source word; only source padding is "
             "masked.",
}
STEP_HELP = ("Step t: the decoder has written t − 1 words and chooses word t. Move the "
             "slider to see which source words it read to choose it.")


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's components (inside the caller's ``gr.Tab``) and wire them."""
    loaded = load_seq2seq(tok, device=zoo.device)  # once, at start-up: read-only, shared
    gr.Markdown(INTRO)
    with gr.Row(equal_height=False):
        source = gr.Textbox(label="Your list of words", value=EXAMPLES[0], lines=1,
                            max_length=BOX_CHARS, elem_id="s2s-source",
                            info="Updates as you type. Spaces or commas between words.")
        other = gr.Textbox(label="A second list (for the padding view)", value=OTHER_DEFAULT,
                           lines=1, max_length=BOX_CHARS, elem_id="s2s-other")
    gr.Examples(EXAMPLES, inputs=source, label="Examples")
    with gr.Accordion(f"The {len(WORDS)} words this model knows", open=False):
        gr.Markdown(", ".join(WORDS))
    status = gr.Markdown(elem_id="s2s-status")

    step, step_outputs, figures = _figures()
    decoded = gr.State(None)  # this user's last decoding: the step slider redraws from it

    outputs = [status, decoded, step, *step_outputs, *figures]
    blank = [None] * (len(outputs) - 3)

    @guarded("encoder-decoder view", lambda message: [message, None, gr.skip(), *blank])
    def update(text_source, text_other, step_value, *controls):
        c = parse_controls(*controls)
        v = seq2seq_view(loaded, text_source, text_other, step_value, c.settings(),
                         theme=c.theme, layer=c.layer, head=c.head)
        s = v.step or step_view(None, 1)
        return [v.status, v.decoded, gr.Slider(maximum=max(v.n_steps, 2), value=s.step),
                s.output_spans or None, s.source_spans or None, s.fig, v.enc_fig, v.dec_fig,
                v.cross_fig, v.pad_note, v.batch_fig, v.pad_enc_fig, v.pad_cross_fig]

    def move_step(kept, step_value, theme):
        if kept is None:
            return [gr.skip()] * len(step_outputs)
        s = step_view(kept, step_value, "dark" if theme == "dark" else "light")
        return [s.output_spans, s.source_spans, s.fig]

    # Its own boxes update it; of the shared knobs, the ones that act on this model.
    wire_live(panel, TAB, dict(fn=update, inputs=[source, other, step, *panel.inputs[1:]],
                               outputs=outputs),
              extra=(source.change, other.change),
              watch=("mask", "scaling", "temperature", "layer", "head", "theme"))
    # The step slider only redraws the step (.input: the student's moves, not the maximum
    # set above); no model runs.
    step.input(move_step, [decoded, step, panel.theme], step_outputs, show_progress="hidden",
               trigger_mode="always_last", api_name=False)


def _figures():
    """The step slider, what one step shows ([output, looked, its figure]) and the rest:
    [encoder, decoder, cross-attention, the padding note, the batch, padding in the
    encoder and in cross-attention]."""
    gr.Markdown("#### The output, built one word per step", elem_classes="caption")
    step = gr.Slider(1, MAX_WORDS + 1, value=1, step=1, label="Step", info=STEP_HELP,
                     elem_id="s2s-step")
    output = gr.HighlightedText(label="Output so far", elem_id="s2s-output",
                                color_map={"this step": "#e66100", "written": "#0072b2"},
                                show_inline_category=False, show_legend=False)
    looked = gr.HighlightedText(label="Source words it looked at (cross-attention, mean of "
                                "all heads)", elem_id="s2s-looked",
                                show_inline_category=False)
    step_plot = gr.Plot(show_label=False, elem_id="s2s-step-fig")

    gr.Markdown("#### 1 · Encoder self-attention (source ↔ source)", elem_classes="caption")
    gr.Markdown(MASKS["padding"])
    enc_plot = gr.Plot(show_label=False, elem_id="s2s-enc")
    gr.Markdown("#### 2 · Decoder masked self-attention (output ↔ output)",
                elem_classes="caption")
    gr.Markdown(MASKS["causal"])
    dec_plot = gr.Plot(show_label=False, elem_id="s2s-dec")
    gr.Markdown("#### 3 · Decoder → encoder cross-attention (output → source)",
                elem_classes="caption")
    gr.Markdown(MASKS["cross"])
    cross_plot = gr.Plot(show_label=False, elem_id="s2s-cross")

    gr.Markdown("#### Padding: two lists of different lengths in one batch",
                elem_classes="caption")
    gr.Markdown("A batch is a rectangle, so the shorter list is filled with `⟨pad⟩`. "
                + MASKS["padding"])
    pad_note = gr.Markdown(elem_id="s2s-pad-note")
    batch_plot = gr.Plot(show_label=False, elem_id="s2s-batch")
    with gr.Row(equal_height=False):
        pad_enc = gr.Plot(show_label=False, elem_id="s2s-pad-enc", min_width=300)
        pad_cross = gr.Plot(show_label=False, elem_id="s2s-pad-cross", min_width=300)

    return step, [output, looked, step_plot], [enc_plot, dec_plot, cross_plot, pad_note,
                                               batch_plot, pad_enc, pad_cross]
