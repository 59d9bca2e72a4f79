"""Every Start-here step has a few choices a class can answer with (class mode, issue 43)."""

from __future__ import annotations

from explorer.views.start_here import default_path
from explorer.views.start_here_choices import CHOICES, MAX_CHARS, UNSURE, choices_for, step_number


def test_every_step_of_the_path_has_its_choices(resources):
    tok, zoo = resources
    path = default_path(zoo, tok)
    numbers = [step_number(s.title) for s in path]
    assert numbers == list(range(1, len(path) + 1))
    assert set(CHOICES) == set(numbers)  # none missing, none left over from an old path
    for step in path:
        got = choices_for(step.title)
        assert 3 <= len(got) <= 6 and got[-1] == UNSURE, step.title
        assert len(set(got)) == len(got), step.title
        assert all(0 < len(c) <= MAX_CHARS for c in got), step.title


def test_a_title_without_a_number_gets_only_unsure():
    assert step_number("Free play") is None
    assert choices_for("Free play") == (UNSURE,)
    assert step_number("12 · Later") == 12
