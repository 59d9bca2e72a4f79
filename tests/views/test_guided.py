"""The guided path: every step's knobs are ones the page offers, its view exists, it names
the heads the evaluation found (and says so when none), and its claims hold on the
shipped default model."""

import pytest

from explorer.views.controls import parse_controls
from explorer.views.guided import REPEAT, steps

FOUND = {"previous_token": {"best": {"layer": 1, "head": 0, "score": 0.55}, "emerged": True},
         "induction": {"random_repeat": {"best": {"layer": 3, "head": 1, "score": 0.78},
                                         "copy_gain_nats": 8.0, "emerged": True}},
         "switched_off": {"induction": {"copy_gain_nats": 0.5}}}


@pytest.mark.parametrize("evaluation", [FOUND, None])
def test_every_step_sets_knobs_the_page_offers_and_opens_a_view_that_exists(evaluation):
    import app

    tab_ids = {tab_id for _, tab_id, _ in app.TABS}
    path = steps(evaluation)
    assert 6 <= len(path) <= 8
    for s in path:
        v = s.controls()
        parse_controls(v["objective"], v["heads"], v["pos"], v["mask"], v["scaling"],
                       v["temperature"], v["layer"], v["head"], "light")
        assert s.tab in tab_ids and s.question.endswith("?") and v["text"].strip()


def test_the_tab_titles_the_steps_open_are_the_pages_own():
    import app
    from ui.guided_tab import TITLE, TITLES

    shown = {tab_id: title for title, tab_id, _ in app.TABS}
    assert all(shown[tab_id] == title for tab_id, title in TITLES.items())
    assert shown["start"] == TITLE


def test_steps_point_at_the_found_heads_or_say_there_are_none():
    named = steps(FOUND)
    assert named[0].controls()["layer"] == 1 and "Layer 1, head 0" in named[0].answer
    assert named[1].controls()["layer"] == 3 and "Layer 3, head 1" in named[1].answer
    none = steps(None)
    assert "no head that clears" in none[0].answer and "no induction head" in none[1].answer


def test_the_copying_step_holds_on_the_shipped_default_model(resources):
    """Step 2 says the model guesses the list's next word, and step 3 that switching the
    induction head off loses it: both measured here on the shipped weights."""
    from explorer.analysis.run import analyse
    from explorer.models.settings import AttentionSettings

    tok, zoo = resources
    path = steps(zoo.evals.get(zoo.default_name))
    model = zoo.get(zoo.default_name)
    step = path[1].controls()
    assert "coat" in path[1].answer
    guess = analyse(model, tok, REPEAT).predictions[0][0]
    assert guess == " coat"
    off = AttentionSettings(head_mask=((step["layer"], step["head"]),))
    assert analyse(model, tok, REPEAT, off).predictions[0][0] != " coat"


def test_the_knob_steps_hold_on_the_shipped_default_model(resources):
    """Step 3: the induction head and the previous-token head top the ablation ranking on
    the list (the circuit needs both; which of the two is first differs between trainings).
    Step 4: the mask
    off lets the copying head read the next word. Step 6: no scaling sharpens the heads."""
    from explorer.analysis.losses import loss_spec, spec_loss
    from explorer.analysis.run import analyse
    from explorer.models.settings import AttentionSettings
    from explorer.views.ablate import rank_heads

    tok, zoo = resources
    model = zoo.get(zoo.default_name)
    path = steps(zoo.evals.get(zoo.default_name))
    ind, prev = path[1].controls(), path[0].controls()
    ids = tok.encode(REPEAT)
    top = rank_heads(model, loss_spec(ids, True, tok.mask_id)).rows[:2]
    assert {(r.layer, r.head) for r in top} == {(ind["layer"], ind["head"]),
                                               (prev["layer"], prev["head"])}

    # step 4: with the mask off the copying head reads the next word, so the sentence gets
    # easier, and switching that head off as well takes the advantage away
    story = tok.encode(path[3].controls()["text"])
    spec = loss_spec(story, True, tok.mask_id)
    off = AttentionSettings(causal=False)
    assert spec_loss(model, spec, off) < spec_loss(model, spec) - 0.1
    no_copy = AttentionSettings(causal=False, head_mask=((ind["layer"], ind["head"]),))
    assert spec_loss(model, spec, no_copy) > spec_loss(model, spec, off) + 0.3
    assert f"L{ind['layer']} H{ind['head']}" in path[3].answer

    text = path[5].controls()["text"]
    plain, unscaled = analyse(model, tok, text), analyse(model, tok, text,
                                                         AttentionSettings(scale="none"))
    assert unscaled.stats.entropy.mean() < plain.stats.entropy.mean() - 0.3


def test_the_copying_step_says_what_the_page_counts_show(resources):
    """Step 2 quotes how often the page named the copying head on held-out stories said
    twice: it copies more than lists when that is most of them, and says so when it is not."""
    from dataclasses import replace

    from explorer.analysis.clear_heads import clear_heads
    from explorer.views.guided import _copies_stories

    tok, zoo = resources
    ind = next(h for h in clear_heads(zoo.evals[zoo.default_name]) if h.kind == "induction")
    named, of = ind.on_page
    answer = steps(zoo.evals[zoo.default_name])[1].answer
    assert f"on {named} of {of} held-out story openings said twice" in answer
    assert "copies more than lists" in _copies_stories(replace(ind, on_page=(60, 100)))
    assert "hardly copies" in _copies_stories(replace(ind, on_page=(3, 100)))
    assert _copies_stories(replace(ind, on_page=None)) == ""
