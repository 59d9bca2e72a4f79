"""Texts a teacher reads stand alone (#17): no "reference notebooks" or course code names;
the Classify strip has a colour key; the Classify status counts tokens with plurals."""

from __future__ import annotations

import re

import numpy as np
import pytest

from explorer.analysis import shapes
from explorer.analysis.shapes import split_rows
from explorer.figures.classify import StripRow, colour_key, evidence_strip
from explorer.ui import lessons_tab, shapes_tab

TEXTS = {
    **{f"lessons {n}": getattr(lessons_tab, f"TEXT{n}") for n in range(1, 7)},
    "shapes split": shapes_tab.SPLIT_INTRO, "shapes trace": shapes_tab.TRACE_INTRO,
    "shapes module": shapes.__doc__,
}


@pytest.mark.parametrize("name", list(TEXTS))
def test_no_text_refers_to_material_the_teacher_does_not_have(name):
    text = TEXTS[name].lower()
    for gone in ("notebook", "multiheadattentionwrapper", "transformerblock", "torch.bmm"):
        assert gone not in text, (name, gone)


def test_the_lessons_tab_source_names_no_notebook():
    source = open(lessons_tab.__file__, encoding="utf-8").read().lower()
    assert "notebook" not in source


def test_the_shapes_tables_explain_their_names():
    assert "hook_" in shapes_tab.TRACE_INTRO and "layer 2" in shapes_tab.TRACE_INTRO
    assert ".view" in shapes_tab.SPLIT_INTRO and "PyTorch" in shapes_tab.SPLIT_INTRO
    config = type("C", (), {"n_heads": 4, "d_head": 32, "d_model": 128})()
    names = ["x", "q", "scores", "pattern", "z", "concat", "out"]
    shapes_seen = {f"blocks.0.attn.hook_{n}": (1, 5, 128) for n in names}
    ops = " ".join(row[3] for row in split_rows(shapes_seen, config, 0)).lower()
    assert "notebook" not in ops


def test_the_evidence_strip_has_a_colour_key():
    rows = [StripRow("reads", np.array([0.2, 0.8]), "weight", "w"),
            StripRow("share", np.array([-0.5, 0.5]), "signed", "s")]
    fig = evidence_strip(["a", " b"], rows, title="Why")
    texts = [a.text for a in fig.layout.annotations]
    key = colour_key(rows)
    assert key in texts and "for the answer" in key and "against it" in key
    assert "attention" in key  # the weight row's scale too
    only_signed = colour_key(rows[1:])
    assert "attention" not in only_signed and "against it" in only_signed
    # the key sits above the rows, below the title: the margin grew for it
    plain = evidence_strip(["a", " b"], rows)
    assert plain.layout.margin.t >= 38 and fig.layout.margin.t > plain.layout.margin.t
    # short lines, so a phone's ~330 px strip shows all of each (Plotly does not wrap)
    shown = [re.sub(r"<[^>]+>", "", line) for line in key.split("<br>")]
    assert len(shown) == 4 and max(len(line) for line in shown) <= 48, shown


def test_classify_status_says_1_token_not_1_tokens():
    from explorer.views.classify import status_text

    analysis = type("A", (), {"tokens": ["happy"], "classes": ["negative", "positive"],
                              "predicted": 1, "probs": np.array([0.1, 0.9]), "rule": None,
                              "interventions": (), "notices": ()})()
    loaded = type("L", (), {"card": {}, "name": "clf"})()
    text = status_text(loaded, analysis)
    assert "1 token ·" in text and "1 tokens" not in text
