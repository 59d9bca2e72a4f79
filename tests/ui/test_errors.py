"""explorer/ui/errors.guarded: the one way a view's update fails."""

from __future__ import annotations

import inspect
import logging

import gradio as gr

from explorer.ui.errors import FAILED, guarded
from explorer.views.controls import BadControl


def test_a_refused_knob_says_why_and_anything_else_is_logged_not_shown(caplog):
    @guarded("the test view", lambda message: [message, None])
    def update(text):
        if text == "bad":
            raise BadControl("Heads must be 1, 2, 4 or 8.")
        if text == "boom":
            raise RuntimeError("secret/path/in/a/trace.py")
        return ["fine", 1]

    assert update("ok") == ["fine", 1]
    assert update("bad") == ["⚠️ Heads must be 1, 2, 4 or 8.", None]
    with caplog.at_level(logging.ERROR, logger="attention_explorer"):
        assert update("boom") == [FAILED, None]
    assert "the test view failed" in caplog.text and "secret/path" in caplog.text
    assert "secret" not in FAILED


def test_gradio_still_sees_the_request_parameter():
    @guarded("x", lambda message: message)
    def update(request: gr.Request, text):
        return text

    assert list(inspect.signature(update).parameters) == ["request", "text"]
