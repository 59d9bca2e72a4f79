"""The "Through training" tab: the default model's attention at each saved training snapshot."""

from __future__ import annotations

import gradio as gr

from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.ui.step_bar import declare as step_bar
from explorer.views.controls import BadControl, parse_controls
from explorer.views.through_training import SnapshotSet, load_snapshots, training_view

TAB = "training"

INTRO = """The same model, saved at several moments while it learned. Slide from the first
snapshot (almost untrained: every head spreads its attention evenly) to the last and watch
heads take on jobs — first some look at **the previous word**, then, suddenly, one learns to
**copy**: when words are said twice, it looks at the word that came next last time (an
induction head). The chart shows the loss going down and, below it, how strongly the most
previous-token-like head attends to the word just before (solid; dashed: spreading
attention evenly) and the best head's weight on the copy target: on your sentence said
twice (dotted) and on a list of words said twice (dash-dot). A story sentence said twice
needs little copying (the story itself says what comes next), so its curve can stay low
where the list's jumps. Snapshots exist for the default model only; the mask, scaling,
temperature and *Layer*/*Head* knobs apply."""


def compute(snaps: SnapshotSet, tok, text, controls: list, index):
    """(status, chart, grid, head) for one request."""
    try:
        c = parse_controls(*controls)
    except BadControl as exc:
        return f"⚠️ {exc}", None, None, None
    return training_view(snaps, tok, text, c, index).as_tuple()


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel,
          snapshots: SnapshotSet | None = None) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update.
    Snapshots load here, once per process (:func:`cached_snapshots`), on the zoo's device."""
    snaps = snapshots if snapshots is not None else load_snapshots(tok, device=zoo.device)
    n = len(snaps)
    bar = step_bar(panel, TAB)  # a Start-here step that opened this view, at its top
    status = gr.Markdown(elem_id="training-status")
    gr.Markdown(INTRO, elem_classes="caption-text", elem_id="training-intro")  # step 7 covers it
    labels = ", ".join(f"{i}: step {s.step}" for i, s in enumerate(snaps.snapshots))
    index = gr.Slider(0, max(n - 1, 1), value=max(n - 1, 0), step=1,
                      label="Training snapshot", info=labels or None,
                      interactive=n > 1, visible=n > 0, elem_id="training-snapshot")
    bar.own["snapshot"] = index  # a step may start at a snapshot (step 7: the first)
    chart = gr.Plot(show_label=False, elem_id="training-chart")
    gr.Markdown("#### Every head at this snapshot (rows are layers, columns heads)",
                elem_classes="caption")
    grid = gr.Plot(show_label=False, elem_id="training-grid")
    big = gr.Plot(show_label=False, elem_id="training-head")
    outputs = [status, chart, grid, big]

    @guarded("through training", lambda message: (message, None, None, None))
    def update(text, *values):
        *controls, chosen = values
        return compute(snaps, tok, text, controls, chosen)

    # Snapshots exist for the default model only: the model knobs do not apply here.
    wire_live(panel, TAB, dict(fn=update, inputs=[*panel.inputs, index], outputs=outputs),
              extra=(index.change,),
              watch=("text", "mask", "scaling", "temperature", "layer", "head", "theme"))

    @guarded("through training (api)", lambda message: (message, None, None, None))
    def api(text, *values):  # the same view for given values, whichever tab is open
        *controls, chosen = values
        return compute(snaps, tok, text, controls, chosen)

    hidden = gr.Button("training api", visible=False)
    hidden.click(api, [*panel.inputs, index], outputs, api_name="training",
                 show_progress="hidden")
