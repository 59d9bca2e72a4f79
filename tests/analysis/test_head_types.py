"""Head pattern types from measured scores: synthetic patterns with a known answer."""

import numpy as np
import pytest

from explorer.analysis.head_stats import classify, head_stats
from explorer.analysis.head_types import (
    INDUCTION_THRESHOLD,
    KINDS,
    NOT_MEASURABLE,
    PLAIN,
    head_types,
    induction_scores,
    induction_targets,
    why,
)

# "a b c d e f a b c d e f": the second half repeats the first.
REPEATED = [11, 12, 13, 14, 15, 16, 11, 12, 13, 14, 15, 16]
DISTINCT = [21, 22, 23, 24, 25, 26, 27, 28]


def causal_uniform(n: int) -> np.ndarray:
    return np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]


def one_hot_rows(n: int, keys: list[int]) -> np.ndarray:
    p = np.zeros((n, n))
    p[np.arange(n), keys] = 1.0
    return p


def induction_stripe(ids: list[int]) -> np.ndarray:
    """Every row with an earlier copy of its token attends fully to the token after that
    copy (a perfect induction stripe); the other rows attend to the first token."""
    n = len(ids)
    keys = []
    for i, t in enumerate(ids):
        earlier = [j for j in range(i) if ids[j] == t]
        keys.append(earlier[-1] + 1 if earlier else 0)
    return one_hot_rows(n, keys)


def synthetic(ids: list[int]) -> np.ndarray:
    """[2 layers, 3 heads, T, T]: L0 = induction, previous-token, first token;
    L1 = uniform, self, a 40/40/20 blend of previous, first and self (mixed)."""
    n = len(ids)
    prev = one_hot_rows(n, [max(i - 1, 0) for i in range(n)])
    first = one_hot_rows(n, [0] * n)
    blend = 0.4 * prev + 0.4 * first + 0.2 * np.eye(n)
    return np.stack([
        np.stack([induction_stripe(ids), prev, first]),
        np.stack([causal_uniform(n), np.eye(n), blend]),
    ]).astype(np.float32)


def test_a_perfect_induction_stripe_is_typed_copy_induction():
    p = synthetic(REPEATED)
    np.testing.assert_allclose(p.sum(-1), 1.0, atol=1e-6)
    types = head_types(p, REPEATED)
    assert types.induction_measurable and types.note == ""
    assert types.kind(0, 0) == "induction"
    assert types.induction[0, 0] == pytest.approx(1.0)
    assert "1.00 on copy targets" in types.evidence[0, 0]


def test_the_other_synthetic_heads_get_their_own_kinds():
    types = head_types(synthetic(REPEATED), REPEATED)
    assert types.kinds.tolist() == [["induction", "previous-token", "first-token/sink"],
                                    ["uniform", "self", "no clear pattern"]]
    # A previous-token head scores ~0 on copy targets: those equal to i - 1 are excluded.
    assert types.induction[0, 1] < 0.05 < INDUCTION_THRESHOLD
    assert types.present() == ["previous-token", "first-token/sink", "self", "uniform",
                               "induction", "no clear pattern"]


def test_without_repeated_tokens_copy_heads_are_not_measurable_and_it_says_so():
    p = synthetic(DISTINCT)
    types = head_types(p, DISTINCT)
    assert types.induction is None and not types.induction_measurable
    assert types.note == NOT_MEASURABLE and "repeat" in types.note
    # the stripe head's rows all fall back to the first token: a sink, not induction
    assert types.kind(0, 0) == "first-token/sink"
    assert "induction" not in types.kinds.ravel().tolist()


def test_labels_match_explorer_stats_classify_except_for_induction():
    p = synthetic(REPEATED)
    stats = head_stats(p)
    types = head_types(p, REPEATED, stats=stats)
    rename = {"first-token": "first-token/sink", "mixed": "no clear pattern"}
    for layer in range(2):
        for head in range(3):
            if types.kind(layer, head) != "induction":
                expected = classify(stats, layer, head)
                assert types.kind(layer, head) == rename.get(expected, expected)


def test_copy_targets_skip_self_and_previous_token():
    # "x x": the only target of row 1 would be itself.  "x y x": it would be the previous.
    assert not induction_targets([5, 5]).any()
    assert not induction_targets([5, 6, 5]).any()
    t = induction_targets([5, 6, 7, 5])
    assert t[3].tolist() == [False, True, False, False] and t.sum() == 1
    assert induction_scores(np.ones((1, 1, 3, 3)) / 3, [5, 6, 5]) is None


def test_induction_score_is_the_mean_over_rows_with_a_target():
    ids = REPEATED
    p = synthetic(ids)[None, 0, :1]  # [1, 1, T, T], the stripe
    half = 0.5 * p + 0.5 * causal_uniform(len(ids))[None, None]
    score = induction_scores(half, ids)[0, 0]
    rows = induction_targets(ids).any(-1)
    expected = np.mean([0.5 + 0.5 / (i + 1) for i in np.flatnonzero(rows)])
    assert score == pytest.approx(expected)


def test_every_kind_has_plain_words_and_a_reason():
    for kind in KINDS:
        assert PLAIN[kind] and len(why(kind)) > 20


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError):
        head_types(np.ones((3, 3)), [1, 2, 3])
    with pytest.raises(ValueError):
        induction_scores(np.ones((1, 1, 3, 3)), [1, 2])
