"""The encoder classifier: hook names, pooling and exact token shares, padding, the fused
path, the generated task, training, and the committed checkpoint's stated accuracy."""

import json

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer.models.capture import run_with_cache
from explorer.models.checkpoint import build_model, load_model, save_model, sha256_file
from explorer.models.classifier import Classifier
from explorer.models.config import POSITIONAL_ENCODINGS, ModelConfig
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, read_manifest
from explorer.training.classify_task import (
    CLASSES,
    FEELINGS,
    TEMPLATES,
    generate,
    held_out,
    rule_label,
    vocabulary,
)
from explorer.training.train import make_optimizer
from explorer.training.train_classifier import ClassifySettings, encode, measure, train

NAME = "classify-h4-sentiment"
STATED_MINIMUM = 0.95  # the accuracy checkpoints/README.md promises for the committed model


def tiny_classifier(seed: int = 0, **overrides) -> Classifier:
    base = dict(vocab_size=61, d_model=32, n_layers=2, n_heads=4, d_ff=64, n_ctx=24,
                causal=False, task="classify", n_classes=3)
    base.update(overrides)
    torch.manual_seed(seed)
    return Classifier(ModelConfig(**base)).eval()


def padded_batch(lengths=(7, 11, 4), vocab=61, seed=3):
    """Random sequences of the given lengths, right-padded with id 1; mask True at padding."""
    gen = torch.Generator().manual_seed(seed)
    width = max(lengths)
    tokens = torch.ones(len(lengths), width, dtype=torch.long)
    pad = torch.ones(len(lengths), width, dtype=torch.bool)
    for i, n in enumerate(lengths):
        tokens[i, :n] = torch.randint(3, vocab, (n,), generator=gen)
        pad[i, :n] = False
    return tokens, pad


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


# --------------------------------------------------------------------------- the model

ATTN = ["hook_x", "hook_q", "hook_k", "hook_v", "hook_rot_q", "hook_rot_k", "hook_scores",
        "hook_scaled", "hook_masked", "hook_pattern", "hook_z", "hook_concat", "hook_out"]
BLOCK = ["hook_resid_pre", "hook_attn_out", "hook_resid_mid", "hook_mlp_out", "hook_resid_post"]


def test_hook_names_are_exactly_these():
    expected = ["hook_embed", "hook_pos_embed"]
    for i in range(2):
        expected += [f"blocks.{i}.attn.{h}" for h in ATTN] + [f"blocks.{i}.{h}" for h in BLOCK]
    expected += ["hook_final", "hook_token_logits", "hook_pooled", "hook_logits"]
    model = tiny_classifier()
    assert list(model.hook_points()) == expected
    assert all(point.name == name for name, point in model.hook_points().items())


def test_build_model_picks_the_classifier_and_it_round_trips(tmp_path):
    model = tiny_classifier()
    assert isinstance(build_model(model.config), Classifier)
    loaded = load_model(save_model(model, tmp_path / "c.safetensors"))
    tokens, pad = padded_batch()
    with torch.no_grad():
        torch.testing.assert_close(loaded(tokens, key_padding_mask=pad),
                                   model(tokens, key_padding_mask=pad))


def test_capture_shapes_and_log_probabilities():
    model = tiny_classifier()
    tokens, pad = padded_batch()
    log_probs, cache = run_with_cache(model, tokens, key_padding_mask=pad)
    b, t = tokens.shape
    assert log_probs.shape == (b, 3)
    torch.testing.assert_close(log_probs.exp().sum(-1), torch.ones(b))
    assert cache["hook_pooled"].shape == (b, 32)
    assert cache["hook_token_logits"].shape == (b, t, 3)
    assert cache["hook_logits"].shape == (b, 3)
    assert cache.stack("attn.hook_pattern").shape == (2, b, 4, t, t)
    torch.testing.assert_close(log_probs, F.log_softmax(cache["hook_logits"], -1))


