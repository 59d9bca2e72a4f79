"""Words a student was never told (#30 item 9): every view says its numbers in words it
explains. No "total variation", "Abnar & Zuidema" or e-notation ("6e-08"); "nats" and
"entropy (bits)" are explained under the table that shows them; an experiment says how
the model was trained ("causal mask off (trained with it)" read as if it had been trained
with the mask off); the training snapshot is counted as its slider counts."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
import torch

from explorer.figures.numbers import TINY_WORDS, plain_number
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, Zoo
from explorer.views.compare import TV_WORDS, compare_view
from explorer.views.controls import Controls
from explorer.views.explore import UNITS, explore
from explorer.views.layers import METHOD_NAMES, layers_view
from explorer.views.lessons import lesson3
from explorer.views.positional import positional_view
from explorer.views.seq2seq_padding import padding_note
from explorer.views.through_training import snapshot_words
from tests.conftest import tiny_model

torch.set_num_threads(1)
TEXT = "The cat sat on the mat. The cat sat on the mat."
E_NOTATION = re.compile(r"\d[eE][-+]?\d")


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


@pytest.fixture(scope="module")
def zoo(tok) -> Zoo:
    return Zoo(models={"causal-h4-rotary": tiny_model(vocab_size=tok.vocab_size, n_ctx=64,
                                                      pos_encoding="rotary"),
                       "causal-h4-none": tiny_model(vocab_size=tok.vocab_size, n_ctx=64,
                                                    pos_encoding="none")})


@pytest.mark.parametrize("value, words", [(0.0, "0"), (6e-8, TINY_WORDS), (-3e-9, TINY_WORDS),
                                          (0.00012, "0.00012"), (0.9512, "0.95"),
                                          (12.3, "12"), (123456.0, "123,456")])
def test_plain_number_never_writes_e_notation(value, words):
    assert plain_number(value) == words
    assert not E_NOTATION.search(plain_number(value, 4))


def test_explore_explains_entropy_and_nats_under_its_table(zoo, tok):
    r = explore(zoo, tok, TEXT, Controls())
    assert "entropy (bits)" in r.head_table and UNITS in r.head_table
    table_end = r.head_table.index(UNITS)
    assert r.head_table.index("| H0") < table_end  # right under the rows, before the prose
    for word in ("bits", "nats", "lower is better", "natural log"):
        assert word in UNITS


def test_an_experiment_says_how_the_model_was_trained(zoo, tok):
    r = explore(zoo, tok, TEXT, Controls(mask="off"))
    assert "causal mask off (the model was trained with it on)" in r.status
    assert "(trained with it)" not in r.status


def test_compare_says_what_the_difference_in_guesses_measures(zoo, tok):
    v = compare_view(zoo, tok, TEXT, Controls(), Controls(mask="off"))
    assert TV_WORDS in v.status and "total variation" not in v.status
    assert "causal mask off (the model was trained with it on)" in v.status


@pytest.mark.parametrize("method", list(METHOD_NAMES))
def test_through_the_layers_names_its_method_in_plain_words(zoo, tok, method):
    v = layers_view(zoo, tok, TEXT, Controls(), method, 0, True)
    assert METHOD_NAMES[method] in v.status
    assert "Abnar" not in v.status and "Zuidema" not in v.status


def test_the_shuffle_test_says_a_rounding_difference_in_words(zoo, tok):
    v = positional_view(zoo, tok, TEXT, Controls(pos="none"))
    assert "only moved with the words" in v.summary  # no positions: the same up to rounding
    assert not E_NOTATION.search(v.summary), v.summary
    difference = v.shuffled[2].layout.annotations
    assert not any(E_NOTATION.search(a.text) for a in difference)


def test_lesson_3_says_its_rounding_in_words():
    text, *_ = lesson3("light", 2, "1/√d_head", False)
    assert "Largest difference between the two methods:" in text
    assert not E_NOTATION.search(text.split("Scale used")[0]), text


def test_the_encoder_decoder_padding_note_says_its_rounding_in_words():
    note = padding_note(SimpleNamespace(pad_weight=0.0, max_diff=6e-8))
    assert TINY_WORDS in note and not E_NOTATION.search(note)


def test_the_snapshot_is_counted_as_its_slider_counts():
    assert snapshot_words(0, 10) == "Snapshot 0 (0 = first, 9 = last)"
    assert snapshot_words(9, 10) == "Snapshot 9 (0 = first, 9 = last)"
    assert snapshot_words(0, 1) == "Snapshot 0"
