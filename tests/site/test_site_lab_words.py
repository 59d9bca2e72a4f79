"""Step 9's words on the static page (explorer/site/lab_words.py) are the app's Lab view's
(explorer/views/lab.py), one source: each template, filled in with a run's numbers as
static/site/fig_lab.js fills it, is what the app's view says of that run, to the character;
and no word of them says "server" or "recorded" (the static page has neither)."""

from __future__ import annotations

import re

import pytest

from explorer.site.lab_words import lab_words
from explorer.site.markdown import to_html
from explorer.views.lab import LabSettings, lab_view


def fill(template: str, values: dict) -> str:
    # static/site/fig_lab.js's fill(): {name} -> the number, as the page formats it
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)


def page_status(words, last, layers, state, summary=None) -> str:
    """fig_lab.js statusHtml, in Python (the best head: the first of the largest)."""
    def best(grid):
        flat = [(v, layer, h) for layer, row in enumerate(grid) for h, v in enumerate(row)]
        v, layer, h = max(flat, key=lambda t: (t[0], -t[1], -t[2]))
        return layer, h, f"{round(v * 100)}%"
    (layer, h, score), (pl, ph, ps) = best(last["induction"]), best(last["previous_token"])
    text = fill(words["status"][str(layers)], {
        "step": last["step"], "seconds": f"{last['seconds']:.1f}",
        "lossCopy": f"{last['loss_copy']:.2f}", "lossFresh": f"{last['loss_fresh']:.2f}",
        "layer": layer, "head": h, "score": score, "pLayer": pl, "pHead": ph, "pScore": ps})
    if last.get("formed_at_step") is not None:
        text = fill(words["formed"], {"formed": last["formed_at_step"]}) + text
    if state == "stopped":
        text = words["stopped"] + text
    elif state == "done" and summary and not summary["formed"]:
        text += fill(words["noHead"][str(layers)], {"steps": summary["steps"]})
    return text


@pytest.mark.parametrize("layers,state,formed", [
    (1, "running", None), (1, "done", None), (2, "running", 405), (2, "done", 405),
    (2, "done", None), (2, "stopped", 120), (1, "stopped", None)])
def test_the_page_says_what_the_app_says(layers, state, formed):
    words = lab_words()
    induction = [[0.12, 0.347]] if layers == 1 else [[0.05, 0.1], [0.734, 0.6]]
    previous = [[0.41, 0.2]] if layers == 1 else [[0.1, 0.456], [0.2, 0.3]]
    last = {"step": 640, "seconds": 48.26, "loss_copy": 1.2345, "loss_fresh": 4.4012,
            "induction": induction, "previous_token": previous, "formed_at_step": formed}
    summary = {"formed": formed is not None, "steps": 640} if state == "done" else None
    view = {"state": state, "last": last, "summary": summary, "events": [],
            "settings": LabSettings(layers=layers), "watchers": 1, "from_cache": False}
    assert page_status(words, last, layers, state, summary) == to_html(lab_view(view).status)


def test_the_words_name_only_what_the_static_page_has():
    words = lab_words()
    text = " ".join([words["where"], words["ready"], words["formed"], words["stopped"],
                     *words["status"].values(), *words["noHead"].values(), words["caption"],
                     *words["table"]["headings"], words["table"]["empty"]])
    assert "server" not in text.lower() and "recorded" not in text.lower()
    assert "Trains in your browser" in words["where"]
    assert words["table"]["yes"] == "yes, step {step}" and words["formedBar"] == 0.3
    assert words["choices"]["layers"] == [1, 2]
