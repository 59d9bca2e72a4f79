"""The "Through the layers" tab: attention rollout from one output token back to the input."""

from __future__ import annotations

import logging

import gradio as gr

from explorer.analysis.rollout import METHOD_NAMES, clamp_position, rollout_for
from explorer.analysis.run import plural
from explorer.figures.labels import display_token
from explorer.figures.layers_and_training import rollout_heatmap
from explorer.views.controls import EMPTY_STATE, BadControl, parse_controls
from explorer.views.export import pick_model
from ui.controls import Panel, wire_live

log = logging.getLogger("attention_explorer")
TAB = "layers"
FAILED = "⚠️ Something went wrong with this request. Please try again."

INTRO = """One attention map says where a token looks **in one layer**. But layer 2 looks at
tokens that already mixed in others at layer 1, and the residual connection keeps part of
every token as it was. **Attention rollout** follows that mixing through all layers: average
the heads, add the residual (the identity), renormalise, multiply layer by layer. Pick an
**output token**: each row shows how much of it, after that layer, comes from each input
token. The *residual-aware* variant weighs attention against the residual by how much each
really writes (their vector norms) instead of half-and-half. The *Layer*/*Head* knobs don't
apply here (all heads are averaged); every other knob does. Rollout is a picture of
attention flow, not proof of what the model used."""

METHOD_CHOICES = [(METHOD_NAMES["rollout"], "rollout"), (METHOD_NAMES["residual"], "residual")]
STRIP_MARK = " ◀"


# The strongest token's shade: Gradio draws a score of 1 in full red, on which neither its
# light-mode text (4.4:1) nor its dark-mode text (4.0:1) reaches 4.5:1; at 0.8 both do.
STRIP_STRONGEST = 0.8


def strip_value(tokens: list[str], shares, position: int) -> list[tuple[str, float | None]]:
    """HighlightedText value: each token's text (invisible characters made visible,
    spaces kept) with its share relative to the largest (which gets ``STRIP_STRONGEST``),
    then a marker after the output token. Rendered by Gradio as text, never as HTML."""
    peak = max(float(max(shares, default=0.0)), 1e-12) / STRIP_STRONGEST
    value: list[tuple[str, float | None]] = []
    for i, (piece, share) in enumerate(zip(tokens, shares, strict=True)):
        value.append((display_token(piece, visible_spaces=False) or "∅",
                      round(float(share) / peak, 3)))
        if i == position:
            value.append((STRIP_MARK, None))
    return value


def compute(zoo, tok, text, controls: list, method: str, position, follow_last: bool):
    """(status, heatmap, strip, output position, token count) for one request; position
    and count are None when the request shows nothing new. ``follow_last``: show the
    last token whatever ``position`` says (the slider sat on the end of the sentence)."""
    try:
        c = parse_controls(*controls)
    except BadControl as exc:
        return f"⚠️ {exc}", None, None, None, None
    if method not in METHOD_NAMES:
        return "⚠️ That method is not offered.", None, None, None, None
    picked = pick_model(zoo, c)
    if picked.model is None:
        return "⚠️ " + picked.missing, None, None, None, None
    if not (text or "").strip():
        return EMPTY_STATE, None, None, 0, 0
    r = rollout_for(picked.model, tok, text, c.settings())
    n = len(r.tokens)
    if n == 0:
        return EMPTY_STATE, None, None, 0, 0
    at = n - 1 if follow_last else clamp_position(position, n)
    shares = r.for_output(method, at)  # [layer, T]
    shown = display_token(r.tokens[at])
    shown = shown if len(shown) <= 14 else shown[:13] + "…"
    fig = rollout_heatmap(shares, r.tokens, position=at, theme=c.theme,
                          title=f"Output token {at} ({shown}) ← input tokens")
    strip = strip_value(r.tokens, shares[-1], at)
    lines = [f"Model **{picked.name}** · {plural(n, 'token')} · output token at position "
             f"**{at}** · {METHOD_NAMES[method]}"]
    if method == "residual":
        per_layer = ", ".join(f"L{la} {a:.2f}" for la, a in enumerate(r.alpha.mean(1)))
        lines.append(f"Share given to attention (mean over tokens; classic rollout uses "
                     f"0.50): {per_layer}.")
    if r.resolved.interventions:
        lines.append("🧪 **Experiment on the trained model:** "
                     + "; ".join(r.resolved.interventions) + ".")
    lines += [f"⚠️ {note}" for note in r.notices]
    return "\n\n".join(lines), fig, strip, at, n


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
        try:
            status_md, fig, strip_, at, n = compute(zoo, tok, text, controls, chosen_method,
                                                    chosen_position, follow)
        except Exception:  # never show a student a stack trace; keep it in the server log
            log.exception("through the layers failed")
            return FAILED, None, None, gr.skip(), previous_n
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
        try:
            status_md, fig, strip_, at, _n = compute(zoo, tok, text, controls, chosen_method,
                                                     chosen_position, False)
        except Exception:
            log.exception("through the layers (api) failed")
            return FAILED, None, None, chosen_position
        return status_md, fig, strip_, chosen_position if at is None else at

    hidden = gr.Button("layers api", visible=False)
    hidden.click(api, [*panel.inputs, method, position], [status, heatmap, strip, position],
                 api_name="layers", show_progress="hidden")
