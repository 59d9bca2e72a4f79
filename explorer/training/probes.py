"""Seeded generator of short "probe" texts that teach what the explorer shows.

The corpus (TinyStories) rarely contains the clean patterns a teacher wants to
point at in an attention map, so a small share of the training text is made
here, in the same simple-English style and with words the corpus uses often:

* ``name_repeat``: a little story that names a character and keeps reusing the
  name (induction / copying heads). Half the names are made up from syllables,
  so the model cannot just memorise them and has to copy.
* ``word_list``: a random list of common words said twice ("red, cat, tree.
  red, cat, tree.").
* ``word_sequence``: a random run of common words, no punctuation, repeated.
* ``agreement``: subject-verb agreement across a relative clause ("The dog that
  the boys liked was happy.").
* ``pronoun``: "it" whose referent is decided by the last word ("The dog didn't
  cross the street because it was too tired / wide.").

Everything takes an explicit ``random.Random`` or a seed; no global random
state is touched, so the same seed always gives the same texts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

# --- word pools (all common in TinyStories) ---------------------------------


def _words(text: str) -> tuple[str, ...]:
    """Word pools are written as one string each to keep them short."""
    return tuple(text.split())


_GIRL_NAMES = _words(
    "Mia Lily Sue Lucy Anna Sara Amy Jane Emma Jill Ella Lisa Luna Rosie Kate Lola"
)
_BOY_NAMES = _words("Tim Tom Ben Max Sam Bob Jack Joe Leo Fred Toby Rex Henry")
_NAMES = _GIRL_NAMES + _BOY_NAMES
# Made-up names are glued from these, e.g. "Zumo", "Kipa": several BPE pieces
# each, so repeating them is a real copying task.
_SYLLABLES = _words("zu ki mo pa bix lo ra fen tu vi nox da gri")

_OPENINGS = ("Once upon a time, there was a little", "Once there was a", "There was a")
_KIDS = (("girl", "her", _GIRL_NAMES), ("boy", "his", _BOY_NAMES))
_THINGS = _words("ball kite doll toy boat hat book cup box bike truck")
_THING_ADJS = _words("red blue green big small shiny soft yellow pink")
_PLACES = _words("park garden beach forest pond farm store lake")
_ANIMALS = _words("dog cat bird frog bear duck rabbit mouse horse cow lion monkey puppy kitten fox")

# Words for the list / sequence kinds: short, frequent, mixed parts of speech.
_COMMON_WORDS = _words(
    "red blue green cat dog tree box sun ball cake bird happy sad big small jump run play "
    "fish hat car milk door bed star moon flower rock bag toy park home book apple boat "
    "frog duck hill sand kite"
)

# (singular, plural) nouns for agreement. Irregular plurals on purpose.
_AGREE_NOUNS = tuple(
    tuple(pair.split("/"))
    for pair in _words(
        "dog/dogs cat/cats boy/boys girl/girls bird/birds frog/frogs bear/bears duck/ducks "
        "rabbit/rabbits horse/horses cow/cows mouse/mice puppy/puppies kitten/kittens "
        "friend/friends child/children baby/babies monkey/monkeys lion/lions teacher/teachers"
    )
)
# Past tense so the clause verb itself carries no number (no second agreement).
_CLAUSE_VERBS = _words("liked saw helped loved found chased met hugged called")
_AGREE_ADJS = _words("happy sad big small hungry tired kind funny scared sleepy")
# tense -> (singular verb, plural verb)
_BE_FORMS = {"past": ("was", "were"), "present": ("is", "are")}


class _PronounFrame(NamedTuple):
    """One verb with objects and adjectives that pick the subject or the object."""

    verb: str
    objects: dict[str, tuple[str, ...]]  # object noun -> adjectives that fit only it
    subject_adjs: tuple[str, ...]  # adjectives that fit only the animal


_PRONOUN_FRAMES = (
    _PronounFrame(
        "cross",
        {
            "street": ("wide", "long", "busy"),
            "road": ("wide", "long", "busy"),
            "river": ("wide", "deep"),
            "bridge": ("long", "high"),
        },
        ("tired", "sleepy", "scared", "slow"),
    ),
    _PronounFrame(
        "jump over",
        {"fence": ("tall", "high"), "wall": ("tall", "high"), "rock": ("tall", "high")},
        ("small", "tired", "little", "weak"),
    ),
    _PronounFrame(
        "eat",
        {"soup": ("hot", "spicy"), "cake": ("big", "sour"), "apple": ("big", "sour", "hard")},
        ("full", "sick", "sleepy"),
    ),
    _PronounFrame(
        "carry",
        {"box": ("heavy", "big"), "rock": ("heavy", "big"), "bag": ("heavy", "big")},
        ("small", "weak", "tired", "little"),
    ),
)
# Animals only: "it" must be able to point at either noun.
_PRONOUN_SUBJECTS = ("animal",) + _ANIMALS


class AgreementPair(NamedTuple):
    """A prefix ending just before the main verb, and the right / wrong next token."""

    prefix: str  # "The dog that the boys liked"
    correct: str  # " was" (leading space: that is how BPE sees the next word)
    wrong: str  # " were"


class PronounPair(NamedTuple):
    """A sentence with one "it" and the noun that "it" refers to."""

    sentence: str
    referent: str  # noun "it" refers to ("dog")
    other: str  # the competing noun ("street")
    pronoun_span: tuple[int, int]  # character span of "it" in ``sentence``


# --- small helpers ------------------------------------------------------------


def _made_up_name(rng: random.Random) -> str:
    """A capitalised two-syllable nonsense name such as "Kifen"."""
    return "".join(rng.choice(_SYLLABLES) for _ in range(2)).capitalize()


def _pick_name(rng: random.Random, avoid: str = "", names: tuple[str, ...] = _NAMES) -> str:
    """A name from ``names`` or a made-up one (half and half), other than ``avoid``."""
    while True:
        name = _made_up_name(rng) if rng.random() < 0.5 else rng.choice(names)
        if name != avoid:
            return name


def _random_words(rng: random.Random, low: int, high: int) -> list[str]:
    """Between ``low`` and ``high`` distinct common words."""
    return rng.sample(_COMMON_WORDS, rng.randint(low, high))


# --- per-kind generators: each takes an rng and returns one line of text ------


def name_repeat(rng: random.Random) -> str:
    """A short story that introduces a name and reuses it several times."""
    kid, pronoun, names = rng.choice(_KIDS)
    name = _pick_name(rng, names=names)
    friend = _pick_name(rng, avoid=name)
    thing, adj, place = rng.choice(_THINGS), rng.choice(_THING_ADJS), rng.choice(_PLACES)
    animal = rng.choice(_ANIMALS)
    opening = rng.choice(_OPENINGS)
    sentences = [
        f"{opening} {kid} named {name}.",
        f"{name} had a {adj} {thing}.",
        f"One day, {name} took {pronoun} {thing} to the {place}.",
        f"At the {place}, {name} met a {animal} named {friend}.",
        f'{friend} said, "Hi, {name}! Can I play with your {thing}?"',
        f'{name} smiled and said, "Yes, {friend}!"',
        f"{name} and {friend} played all day.",
    ]
    # Keep the introduction, then a random-length ordered run of the rest.
    return " ".join(sentences[: rng.randint(4, len(sentences))])


def word_list(rng: random.Random) -> str:
    """A comma list of words, repeated: "red, cat, tree, box. red, cat, tree, box."."""
    items = ", ".join(_random_words(rng, 3, 7)) + "."
    repeats = rng.randint(2, 3)
    if rng.random() < 0.5:
        return " ".join([items] * repeats)
    # Story-style framing: two people say the same list.
    first = _pick_name(rng)
    second = _pick_name(rng, avoid=first)
    return f"{first} said: {items} Then {second} said: {items}"


def word_sequence(rng: random.Random) -> str:
    """A run of common words without punctuation, repeated two or three times."""
    run = " ".join(_random_words(rng, 5, 10))
    return " ".join([run] * rng.randint(2, 3))


def _agreement_parts(rng: random.Random, mismatch: bool) -> tuple[str, str, str, str]:
    """(prefix, correct verb, wrong verb, adjective) for one agreement sentence.

    With ``mismatch`` the noun inside the clause always has the other number than
    the head noun, the case where "agree with the nearest noun" goes wrong.
    """
    head, attractor = rng.choice(_AGREE_NOUNS), rng.choice(_AGREE_NOUNS)
    head_plural = rng.random() < 0.5
    attractor_plural = (not head_plural) if mismatch else rng.random() < 0.5
    singular, plural = _BE_FORMS[rng.choice(tuple(_BE_FORMS))]
    correct, wrong = (plural, singular) if head_plural else (singular, plural)
    verb = rng.choice(_CLAUSE_VERBS)
    prefix = f"The {head[head_plural]} that the {attractor[attractor_plural]} {verb}"
    return prefix, correct, wrong, rng.choice(_AGREE_ADJS)


def agreement(rng: random.Random) -> str:
    """Two or three agreement sentences: "The dogs that the boy liked were happy."."""
    sentences = []
    for _ in range(rng.randint(2, 3)):
        prefix, correct, _, adj = _agreement_parts(rng, mismatch=rng.random() < 0.5)
        sentences.append(f"{prefix} {correct} {adj}.")
    return " ".join(sentences)


def _pronoun_sentence(rng: random.Random, to_subject: bool) -> PronounPair:
    """One "because it was too ..." sentence whose adjective picks the referent."""
    frame = rng.choice(_PRONOUN_FRAMES)
    subject = rng.choice(_PRONOUN_SUBJECTS)
    obj = rng.choice(tuple(frame.objects))
    adj = rng.choice(frame.subject_adjs if to_subject else frame.objects[obj])
    head = f"The {subject} didn't {frame.verb} the {obj} because "
    sentence = f"{head}it was too {adj}."
    span = (len(head), len(head) + len("it"))
    referent, other = (subject, obj) if to_subject else (obj, subject)
    return PronounPair(sentence, referent, other, span)


def pronoun(rng: random.Random) -> str:
    """One or two pronoun sentences, sometimes followed by who was what."""
    parts = []
    for _ in range(rng.randint(1, 2)):
        pair = _pronoun_sentence(rng, to_subject=rng.random() < 0.5)
        parts.append(pair.sentence)
        if rng.random() < 0.5:
            # Spelling the answer out teaches which noun the adjective belongs to.
            adj = pair.sentence.rsplit(" ", 1)[-1].rstrip(".")
            parts.append(f"The {pair.referent} was {adj}.")
    return " ".join(parts)


# --- public API ---------------------------------------------------------------

GENERATORS: dict[str, Callable[[random.Random], str]] = {
    "name_repeat": name_repeat,
    "word_list": word_list,
    "word_sequence": word_sequence,
    "agreement": agreement,
    "pronoun": pronoun,
}


def probe_kinds() -> list[str]:
    """Names of the probe kinds, in the order ``generate_probes`` cycles through them."""
    return list(GENERATORS)


def generate_kind(kind: str, n: int, seed: int) -> list[str]:
    """``n`` texts of one kind."""
    rng = random.Random(seed)
    make = GENERATORS[kind]
    return [make(rng) for _ in range(n)]


def generate_probes(n: int, seed: int) -> list[str]:
    """``n`` one-line probe texts; kinds take turns so every kind is equally common."""
    rng = random.Random(seed)
    makers = list(GENERATORS.values())
    return [makers[i % len(makers)](rng) for i in range(n)]


def agreement_pairs(n: int, seed: int, mismatch_only: bool = True) -> list[AgreementPair]:
    """``n`` (prefix, correct verb, wrong verb) triples for scoring agreement.

    By default the clause noun always has the other number than the subject, so a
    model that just agrees with the nearest noun scores zero.
    """
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        prefix, correct, wrong, _ = _agreement_parts(rng, mismatch=mismatch_only)
        pairs.append(AgreementPair(prefix, " " + correct, " " + wrong))
    return pairs


def pronoun_pairs(n: int, seed: int) -> list[PronounPair]:
    """``n`` pronoun sentences; the referent alternates between the animal and the object."""
    rng = random.Random(seed)
    return [_pronoun_sentence(rng, to_subject=i % 2 == 0) for i in range(n)]
