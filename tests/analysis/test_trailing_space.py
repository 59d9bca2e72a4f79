"""A space at the end of the sentence is left out (#30): the tokenizer joins a space to the
word after it, so a lone " " never came before a word in what the model read, and after
one the trained model guessed pieces of words ("ing", "r", "el" for "The cat sat on the ").
A student typing pauses there between every two words."""

from __future__ import annotations

import pytest

from explorer.analysis.run import TOKENS_HELP, analyse, prepare
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR

SENTENCE = "The cat sat on the"


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


@pytest.mark.parametrize("masked_word", [False, True])
@pytest.mark.parametrize("tail", [" ", "  ", "   "])
def test_spaces_at_the_end_are_left_out(tok, masked_word, tail):
    plain = prepare(tok, SENTENCE, 128, masked_word)
    spaced = prepare(tok, SENTENCE + tail, 128, masked_word)
    assert spaced.pieces == plain.pieces and spaced.ids == plain.ids
    assert spaced.notices == ()


def test_the_tokenizer_would_make_a_lone_space_token(tok):
    """What the fix is for: without it the sentence ends in a token of its own, " "."""
    pieces = [p for _, p, _ in tok.token_pieces(SENTENCE + " ")]
    assert pieces[-1] == " " and pieces[:-1] == [p for _, p, _ in tok.token_pieces(SENTENCE)]


def test_only_the_end_is_touched(tok):
    inner = prepare(tok, "The cat  sat.\n", 128, False).pieces
    assert "".join(inner) == "The cat  sat.\n"  # double space inside and a newline kept
    assert prepare(tok, "   ", 128, False).ids == []  # only spaces: nothing to read


def test_the_guesses_after_a_trailing_space_are_the_sentence_s(tok):
    from tests.conftest import tiny_model

    model = tiny_model(vocab_size=tok.vocab_size, n_ctx=32)
    a = analyse(model, tok, SENTENCE, detail=False)
    b = analyse(model, tok, SENTENCE + " ", detail=False)
    assert a.tokens == b.tokens and a.predictions == b.predictions


def test_the_tokens_help_says_so():
    assert "space at the end of your text is left out" in TOKENS_HELP
