"""explorer/ui/errors.guarded: the one way a view's update fails."""

from __future__ import annotations

import importlib
import inspect
import logging

import gradio as gr
import pytest

from explorer.ui.errors import FAILED, guarded
from explorer.views.controls import LAB_OBJECTIVE, BadControl
from explorer.views.lab_models import NOT_OPEN
from tests.server import local_client


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


# --- the tabs that use it, over the API of the real app: a view that raises -----------------

CONTROLS = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0, "light"]
# (module, name of the view function it calls, API name, extra inputs after the knobs)
BROKEN = [("layers_tab", "layers_view", "/layers", ["rollout", 3]),
          ("ablate_tab", "ablate_view", "/ablate", [["L0 H1"]]),
          ("take_home_tab", "take_home_view", "/export_view", ["http://127.0.0.1/"]),
          ("take_home_tab", "prepare_files", "/export_files", [])]


@pytest.mark.parametrize("module, view, api_name, extra", BROKEN)
def test_a_tab_whose_view_raises_answers_the_generic_message(app_url, monkeypatch, caplog,  # noqa: F811
                                                             module, view, api_name, extra):
    def broken(*args, **kwargs):
        raise RuntimeError("secret/path/in/a/trace.py")

    monkeypatch.setattr(importlib.import_module(f"explorer.ui.{module}"), view, broken)
    with caplog.at_level(logging.ERROR, logger="attention_explorer"):
        status, *rest = local_client(app_url).predict("The cat sat.", *CONTROLS, *extra,
                                                      api_name=api_name)
    assert status == FAILED and "secret" not in repr(rest)
    assert "secret/path" in caplog.text  # the server log keeps the trace


@pytest.mark.parametrize("api_name, extra", [("/ablate", [[]]),
                                             ("/export_view", ["http://127.0.0.1/"]),
                                             ("/export_files", [])])
def test_a_refusal_is_named_by_the_tabs(app_url, api_name, extra):  # noqa: F811
    knobs = [LAB_OBJECTIVE, *CONTROLS[1:]]  # "my Lab model", and this session opened none
    status, *_ = local_client(app_url).predict("The cat sat.", *knobs, *extra,
                                               api_name=api_name)
    assert status == f"⚠️ {NOT_OPEN}"
