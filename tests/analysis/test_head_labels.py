"""Trusted head labels: scores on hand-built patterns, a hand-wired head with a clear
pattern but no job (not named), and the shipped default model naming its heads."""

import numpy as np
import pytest
import torch

from explorer.analysis.head_labels import (
    CHECKED,
    INDUCTION,
    KINDS,
    NO_PATTERN,
    PREVIOUS,
    SELF,
    SINK,
    THRESHOLDS,
    below,
    copy_scores,
    doubled,
    label_heads,
    offset_scores,
)
from explorer.analysis.head_stats import head_stats
from explorer.views.explore import head_table, named_line
from tests.conftest import tiny_model


def one_hot_rows(n: int, keys: list[int]) -> np.ndarray:
    p = np.zeros((n, n))
    p[np.arange(n), keys] = 1.0
    return p


def test_offset_and_first_scores_on_hand_built_patterns():
    n = 6
    prev = one_hot_rows(n, [max(i - 1, 0) for i in range(n)])
    nxt = one_hot_rows(n, [min(i + 1, n - 1) for i in range(n)])
    first = one_hot_rows(n, [0] * n)
    p = np.stack([np.stack([prev, nxt, first])])  # [1 layer, 3 heads, n, n]
    np.testing.assert_allclose(offset_scores(p, -1)[0], [1.0, 0.0, 1 / 5])
    np.testing.assert_allclose(offset_scores(p, +1)[0], [0.0, 1.0, 0.0])
    # row 0 of each head attends to itself (the first row of a causal head has no choice)
    np.testing.assert_allclose(offset_scores(p, 0)[0], [1 / 6, 1 / 6, 1 / 6])
    # the previous-token, first-token and self scores the labels use are head_stats' own
    stats = head_stats(p)
    np.testing.assert_allclose(stats.prev_share[0], offset_scores(p, -1)[0])
    np.testing.assert_allclose(stats.self_share[0], offset_scores(p, 0)[0])
    np.testing.assert_allclose(stats.first_share[0], [1 / 5, 0.0, 1.0])


def test_copy_scores_read_the_token_after_the_twin():
    n = 4  # a doubled sentence of 8 tokens: query n + j looks at key j + 1
    keys = [0, 0, 1, 2, 1, 2, 3, 3]  # queries 5, 6, 7 -> keys 2, 3, 3 (two of three right)
    p = one_hot_rows(2 * n, keys)[None, None]
    np.testing.assert_allclose(copy_scores(p, n)[0, 0], 2 / 3)
    perfect = one_hot_rows(2 * n, [0, 0, 1, 2, 3, 2, 3, 4])  # 5->2, 6->3, 7->4? 7-4+1 = 4
    np.testing.assert_allclose(copy_scores(perfect[None, None], n)[0, 0], 1.0)


@pytest.mark.parametrize("ids,n_ctx,expected", [
    ([1, 2, 3], 8, [1, 2, 3, 1, 2, 3]),
    ([1, 2], 8, None),  # too short to say anything
    ([1, 2, 3, 4, 5], 8, None),  # twice would not fit the context
])
def test_doubled(ids, n_ctx, expected):
    assert doubled(ids, n_ctx) == expected


def wired_previous_token_model(give_it_a_job: bool):
    """Layer 0 head 0 attends to the previous token by construction (positions one-hot in
    the residual stream, W_Q shifts them by one); its output is zeroed unless asked."""
    model = tiny_model(pos_encoding="learned", n_heads=2, d_model=32, n_ctx=16)
    attn = model.blocks[0].attn
    with torch.no_grad():
        model.W_E.weight.mul_(0.01)
        model.pos.W_pos.weight.copy_(torch.eye(16, 32))
        attn.W_Q.weight.zero_()
        attn.W_K.weight.zero_()
        for a in range(15):  # head 0's query/key dims are 0..15
            attn.W_Q.weight[a, a + 1] = 3.0
        attn.W_K.weight[:16, :16] = torch.eye(16)
        if not give_it_a_job:
            attn.W_O.weight[:, :16] = 0.0  # reads head 0's output: nothing reaches the model
    return model


