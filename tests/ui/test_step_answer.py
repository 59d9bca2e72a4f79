"""explorer/ui/step_bar.py answer_reply: a step's answer leaves the server only when a page
asks for that step (its fold opened), as JSON the page fills in (static/step_answer.js);
anything else a page could send gets no answer at all."""

from __future__ import annotations

import json

from explorer.ui.step_bar import answer_reply
from explorer.views.start_here import Step


def path() -> list[Step]:
    return [Step("1 · One", "Look.", "Which?", "The *first* answer.", "explore", {}),
            Step("2 · Two", "Look.", "Which?", "The **second** answer.", "explore", {})]


def test_the_step_asked_gets_its_answer_as_safe_html():
    got = json.loads(answer_reply(path(), "2"))
    assert got["step"] == 2
    assert "second" in got["html"] and "<strong>" in got["html"]
    assert json.loads(answer_reply(path(), " 1 "))["step"] == 1


def test_no_answer_for_anything_else():
    for asked in ("0", "3", "-1", "", None, "two", "1" * 400, "<script>"):
        assert answer_reply(path(), asked) is None, asked
