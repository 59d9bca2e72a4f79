"""Repeated spans for the head recipe: where they go, what loses its loss, and the trainer
using them (training rows only, never evaluation batches)."""

import numpy as np
import pytest
import torch

from explorer.training.repeats import KINDS, RepeatRecipe, add_repeats, span_pool


def windows(batch=16, n=65, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(1000, 2000, (batch, n), generator=g)


def spans_of(w, no_loss, b):
    """(start, length) of row b's repeated span, from where its two copies agree."""
    row = w[b].tolist()
    for length in range(len(row) // 2, 0, -1):
        for s in range(len(row) - 2 * length + 1):
            if row[s:s + length] == row[s + length:s + 2 * length]:
                return s, length
    return None


@pytest.mark.parametrize("kind", ["frequent", "words"])
def test_spans_are_written_then_repeated_and_unpredictable_targets_lose_their_loss(kind):
    pool = torch.arange(10, 60)
    w0 = windows()
    recipe = RepeatRecipe(share=1.0, min_len=4, max_len=8, kind=kind)
    w, no_loss = add_repeats(w0, pool, recipe, torch.Generator().manual_seed(1))
    assert torch.equal(w0, windows())  # the input is not changed in place
    assert no_loss.shape == (16, 64)
    for b in range(16):
        changed = (w[b] != w0[b]).nonzero().flatten()
        s, length = int(changed[0]), (int(changed[-1]) - int(changed[0]) + 1) // 2
        assert 4 <= length <= 8
        first, second = w[b, s:s + length], w[b, s + length:s + 2 * length]
        assert torch.equal(first, second) and bool(((first >= 10) & (first < 60)).all())
        # targets y[i] = w[i + 1]: no loss on the first copy, the second copy's first token
        # and the first text token after it; loss on the rest of the second copy
        want = torch.zeros(64, dtype=torch.bool)
        want[max(0, s - 1):s + length] = True
        if s + 2 * length < 65:
            want[s + 2 * length - 1] = True
        assert torch.equal(no_loss[b], want), b


def test_text_spans_repeat_the_rows_own_text_and_keep_the_first_copys_loss():
    w0 = windows(batch=8)
    recipe = RepeatRecipe(share=1.0, min_len=5, max_len=5, kind="text")
    w, no_loss = add_repeats(w0, torch.arange(3), recipe, torch.Generator().manual_seed(2))
    for b in range(8):
        s, length = spans_of(w, no_loss, b)
        assert length >= 5 and torch.equal(w[b, s:s + 5], w0[b, s:s + 5])
        assert int(no_loss[b].sum()) <= 2  # second copy's first token, first token after


@pytest.mark.parametrize(("text_share", "expected"), [
    (None, (70, 130)),  # the default: a coin flip, 100 expected
    (0.25, (30, 70)),  # 50 expected
    (0.0, (0, 0)),
    (1.0, (200, 200)),
])
def test_mixed_spans_are_the_rows_own_text_in_text_share_of_the_rows_and_pool_tokens_else(
        text_share, expected):
    w0 = windows(batch=200)  # text tokens are 1000-1999, the pool 10-59
    split = {} if text_share is None else {"text_share": text_share}
    recipe = RepeatRecipe(share=1.0, min_len=6, max_len=6, kind="mixed", **split)
    w, no_loss = add_repeats(w0, torch.arange(10, 60), recipe, torch.Generator().manual_seed(3))
    own = 0
    for b in range(200):
        s, length = spans_of(w, no_loss, b)
        assert length >= 6
        if torch.equal(w[b, s:s + 6], w0[b, s:s + 6]):  # the row's own text, said twice
            own += 1
            assert int(no_loss[b].sum()) <= 2  # its first copy keeps its loss
        else:
            assert bool(((w[b, s:s + 6] >= 10) & (w[b, s:s + 6] < 60)).all())
            assert int(no_loss[b].sum()) >= 6  # a random first copy has no loss
    assert expected[0] <= own <= expected[1]


def test_a_text_share_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError, match="text share"):
        RepeatRecipe(share=0.5, kind="mixed", text_share=1.5)


def test_share_zero_changes_nothing_and_share_picks_about_that_many_rows():
    w0 = windows(batch=400)
    w, no_loss = add_repeats(w0, torch.arange(10, 60), RepeatRecipe(share=0.0),
                             torch.Generator().manual_seed(0))
    assert torch.equal(w, w0) and not no_loss.any()
    w, _ = add_repeats(w0, torch.arange(10, 60), RepeatRecipe(share=0.25, max_len=16),
                       torch.Generator().manual_seed(0))
    rows = int((w != w0).any(-1).sum())
    assert 60 < rows < 140  # 100 expected


def test_the_same_generator_state_draws_the_same_spans():
    recipe = RepeatRecipe(share=0.5)
    a = add_repeats(windows(), torch.arange(10, 60), recipe, torch.Generator().manual_seed(5))
    b = add_repeats(windows(), torch.arange(10, 60), recipe, torch.Generator().manual_seed(5))
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])


