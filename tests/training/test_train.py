"""The trainer on generated text: loss falls, cards are complete, resume continues exactly."""

import json

import numpy as np
import pytest
import torch

from explorer.models.checkpoint import load_model, sha256_file
from explorer.models.config import ModelConfig
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer
from explorer.training.data import Dataset, DatasetMeta
from explorer.training.probes import generate_probes
from explorer.training.train import (
    TrainSettings,
    cpu_twin,
    lr_at,
    on_cpu,
    snapshot_steps,
    train,
)


@pytest.fixture(scope="module")
def tiny_setup(tmp_path_factory):
    """A tokenizer and token streams made from probe text only (seconds, not minutes)."""
    root = tmp_path_factory.mktemp("train")
    texts = generate_probes(400, seed=0)
    tok = Tokenizer.train(texts)
    tok_path = root / "tokenizer.json"
    tok.save(tok_path)
    ids = [t for text in texts for t in tok.encode(text) + [tok.eot_id]]
    stream = np.array(ids, dtype=np.uint16)
    cut = int(len(stream) * 0.9)
    meta = DatasetMeta(corpus_sha256="generated", tokenizer_sha256="", seed=0, val_share=0.1,
                       probe_share_target=1.0, probe_share=1.0, n_stories=0, n_train_stories=0,
                       n_val_stories=0, n_train_probes=360, n_val_probes=40)
    data = Dataset(stream[:cut], stream[cut:], stream[cut:], meta)
    return root, tok, tok_path, data


def small(tok, **kw) -> ModelConfig:
    return ModelConfig(vocab_size=tok.vocab_size, d_model=32, n_layers=2, n_heads=2, d_ff=64,
                       n_ctx=32, **kw)


SETTINGS = dict(tokens=60 * 8 * 32, batch_size=8, lr=3e-3, warmup_steps=5, eval_every=20,
                eval_batches=4)


@pytest.mark.parametrize("causal", [True, False])
def test_training_lowers_loss_and_writes_a_card(tiny_setup, causal):
    root, tok, tok_path, data = tiny_setup
    out = root / f"out-{causal}"
    card = train("t", small(tok, causal=causal), TrainSettings(**SETTINGS, snapshots=2),
                 corpus=None, out=out, tokenizer_path=tok_path, quiet=True, dataset=data,
                 command="test")
    first, last = card["history"][0]["val_loss"], card["val_loss"]
    assert last < first - 0.3, (first, last)
    assert card["val_loss"] < np.log(tok.vocab_size)  # better than uniform guessing
    saved = json.loads((out / "t.json").read_text())
    for key in ("config", "training", "tokens_seen", "train_loss", "val_loss", "wall_time_s",
                "corpus_sha256", "command", "tokenizer_sha256"):
        assert key in saved
    assert saved["weights_sha256"] == sha256_file(out / "t.safetensors")
    model = load_model(out / "t.safetensors")
    assert model.config.causal is causal
    assert len(list((out / "snapshots" / "t").glob("*.safetensors"))) == 2
    assert not list(out.rglob("*.tmp"))


