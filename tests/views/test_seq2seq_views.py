"""The encoder-decoder tab's content without a browser: the committed model on real input,
step by step, the three families, the padding view, and every bad input."""

import numpy as np
import plotly.graph_objects as go
import pytest

from explorer.figures.seq2seq import batch_figure, cross_grid
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.views import seq2seq as sv
from explorer.views.seq2seq_padding import PAD, padded_batch

PLAIN = AttentionSettings()


@pytest.fixture(scope="module")
def tok():
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


@pytest.fixture(scope="module")
def loaded(tok):
    result = sv.load_seq2seq(tok)
    if result.model is None:
        pytest.fail(result.message)
    return result


def panels(fig: go.Figure) -> list[np.ndarray]:
    return [np.asarray(t.z, dtype=float) for t in fig.data if t.type == "heatmap"]


def test_reverses_and_builds_the_output_step_by_step(loaded):
    v = sv.seq2seq_view(loaded, "cat sun box", "owl rain cake cup", 2, PLAIN)
    assert "✅" in v.status and v.n_steps == 4 and v.step.step == 2
    words = [(t, label) for t, label in v.step.output_spans if t != " "]
    assert words == [("box", "written"), ("sun", "this step"), ("…", None), ("…", None)]
    looked = {w: x for w, x in v.step.source_spans if w != " "}
    assert set(looked) == {"cat", "sun", "box"}
    assert sum(looked.values()) == pytest.approx(1.0, abs=0.01)
    last = sv.step_view(v.decoded, 99)  # clamped to the last step, no model run
    assert last.step == 4 and [t for t, _ in last.output_spans if t != " "][-1] == sv.END
    assert sv.step_view(None, 3).fig is None


def test_step_slider_moves_the_attention_to_the_mirror_word(loaded):
    """The trained model reads the mirror position: step t looks most at word n + 1 - t."""
    words = ["dog", "moon", "tree", "cake", "ball"]
    for step in range(1, 6):
        v = sv.seq2seq_view(loaded, " ".join(words), "", step, PLAIN)
        looked = [x for w, x in v.step.source_spans if w != " "]
        assert int(np.argmax(looked)) == len(words) - step, (step, looked)


def test_three_families_have_the_right_shapes(loaded):
    v = sv.seq2seq_view(loaded, "owl rain cup bus book", "", 1, PLAIN)
    cfg = loaded.model.config
    enc, dec, cross = panels(v.enc_fig), panels(v.dec_fig), panels(v.cross_fig)
    assert len(enc) == cfg.n_layers * cfg.n_heads and enc[0].shape == (5, 5)
    assert len(dec) == cfg.n_dec_layers * cfg.n_heads and dec[0].shape == (6, 6)
    assert len(cross) == cfg.n_dec_layers * cfg.n_heads and cross[0].shape == (6, 5)
    for z in dec:
        assert np.all(z[np.triu_indices(6, 1)] == 0)  # the causal mask
    for z in enc + dec + cross:
        np.testing.assert_allclose(z.sum(1), 1.0, atol=1e-4)
    step = panels(v.step.fig)[0]
    assert step.shape == (cfg.n_dec_layers * cfg.n_heads, 5)


def test_padding_view_shows_exact_zeros_and_the_same_output(loaded):
    v = sv.seq2seq_view(loaded, "cat sun box", "owl rain cake cup bus book", 1, PLAIN)
    assert "**0**" in v.pad_note and "same numbers in the batch as alone" in v.pad_note
    z = panels(v.batch_fig)[0]
    assert z.tolist() == [[0] * 6, [0] * 3 + [1] * 3]  # the short list is B, padded
    enc = v.pad_enc_fig.data
    assert enc[0].z.shape == (6, 6) and np.isnan(enc[0].z[:, 3:]).all()  # grey padding cells
    assert enc[1].name == "masked"
    p = padded_batch(loaded.model, loaded.ids, [["owl", "rain", "cake", "cup", "bus"],
                                                ["cat", "sun", "box"]], PLAIN)
    assert p.pad_weight == 0.0 and p.max_diff < 1e-4
    assert (p.enc[1][..., 3:] == 0).all() and (p.cross[1][..., 3:] == 0).all()
    same = sv.seq2seq_view(loaded, "cat sun box", "dog egg key", 1, PLAIN)
    assert "different number of words" in same.pad_note and same.batch_fig is None


def test_knobs_are_experiments(loaded):
    v = sv.seq2seq_view(loaded, "cat sun box", "", 1, AttentionSettings(causal=False))
    assert "Experiment" in v.status and "causal mask off" in v.status
    z = panels(v.dec_fig)[0]
    assert z[np.triu_indices(4, 1)].sum() > 0
    hot = sv.seq2seq_view(loaded, "cat sun box", "", 1, AttentionSettings(temperature=3.0))
    assert "temperature 3" in hot.status


@pytest.mark.parametrize("text,needle", [("", "Type"), ("cat", "1 word"),
                                         ("<script>x</script> sun box", "not one of"),
                                         ("cat " * 40, "longer than")])
def test_bad_input_is_a_message_not_a_crash(loaded, text, needle):
    v = sv.seq2seq_view(loaded, text, "", 1, PLAIN)
    assert needle in v.status and v.enc_fig is None and "script" not in v.status


def test_missing_checkpoint_is_a_clear_message(tok, tmp_path):
    missing = sv.load_seq2seq(tok, directory=tmp_path)
    assert missing.model is None and "python -m explorer.training.train --task seq2seq" in \
        missing.message
    v = sv.seq2seq_view(missing, "cat sun box", "", 1, PLAIN)
    assert v.status.startswith("⚠️") and v.enc_fig is None


def test_figures_validate_and_escape():
    fig = cross_grid(np.full((2, 4, 3, 2), 0.5), ["<b>", "a", "b"], ["$x$", "y"])
    go.Figure(fig.to_dict())  # validation on: every key we wrote is a real Plotly key
    text = fig.to_json()
    assert "<b>" not in text and "$x$" not in text
    batch = batch_figure([["a", "<i>"], ["c", PAD]], np.array([[0, 0], [0, 1]], bool),
                         row_names=["A", "B"])
    go.Figure(batch.to_dict())
    assert "<i>" not in batch.to_json()
    with pytest.raises(ValueError):
        cross_grid(np.zeros((1, 1, 2, 2)), ["a"], ["b", "c"])
