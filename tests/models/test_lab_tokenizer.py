"""The Lab's words and their tokenizer (explorer/models/lab_tokenizer.py): 63 distinct
words for the task's tokens 1..63, a sentence of them read as the start token and one token
per word, unknown words found by their places (never echoed), the bounds of the ids."""

from explorer.models.lab_tokenizer import (
    BOS,
    LAB_WORDS,
    START_LABEL,
    LabTokenizer,
    unknown_words_message,
)
from explorer.training.lab import LabSettings

TOK = LabTokenizer()


def test_one_word_for_every_token_but_the_start_and_the_trainer_is_unchanged():
    settings = LabSettings()
    assert len(LAB_WORDS) == len(set(LAB_WORDS)) == settings.vocab - 1 == 63
    assert TOK.vocab_size == settings.vocab and "start" not in LAB_WORDS
    assert all(w.isalpha() and w == w.lower() for w in LAB_WORDS)
    # the cache key of a run is its settings alone: naming the tokens changed none of them
    assert '"vocab": 64' in settings.key() and "word" not in settings.key()


def test_a_sentence_round_trips_through_ids():
    text = "cat sun tree cat sun tree"
    ids = TOK.encode(text)
    assert ids[0] == BOS and ids[1:] == [LAB_WORDS.index(w) + 1 for w in text.split()]
    assert TOK.decode(ids) == f"{START_LABEL} {text}"
    assert TOK.sentence(ids) == text
    assert TOK.encode_batch([text, "dog"]) == [ids, [BOS, LAB_WORDS.index("dog") + 1]]
    assert TOK.encode("Cat  SUN\ttree") == TOK.encode("cat sun tree")  # case, spacing


def test_pieces_give_each_word_its_span_after_the_start_token():
    text = "  cat sun"
    pieces = TOK.token_pieces(text)
    assert pieces[0] == (BOS, START_LABEL, (0, 0))
    assert [(p, text[a:b]) for _, p, (a, b) in pieces[1:]] == [("cat", "cat"), ("sun", "sun")]
    assert TOK.token_pieces("") == [(BOS, START_LABEL, (0, 0))]


def test_unknown_words_are_found_by_place_and_the_message_echoes_none():
    assert TOK.unknown("cat sun tree") == []
    assert TOK.unknown("cat zebra tree <b>x</b>") == [2, 4]
    assert TOK.unknown("cat punctuation.") == [2]
    assert TOK.unknown("cat su", typing=True) == []  # "su" is being typed: sun
    assert TOK.unknown("cat su ", typing=True) == [2]  # a space ended it
    assert TOK.unknown("cat su") == [2]
    assert TOK.unknown("cat zz", typing=True) == [2]  # no word begins so
    message = unknown_words_message([2, 4])
    assert "2nd, 4th words" in message and "zebra" not in message and "<b>" not in message
    assert all(w in message for w in LAB_WORDS)
    assert "11th" in unknown_words_message([11]) and "22nd" in unknown_words_message([22])
    assert "…" in unknown_words_message(list(range(1, 9)))


def test_unknown_words_are_left_out_never_guessed_and_ids_out_of_range_decode_safely():
    assert TOK.encode("cat zebra sun") == TOK.encode("cat sun")
    assert TOK.decode([0, 1, 63, 64, -3]) == f"{START_LABEL} cat {LAB_WORDS[-1]} ? ?"
    assert TOK.mask_id not in range(TOK.vocab_size)
    assert len(TOK.fingerprint()) == 64 and TOK.fingerprint() == LabTokenizer().fingerprint()
    assert LabTokenizer(["b", "a"]).fingerprint() != LabTokenizer(["a", "b"]).fingerprint()