def test_resume_continues_where_it_stopped(tiny_setup, monkeypatch):
    root, tok, tok_path, data = tiny_setup
    import explorer.training.train as tr

    monkeypatch.setattr(tr, "ROOT", root)
    config = small(tok)
    full = train("full", config, TrainSettings(**SETTINGS), None, root / "a", tok_path,
                 quiet=True, dataset=data)
    # Run 40 steps, stop, then resume to 60: the result must equal the uninterrupted run.
    part = TrainSettings(**{**SETTINGS, "tokens": 40 * 8 * 32})
    lrs_full = [lr_at(s, 60, TrainSettings(**SETTINGS)) for s in range(60)]
    assert lrs_full[39] != lr_at(39, 40, part)  # (the schedule depends on the total)
    # (a run writing outside checkpoints/ keeps its resume state beside its output)
    resume_path = root / "b" / "resume" / "resume.safetensors"
    calls = {"n": 0}
    real_save = tr.save_resume

    def stop_after_save(path, *args, **kw):
        real_save(path, *args, **kw)
        calls["n"] += 1
        if calls["n"] == 2:  # saved at step 40
            raise KeyboardInterrupt

    monkeypatch.setattr(tr, "save_resume", stop_after_save)
    with pytest.raises(KeyboardInterrupt):
        train("resumed", config, TrainSettings(**SETTINGS), None, root / "b", tok_path,
              quiet=True, dataset=data)
    assert resume_path.exists()
    monkeypatch.setattr(tr, "save_resume", real_save)
    resumed = train("resumed", config, TrainSettings(**SETTINGS), None, root / "b", tok_path,
                    resume=True, quiet=True, dataset=data)
    assert not resume_path.exists()
    a = load_model(root / "a" / "full.safetensors")
    b = load_model(root / "b" / "resumed.safetensors")
    for (name, pa), (_, pb) in zip(a.state_dict().items(), b.state_dict().items(), strict=True):
        torch.testing.assert_close(pa, pb, atol=1e-3, rtol=0, msg=name)
    assert resumed["val_loss"] == pytest.approx(full["val_loss"], abs=1e-3)


def test_snapshot_steps_are_increasing_and_end_at_total():
    steps = snapshot_steps(1000, 6)
    assert steps == sorted(set(steps)) and steps[-1] == 1000 and steps[0] < 50


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_the_head_recipe_trains_and_tracks_head_scores(tiny_setup, precision):
    """Repeated spans in half the rows, bf16 or fp32, head scores every 20 steps: the card
    holds the curve, the speed and the precision, and the loss still falls."""
    root, tok, tok_path, data = tiny_setup
    out = root / f"recipe-{precision}"
    settings = TrainSettings(**SETTINGS, repeat_share=0.5, repeat_min=2, repeat_max=6,
                             precision=precision, track_every=20)
    card = train("r", small(tok), settings, corpus=None, out=out, tokenizer_path=tok_path,
                 quiet=True, dataset=data, command="test")
    points = [h for h in card["history"] if "heads" in h]
    assert [p["step"] for p in points] == [20, 40, 60]
    for p in points:
        assert set(p["heads"]) == {"previous_token", "induction", "copy_gain_nats",
                                   "list_continuation", "list_continuation_comma"}
        assert 0 <= p["heads"]["induction"]["score"] <= 1
    assert card["precision"] == precision and card["tokens_per_s"] > 0
    assert card["training"]["repeat_share"] == 0.5
    losses = [h["val_loss"] for h in card["history"] if "val_loss" in h]
    assert losses[-1] < losses[0] - 0.3


def test_a_run_without_probes_has_no_probe_loss(tiny_setup):
    """--probe-share 0 leaves the probe stream empty: the card says so instead of crashing."""
    root, tok, tok_path, data = tiny_setup
    no_probes = Dataset(data.train, data.val, data.val[:0], data.meta)
    s = dict(SETTINGS, tokens=4 * 8 * 32, eval_every=2)
    card = train("p", small(tok), TrainSettings(**s), corpus=None, out=root / "out-np",
                 tokenizer_path=tok_path, quiet=True, dataset=no_probes, command="test")
    assert card["val_probe_loss"] is None and np.isfinite(card["val_loss"])


@pytest.mark.parametrize("pos", ["rotary", "alibi", "learned"])
def test_the_cpu_twin_scores_like_the_model(tiny_setup, pos):
    """Head scores during a GPU run read a CPU twin: same weights, same logits, own module."""
    _, tok, _, _ = tiny_setup
    torch.manual_seed(0)
    model = Transformer(small(tok, pos_encoding=pos)).train()
    twin = cpu_twin(model)
    assert twin is not model and twin.training
    assert on_cpu(model) is model  # on the CPU there is nothing to copy
    x = torch.randint(0, tok.vocab_size, (2, 16))
    assert torch.equal(model.eval()(x), twin.eval()(x))
