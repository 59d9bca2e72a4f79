"""The Model, Heads and Positional knobs reach only models that were trained.

Only one masked-word model exists (:mod:`explorer.views.model_choice`): choosing "masked
word" sets Heads and Positional to it and switches them off, and the Model knob says why
(one server event per change of the Model knob; no model runs). A sentence with
``[mask]`` on the next-word model (an example, a paste, typing) switches to the
masked-word model: a js-only listener of the sentence box, so a keystroke costs no server
round; the Model knob's change then says so. ``Explore`` wires it (it is always on the
page and has the zoo). Compare's right side has knobs of its own: :func:`wire_knobs` keeps
them to trained models the same way.
"""

from __future__ import annotations

import gradio as gr

from explorer.ui import bridge
from explorer.ui.controls import HELP, Panel
from explorer.views.controls import LAB_OBJECTIVE
from explorer.views.lab_models import LabModels, lab_knobs
from explorer.views.model_choice import fit_knobs, switch_for

QUIET = dict(queue=False, show_progress="hidden", api_name=False)


def wire(zoo, panel: Panel, models: LabModels | None = None) -> None:
    """Wire the knobs of ``panel`` to the models of ``zoo`` (and to the session's own Lab
    model in ``models``)."""
    knobs = [panel.objective, panel.heads, panel.pos]
    wire_knobs(zoo, knobs, panel.text, models)
    data = switch_for(zoo)
    if data:
        panel.text.change(None, [panel.text, *knobs], knobs,
                          js=bridge.js("model.switch", data), **QUIET)  # static/small_wiring.js


def wire_knobs(zoo, knobs: list, text, models: LabModels | None = None,
               info: str = HELP["objective"]) -> None:
    """One side's [Model, Heads, Positional] knobs: a change of the Model sets Heads and
    Positional to a trained model (fixed, with a note in the Model's info, while it is the
    only one; else its ``info`` again); ``text``: the sentence box (its ``[mask]`` is named
    as the reason)."""
    def fit(objective, heads, pos, text, request: gr.Request):
        if objective == LAB_OBJECTIVE:
            session = getattr(request, "session_hash", None)
            f = lab_knobs(models.get(session) if models is not None else None, heads, pos)
        else:
            f = fit_knobs(zoo, objective, heads, pos, text)
        return (gr.update(info=f.note or info),
                gr.update(value=f.heads, interactive=not f.fixed),
                gr.update(value=f.pos, interactive=not f.fixed))

    knobs[0].change(fit, [*knobs, text], knobs, **QUIET)
