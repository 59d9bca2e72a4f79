"""The head-recipe study's write-up is generated from its cards: the shipped files match."""

import pytest

from scripts.study import FIGURES, STUDY, differs, render, study_cards


def test_the_shipped_study_is_what_the_script_writes():
    rendered = render(study_cards())
    assert set(rendered) == {*FIGURES, "README.md"}
    for name, text in rendered.items():
        assert (STUDY / name).read_text() == text, f"{name} is stale: python -m scripts.study"


def test_every_figure_names_cards_that_exist():
    cards = study_cards()
    for names in FIGURES.values():
        assert set(names) <= set(cards)


@pytest.mark.parametrize(("training", "device", "expected"), [
    ({"seed": 0, "repeat_share": 0.25, "repeat_top": 4096, "probe_share": 0.1, "lr": 0.002,
      "tokens": 12_000_000}, "cpu", "(recipe F)"),
    ({"seed": 1, "repeat_share": 0.5, "repeat_top": 4096, "probe_share": 0.1, "lr": 0.002,
      "tokens": 12_000_000}, "cuda", "seed 1, repeat share 0.5, GPU"),
    ({"seed": 0, "repeat_share": 0.25, "probe_share": 0.1, "lr": 0.002,  # recipe A's card
      "tokens": 12_000_000}, "cpu", "repeat top 2,000"),
])
def test_a_run_says_what_it_changed_from_recipe_f(training, device, expected):
    assert differs({"training": training, "device": device}) == expected
