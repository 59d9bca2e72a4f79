"""Words for the Lab's tokens, and a tokenizer that reads sentences of them.

A Lab model (:mod:`explorer.training.lab`) reads 64 abstract token ids: 0 starts every
sequence, 1..63 are random tokens. To put such a model in the page's views, which read
sentences, each of the 63 tokens gets a short, common English word (:data:`LAB_WORDS`,
fixed: token ``i`` is ``LAB_WORDS[i - 1]``), and :class:`LabTokenizer` reads a sentence
of those words separated by spaces as the start token followed by one token per word.
The trainer itself stays numerical: the words are only names.

The views need the interface of :class:`explorer.models.tokenizer.Tokenizer`:
``encode``, ``encode_batch``, ``decode``, ``token_pieces``, ``vocab_size``,
``fingerprint`` and ``mask_id``. A word the Lab model does not know cannot be guessed
(there is no "unknown" token): :meth:`LabTokenizer.unknown` says which words of a text are
not its own (the page refuses such a text with :func:`unknown_words_message`, naming the
words' places, never the words), and ``encode``/``token_pieces`` leave such a word out.
Case does not matter ("Cat" is "cat").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

# Every word is one token of the zoo's tokenizer after a space (" cat"), so Compare can
# set a Lab model's guesses beside a zoo model's word by word. "start" is none of them.
LAB_WORDS = (
    "cat", "dog", "sun", "tree", "bird", "fish", "cake", "ball", "book", "milk", "rain",
    "snow", "star", "moon", "boat", "car", "bus", "hat", "cup", "box", "bed", "door",
    "key", "ship", "frog", "duck", "bear", "lion", "fox", "cow", "pig", "owl", "egg",
    "apple", "bread", "corn", "rice", "shoe", "sock", "coat", "bag", "pen", "map", "lamp",
    "bell", "drum", "kite", "rock", "sand", "leaf", "rose", "park", "road", "hill", "lake",
    "sea", "king", "queen", "girl", "boy", "baby", "toy", "farm",
)
BOS = 0  # the Lab task's start token (explorer.training.lab_task.BOS)
START_LABEL = "<start>"  # how the start token is shown
_WORD = re.compile(r"\S+")

Piece = tuple[int, str, tuple[int, int]]  # as explorer.models.tokenizer.Piece


def unknown_words_message(places: list[int], n_words: int = len(LAB_WORDS)) -> str:
    """What the page says when words of a sentence are not the Lab model's (plain text,
    one line; ``places``: 1-based places of the unknown words, never the words)."""
    where = ", ".join(_ordinal(p) for p in places[:5]) + (", …" if len(places) > 5 else "")
    which = (f"The {where} word of your sentence is" if len(places) == 1
             else f"The {where} words of your sentence are")
    return (f"{which} not one your Lab model knows. It reads only its {n_words} words, "
            f"separated by spaces, no punctuation: {', '.join(LAB_WORDS)}.")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class LabTokenizer:
    """Sentences of :data:`LAB_WORDS` <-> the Lab task's token ids (see the module
    docstring). ``words``: the names of tokens 1..len(words)."""

    def __init__(self, words: Iterable[str] = LAB_WORDS) -> None:
        self.words = tuple(words)
        if len(set(self.words)) != len(self.words) or not all(
                w.isalpha() and w == w.lower() for w in self.words):
            raise ValueError("the Lab's words must be distinct lower-case words")
        self._ids = {w: i + 1 for i, w in enumerate(self.words)}
        self.eot_id = self.pad_id = BOS  # the start token stands where the zoo's would
        self.joiner = " "  # pieces are words: spaces join them into text (an export's)
        self.mask_id = -1  # no masked-word Lab model: no id is ever the mask

    @property
    def vocab_size(self) -> int:
        return len(self.words) + 1

    def fingerprint(self) -> str:
        """sha256 of the words in order: it changes whenever a token's name could."""
        return hashlib.sha256(" ".join(self.words).encode("utf-8")).hexdigest()

    def word_id(self, word: str) -> int | None:
        return self._ids.get(word.lower())

    def unknown(self, text: str, typing: bool = False) -> list[int]:
        """1-based places of the words of ``text`` that are not the model's. ``typing``:
        a last word with no space after it that begins a known word is being typed, and
        is not counted (nor read: see :meth:`token_pieces`)."""
        found = list(_WORD.finditer(text or ""))
        places = [n for n, m in enumerate(found, 1) if self.word_id(m.group()) is None]
        if (typing and places and places[-1] == len(found) and found[-1].end() == len(text)
                and any(w.startswith(found[-1].group().lower()) for w in self.words)):
            places.pop()
        return places

    def token_pieces(self, text: str) -> list[Piece]:
        """(id, display text, (start, end)) per token: the start token (an empty span at
        0), then one per known word with its span in ``text``; unknown words are left out
        (the page refuses them first: :meth:`unknown`)."""
        pieces: list[Piece] = [(BOS, START_LABEL, (0, 0))]
        for m in _WORD.finditer(text or ""):
            token_id = self.word_id(m.group())
            if token_id is not None:
                pieces.append((token_id, m.group(), m.span()))
        return pieces

    def encode(self, text: str) -> list[int]:
        """The start token, then one id per known word."""
        return [token_id for token_id, _, _ in self.token_pieces(text)]

    def encode_batch(self, texts: list[str]) -> list[list[int]]:
        return [self.encode(t) for t in texts]

    def decode(self, ids: Iterable[int]) -> str:
        """Words separated by spaces; the start token as ``<start>``; an id out of range
        as ``?`` (a Lab model guesses only its own 64)."""
        out = []
        for i in ids:
            i = int(i)
            out.append(START_LABEL if i == BOS else
                       self.words[i - 1] if 0 < i <= len(self.words) else "?")
        return " ".join(out)

    def sentence(self, ids: Iterable[int]) -> str:
        """The words of ``ids`` as a sentence to type (the start token left out)."""
        return " ".join(self.words[int(i) - 1] for i in ids if 0 < int(i) <= len(self.words))
