"""The "Through the layers" tab: attention rollout from one output token back to the input."""

from __future__ import annotations

import gradio as gr

from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.views.controls import parse_controls
from explorer.views.layers import METHOD_NAMES, layers_view

TAB = "layers"

INTRO = """One attention map says where a token looks **in one layer**. But layer 2 looks at
tokens that already mixed in others at layer 1, and the residual connection keeps part of
every token as it was. **Attention rollout** (from a 2020 research paper) follows that mixing
through all layers: average the heads, add the residual (the identity), renormalise, multiply
layer by layer. Pick an **output token**: each row shows how much of it, after that layer,
comes from each input token. The *residual-aware* variant weighs attention against the
residual by how much each really writes (their vector norms) instead of half-and-half. The
*Layer*/*Head* knobs don't apply here (all heads are averaged); every other knob does.
Rollout is a picture of attention flow, not proof of what the model used."""

METHOD_CHOICES = [(METHOD_NAMES["rollout"], "rollout"), (METHOD_NAMES["residual"], "residual")]


@guarded("through the layers", lambda message: (message, None, None, None, None))
def compute(zoo, tok, text, controls: list, method: str, position, follow_last: bool):
    """(status, heatmap, strip, output position, token count) for one request; position
    and count are None when the request shows nothing new (a failed one, too)."""
    v = layers_view(zoo, tok, text, parse_controls(*controls), method, position, follow_last)
    return v.status, v.heatmap, v.strip, v.position, v.n_tokens


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update."""
    status = gr.Markdown(elem_id="layers-status")
    gr.Markdown(INTRO, elem_classes="caption-text")
    with gr.Row(equal_height=False):
        method = gr.Radio(METHOD_CHOICES, value="rollout", label="Method",
                          elem_id="layers-method", scale=1, min_width=240)
        # Sized to the sentence by every update; the initial range admits any position a
        # model can have, since Gradio checks a value against the range before our code.
        longest = max((m.config.n_ctx for m in zoo.models.values()), default=128) - 1
        position = gr.Slider(0, longest, value=longest, step=1,
                             label="Output token (position)",
                             info="Starts at the last token and follows it as you type.",
                             elem_id="layers-position", scale=1, min_width=240)
    heatmap = gr.Plot(show_label=False, elem_id="layers-heatmap")
    gr.Markdown("#### After the last layer: the darker a token, the more of the output token "
                "(◀) comes from it", elem_classes="caption")
    strip = gr.HighlightedText(show_label=False, elem_id="layers-text", interactive=False,
                               show_legend=False, combine_adjacent=False)
    seen_n = gr.State(None)  # token count the position slider was last sized for
    outputs = [status, heatmap, strip, position, seen_n]

    def update(text, *values):
        *controls, chosen_method, chosen_position, previous_n = values
        # Follow the end of the sentence while the slider sits on the last token.
        try:
            follow = previous_n is None or int(chosen_position) >= int(previous_n) - 1
        except (TypeError, ValueError):
            follow = True
        status_md, fig, strip_, at, n = compute(zoo, tok, text, controls, chosen_method,
                                                chosen_position, follow)
        if at is None:
            return status_md, fig, strip_, gr.skip(), previous_n
        slider = gr.Slider(maximum=max(n - 1, 1), value=at, interactive=n > 1)
        return status_md, fig, strip_, slider, n

    # position.input: only the student's own moves (our resizing must not loop back)
    wire_live(panel, TAB, dict(fn=update, inputs=[*panel.inputs, method, position, seen_n],
                               outputs=outputs), extra=(method.change, position.input),
              watch=("text", "objective", "heads", "pos", "mask", "scaling", "temperature",
                     "theme"))

    # API (tests, scripts): the same view for given values, whichever tab is open; the
    # position is bounded to the sentence (a large number means the last token).
    def api(text, *values):
        *controls, chosen_method, chosen_position = values
        status_md, fig, strip_, at, _n = compute(zoo, tok, text, controls, chosen_method,
                                                 chosen_position, False)
        return status_md, fig, strip_, chosen_position if at is None else at

    hidden = gr.Button("layers api", visible=False)
    hidden.click(api, [*panel.inputs, method, position], [status, heatmap, strip, position],
                 api_name="layers", show_progress="hidden")
