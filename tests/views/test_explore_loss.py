"""Explore under an experiment shows the sentence's loss as trained and now (issue 42 item
5): step 4's top guess gets worse ("her" 49 % → "the" 78 %) while its answer says the
sentence gets easier; the loss beside the guesses shows both. Pinned against what Start
here measures for step 4 (explorer.views.start_here_numbers), not typed by hand."""

from explorer.analysis.losses import loss_spec, spec_loss
from explorer.views.controls import parse_controls
from explorer.views.explore import explore, settled_update
from explorer.views.start_here import STORY, default_path
from explorer.views.start_here_numbers import measure


def _step4(resources):
    tok, zoo = resources
    step = next(s for s in default_path(zoo, tok) if s.title.startswith("4 "))
    v = step.controls()
    return tok, zoo, parse_controls(v["objective"], v["heads"], v["pos"], v["mask"],
                                    v["scaling"], v["temperature"], v["layer"], v["head"],
                                    "light")


def test_step_4s_loss_as_trained_and_now_is_beside_the_guesses(resources):
    tok, zoo, c = _step4(resources)
    m = measure(zoo, tok, STORY, STORY, None)
    assert m.loss_unmasked < m.loss_masked  # easier without the mask: what step 4 says
    r = explore(zoo, tok, STORY, c)
    said = f"as trained **{m.loss_masked:.2f}** → now **{m.loss_unmasked:.2f}**"
    assert said in r.status, r.status
    names = [t.name for t in r.predictions.data]
    assert f"now · loss {m.loss_unmasked:.2f}" in names, names
    assert f"as trained · loss {m.loss_masked:.2f}" in names, names
    # the live path (what the page draws once typing pauses) says the same
    _, _, guesses, _, status = settled_update(zoo, tok, STORY, c)
    assert said in status
    assert f"now · loss {m.loss_unmasked:.2f}" in str(guesses)


def test_no_experiment_no_loss_line(resources):
    tok, zoo, c = _step4(resources)
    trained = parse_controls("next word (causal)", 4, "rotary", "as trained", "1/√d_head",
                             1.0, 0, 0, "light")
    r = explore(zoo, tok, STORY, trained)
    assert "Loss on this sentence" not in r.status
    assert [t.name for t in r.predictions.data] == ["now"]
    # the model as trained: the loss step 4 quotes "with the mask"
    model = zoo.get(trained.checkpoint())
    spec = loss_spec(tok.encode(STORY), True, tok.mask_id)
    assert abs(spec_loss(model, spec) - measure(zoo, tok, STORY, STORY, None).loss_masked) < 1e-6
