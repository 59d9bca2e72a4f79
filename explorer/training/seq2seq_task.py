"""The encoder-decoder's task: reverse a short list of everyday words.

"cat sun box" -> "box sun cat". A student checks the answer by eye, and a model that
has learnt it must, at each output step, look at one source word -- the mirror
position -- so cross-attention draws an anti-diagonal.

Everything is generated here, seeded and deterministic (``random.Random(seed)``): lists
of ``MIN_WORDS``..``MAX_WORDS`` words drawn with replacement from ``WORDS``, 40 nouns that
are each one token of the project tokenizer when written after a space (" cat"). Every
word is tokenized that way, wherever it stands, so a word is always the same token.
The held-out split is a property of the list itself (a stable hash of its word indices:
one list in ``HELD_OUT_EVERY``), so no held-out list is ever trained on, whatever the seed.

Sequences (ids from :mod:`explorer.models.tokenizer`; ``<|endoftext|>`` = 0 starts and ends a
target, ``<pad>`` = 1 fills):

    source          cat  sun  box  <pad> ...                 [batch, src]
    decoder input   BOS  box  sun  cat   <pad> ...           [batch, tgt]
    labels          box  sun  cat  EOS   -100 ...            [batch, tgt]
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass

import torch

from explorer.models.encoder_decoder import BOS_ID, EOS_ID, PAD_ID
from explorer.models.tokenizer import Tokenizer

WORDS = (
    "cat", "dog", "bird", "fish", "cow", "pig", "duck", "frog", "bear", "fox",
    "lion", "owl", "bee", "sun", "moon", "star", "tree", "leaf", "rock", "cloud",
    "rain", "snow", "cake", "milk", "apple", "egg", "bread", "cookie", "ball", "box",
    "hat", "cup", "bed", "car", "boat", "bus", "book", "door", "key", "sock",
)
MIN_WORDS, MAX_WORDS = 3, 8
MAX_CHARS = 120  # a source box longer than 8 of these words plus separators is refused
HELD_OUT_EVERY = 10
IGNORE_INDEX = -100  # cross-entropy skips these label positions (padding)
TASK = "reverse the list"
_SPLIT = re.compile(r"[\s,;]+")


def word_ids(tok: Tokenizer) -> dict[str, int]:
    """Each task word -> its one token id (as written after a space)."""
    ids = {}
    for word in WORDS:
        pieces = tok.encode(" " + word)
        if len(pieces) != 1:
            raise ValueError(f"{word!r} is not a single token of this tokenizer")
        ids[word] = pieces[0]
    return ids


def target_of(words: list[str]) -> list[str]:
    """The rule: the same words, last first."""
    return list(reversed(words))


def is_held_out(indices: list[int]) -> bool:
    """Stable (not Python's salted ``hash``): the same lists are held out on every run."""
    digest = hashlib.blake2b(bytes([len(indices), *indices]), digest_size=8).digest()
    return int.from_bytes(digest, "little") % HELD_OUT_EVERY == 0


def sample_lists(n: int, split: str, seed: int) -> list[list[str]]:
    """``n`` word lists of the ``split`` ("train" or "held_out"), deterministic for a seed."""
    if split not in ("train", "held_out"):
        raise ValueError("split must be 'train' or 'held_out'")
    rng = random.Random(seed)
    out: list[list[str]] = []
    while len(out) < n:
        length = rng.randint(MIN_WORDS, MAX_WORDS)
        indices = [rng.randrange(len(WORDS)) for _ in range(length)]
        if is_held_out(indices) == (split == "held_out"):
            out.append([WORDS[i] for i in indices])
    return out


@dataclass
class Batch:
    src: torch.Tensor  # [batch, src] int64
    src_padding_mask: torch.Tensor  # [batch, src] bool, True at <pad>
    tgt_in: torch.Tensor  # [batch, tgt] int64, BOS then the target
    tgt_padding_mask: torch.Tensor  # [batch, tgt] bool
    labels: torch.Tensor  # [batch, tgt] int64, the target then EOS; IGNORE_INDEX at padding


def _pad(rows: list[list[int]], value: int) -> torch.Tensor:
    width = max(len(r) for r in rows)
    return torch.tensor([r + [value] * (width - len(r)) for r in rows], dtype=torch.long)


def make_batch(lists: list[list[str]], ids: dict[str, int]) -> Batch:
    src = [[ids[w] for w in words] for words in lists]
    tgt = [[ids[w] for w in target_of(words)] for words in lists]
    src_t = _pad(src, PAD_ID)
    tgt_in = _pad([[BOS_ID, *t] for t in tgt], PAD_ID)
    labels = _pad([[*t, EOS_ID] for t in tgt], IGNORE_INDEX)
    src_lens = torch.tensor([len(s) for s in src])
    return Batch(src_t, torch.arange(src_t.shape[1])[None] >= src_lens[:, None],
                 tgt_in, labels == IGNORE_INDEX, labels)


def train_batches(batch_size: int, seed: int, ids: dict[str, int]):
    """An endless, deterministic stream of training batches."""
    rng = random.Random(seed)
    while True:
        yield make_batch(sample_lists(batch_size, "train", rng.getrandbits(32)), ids)


class BadSource(ValueError):
    """A source the model cannot be asked about; the message says what to type instead."""


def parse_source(text: str) -> list[str]:
    """The student's list -> task words (lower case; spaces, commas or semicolons between
    them). Raises :class:`BadSource` with a sentence to show; never echoes the input."""
    text = (text or "").strip()
    if not text:
        raise BadSource(f"Type {MIN_WORDS} to {MAX_WORDS} words from the list below, "
                        "e.g. “cat sun box”.")
    if len(text) > MAX_CHARS:
        raise BadSource(f"That is longer than {MAX_CHARS} characters: type at most "
                        f"{MAX_WORDS} words.")
    words = [w for w in _SPLIT.split(text.lower().strip(" .!?")) if w]
    unknown = [w for w in words if w not in WORDS]
    if unknown:
        count = len(unknown)
        raise BadSource(f"{count} word{'s are' if count > 1 else ' is'} not one of the "
                        f"{len(WORDS)} words this model was trained on: use only words "
                        "from the list below.")
    if not MIN_WORDS <= len(words) <= MAX_WORDS:
        raise BadSource(f"That is {len(words)} word{'s' if len(words) != 1 else ''}: the "
                        f"model was trained on lists of {MIN_WORDS} to {MAX_WORDS}.")
    return words