def test_pooled_is_the_mean_over_real_tokens_only():
    model = tiny_classifier()
    tokens, pad = padded_batch()
    _, cache = run_with_cache(model, tokens, key_padding_mask=pad)
    final = cache["hook_final"]
    for i in range(tokens.shape[0]):
        real = final[i][~pad[i]]  # [n_real, d_model], by hand
        torch.testing.assert_close(cache["hook_pooled"][i], real.sum(0) / len(real))


def test_token_shares_add_up_to_the_logits():
    model = tiny_classifier()
    tokens, pad = padded_batch()
    _, cache = run_with_cache(model, tokens, key_padding_mask=pad)
    shares = cache["hook_token_logits"]
    assert (shares[pad] == 0).all()  # padding owns no part of the score
    total = shares.sum(1) + model.W_C.bias.detach()
    torch.testing.assert_close(total, cache["hook_logits"], atol=1e-5, rtol=0)


@pytest.mark.parametrize("pos_encoding", POSITIONAL_ENCODINGS)
@pytest.mark.parametrize("causal", [False, True])
def test_padding_keys_get_zero_attention_and_change_nothing(pos_encoding, causal):
    model = tiny_classifier(pos_encoding=pos_encoding)
    settings = AttentionSettings(causal=causal)
    tokens, pad = padded_batch()
    log_probs, cache = run_with_cache(model, tokens, settings, key_padding_mask=pad)
    patterns = cache.stack("attn.hook_pattern")  # [layer, batch, head, q, k]
    keys_padded = pad[None, :, None, None, :].expand_as(patterns)
    assert (patterns[keys_padded] == 0).all()  # exactly zero, not just small
    for i in range(tokens.shape[0]):
        n = int((~pad[i]).sum())
        alone, _ = run_with_cache(model, tokens[i:i + 1, :n], settings)
        torch.testing.assert_close(log_probs[i], alone[0], atol=1e-5, rtol=0)


@pytest.mark.parametrize("pos_encoding", POSITIONAL_ENCODINGS)
@pytest.mark.parametrize("norm", ["pre", "post"])
def test_explicit_path_equals_fused_sdpa(pos_encoding, norm):
    model = tiny_classifier(pos_encoding=pos_encoding, norm=norm)
    tokens, pad = padded_batch()
    with torch.no_grad():
        for mask in (None, pad):
            explicit = model(tokens, key_padding_mask=mask)
            fused = model(tokens, key_padding_mask=mask, fused=True)
            torch.testing.assert_close(explicit, fused, atol=1e-5, rtol=0)


def test_bad_configs_and_inputs_are_refused():
    with pytest.raises(ValueError, match="n_classes"):
        tiny_classifier(n_classes=1)
    with pytest.raises(ValueError, match="context"):
        tiny_classifier()(torch.zeros(1, 25, dtype=torch.long))


# --------------------------------------------------------------------------- the task


def test_generator_is_deterministic_and_balanced():
    a, b = generate(400, seed=5), generate(400, seed=5)
    assert a == b
    assert generate(400, seed=6) != a
    labels = [e.label for e in generate(4000, seed=0)]
    assert abs(np.mean(labels) - 0.5) < 0.03


@pytest.mark.parametrize("split", ["train", "heldout"])
def test_generated_labels_follow_the_rule(split):
    examples = generate(3000, seed=2, split=split)
    assert all(rule_label(e.text) == e.label for e in examples)
    assert all(held_out(e.template, FEELINGS.index(e.feeling)) == (split == "heldout")
               for e in examples)


def test_every_feeling_word_is_held_out_in_exactly_one_shape():
    for f in range(len(FEELINGS)):
        assert sum(held_out(t, f) for t in range(len(TEMPLATES))) == 1


@pytest.mark.parametrize("text,label", [
    ("The little dog was not happy because the rain was cold.", "negative"),
    ("The little dog was happy because the rain was not cold.", "positive"),
    ("When the ball was not red, Tom was glad.", "positive"),
    ("When the ball was red, Tom was never glad.", "negative"),
    ("Mia did not feel very proud when the kite was green.", "negative"),
    ("We were not sad at the park, and the sky was not blue.", "positive"),
    ("I am so angry.", "negative"),
])
def test_rule_on_hand_written_sentences(text, label):
    assert CLASSES[rule_label(text)] == label


