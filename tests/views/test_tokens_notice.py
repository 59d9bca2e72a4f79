"""Tokens explained: plurals, one notice for a cut text, a notice for text the model never
learned (other scripts, emoji, byte tokens), and the help text next to the tokens (#17)."""

from __future__ import annotations

import pytest

from explorer.analysis.run import MAX_CHARS, TOKENS_HELP, plural, prepare, unfamiliar_notice
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR

N_CTX = 128


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


def test_plural():
    assert plural(1, "token") == "1 token"
    assert plural(0, "token") == "0 tokens"
    assert plural(2, "token") == "2 tokens"
    assert plural(1234, "character") == "1,234 characters"
    assert plural(3, "child", "children") == "3 children"


@pytest.mark.parametrize("text", ["The cat sat on the mat.", "Tom said, \"Let's go!\"",
                                  "Mia had 3 red balls and 12 cats."])
def test_plain_english_gets_no_notice(tok, text):
    assert prepare(tok, text, N_CTX, masked_word=False).notices == ()


@pytest.mark.parametrize("text, kind", [("Привет мир", "Cyrillic letters"),
                                        ("你好世界", "Chinese or Japanese letters"),
                                        ("I love 🐶 dogs", "emoji or symbols"),
                                        ("a café", "accented Latin letters"),
                                        ("Γειά σου", "Greek letters")])
def test_text_the_model_never_learned_is_named_with_its_byte_tokens(tok, text, kind):
    prep = prepare(tok, text, N_CTX, masked_word=False)
    assert len(prep.notices) == 1
    notice = prep.notices[0]
    assert kind in notice and "TinyStories" in notice
    # the counts are the pieces' own: a split character leaves empty pieces behind it
    empties = sum(p == "" for p in prep.pieces)
    assert empties > 0
    assert "byte token" in notice
    # never the student's characters: notices are shown as Markdown
    assert not any(ch in notice for ch in text if not ch.isascii())


def test_byte_token_counts(tok):
    text = "你好"  # two characters, three byte tokens each with this tokenizer
    pieces = [p for _, p, _ in tok.token_pieces(text)]
    assert pieces == ["你", "", "", "好", "", ""]
    assert "2 characters became 6 byte tokens" in unfamiliar_notice(text, pieces)
    pieces = [p for _, p, _ in tok.token_pieces("é")]
    assert "1 character became 2 byte tokens" in unfamiliar_notice("é", pieces)


def test_a_long_paste_is_cut_twice_and_said_once_with_what_was_kept(tok):
    text = "The cat sat on the mat. " * 100  # over both limits
    assert len(text) > MAX_CHARS
    prep = prepare(tok, text, N_CTX, masked_word=False)
    assert len(prep.ids) == N_CTX
    kept = "".join(prep.pieces)
    assert text.startswith(kept)
    assert prep.notices == (f"The model reads at most {N_CTX} tokens, so only the beginning "
                            f"of your text was used: its first {len(kept)} characters "
                            f"({N_CTX} tokens). The rest was left out.",)


def test_the_kept_characters_count_mask_markers_as_typed(tok):
    text = "The ___ sat. " * 60
    prep = prepare(tok, text, N_CTX, masked_word=True)
    assert len(prep.ids) == N_CTX and len(prep.notices) == 1
    kept = int(prep.notices[0].split("its first ")[1].split(" ")[0].replace(",", ""))
    # what was kept re-tokenizes to the same tokens: the count is the place of the cut
    assert prepare(tok, text[:kept], N_CTX, masked_word=True).ids == prep.ids


def test_only_the_character_cut_when_the_tokens_fit(tok):
    prep = prepare(tok, " " * (MAX_CHARS + 50), n_ctx=10**6, masked_word=False)
    assert prep.notices == (f"Only the first {MAX_CHARS:,} characters of your text were used; "
                            "the rest was left out.",)


def test_unfamiliar_text_past_the_cut_is_not_reported(tok):
    text = "The cat sat. " * 80 + "Привет"
    prep = prepare(tok, text, N_CTX, masked_word=False)
    assert len(prep.notices) == 1 and "Cyrillic" not in prep.notices[0]


def test_the_tokens_help_explains_the_labels():
    for needed in ("␣", "<|endoftext|>", "∅", "TinyStories", "children's stories"):
        assert needed in TOKENS_HELP
    assert "`<|endoftext|>`" in TOKENS_HELP  # in code: Markdown would drop it as a tag