@pytest.mark.parametrize("bad", [dict(share=1.5), dict(min_len=0), dict(min_len=9, max_len=8),
                                 dict(kind="letters"), dict(max_gap=-1)])
def test_bad_recipes_are_refused(bad):
    with pytest.raises(ValueError):
        RepeatRecipe(**bad)


def test_span_pool_has_the_most_frequent_tokens_and_words_only_for_words():
    from explorer.models.tokenizer import Tokenizer

    tok = Tokenizer.train(["the cat sat on the mat, the end."] * 50)
    stream = np.array(tok.encode("the cat sat on the mat, the end. " * 20), dtype=np.uint16)
    frequent = span_pool(stream, tok, RepeatRecipe(kind="frequent", top_n=3))
    assert tok.decode([int(frequent[0])]).strip() == "the"
    words = span_pool(stream, tok, RepeatRecipe(kind="words"))
    assert all(tok.decode([int(i)]).startswith(" ") and tok.decode([int(i)])[1:].isalpha()
               for i in words)
    assert len(words) > 0 and set(KINDS) == {"frequent", "words", "text", "lists",
                                                          "mixed"}


def test_lists_write_comma_lists_in_some_rows_and_a_gap_of_text_between_the_copies():
    w0 = windows(batch=64, n=129)
    comma = 7
    recipe = RepeatRecipe(share=1.0, min_len=8, max_len=16, kind="lists", max_gap=10)
    w, no_loss = add_repeats(w0, torch.arange(10, 60), recipe, torch.Generator().manual_seed(3),
                             comma=comma)
    gaps, with_commas = set(), 0
    for b in range(64):
        changed = (w[b] != w0[b]).nonzero().flatten()
        s = int(changed[0])
        # the second copy starts after the gap: find the repeat of the first copy's tokens
        length = next(n for n in range(16, 7, -1)
                      if any(torch.equal(w[b, s:s + n], w[b, t:t + n])
                             for t in range(s + n, 129 - n + 1)))
        t = next(t for t in range(s + length, 129 - length + 1)
                 if torch.equal(w[b, s:s + length], w[b, t:t + length]))
        gap = t - s - length
        gaps.add(gap)
        assert 0 <= gap <= 10 and torch.equal(w[b, s + length:t], w0[b, s + length:t])
        commas = w[b, s + 1:s + length:2]
        with_commas += bool((commas == comma).all())
        assert no_loss[b, t - 1]  # nothing says the second copy starts here
        if gap:
            assert no_loss[b, s + length - 1]  # the gap's first token follows a cut
            assert not no_loss[b, s + length:t - 1].any()  # the rest of the gap is text
        assert not no_loss[b, t:t + length - 1].any()  # the second copy is learned
    assert len(gaps) > 5 and 16 < with_commas < 48


def test_the_lists_pool_leaves_out_the_list_checks_words():
    from explorer.models.tokenizer import Tokenizer
    from explorer.training.head_scores import EVERYDAY_WORDS

    text = "the spoon and the lamp sat by the cat, the dog and the end. "
    tok = Tokenizer.train([text] * 50)
    stream = np.array(tok.encode(text * 20), dtype=np.uint16)
    words = {tok.decode([int(i)]).strip() for i in
             span_pool(stream, tok, RepeatRecipe(kind="lists"))}
    assert "cat" in words and "spoon" not in words and "lamp" not in words
    assert not words & set(EVERYDAY_WORDS)
