"""The Model, Heads and Positional knobs reach only trained models (#30, item 5): with the
masked-word objective, whose only model has 4 heads and rotary, the knobs are set to it and
fixed, with a note; a "[mask]" sentence says that is why."""

import pytest

from explorer.views.controls import HEADS, OBJECTIVES, POSITIONAL
from explorer.views.model_choice import MASKED_WORD, NEXT_WORD, fit_knobs, switch_for, trained


def test_every_choice_of_the_knobs_lands_on_a_trained_model(resources):
    from explorer.models.zoo import checkpoint_name

    _, zoo = resources
    for objective, kind in OBJECTIVES.items():
        for heads in HEADS:
            for pos in POSITIONAL:
                f = fit_knobs(zoo, objective, heads, pos)
                assert zoo.get(checkpoint_name(kind, f.heads, f.pos)) is not None, (
                    objective, heads, pos, f)


def test_the_masked_word_objective_fixes_heads_and_positional_and_says_why(resources):
    _, zoo = resources
    assert trained(zoo, MASKED_WORD) == [(4, "rotary")]
    f = fit_knobs(zoo, MASKED_WORD, 8, "alibi")
    assert (f.heads, f.pos, f.fixed) == (4, "rotary", True)
    assert "Only one masked-word model was trained (4 heads, rotary)" in f.note
    assert "[mask]" not in f.note
    assert "Your sentence has a [mask]" in fit_knobs(zoo, MASKED_WORD, 8, "alibi",
                                                     "because [mask] was tired").note
    # the next-word models all exist: the knobs stay as they are, free
    g = fit_knobs(zoo, NEXT_WORD, 8, "alibi", "because [mask] was tired")
    assert (g.heads, g.pos, g.fixed, g.note) == (8, "alibi", False, "")


def test_the_page_is_told_which_model_a_mask_switches_to(resources):
    _, zoo = resources
    assert switch_for(zoo) == {"mask": "[mask]", "from": NEXT_WORD, "to": MASKED_WORD,
                               "heads": 4, "pos": "rotary"}


@pytest.mark.parametrize("heads", ["x", None])
def test_an_unreadable_knob_value_still_gets_a_model(resources, heads):
    _, zoo = resources
    f = fit_knobs(zoo, MASKED_WORD, heads, "rotary")
    assert (f.heads, f.pos) == (4, "rotary")


def test_a_missing_combination_names_the_one_masked_word_model(resources):
    """Compare's right side (and any request) can still ask for a masked-word model with 2
    heads: the message names the one that exists instead of only "pick another"."""
    from explorer.views.compare import compare_view
    from explorer.views.controls import parse_controls
    from explorer.views.grid_payload import grid_payload

    tok, zoo = resources
    said = zoo.why_missing("bidir-h2-rotary")
    assert said.startswith("No model was trained as bidir-h2-rotary")
    assert "the only masked-word model is bidir-h4-rotary: Heads 4, Positional encoding " \
           "rotary" in said
    masked = parse_controls(MASKED_WORD, 2, "rotary", "as trained", "1/√d_head", 1.0, 0, 0,
                            "light")
    p = grid_payload(zoo, tok, "The cat sat", masked)
    assert not p["ok"] and "bidir-h4-rotary" in p["caption"]
    nxt = parse_controls(NEXT_WORD, 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0,
                         "light")
    v = compare_view(zoo, tok, "The cat sat", nxt, masked)
    assert "bidir-h4-rotary: Heads 4" in v.status
