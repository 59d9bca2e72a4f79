"""Explore's /explore endpoint fails through explorer/ui/errors.guarded, as the other tabs do:
a refused knob says why, anything else is logged and the student reads FAILED."""

from __future__ import annotations

import logging

import explorer.ui.explore_tab
from explorer.ui.errors import FAILED
from explorer.views.lab_models import NOT_OPEN
from tests.server import local_client

CONTROLS = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0, "light"]


def test_explore_raising_answers_the_generic_message(app_url, monkeypatch, caplog):  # noqa: F811
    def broken(*args, **kwargs):
        raise RuntimeError("secret/path/in/a/trace.py")

    monkeypatch.setattr(explorer.ui.explore_tab, "explore", broken)
    with caplog.at_level(logging.ERROR, logger="attention_explorer"):
        *figures, status, table = local_client(app_url).predict("The cat sat.", *CONTROLS,
                                                                api_name="/explore")
    assert status == FAILED and figures == [None] * 4 and table == ""
    assert "secret/path" in caplog.text  # the server log keeps the trace


def test_a_refused_knob_on_explore_says_why(app_url):  # noqa: F811
    # "my Lab model" with none open in this session: a BadControl, in its own words
    *figures, status, _ = local_client(app_url).predict("The cat sat.", "my Lab model",
                                                        *CONTROLS[1:], api_name="/explore")
    assert status == f"⚠️ {NOT_OPEN}" and figures == [None] * 4
