"""The UI-free views of Inside one head, Shapes, Positional encodings, Through the layers,
Through training and the Lessons, on a tiny seeded zoo with the real tokenizer: each view
answers an empty box with the empty state, a missing checkpoint with a message, and a
sentence with real figures whose data follows the sentence."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest
import torch

from explorer.analysis.snapshots import SnapshotSet
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, Zoo
from explorer.views.controls import EMPTY_STATE, Controls
from explorer.views.inside import KEYS, inside_view
from explorer.views.layers import STRIP_MARK, layers_view
from explorer.views.lessons import lesson1, lesson2, lesson3, lesson4, lesson5, lesson6
from explorer.views.positional import NEEDS_MODEL, positional_view
from explorer.views.shapes import shapes_view
from explorer.views.through_training import NO_SNAPSHOTS, training_view
from tests.conftest import tiny_model

torch.set_num_threads(1)
TEXT = "The cat sat on the mat."


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


@pytest.fixture(scope="module")
def zoo(tok) -> Zoo:
    return Zoo(models={"causal-h4-rotary": tiny_model(vocab_size=tok.vocab_size,
                                                      pos_encoding="rotary"),
                       "causal-h4-none": tiny_model(vocab_size=tok.vocab_size,
                                                    pos_encoding="none")})


def n_tokens(tok, text=TEXT) -> int:
    return len(tok.encode(text))


VIEWS = {
    "inside": lambda zoo, tok, text, c: inside_view(zoo, tok, text, c),
    "shapes": lambda zoo, tok, text, c: shapes_view(zoo, tok, text, c),
    "positional": lambda zoo, tok, text, c: positional_view(zoo, tok, text, c),
    "layers": lambda zoo, tok, text, c: layers_view(zoo, tok, text, c, "rollout", 0, True),
}


@pytest.mark.parametrize("name", VIEWS)
def test_an_empty_box_shows_the_empty_state(name, zoo, tok):
    assert VIEWS[name](zoo, tok, "   ", Controls()).status == EMPTY_STATE


@pytest.mark.parametrize("name", VIEWS)
def test_a_missing_checkpoint_is_named_not_a_crash(name, zoo, tok):
    v = VIEWS[name](zoo, tok, TEXT, Controls(heads=8))
    assert v.status.startswith("⚠️") and "causal-h8-rotary" in v.status


def test_inside_draws_every_stage_of_a_rotary_head_in_page_order(zoo, tok):
    v = inside_view(zoo, tok, TEXT, Controls(layer=1, head=2))
    assert v.rotary and "layer 1, head 2" in v.status
    figs = v.in_order()
    assert len(figs) == len(KEYS) and all(isinstance(f, go.Figure) for f in figs)
    plain = inside_view(zoo, tok, TEXT, Controls(pos="none"))
    assert not plain.rotary and plain.figures.get("rot_q") is None
    assert "Experiment" in inside_view(zoo, tok, TEXT, Controls(mask="off")).status


def test_shapes_rows_carry_this_sentences_length(zoo, tok):
    v = shapes_view(zoo, tok, TEXT, Controls())
    n = n_tokens(tok)
    assert v.split and v.trace and isinstance(v.sizes, go.Figure)
    assert any(f"1 × {n} ×" in " ".join(map(str, row)) or f"[1, {n}," in
               " ".join(map(str, row)) for row in v.trace)


def test_positional_shuffle_test_moves_nothing_without_an_encoding(zoo, tok):
    none = positional_view(zoo, tok, "the dog bit the man and ran home", Controls(pos="none"),
                           shuffle_seed=1)
    assert none.shuffled is not None and len(none.shuffled) == 3
    assert "zero" in none.summary.lower() or "0" in none.summary
    untrained = positional_view(zoo, tok, TEXT, Controls(pos="alibi"))
    assert untrained.status.startswith("⚠️") and untrained.summary == NEEDS_MODEL
    assert isinstance(untrained.picture, go.Figure)  # drawn from the formula


def test_layers_follows_the_last_token_or_clamps_the_chosen_one(zoo, tok):
    n = n_tokens(tok)
    last = layers_view(zoo, tok, TEXT, Controls(), "rollout", 0, follow_last=True)
    assert (last.position, last.n_tokens) == (n - 1, n)
    assert last.strip[-1] == (STRIP_MARK, None)
    far = layers_view(zoo, tok, TEXT, Controls(), "residual", 10_000, follow_last=False)
    assert far.position == n - 1 and "Share given to attention" in far.status
    assert layers_view(zoo, tok, TEXT, Controls(), "magic", 0, True).status.startswith("⚠️")


def test_training_without_snapshots_says_so(tok):
    assert training_view(SnapshotSet("causal-h4-rotary", (), ()), tok, TEXT, Controls(),
                         0).status == NO_SNAPSHOTS


def test_every_lesson_answers_with_figures(zoo):
    note, *figs = lesson1("light", [[1, 0, 0], [0, 1, 0]])
    assert "Row sums" in note and all(isinstance(f, go.Figure) for f in figs)
    assert all(isinstance(f, go.Figure) for f in lesson2("dark", 64))
    note3, *figs3 = lesson3("light", 4, "1/√d_head (standard)", True)
    assert "Largest difference" in note3 and len(figs3) == 2
    note4, *_ = lesson4("light", True, 2)
    assert "exactly zero" in note4
    note5, *_ = lesson5("light", [[1, 2, 3, 4, 5, 6]], 3.0)
    assert "pre-LN" in note5
    note6, *panels = lesson6("light", 16, zoo)
    assert "untrained" in note6 and len(panels) == 5
