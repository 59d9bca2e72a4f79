"""Tests for the byte-level BPE tokenizer (explorer/models/tokenizer.py)."""

import hashlib
from pathlib import Path

import pytest

from explorer.models.tokenizer import VOCAB_SIZE, Tokenizer, single_token_share
from explorer.training.probes import generate_probes
from explorer.training.tokenizer_build import main, train_tokenizer

ROOT = Path(__file__).resolve().parents[2]
TOKENIZER_JSON = ROOT / "checkpoints" / "tokenizer.json"
CORPUS = ROOT.parent / "shared" / "corpus" / "tinystories.txt"
SENTENCES = Path(__file__).resolve().parents[1] / "data" / "everyday_sentences.txt"
# Measured 322 / 343 = 0.939; the misses are words like "Saturday", "homework".
MIN_SINGLE_TOKEN_SHARE = 0.92

NASTY = [
    "👨‍👩‍👧‍👦 family",  # ZWJ sequence
    "🇫🇷🇯🇵 flags",  # regional-indicator pairs
    "🏳️‍🌈 and 👍🏽",  # variation selector + ZWJ, skin-tone modifier
    "café vs cafe\u0301 and Å",  # precomposed vs combining accent
    "e\u0301\u0302\u0303\u0304 stacked",
    "日本語のテキスト、中文，한국어",
    "مرحبا بالعالم",  # Arabic, RTL
    "שלום עולם",  # Hebrew, RTL
    "a\u200db\u200bc\u200cd\ufeffe\u2060",  # zero-width joiner/space/non-joiner, BOM, WJ
    "\u202eRTL override\u202c",
    "nul\x00byte",
    "\x1b[31mred\x1b[0m",
    "<script>alert('x')</script>",
    "tabs\tand\r\nnewlines\n\n",
    "   leading and trailing   ",
    "Supercalifragilistic" * 30,
    "<|endoftext|><pad><mask> typed specials",
    "\U0010ffff \U0001f600 \x7f \x80 \xff",
    "",
]


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(TOKENIZER_JSON)


@pytest.mark.parametrize("text", NASTY)
def test_round_trip(tok, text):
    ids = tok.encode(text)
    assert all(0 <= i < tok.vocab_size for i in ids)
    assert tok.decode(ids) == text


def test_lone_surrogate_is_replaced_not_fatal(tok):
    assert tok.decode(tok.encode("a\ud800b")) == "a\ufffdb"


def test_special_token_ids(tok):
    assert (tok.eot_id, tok.pad_id, tok.mask_id) == (0, 1, 2)
    assert tok.encode("<|endoftext|>") == [0]
    assert tok.encode("<mask>") == [2]
    assert tok.vocab_size == VOCAB_SIZE


def test_committed_file_is_small():
    assert TOKENIZER_JSON.stat().st_size < 1_000_000


@pytest.mark.parametrize("text", NASTY + ["the cat saw the cat", "Once upon a time"])
def test_token_pieces_tile_the_text(tok, text):
    pieces = tok.token_pieces(text)
    assert [i for i, _, _ in pieces] == tok.encode(text)
    assert "".join(p for _, p, _ in pieces) == text.replace("\ud800", "\ufffd")
    pos = 0
    for _, piece, (start, end) in pieces:
        assert start == pos and end >= start and piece == text[start:end]
        pos = end
    assert pos == len(text)


def test_token_pieces_keep_spaces_and_repeats(tok):
    pieces = tok.token_pieces("the cat saw the cat")
    cats = [(p, span) for _, p, span in pieces if p == " cat"]
    assert cats == [(" cat", (3, 7)), (" cat", (15, 19))]
    assert all("Ġ" not in p for _, p, _ in pieces)


def test_split_character_shown_once_on_first_token(tok):
    pieces = tok.token_pieces("hi 😀")
    emoji = [p for p in pieces if p[2][1] > 3]
    assert len(emoji) > 1  # the emoji's 4 bytes are not one token in an English vocab
    # " " may merge into the first byte token; later byte tokens are empty.
    assert emoji[0][1].endswith("😀")
    assert all(p == "" and start == end == 4 for _, p, (start, end) in emoji[1:])


def test_everyday_single_token_share(tok):
    sentences = SENTENCES.read_text(encoding="utf-8").splitlines()
    assert len(sentences) == 50
    share = single_token_share(tok, sentences)
    assert share >= MIN_SINGLE_TOKEN_SHARE, share


def test_single_token_share_counts_words():
    tiny = Tokenizer.train(["I see the cat"] * 20)
    # " the" and " cat" are merged, " zebra" is not.
    assert single_token_share(tiny, ["The the cat.", "zebra"]) == pytest.approx(2 / 4)


def test_tiny_training_is_deterministic_and_saves(tmp_path):
    texts = generate_probes(200, seed=0)
    a, b = Tokenizer.train(texts), Tokenizer.train(texts)
    assert a.fingerprint() == b.fingerprint()
    assert (a.eot_id, a.pad_id, a.mask_id) == (0, 1, 2)
    a.save(tmp_path / "sub" / "t.json")
    loaded = Tokenizer.load(tmp_path / "sub" / "t.json")
    assert loaded.fingerprint() == a.fingerprint()
    file_sha = hashlib.sha256((tmp_path / "sub" / "t.json").read_bytes()).hexdigest()
    assert file_sha == a.fingerprint()
    assert loaded.encode(texts[0]) == a.encode(texts[0])
    # Trained on probes, a probe word is a single token.
    assert len(a.encode(" because")) == 1


def test_cli_writes_a_loadable_tokenizer(tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The dog ran.\nThe cat sat.\n", encoding="utf-8")
    out = tmp_path / "tok.json"
    main(["--corpus", str(corpus), "--out", str(out)])
    assert "vocab" in capsys.readouterr().out
    assert Tokenizer.load(out).decode(Tokenizer.load(out).encode("The dog ran.")) == "The dog ran."


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not available")
def test_committed_tokenizer_matches_its_recipe(tok):
    # Fails when probes or training settings change without re-running the CLI.
    assert train_tokenizer(CORPUS).fingerprint() == tok.fingerprint()
