"""Tests for the seeded probe-text generator (explorer/training/probes.py)."""

import re
from collections import Counter

import pytest

from explorer.training.probes import (
    GENERATORS,
    agreement_pairs,
    generate_kind,
    generate_probes,
    probe_kinds,
    pronoun_pairs,
)

IRREGULAR_PLURALS = {"mice", "children"}


def kind_of(text: str) -> str:
    """Guess a probe's kind from its surface, independently of the generator code."""
    if " named " in text:
        return "name_repeat"
    if "because it was too" in text:
        return "pronoun"
    if " that the " in text:
        return "agreement"
    if "," in text:
        return "word_list"
    if re.fullmatch(r"[a-z ]+", text):
        return "word_sequence"
    return "unknown"


def is_plural(noun: str) -> bool:
    return noun in IRREGULAR_PLURALS or noun.endswith("s")


def test_same_seed_same_texts():
    assert generate_probes(40, seed=3) == generate_probes(40, seed=3)


def test_different_seeds_differ():
    a, b = generate_probes(40, seed=1), generate_probes(40, seed=2)
    assert sum(x != y for x, y in zip(a, b, strict=True)) > 30


def test_no_global_random_state_used():
    import random

    random.seed(0)
    before = random.random()
    random.seed(0)
    generate_probes(20, seed=5)
    assert random.random() == before


def test_every_kind_present_and_balanced():
    texts = generate_probes(50, seed=0)
    assert len(texts) == 50
    assert Counter(kind_of(t) for t in texts) == {k: 10 for k in probe_kinds()}
    assert set(probe_kinds()) == set(GENERATORS)


@pytest.mark.parametrize("kind", probe_kinds())
def test_texts_are_single_nonempty_lines(kind):
    for text in generate_kind(kind, 30, seed=7):
        assert text and "\n" not in text and text == text.strip()
        assert kind_of(text) == kind


def test_name_is_repeated():
    for text in generate_kind("name_repeat", 30, seed=1):
        name = re.search(r"named (\w+)\.", text).group(1)
        assert len(re.findall(rf"\b{name}\b", text)) >= 3


def test_word_sequence_is_an_exact_repeat():
    for text in generate_kind("word_sequence", 30, seed=2):
        words = text.split()
        for reps in (2, 3):
            n = len(words) // reps
            if n * reps == len(words) and words == words[:n] * reps:
                break
        else:
            pytest.fail(f"not a repeated run: {text}")


def test_word_list_repeats_its_list():
    for text in generate_kind("word_list", 30, seed=4):
        lists = re.findall(r"((?:[a-z]+, )+[a-z]+\.)", text)
        assert len(lists) >= 2 and len(set(lists)) == 1


def test_agreement_pairs_are_grammatical():
    pairs = agreement_pairs(200, seed=0)
    assert len(pairs) == 200
    for prefix, correct, wrong in pairs:
        m = re.fullmatch(r"The (\w+) that the (\w+) \w+", prefix)
        assert m, prefix
        head, attractor = m.groups()
        expected = {(" was", " were"), (" is", " are")}
        if is_plural(head):
            expected = {(p, s) for s, p in expected}
        assert (correct, wrong) in expected, (prefix, correct)
        # Default pairs always put a noun of the other number in the clause.
        assert is_plural(head) != is_plural(attractor)
    assert {c for _, c, _ in pairs} == {" was", " were", " is", " are"}


def test_agreement_pairs_can_include_matching_attractors():
    pairs = agreement_pairs(200, seed=0, mismatch_only=False)
    same = 0
    for prefix, _, _ in pairs:
        head, attractor = re.fullmatch(r"The (\w+) that the (\w+) \w+", prefix).groups()
        same += is_plural(head) == is_plural(attractor)
    assert 50 < same < 150


def test_agreement_texts_agree():
    for text in generate_kind("agreement", 40, seed=9):
        for head, verb in re.findall(r"The (\w+) that the \w+ \w+ (\w+)", text):
            assert (verb in {"were", "are"}) == is_plural(head), text


def test_pronoun_pairs_point_at_it_and_alternate():
    pairs = pronoun_pairs(100, seed=0)
    animals = {p.referent for p in pairs[0::2]}
    objects = {p.referent for p in pairs[1::2]}
    assert not animals & objects
    for sentence, referent, other, (start, end) in pairs:
        assert sentence[start:end] == "it"
        assert f" {referent} " in sentence and f" {other} " in sentence


def test_pronoun_adjective_decides_referent():
    pairs = pronoun_pairs(300, seed=1)
    adj_of = {p: p.sentence.rsplit(" ", 1)[-1].rstrip(".") for p in pairs}
    for pair, adj in adj_of.items():
        subject = pair.sentence.split()[1]
        if adj in {"tired", "sleepy", "weak", "full"}:
            assert pair.referent == subject
        if adj in {"wide", "busy", "heavy", "deep", "hot"}:
            assert pair.referent != subject
