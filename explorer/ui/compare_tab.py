"""The Compare tab: two configurations side by side on the same sentence.

Left = the shared knobs; right = a compact second set of knobs inside this tab. Shows the
selected head in both, right − left, the mean |difference| per head and both sets of
guesses. "Swap" exchanges the two sides (the knobs get the right's values and the right
gets the knobs'); "Copy left → right" makes them equal, a zero-difference starting point.
A student's own Lab model ("my Lab model" on the Model knob, ``explorer/server/lab_session.py``) can
be either side, against a zoo model: Swap and Copy offer it to the right side's Model too.
"""

from __future__ import annotations

import gradio as gr

from explorer.server.lab_session import registry, sources
from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.ui.model_knobs import wire_knobs
from explorer.ui.plots import plot_row
from explorer.ui.step_bar import declare as step_bar
from explorer.views.compare import compare_view
from explorer.views.controls import KNOBS, parse_controls

TAB = "compare"

INTRO = """**Left** uses the knobs (the Knobs panel); **right** uses the knobs just below. Both read
your sentence, and the selected *Layer*/*Head* is shown for both. In the difference,
**red** means the right configuration puts more weight there and **blue** means the left
one does; white is no change."""


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update."""
    bar = step_bar(panel, TAB)  # a Start-here step that opened this view, at its top
    gr.Markdown(INTRO, elem_classes="caption-text")
    knobs, swap, copy = _right_knobs()
    right = list(knobs.values())
    bar.own.update(knobs)  # a step sets the right side too (step 6: the same model, scaling off)
    status = gr.Markdown(elem_id="cmp-status")
    left_head, right_head = plot_row("cmp-left", "cmp-right", min_width=300)
    difference, per_head = plot_row("cmp-diff", "cmp-per-head", min_width=(300, 260),
                                    scale=(3, 2))
    predictions = gr.Plot(show_label=False, elem_id="cmp-predictions")
    api = gr.Button("compare", visible=False)  # the API endpoint: no open-tab check

    left = [panel.objective, panel.heads, panel.pos, panel.mask, panel.scaling,
            panel.temperature]
    inputs = [panel.text, *left, panel.layer, panel.head, panel.theme, *right]
    outputs = [left_head, right_head, difference, per_head, predictions, status]

    models = registry(demo, zoo)  # "my Lab model": the session's own

    @guarded("compare", lambda message: (None, None, None, None, None, message))
    def compute(request: gr.Request, text, *values):
        a = parse_controls(*values[:9])
        b = parse_controls(*values[9:15], a.layer, a.head, a.theme)
        v = compare_view(zoo, tok, text, a, b,
                         sources=[sources(models, request, zoo, tok, c, text) for c in (a, b)])
        return v.left_head, v.right_head, v.difference, v.per_head, v.predictions, v.status

    def shown(request: gr.Request, text, *values):
        """The page's update: the difference figures hidden when there is none (two models
        that read the sentence as different tokens), not left as empty boxes."""
        out = list(compute(request, text, *values))
        for i in (2, 3):
            out[i] = gr.Plot(value=out[i], visible=out[i] is not None or out[0] is None)
        return out

    # A Swap changes up to twelve values; their triggers all click one always_last update.
    wire_live(panel, TAB, dict(fn=shown, inputs=inputs, outputs=outputs),
              extra=[c.change for c in right])
    api.click(compute, inputs, outputs, api_name="compare")

    _wire_sides(left, right, swap, copy)
    # the right side reaches only trained models too (masked word: its one model, saying so)
    wire_knobs(zoo, right[:3], panel.text, models, info="")  # no help line of its own


def _right_knobs():
    """The right side's knobs by name (objective, heads, pos, mask, scaling, temperature:
    the left side's order and the step bar's names), and the Swap and Copy buttons."""
    with gr.Accordion("Right side", open=True, elem_id="cmp-knobs"):
        with gr.Row(equal_height=False):
            objective = gr.Radio(list(KNOBS.objectives), value=next(iter(KNOBS.objectives)),
                                 label="Model", elem_id="cmp-objective", min_width=220)
            heads = gr.Radio(list(KNOBS.heads), value=4, label="Heads per layer",
                             elem_id="cmp-heads", min_width=160)
            pos = gr.Dropdown(list(KNOBS.positional), value="rotary", label="Positional encoding",
                              elem_id="cmp-pos", min_width=160)
        with gr.Row(equal_height=False):
            mask = gr.Radio(list(KNOBS.masks), value="off", label="Causal mask",
                            elem_id="cmp-mask", min_width=200)
            scaling = gr.Radio(list(KNOBS.scales), value="1/√d_head", label="Scaling",
                               elem_id="cmp-scaling", min_width=220)
            temperature = gr.Slider(*KNOBS.temperature_range, value=1.0, step=0.05,
                                    label="Temperature", elem_id="cmp-temperature",
                                    min_width=160)
        with gr.Row():
            swap = gr.Button("⇄ Swap left and right", size="sm", elem_id="cmp-swap")
            copy = gr.Button("Copy left → right", size="sm", elem_id="cmp-copy")
    return {"objective": objective, "heads": heads, "pos": pos, "mask": mask,
            "scaling": scaling, "temperature": temperature}, swap, copy


def _wire_sides(left: list, right: list, swap, copy) -> None:
    """Swap left and right; copy left to right (a Lab model needs its choice on the right)."""
    def right_model(value):
        """The right side's Model: a Lab model needs its choice there (this session's)."""
        if value == KNOBS.lab:
            return gr.Radio(choices=[*KNOBS.objectives, KNOBS.lab], value=value)
        return value

    def swap_sides(*values):
        return (*values[6:], right_model(values[0]), *values[1:6])

    def copy_sides(*values):
        return (right_model(values[0]), *values[1:])

    swap.click(swap_sides, [*left, *right], [*left, *right], api_name="compare_swap",
               show_progress="hidden")
    copy.click(copy_sides, left, right, api_name="compare_copy", show_progress="hidden")
