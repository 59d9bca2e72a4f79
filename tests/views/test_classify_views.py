"""The classifier tab's logic without a browser: loading the checkpoint (and every way it can
be missing), the per-token evidence, the figures, experiments and hostile input."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from explorer.analysis.classify import classify_sentence, leave_one_out, support_for
from explorer.analysis.run import MAX_CHARS
from explorer.figures.classify import StripRow, evidence_strip
from explorer.models.checkpoint import save_model, sha256_file
from explorer.models.classifier import Classifier
from explorer.models.config import ModelConfig
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.views.classify import classify_view, load_classifier
from explorer.views.controls import Controls
from tests.conftest import tiny_model
from tests.plotdata import decode_array, heatmaps

NAME = "classify-h4-sentiment"
SENTENCE = "The little dog was not happy because the rain was cold."


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


def small_classifier(vocab_size: int, seed: int = 0) -> Classifier:
    torch.manual_seed(seed)
    return Classifier(ModelConfig(vocab_size=vocab_size, d_model=32, n_layers=2, n_heads=4,
                                  d_ff=64, n_ctx=32, causal=False, task="classify",
                                  n_classes=2)).eval()


def install(directory, model, name=NAME, card=None, listed=True):
    path = save_model(model, directory / f"{name}.safetensors")
    files = {path.name: sha256_file(path)} if listed else {}
    (directory / "manifest.json").write_text(json.dumps({"files": files}))
    (directory / f"{name}.json").write_text(json.dumps(card or {
        "classes": ["negative", "positive"], "heldout_accuracy": 0.5}))
    return path


@pytest.fixture(scope="module")
def loaded(tmp_path_factory, tok):
    directory = tmp_path_factory.mktemp("cls")
    install(directory, small_classifier(tok.vocab_size))
    result = load_classifier(directory, vocab_size=tok.vocab_size)
    assert result.model is not None, result.missing
    return result


# --------------------------------------------------------------------------- loading


def test_missing_checkpoint_says_how_to_build_it(tmp_path, tok):
    result = load_classifier(tmp_path, vocab_size=tok.vocab_size)
    assert result.model is None
    assert "not installed" in result.missing
    assert "python -m explorer.training.train --task classify" in result.missing
    view = classify_view(result, tok, SENTENCE, Controls())
    assert view.status.startswith("⚠️") and view.grid is None


def test_unlisted_altered_and_wrong_kind_checkpoints_are_refused(tmp_path, tok):
    path = install(tmp_path, small_classifier(tok.vocab_size), listed=False)
    assert "manifest" in load_classifier(tmp_path, vocab_size=tok.vocab_size).missing
    install(tmp_path, small_classifier(tok.vocab_size))
    path.write_bytes(path.read_bytes()[:-4] + b"\0\0\0\0")
    assert "sha256" in load_classifier(tmp_path, vocab_size=tok.vocab_size).missing
    install(tmp_path, tiny_model(vocab_size=tok.vocab_size))  # a language model
    assert "not a classifier" in load_classifier(tmp_path, vocab_size=tok.vocab_size).missing
    install(tmp_path, small_classifier(50))
    assert "vocabulary" in load_classifier(tmp_path, vocab_size=tok.vocab_size).missing


# --------------------------------------------------------------------------- evidence


def test_support_is_the_logit_difference_per_token():
    shares = np.array([[1.0, 3.0, 2.0], [0.5, -1.0, 0.0]], np.float32)
    np.testing.assert_allclose(support_for(shares, 1), [3.0 - 1.5, -1.0 - 0.25])


def test_leave_one_out_equals_removing_the_token_by_hand(loaded, tok):
    ids = tok.encode(SENTENCE)
    settings = AttentionSettings()
    got = leave_one_out(loaded.model, ids, settings, 1)
    for i in (0, 4, len(ids) - 1):
        rest = torch.tensor([ids[:i] + ids[i + 1:]])
        with torch.no_grad():
            want = loaded.model(rest)[0, 1].exp().item()
        assert got[i] == pytest.approx(want, abs=1e-5)
    assert np.isnan(leave_one_out(loaded.model, ids[:1], settings, 0)).all()


def test_analysis_numbers_hang_together(loaded, tok):
    a = classify_sentence(loaded.model, tok, SENTENCE, classes=loaded.classes)
    n = len(tok.encode(SENTENCE))
    assert a.classes == ("negative", "positive") and len(a.tokens) == n
    assert a.probs.sum() == pytest.approx(1.0, abs=1e-5) and a.predicted == a.probs.argmax()
    assert a.patterns.shape == (2, 4, n, n) and a.reads.sum() == pytest.approx(1.0, abs=1e-5)
    margin = a.token_logits.sum(0) + a.bias
    assert a.support.sum() + a.bias[a.predicted] - a.bias[1 - a.predicted] == pytest.approx(
        margin[a.predicted] - margin[1 - a.predicted], abs=1e-4)
    assert a.rule == 0 and a.baseline_probs is None and not a.interventions


# --------------------------------------------------------------------------- the view


def test_view_has_every_figure_and_a_status(loaded, tok):
    v = classify_view(loaded, tok, SENTENCE, Controls(layer=1, head=2))
    n = len(v.analysis.tokens)
    assert "predicted: **" in v.status and "The rule" in v.status
    assert len(heatmaps(v.grid.to_plotly_json())) == 8
    big = np.nan_to_num(heatmaps(v.head.to_plotly_json())[0])
    np.testing.assert_allclose(big, v.analysis.patterns[1, 2], atol=1e-6)
    rows = [decode_array(t["z"]) for t in v.evidence.to_plotly_json()["data"]]
    assert [r.shape for r in rows] == [(1, n)] * 3
    bars = v.probs.to_plotly_json()["data"]
    assert len(bars) == 1 and decode_array(bars[0]["x"]).sum() == pytest.approx(1, abs=1e-5)
    for fig in (v.probs, v.evidence, v.grid, v.head):  # every key valid for plotly.py
        go.Figure(fig.to_dict())


def test_mask_on_is_an_experiment_with_before_and_after(loaded, tok):
    v = classify_view(loaded, tok, SENTENCE, Controls(mask="on"))
    assert "Experiment on the trained model" in v.status and "causal mask on" in v.status
    assert "→" in v.status
    assert len(v.probs.to_plotly_json()["data"]) == 2  # now and as trained
    p = v.analysis.patterns
    assert (p[..., np.triu_indices(p.shape[-1], 1)[0], np.triu_indices(p.shape[-1], 1)[1]]
            == 0).all()


@pytest.mark.parametrize("text,expect", [
    ("", "Type a sentence"),
    ("   ", "Type a sentence"),
    ("x" * (MAX_CHARS + 50), "characters"),
    ("The weather was lovely.", "none of the feeling words"),
    ("<b>not</b> happy $x$ <pad> \u202e\u200b 👨‍💻", "predicted"),
])
def test_odd_input_gets_a_message_not_a_crash(loaded, tok, text, expect):
    v = classify_view(loaded, tok, text, Controls())
    assert expect in v.status


def test_token_labels_are_escaped_in_the_strip():
    fig = evidence_strip(["<b>", "$x$", " a"], [StripRow("r", np.array([0.1, 0.2, 0.7]),
                                                         "weight", "w")])
    ticks = fig.to_plotly_json()["layout"]["xaxis"]["ticktext"]
    assert ticks == ["&lt;b&gt;", "&#36;x&#36;", "␣a"]
    go.Figure(fig.to_dict())


def test_committed_model_reads_the_sentence_right(tok):
    if not (CHECKPOINT_DIR / f"{NAME}.safetensors").exists():
        pytest.skip("the classifier checkpoint is not trained yet")
    loaded = load_classifier(vocab_size=tok.vocab_size)
    assert loaded.model is not None, loaded.missing
    a = classify_view(loaded, tok, SENTENCE, Controls()).analysis
    assert a.classes[a.predicted] == "negative" and a.probs.max() > 0.9
    assert a.without[a.tokens.index(" not")] > 0.5  # without its "not" the answer flips
    a = classify_view(loaded, tok, "The little dog was happy because the rain was not cold.",
                      Controls()).analysis
    assert a.classes[a.predicted] == "positive" and a.probs.max() > 0.9
    assert abs(a.without[a.tokens.index(" not")]) < 0.2  # the other clause's "not": no matter


def test_a_layer_past_the_classifier_is_named_not_shown_silently(loaded, tok):
    """#30: the Layer slider went to 3 on a 2-layer classifier and showed layer 1 without a
    word (the page now bounds the slider; a value from elsewhere is still named)."""
    n = loaded.model.config.n_layers
    v = classify_view(loaded, tok, "I am not sad.", Controls(layer=n + 1))
    assert f"This classifier has {n} layers: showing layer {n - 1}." in v.status
    assert "This classifier has" not in classify_view(loaded, tok, "I am not sad.",
                                                      Controls(layer=n - 1)).status
