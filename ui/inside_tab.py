"""The "Inside one head" tab: every stage of the selected head, X to the output projection."""

from __future__ import annotations

import logging

import gradio as gr

from explorer.analysis.stages import head_stages, model_line, pick
from explorer.figures.matrices import stage_figure
from explorer.views.controls import EMPTY_STATE, BadControl, parse_controls
from ui.controls import Panel, wire_live

log = logging.getLogger("attention_explorer")
TAB = "inside"
FAILED = "⚠️ Something went wrong with this request. Please try again."

INTRO = """Follow **one head** (pick it with *Layer* and *Head*) through one attention layer,
on your sentence: the input **X** becomes queries, keys and values; every query is compared
with every key (**Q·Kᵀ**); the scores are **scaled**, **masked** and turned into weights by a
**softmax**; the weights average the values (**A·V**); all heads are **concatenated** and
**projected** back. Each picture's title gives its real shape. Every knob applies here too —
turn off the mask or the scaling and watch which step changes. Tap or hover over a cell for
its value."""

# Stage keys in page order; rot_q / rot_k only exist for rotary models.
KEYS = ("x", "q", "k", "v", "rot_q", "rot_k", "scores", "scaled", "masked", "pattern", "z",
        "concat", "out")


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update."""
    status = gr.Markdown(elem_id="inside-status")
    gr.Markdown(INTRO)
    plots: dict[str, gr.Plot] = {}

    def plot(key: str) -> None:
        plots[key] = gr.Plot(show_label=False, elem_id=f"inside-{key}", min_width=260)

    gr.Markdown("#### 1 · The input", elem_classes="caption")
    plot("x")
    gr.Markdown("#### 2 · Queries, keys and values of this head", elem_classes="caption")
    with gr.Row(equal_height=False):
        for key in ("q", "k", "v"):
            plot(key)
    with gr.Column(visible=False) as rotary_box:
        gr.Markdown("#### 2b · Rotary: q and k turned by position (v is not)",
                    elem_classes="caption")
        with gr.Row(equal_height=False):
            plot("rot_q")
            plot("rot_k")
    gr.Markdown("#### 3 · Scores, scaling, mask", elem_classes="caption")
    with gr.Row(equal_height=False):
        plot("scores")
        plot("scaled")
    with gr.Row(equal_height=False):
        plot("masked")
        plot("pattern")
    gr.Markdown("#### 4 · Weighted values, heads merged, output", elem_classes="caption")
    plot("z")
    plot("concat")
    plot("out")
    outputs = [status, rotary_box, *(plots[k] for k in KEYS)]
    blank = [None] * len(KEYS)

    def update(text, *controls):
        try:
            c = parse_controls(*controls)
            picked = pick(zoo, c)
            if picked.model is None:
                return ["⚠️ " + picked.missing, gr.Column(visible=False), *blank]
            if not (text or "").strip():
                return [EMPTY_STATE, gr.Column(visible=False), *blank]
            r = head_stages(picked.model, tok, text, c.settings(), picked.layer, picked.head)
        except BadControl as exc:
            return [f"⚠️ {exc}", gr.Column(visible=False), *blank]
        except Exception:  # never show a student a stack trace; keep it in the server log
            log.exception("inside one head failed")
            return [FAILED, gr.Column(visible=False), *blank]
        if r.empty:
            return [EMPTY_STATE, gr.Column(visible=False), *blank]
        lines = [model_line(zoo, picked, len(r.tokens))
                 + f" · **layer {r.layer}, head {r.head}**"]
        if r.resolved.interventions:
            lines.append("🧪 **Experiment on the trained model:** "
                         + "; ".join(r.resolved.interventions) + ".")
        lines += [f"⚠️ {n}" for n in (*picked.notes, *r.notices)]
        figs = [stage_figure(r.stages[k], r.tokens, theme=c.theme) if k in r.stages else None
                for k in KEYS]
        return ["\n\n".join(lines), gr.Column(visible="rot_q" in r.stages), *figs]

    wire_live(panel, TAB, dict(fn=update, inputs=panel.inputs, outputs=outputs))
