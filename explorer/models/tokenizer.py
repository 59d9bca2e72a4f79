"""Byte-level BPE tokenizer: loading, saving, and the pieces shown to students.

The tokenizer is a ``tokenizers`` byte-level BPE (the GPT-2 scheme) with 4096
entries, trained on the TinyStories corpus plus the project's probe texts. Byte
level means every string, whatever its script or control characters, encodes
and decodes back exactly: unknown characters just fall apart into byte tokens.

``Tokenizer.token_pieces`` is what the UI labels tokens with. Each piece is
the text the student typed (real spaces, real characters, no "Ġ"), taken from
the encoding's character offsets. A character whose UTF-8 bytes are split over
several tokens (an emoji, a CJK character) is shown once, on the token that
holds its first byte; the following tokens that only finish it get the empty
string and an empty span. So the pieces always join back to the input text and
the spans tile it without overlap.

``python -m explorer.training.tokenizer_build`` trains and saves it (corpus plus probe
texts, :mod:`explorer.training.tokenizer_build`); the result is the same file every time.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import tokenizers
from tokenizers import decoders, models, pre_tokenizers, trainers

VOCAB_SIZE = 4096
EOT, PAD, MASK = "<|endoftext|>", "<pad>", "<mask>"
SPECIAL_TOKENS = (EOT, PAD, MASK)  # trainer gives them ids 0, 1, 2 in this order
# Probe texts mixed into tokenizer training so probe words get their own tokens.

# Lone UTF-16 surrogates are not Unicode scalar values and cannot be UTF-8
# encoded; they are replaced one-for-one so character offsets stay valid.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")

Piece = tuple[int, str, tuple[int, int]]  # (token id, display text, (start, end) chars)


def _clean(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD (same length)."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def new_bpe() -> tuple[tokenizers.Tokenizer, trainers.BpeTrainer]:
    """An untrained byte-level BPE and the trainer that fills it."""
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    return tok, trainer


def read_lines(path: str | Path) -> Iterator[str]:
    """Non-empty lines of a UTF-8 text file, without their newline."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line := line.rstrip("\n"):
                yield line


class Tokenizer:
    """Thin wrapper around ``tokenizers.Tokenizer`` with the API the app needs."""

    def __init__(self, inner: tokenizers.Tokenizer):
        self.inner = inner
        ids = [inner.token_to_id(t) for t in SPECIAL_TOKENS]
        if ids != [0, 1, 2]:
            raise ValueError(f"special tokens must have ids 0, 1, 2, got {ids}")
        self.eot_id, self.pad_id, self.mask_id = ids

    @classmethod
    def train(cls, texts: Iterable[str]) -> Tokenizer:
        """Train a fresh BPE on ``texts`` (one document per item)."""
        inner, trainer = new_bpe()
        inner.train_from_iterator(texts, trainer=trainer)
        return cls(inner)

    @classmethod
    def load(cls, path: str | Path) -> Tokenizer:
        return cls(tokenizers.Tokenizer.from_file(str(path)))

    def save(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.inner.save(str(path), pretty=False)

    @property
    def vocab_size(self) -> int:
        return self.inner.get_vocab_size()

    def fingerprint(self) -> str:
        """sha256 of the serialised tokenizer, equal to the sha256 of the file ``save``
        writes; it changes whenever the tokenizer's behaviour could."""
        return hashlib.sha256(self.inner.to_str().encode("utf-8")).hexdigest()

    def encode(self, text: str) -> list[int]:
        """Token ids. Special-token strings typed in the text (e.g. "<mask>") become
        the special token, so a student can type a mask for the masked model."""
        return self.inner.encode(_clean(text), add_special_tokens=False).ids

    def encode_batch(self, texts: list[str]) -> list[list[int]]:
        """Ids for many texts at once (parallel inside ``tokenizers``)."""
        encs = self.inner.encode_batch([_clean(t) for t in texts], add_special_tokens=False)
        return [e.ids for e in encs]

    def decode(self, ids: Iterable[int]) -> str:
        """Text for ids; special tokens are kept so encode/decode round-trips."""
        return self.inner.decode(list(ids), skip_special_tokens=False)

    def token_pieces(self, text: str) -> list[Piece]:
        """(id, display text, (start, end)) per token; see the module docstring.

        Offsets from ``tokenizers`` give every byte token of a split character the
        whole character's span; ``covered`` moves past what earlier tokens showed
        so each character is shown exactly once.
        """
        text = _clean(text)
        enc = self.inner.encode(text, add_special_tokens=False)
        pieces: list[Piece] = []
        covered = 0
        for token_id, (start, end) in zip(enc.ids, enc.offsets, strict=True):
            start, end = max(start, covered), max(end, covered)
            pieces.append((token_id, text[start:end], (start, end)))
            covered = end
        return pieces


def single_token_share(tok: Tokenizer, sentences: Iterable[str]) -> float:
    """Share of words that are one token when they follow a space, as in running text.

    Words are whitespace-split and stripped of surrounding punctuation.
    """
    words = [w.strip(".,!?;:\"'()") for s in sentences for w in s.split()]
    words = [w for w in words if w]
    return sum(len(tok.encode(" " + w)) == 1 for w in words) / len(words)