def test_rule_says_nothing_without_a_feeling_word():
    assert rule_label("The weather was lovely.") is None
    assert rule_label("") is None


def test_every_word_of_the_task_is_one_token(tok):
    assert [w for w in vocabulary() if len(tok.encode(w)) != 1] == []


def test_encode_pads_and_cuts(tok):
    tokens, pad = encode(tok, ["I am sad.", "The little dog was not happy."], n_ctx=5)
    assert tokens.shape == (2, 5)
    assert pad[0].tolist() == [False] * 4 + [True] and not pad[1].any()
    assert tokens[0, 4] == 1  # <pad>


# --------------------------------------------------------------------------- training


def test_a_few_steps_lower_the_loss(tok):
    torch.manual_seed(0)
    model = Classifier(ModelConfig(vocab_size=tok.vocab_size, d_model=32, n_layers=1,
                                   n_heads=2, d_ff=64, n_ctx=32, causal=False,
                                   task="classify", n_classes=2)).train()
    opt = make_optimizer(model, ClassifySettings(lr=3e-3))
    batch = generate(32, seed=0)
    tokens, pad = encode(tok, [e.text for e in batch], 32)
    labels = torch.tensor([e.label for e in batch])
    losses = []
    for _ in range(25):
        loss = F.nll_loss(model(tokens, key_padding_mask=pad, fused=True), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]


def test_train_writes_weights_card_and_eval(tmp_path, tok):
    config = ModelConfig(vocab_size=tok.vocab_size, d_model=16, n_layers=1, n_heads=2,
                         d_ff=32, n_ctx=32, causal=False, task="classify", n_classes=2)
    settings = ClassifySettings(examples=64, batch_size=16, eval_every=2, eval_n=40)
    tokenizer = CHECKPOINT_DIR / "tokenizer.json"
    card = train("t", config, settings, tmp_path, tokenizer, command="python -m x",
                 quiet=True)
    weights = tmp_path / "t.safetensors"
    assert json.loads((tmp_path / "t.json").read_text()) == card
    assert card["weights_sha256"] == sha256_file(weights)
    assert card["task"] == "classify" and card["classes"] == list(CLASSES)
    assert card["examples_seen"] == 64 and card["steps"] == 4
    assert [h["step"] for h in card["history"]] == [2, 4]
    result = json.loads((tmp_path / "eval" / "t.json").read_text())
    assert result["task"] == "classify" and result["metric"] == "accuracy"
    assert result["n"] == 40 and result["accuracy"] == card["heldout_accuracy"]
    assert result["weights_sha256"] == card["weights_sha256"]
    assert measure(load_model(weights), tok, 40)["accuracy"] == result["accuracy"]
    again = train("t2", config, settings, tmp_path, tokenizer, quiet=True)
    assert again["weights_sha256"] == card["weights_sha256"]  # seeded: the same weights
    assert not list(tmp_path.rglob("*.tmp"))


# --------------------------------------------------------------------------- the checkpoint


def committed_checkpoint():
    path = CHECKPOINT_DIR / f"{NAME}.safetensors"
    if not path.exists():
        pytest.skip(f"{path.name} is not trained yet "
                    "(python -m explorer.training.train --task classify)")
    return path


def test_committed_checkpoint_reaches_its_stated_accuracy(tok):
    path = committed_checkpoint()
    model = load_model(path, expected_sha256=read_manifest(CHECKPOINT_DIR)[path.name])
    card = json.loads(path.with_suffix(".json").read_text())
    result = json.loads((CHECKPOINT_DIR / "eval" / f"{NAME}.json").read_text())
    assert card["heldout_accuracy"] == result["accuracy"] >= STATED_MINIMUM
    measured = measure(model, tok, result["n"])
    assert measured["accuracy"] == pytest.approx(result["accuracy"], abs=1e-3)
    assert card["command"].startswith("python -m explorer.training.train --task classify")
