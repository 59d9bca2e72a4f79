"""A student's own Lab model in the page: one registry per app, dropped with the session.

:func:`registry` makes the app's :class:`~explorer.views.lab_models.LabModels` on first
use and ties it to the session's end: the page's unload (the tab is closed or reloaded)
closes that session's model, and the session sweep (``explorer/server/sessions.py``) closes the
models of sessions the server no longer keeps. :func:`sources` gives a view's handler the (zoo,
tokenizer) of its request: the shared ones, or the session's own model when the Model
knob says "my Lab model" (a message for the student instead, as :class:`BadControl`).
"""

from __future__ import annotations

import gradio as gr

from explorer.views.controls import Controls
from explorer.views.lab_models import LabModels, source


def registry(demo: gr.Blocks, zoo) -> LabModels:
    """The app's opened Lab models (made, and hooked to the session's end, on first use;
    call inside ``demo``'s context)."""
    models = getattr(demo, "lab_models", None)
    if models is None:
        models = LabModels(device=getattr(zoo, "device", "cpu"))
        demo.lab_models = models
        demo.session_sweepers = [*getattr(demo, "session_sweepers", ()), models.keep_only]

        def closed(request: gr.Request) -> None:  # the page was closed or reloaded
            models.drop(request.session_hash)

        demo.unload(closed)
    return models


def session_of(request: gr.Request | None) -> str | None:
    return getattr(request, "session_hash", None) or None


def sources(models: LabModels, request: gr.Request | None, zoo, tok, controls: Controls,
            text) -> tuple:
    """(zoo, tokenizer) for this request's controls (see the module docstring)."""
    return source(models, session_of(request), zoo, tok, controls, text)
