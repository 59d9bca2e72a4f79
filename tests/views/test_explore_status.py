"""Explore's status under an experiment names the top guess before and after, not only its
probability ("63% → 62% (a different token)" read as if nothing changed), with the
tokens quoted so that they never become Markdown."""

from explorer.views.ablate import quoted_token
from explorer.views.controls import parse_controls
from explorer.views.explore import explore
from explorer.views.start_here import REPEAT

CONTROLS = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 3, 2, "light"]


def test_an_experiment_says_which_guess_it_was_and_which_it_is(resources):
    tok, zoo = resources
    same = explore(zoo, tok, REPEAT, parse_controls(*CONTROLS[:5], 1.2, *CONTROLS[6:]))
    assert "Top guess still “␣coat”" in same.status
    changed = explore(zoo, tok, REPEAT, parse_controls(*CONTROLS[:3], "off", *CONTROLS[4:]))
    assert "Top guess “␣coat” (63%) is now “␣spoon”" in changed.status  # the mask off
    assert quoted_token("*](x)") == "“\\*\\]\\(x\\)”"  # never markup