@pytest.mark.parametrize("value, bar, shown", [
    (0.4997, 0.5, "0.499"),  # two decimals would say "0.50" under "a name needs 0.50"
    (0.4949, 0.5, "0.49"),
    (0.5, 0.5, "0.50"),
    (0.5004, 0.5, "0.50"),
    (0.0996, 0.1, "0.099"),
    (-0.02, 0.1, "-0.02"),
])
def test_a_score_under_the_bar_never_reads_as_reaching_it(value, bar, shown):
    assert below(value, bar) == shown
    if value < bar:
        assert float(below(value, bar)) < bar


def test_a_clear_pattern_without_a_job_is_not_named():
    model = wired_previous_token_model(give_it_a_job=False)
    ids = [5, 9, 3, 7, 11, 2, 8, 4, 6, 10]
    from explorer.models.capture import run_with_cache

    _, cache = run_with_cache(model, torch.tensor([ids]), names="*hook_pattern")
    patterns = cache.stack("attn.hook_pattern")[:, 0].numpy()
    labels = label_heads(model, ids, patterns)
    assert labels.scores[PREVIOUS][0, 0] > 0.9  # the pattern is there...
    assert labels.kind(0, 0) == NO_PATTERN  # ...but switching it off changes nothing
    assert abs(labels.rise[0, 0]) < 1e-6
    assert "switching it off changes little" in labels.evidence(0, 0)


def test_a_random_model_names_no_checked_head():
    model = tiny_model(seed=3)
    ids = list(range(3, 13))
    from explorer.models.capture import run_with_cache

    _, cache = run_with_cache(model, torch.tensor([ids]), names="*hook_pattern")
    labels = label_heads(model, ids, cache.stack("attn.hook_pattern")[:, 0].numpy())
    assert set(labels.kinds.ravel()) <= set(KINDS)
    assert not any(k in (INDUCTION, PREVIOUS) for _, _, k in labels.named())
    assert "none" in named_line(labels)


def test_the_default_model_names_its_previous_token_and_induction_heads(resources):
    """On a sentence written for this check, the shipped default model's heads clear the
    stated thresholds and pass the switch-off check; the table and line name them."""
    tok, zoo = resources
    model = zoo.get(zoo.default_name)
    from explorer.analysis.run import analyse

    r = analyse(model, tok, "The old man put his hat and coat on the chair by the door.")
    labels = label_heads(model, r.ids, r.patterns, mask_id=tok.mask_id)
    kinds = {k for _, _, k in labels.named()}
    assert {INDUCTION, PREVIOUS} <= kinds, labels.kinds
    for la, h, kind in labels.named():
        assert labels.scores[kind][la, h] >= THRESHOLDS[kind]
    table = head_table(r.stats, 0, 0, labels=labels)
    assert "Named heads on this sentence:" in table and "induction" in table


def test_sink_heads_are_named_on_the_threshold_alone_and_the_page_says_so():
    """A head resting on the first token is named without a switch-off check (nothing is
    switched off for it: no loss rise is recorded), and the named-heads line says which
    kinds are checked and which are named on the pattern alone (issue 31, item 5)."""
    model = tiny_model(seed=3)
    ids = list(range(3, 13))
    n = len(ids)
    patterns = np.tril(np.ones((2, 4, n, n))) / np.arange(1, n + 1)[:, None]  # uniform
    patterns[0, 0] = one_hot_rows(n, [0] * n)  # L0 H0: everything on the first token
    labels = label_heads(model, ids, patterns)
    assert labels.kind(0, 0) == SINK
    assert np.isnan(labels.rise[0, 0])  # named without switching it off
    assert SINK not in CHECKED and SELF not in CHECKED
    line = named_line(labels)
    assert "L0 H0 first-token/sink" in line
    assert ("Induction, previous-token and next-token heads are named only when the pattern "
            "is clear on this sentence *and* switching off") in line
    assert "first-token/sink and self heads on the pattern alone" in line
