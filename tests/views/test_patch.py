"""The Patch view: the default model's examples say what their labels claim, and bad input
gets a sentence (no user text in any Markdown)."""

import numpy as np
import pytest

from explorer.analysis.logit_lens import direct_logit_attribution
from explorer.views.controls import OBJECTIVES, Controls
from explorer.views.patch import (
    EXAMPLE_CLEAN,
    EXAMPLE_CORRUPT,
    EXAMPLES,
    attribution_subtitle,
    corrupted_copy,
    parse_cell,
    patch_view,
)


def test_the_issue_example_names_the_induction_head(resources):
    tok, zoo = resources
    v = patch_view(zoo, tok, EXAMPLE_CLEAN, EXAMPLE_CORRUPT, Controls())
    assert v.reading.startswith("**L3 H2 carries the difference**")
    assert "restores **100%**" in v.reading and "L2 H0 (73%)" in v.reading \
        and "L1 H1 (22%)" in v.reading
    assert [row[2] for row in v.pair] == [" bell", ":", " bell"]  # the patch brings it back
    assert v.cell == ("head", 3, 2) and v.pair[0][4:] == [" bell", ":"]
    assert v.pair[2][3] == pytest.approx(v.pair[0][3], abs=0.3)
    for fig in (v.heads, v.positions, v.guesses, v.lens, v.attribution):
        assert fig is not None and fig.data
    # direct logit attribution is a direct push only: the previous-word head L1 H1 works
    # through L3 H2 and shows about 0 of the difference (the subtitle says so)
    p = v.patching
    dla = direct_logit_attribution(zoo.get(Controls().checkpoint()), p.clean, p.answer, p.wrong)
    assert abs(dla.heads[1, 1]) < 0.06 * dla.total and dla.total == pytest.approx(7.94, abs=0.1)
    assert "direct push only" in attribution_subtitle(dla)
    # the logit lens' last row is the model's guess at every position
    lens = v.lens.data[0]
    assert lens.z.shape == (4, 23)


def test_a_clicked_cell_is_patched(resources):
    tok, zoo = resources
    v = patch_view(zoo, tok, EXAMPLE_CLEAN, EXAMPLE_CORRUPT, Controls(), cell="head 0 0")
    assert v.cell == ("head", 0, 0) and v.pair[2][2] == ":"  # L0 H0 restores nothing
    v = patch_view(zoo, tok, EXAMPLE_CLEAN, EXAMPLE_CORRUPT, Controls(), cell="pos 3 22")
    assert v.cell == ("pos", 3, 22) and v.pair[2][3] == pytest.approx(v.pair[0][3], abs=1e-3)


@pytest.mark.parametrize("label,clean,corrupt", EXAMPLES)
def test_the_examples_say_what_their_labels_claim(resources, label, clean, corrupt):
    tok, zoo = resources
    v = patch_view(zoo, tok, clean, corrupt, Controls())
    heads = v.patching.heads
    best = np.unravel_index(np.argmax(heads), heads.shape)
    if label.startswith("A changed last word"):
        assert heads.max() == pytest.approx(0.37, abs=0.01)
        assert v.reading.startswith("**No single head carries it**")
        # the changed word's own place carries it: the residual stream at the last
        # position after L0 restores (about) all of the difference
        last = v.patching.positions[:, -1]
        assert last[0] == pytest.approx(1.06, abs=0.03)
        assert [tok.decode([t]) for t in tok.encode(" six")] == [" s", "ix"]
    else:
        assert best == (3, 2)
        want = 1.0 if label.startswith("Induction") else 0.80
        assert heads[3, 2] == pytest.approx(want, abs=0.01)
    if label.startswith("Induction"):
        assert heads[1, 1] == pytest.approx(0.22, abs=0.01)
        assert heads[2, 0] == pytest.approx(0.73, abs=0.01)


def test_bad_input_gets_a_sentence(resources):
    tok, zoo = resources
    c = Controls()
    assert "23 tokens" in patch_view(zoo, tok, EXAMPLE_CLEAN, "two words", c).status
    assert "same place" in patch_view(zoo, tok, EXAMPLE_CLEAN, "two words", c).status
    assert "corrupted copy" in patch_view(zoo, tok, EXAMPLE_CLEAN, "  ", c).status
    assert "Type a sentence" in patch_view(zoo, tok, "", "x", c).status
    assert "nothing to patch" in patch_view(zoo, tok, "a b", "a b", c).status
    masked = Controls(objective=[o for o in OBJECTIVES if o != Controls.objective][0])
    v = patch_view(zoo, tok, "a b", "a c", masked)
    assert "next word" in v.status and v.heads is None


def test_user_text_never_reaches_markdown(resources):
    tok, zoo = resources
    evil = "<img src=x onerror=alert(1)> **bold** apple"
    v = patch_view(zoo, tok, evil, evil.replace("apple", "sock"), Controls())
    assert v.heads is not None
    for md in (v.status, v.reading):
        assert "<img" not in md and "bold" not in md and "onerror" not in md


def test_corrupted_copy_swaps_one_word_and_keeps_the_count(resources):
    tok, zoo = resources
    from explorer.analysis.run import prepare

    copy = corrupted_copy(tok, EXAMPLE_CLEAN, 128)
    assert copy == EXAMPLE_CORRUPT  # the earlier "shoe" of the repeated word
    copy = corrupted_copy(tok, "The cat sat on the mat", 128)
    assert copy != "The cat sat on the mat"
    assert len(prepare(tok, copy, 128, False).ids) == len(prepare(tok, "The cat sat on the mat",
                                                                  128, False).ids)
    assert corrupted_copy(tok, "hi", 128) is None and corrupted_copy(tok, "", 128) is None


def test_parse_cell_never_raises():
    assert parse_cell("head 3 2", 4, 4, 10) == ("head", 3, 2)
    assert parse_cell("pos 1 9", 4, 4, 10) == ("pos", 1, 9)
    for bad in (None, "", "head 4 0", "head 0 4", "pos 0 10", "head -1 0", "x 1 1", "head 1"):
        assert parse_cell(bad, 4, 4, 10) is None
