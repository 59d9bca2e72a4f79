"""The Model, Heads and Positional knobs reach only models that were trained.

Only one masked-word model exists (:mod:`explorer.views.model_choice`): choosing "masked
word" sets Heads and Positional to it and switches them off, and the Model knob says why
(one server event per change of the Model knob; no model runs). A sentence with
``[mask]`` on the next-word model (an example, a paste, typing) switches to the
masked-word model: a js-only listener of the sentence box, so a keystroke costs no server
round; the Model knob's change then says so. ``Explore`` wires it (it is always on the
page and has the zoo).
"""

from __future__ import annotations

import gradio as gr

from explorer.ui import bridge
from explorer.ui.controls import HELP, Panel
from explorer.views.controls import LAB_OBJECTIVE
from explorer.views.lab_models import LabModels, lab_knobs
from explorer.views.model_choice import fit_knobs, switch_for


def wire(zoo, panel: Panel, models: LabModels | None = None) -> None:
    """Wire the knobs of ``panel`` to the models of ``zoo`` (and to the session's own Lab
    model in ``models``)."""
    quiet = dict(queue=False, show_progress="hidden", api_name=False)

    def fit(objective, heads, pos, text, request: gr.Request):
        if objective == LAB_OBJECTIVE:
            session = getattr(request, "session_hash", None)
            f = lab_knobs(models.get(session) if models is not None else None, heads, pos)
        else:
            f = fit_knobs(zoo, objective, heads, pos, text)
        return (gr.Radio(info=f.note or HELP["objective"]),
                gr.Radio(value=f.heads, interactive=not f.fixed),
                gr.Radio(value=f.pos, interactive=not f.fixed))

    knobs = [panel.objective, panel.heads, panel.pos]
    panel.objective.change(fit, [*knobs, panel.text], knobs, **quiet)
    data = switch_for(zoo)
    if data:
        panel.text.change(None, [panel.text, *knobs], knobs,
                          js=bridge.js("model.switch", data), **quiet)  # static/small_wiring.js
