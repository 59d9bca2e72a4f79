"""The "clear heads in this model" pointer: only heads that passed the held-out checks,
only from an evaluation of exactly these weights, and a plain sentence when none did."""

import json

import pytest

from explorer.analysis.clear_heads import (
    ClearHead,
    clear_heads,
    copying_models,
    parse_label,
    summary,
)
from explorer.models.zoo import read_eval
from explorer.training.zoo_plan import span_pool
from explorer.views.explore import clear_heads_view, first_head, open_clear_head


def result(prev=0.6, ind=0.7, gain=5.0, gain_off=1.0, nxt=None):
    r = {"previous_token": {"best": {"layer": 1, "head": 2, "score": prev}, "emerged": prev >= .5},
         "induction": {"random_repeat": {"best": {"layer": 3, "head": 0, "score": ind},
                                         "copy_gain_nats": gain,
                                         "emerged": ind >= .3 and gain >= 1}},
         "switched_off": {"induction": {"copy_gain_nats": gain_off}}}
    if nxt is not None:
        r["next_token"] = {"best": {"layer": 0, "head": 1, "score": nxt}, "emerged": nxt >= .5}
    return r


def test_heads_that_emerged_are_listed_in_layer_order():
    heads = clear_heads(result(nxt=0.7))
    assert heads == [ClearHead("next-token", 0, 1, 0.7), ClearHead("previous-token", 1, 2, 0.6),
                     ClearHead("induction", 3, 0, 0.7)]
    assert heads[2].label == "L3 H0 · induction (0.70)"
    assert parse_label(heads[2].label) == (3, 0)


@pytest.mark.parametrize("r", [result(prev=0.4, ind=0.1), result(prev=0.3, gain=0.5), None, {}])
def test_nothing_is_listed_when_nothing_passed(r):
    assert not any(h.kind in ("previous-token", "induction") for h in clear_heads(r))


def test_an_induction_head_whose_switch_off_changes_nothing_is_not_listed():
    assert [h.kind for h in clear_heads(result(gain=5.0, gain_off=4.9))] == ["previous-token"]


def test_summary_says_why_a_model_has_none():
    assert "no head passed" in summary("causal-h1-none", [], True)
    assert "not been evaluated" in summary("x", [], False)


@pytest.mark.parametrize("bad", [None, "", "L1H2", "<b>L1 H2</b>", 5, "L99999999999 H1 ·"])
def test_bad_pointer_values_leave_the_sliders(bad):
    layer_head = open_clear_head(bad, 2, 3)  # the sliders keep their values
    assert layer_head == (2, 3)


def test_an_evaluation_of_other_weights_is_ignored(tmp_path):
    (tmp_path / "eval").mkdir()
    (tmp_path / "eval" / "m.json").write_text(json.dumps({"weights_sha256": "abc"}))
    assert read_eval(tmp_path, "m", "abc") == {"weights_sha256": "abc"}
    assert read_eval(tmp_path, "m", "other") is None
    (tmp_path / "eval" / "m.json").write_text("{not json")
    assert read_eval(tmp_path, "m", "abc") is None
    assert read_eval(tmp_path, "missing", "abc") is None


def test_the_pointer_for_the_shipped_zoo(resources):
    tok, zoo = resources
    text, labels = clear_heads_view(zoo, "next word (causal)", 4, "rotary")
    assert "causal-h4-rotary" in text
    assert all(parse_label(label) is not None for label in labels)
    assert clear_heads_view(zoo, "nonsense", 4, "rotary")[1] == []
    assert clear_heads_view(zoo, "next word (causal)", "four", "rotary")[1] == []


def test_the_summary_of_a_model_without_heads_says_which_models_have_one(resources):
    """The sentence a model without named heads shows points at the models of this zoo
    whose evaluation found an induction head, by encoding and head count."""
    tok, zoo = resources
    copiers = copying_models(zoo.evals)
    for name, result in zoo.evals.items():
        if name.startswith("causal") and any(h.kind == "induction" for h in clear_heads(result)):
            heads, pos = name.split("-")[1][1:], name.split("-")[2]
            assert int(heads) in copiers[pos], name
    assert "rotary" in copiers  # the default model has one
    text = summary("causal-h2-none", [], True, None, {"learned": [1], "rotary": [1, 2, 4]})
    assert ("in this zoo the models with an induction head are **learned** (1 head); "
            "**rotary** (1, 2 and 4 heads); pick one to compare.") in text
    assert summary("causal-h1-none", [], True, None, {}).endswith("depends on the knobs.")


def with_training(zoo, monkeypatch, name: str, **training) -> None:
    """The shipped card of ``name`` with its training settings changed, for this test only."""
    card = dict(zoo.cards[name])
    card["training"] = {**card["training"], **training}
    monkeypatch.setitem(zoo.cards, name, card)


def test_a_model_from_the_first_zoo_says_so(resources, monkeypatch):
    tok, zoo = resources
    text, _ = clear_heads_view(zoo, "next word (causal)", 4, "rotary")
    assert "first zoo" not in text and "earlier recipe" not in text
    with_training(zoo, monkeypatch, "causal-h2-none", repeat_share=0.0)  # plain text, 2M
    assert "first zoo" in clear_heads_view(zoo, "next word (causal)", 2, "none")[0]


def test_a_model_from_the_earlier_recipe_says_so(resources, monkeypatch):
    """Recipe A drew the repeated spans from the 2,000 commonest tokens only: such a model
    says so, the default model (any token) does not."""
    tok, zoo = resources
    assert all(span_pool(c) is None for n, c in zoo.cards.items() if n.startswith("causal"))
    with_training(zoo, monkeypatch, "causal-h8-learned", repeat_top=2000)
    text = clear_heads_view(zoo, "next word (causal)", 8, "learned")[0]
    assert "earlier recipe" in text and "2,000 most frequent" in text


def test_a_model_on_recipe_f_says_what_its_repeats_were(resources, monkeypatch):
    """Recipe F repeated random tokens only, up to 32: its copying head copies lists, not a
    story said twice. During a retraining such a model says which recipe it has."""
    tok, zoo = resources
    with_training(zoo, monkeypatch, "causal-h8-learned", repeat_share=0.25,
                  repeat_kind="frequent", repeat_max=32, repeat_top=4096)
    text = clear_heads_view(zoo, "next word (causal)", 8, "learned")[0]
    assert ("earlier recipe (25% of the rows repeat a span of random tokens, up to 32 tokens; "
            "now 50% of the rows repeat a span of random tokens or its own text, up to 60 "
            "tokens)") in text
    with_training(zoo, monkeypatch, "causal-h8-learned", repeat_share=0.5, repeat_kind="mixed",
                  repeat_max=60, repeat_top=4096, batch_size=8)
    assert "earlier recipe" not in clear_heads_view(zoo, "next word (causal)", 8, "learned")[0]


def test_the_page_opens_on_the_default_models_previous_token_head(resources):
    tok, zoo = resources
    prev = zoo.evals[zoo.default_name]["previous_token"]
    assert prev["emerged"]
    assert first_head(zoo) == (prev["best"]["layer"], prev["best"]["head"])
    assert first_head(type(zoo)(models=dict(zoo.models))) == (0, 0)  # not evaluated: L0 H0
