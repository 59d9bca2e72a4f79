"""The one training loop (explorer/training/loop.py) changes no result: the loop itself, each
of the three trainers and the Lab, on tiny seeded runs, give bit-identical per-step losses
and weights to the loops they had before, written out here as the reference (the same
operations in the same order). Also its caps: steps, seconds, should_stop, a resumed start.
One CPU thread, a few steps each."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer.models.checkpoint import load_model
from explorer.models.classifier import Classifier
from explorer.models.config import ModelConfig
from explorer.models.encoder_decoder import EncoderDecoder
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.training import lab
from explorer.training import seq2seq_task as s2s_data
from explorer.training import train as lm
from explorer.training import train_classifier as tc
from explorer.training import train_seq2seq as ts
from explorer.training.classify_task import generate
from explorer.training.data import Dataset, DatasetMeta, random_batches
from explorer.training.lab_task import batch as lab_batch
from explorer.training.loop import lr_at, make_optimizer, run
from explorer.training.probes import generate_probes
from explorer.training.progress import Progress
from explorer.training.repeats import span_pool


@pytest.fixture(autouse=True)
def one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture
def seen(monkeypatch):
    """What the trainers show while training: every ``(step, smoothed loss)`` given to the
    progress line, and the fp32 weights of every model they save (by file name)."""
    record = {"losses": [], "weights": {}}
    real_update = Progress.update

    def update(self, step, loss):
        record["losses"].append((step, loss))
        real_update(self, step, loss)

    monkeypatch.setattr(Progress, "update", update)
    for module in (lm, tc, ts, lab):
        real_save = module.save_model

        def save(model, path, *args, _real=real_save, **kw):
            record["weights"][path.name] = {k: v.detach().clone()
                                            for k, v in model.state_dict().items()}
            return _real(model, path, *args, **kw)

        monkeypatch.setattr(module, "save_model", save)
    return record


def smoothed(losses: list[float]) -> list[tuple[int, float]]:
    """The trainers' smoothed loss after each step, as the reference loops compute it."""
    out, value = [], math.nan
    for i, loss in enumerate(losses):
        value = loss if math.isnan(value) else 0.95 * value + 0.05 * loss
        out.append((i + 1, value))
    return out


def assert_same_weights(got: dict, model: torch.nn.Module) -> None:
    want = model.state_dict()
    assert got.keys() == want.keys()
    for name, value in want.items():
        assert torch.equal(got[name], value), name  # bit for bit, not close


def reference(model, opt, batches, loss_of, total, lr=None, clip=None) -> list[float]:
    """The loop each trainer had, written out: lr, loss, zero_grad, backward, clip, step."""
    losses = []
    for step in range(total):
        if lr is not None:
            for group in opt.param_groups:
                group["lr"] = lr(step)
        loss = loss_of(next(batches))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if clip is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
        losses.append(loss.item())
    return losses


# --- the loop itself --------------------------------------------------------------------------

def tiny_lm(seed: int = 0) -> Transformer:
    torch.manual_seed(seed)
    return Transformer(ModelConfig(vocab_size=37, d_model=16, n_layers=2, n_heads=2, d_ff=32,
                                   n_ctx=12)).train()


def data_stream(seed: int = 1):
    """Counting sequences (each token the last plus one) from random starts: learnable."""
    gen = torch.Generator().manual_seed(seed)
    while True:
        yield (torch.randint(0, 37, (4, 1), generator=gen) + torch.arange(12)) % 37


def next_token_loss(model):
    return lambda x: F.cross_entropy(model(x[:, :-1]).flatten(0, 1), x[:, 1:].flatten())


class Sched:
    lr, warmup_steps, min_lr_ratio, weight_decay = 3e-2, 3, 0.1, 0.1


@pytest.mark.parametrize("schedule", [True, False])
def test_the_loop_is_the_written_out_loop(schedule):
    """With a warm-up + cosine schedule and clipping (the trainers), or neither (the Lab)."""
    total, lr = 12, (lambda step: lr_at(step, 12, Sched)) if schedule else None
    clip = 0.5 if schedule else None
    want = tiny_lm()
    want_losses = reference(want, make_optimizer(want, Sched), data_stream(),
                            next_token_loss(want), total, lr, clip)
    got, stream, states = tiny_lm(), data_stream(), []
    state = run(got, make_optimizer(got, Sched), lambda _: next(stream), next_token_loss(got),
                total, lr=lr, grad_clip=clip, after_step=lambda s: states.append(
                    (s.step, s.loss, s.train_loss)))
    assert [loss for _, loss, _ in states] == want_losses
    assert [(step, smooth) for step, _, smooth in states] == smoothed(want_losses)
    assert state.step == total and not state.stopped and state.seconds > 0
    assert_same_weights(got.state_dict(), want)
    assert want_losses[-1] < want_losses[0]  # it did train


def test_the_loop_stops_at_its_caps_and_starts_where_told():
    model, stream = tiny_lm(), data_stream()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    calls = []
    state = run(model, opt, lambda step: calls.append(step) or next(stream),
                next_token_loss(model), 10, start=7, lr=lambda step: 1e-3 * step)
    assert calls == [7, 8, 9] and state.step == 10  # a resumed run: steps 7, 8, 9 only
    assert opt.param_groups[0]["lr"] == pytest.approx(9e-3)
    asked = []
    state = run(model, opt, lambda _: next(stream), next_token_loss(model), 10,
                should_stop=lambda: asked.append(1) or len(asked) > 4)
    assert state.stopped and state.step == 4  # asked before each step
    state = run(model, opt, lambda _: next(stream), next_token_loss(model), 10, seconds=0.0)
    assert state.step == 0 and math.isnan(state.train_loss)
    state = run(model, opt, lambda _: next(stream), next_token_loss(model), 10, seconds=1e-9)
    assert state.step == 1  # the clock is read after a step: one step at least


# --- the trainers against their old loops ----------------------------------------------------

@pytest.fixture(scope="module")
def tiny_corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("loop")
    texts = generate_probes(200, seed=0)
    tok = Tokenizer.train(texts)
    tok.save(root / "tokenizer.json")
    stream = np.array([t for text in texts for t in tok.encode(text) + [tok.eot_id]],
                      dtype=np.uint16)
    cut = int(len(stream) * 0.9)
    meta = DatasetMeta(corpus_sha256="generated", tokenizer_sha256="", seed=0, val_share=0.1,
                       probe_share_target=1.0, probe_share=1.0, n_stories=0,
                       n_train_stories=0, n_val_stories=0, n_train_probes=180,
                       n_val_probes=20)
    return root, tok, Dataset(stream[:cut], stream[cut:], stream[cut:], meta)


@pytest.mark.parametrize("causal,repeat_share,precision", [(True, 0.5, "bf16"),
                                                           (False, 0.0, "fp32")])
def test_the_language_model_trainer_is_its_old_loop(tiny_corpus, seen, causal, repeat_share,
                                                    precision):
    root, tok, data = tiny_corpus
    config = ModelConfig(vocab_size=tok.vocab_size, d_model=16, n_layers=2, n_heads=2,
                         d_ff=32, n_ctx=16, causal=causal)
    s = lm.TrainSettings(tokens=15 * 4 * 16, batch_size=4, lr=3e-3, warmup_steps=4,
                         eval_every=5, eval_batches=2, repeat_share=repeat_share,
                         repeat_min=2, repeat_max=5, precision=precision, snapshots=2)
    out = root / f"lm-{causal}"
    card = lm.train("t", config, s, None, out, root / "tokenizer.json", quiet=True,
                    dataset=data, device="cpu")
    # the old loop: seed, model, optimizer, sampling generator, batches, span pool
    torch.manual_seed(s.seed)
    model = Transformer(config).train()
    opt = make_optimizer(model, s)
    gen = torch.Generator().manual_seed(s.seed)
    batches = random_batches(data.train, s.batch_size, config.n_ctx, gen)
    pool = span_pool(data.train, tok, s.recipe())

    def loss_of(xy):
        with lm.autocast("cpu", s):
            return lm.loss_on(model, *xy)

    total = s.steps(config.n_ctx)
    made = iter(lambda: lm.training_batch(batches, config, tok, gen, s, pool, "cpu"), None)
    losses = reference(model, opt, made, loss_of, total, lambda step: lr_at(step, total, s),
                       s.grad_clip)
    assert seen["losses"] == smoothed(losses) and card["steps"] == total == 15
    assert_same_weights(seen["weights"]["t.safetensors"], model)
    assert len(seen["weights"]) == 3 and card["train_loss"] == round(smoothed(losses)[-1][1], 4)


@pytest.fixture(scope="module")
def tokenizer():
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


def test_the_classifier_trainer_is_its_old_loop(tmp_path, tokenizer, seen):
    config = ModelConfig(vocab_size=tokenizer.vocab_size, d_model=16, n_layers=1, n_heads=2,
                         d_ff=32, n_ctx=32, causal=False, task="classify", n_classes=2)
    s = tc.ClassifySettings(examples=16 * 12, batch_size=16, warmup_steps=3, eval_every=5,
                            eval_n=40)
    tc.train("c", config, s, tmp_path, CHECKPOINT_DIR / "tokenizer.json", quiet=True)
    torch.manual_seed(s.seed)
    model = Classifier(config).train()
    total = s.steps()
    data = generate(total * s.batch_size, seed=s.seed, split="train")

    def loss_of(batch):
        tokens, pad = tc.encode(tokenizer, [e.text for e in batch], config.n_ctx)
        labels = torch.tensor([e.label for e in batch])
        return F.nll_loss(model(tokens, key_padding_mask=pad, fused=True), labels)

    chunks = iter([data[i * s.batch_size:(i + 1) * s.batch_size] for i in range(total)])
    losses = reference(model, make_optimizer(model, s), chunks, loss_of, total,
                       lambda step: lr_at(step, total, s), s.grad_clip)
    assert seen["losses"] == smoothed(losses) and len(losses) == 12
    assert_same_weights(seen["weights"]["c.safetensors"], model)


def test_the_seq2seq_trainer_is_its_old_loop(tmp_path, tokenizer, seen):
    config = ModelConfig(vocab_size=tokenizer.vocab_size, d_model=16, n_layers=1,
                         n_dec_layers=1, n_heads=2, d_ff=32, n_ctx=s2s_data.MAX_WORDS + 1,
                         pos_encoding="learned", causal=True, task="seq2seq")
    s = ts.Seq2SeqSettings(steps=12, batch_size=16, warmup_steps=3, eval_n=20)
    ts.train("s", config, s, tmp_path, CHECKPOINT_DIR / "tokenizer.json", quiet=True)
    torch.manual_seed(s.seed)
    model = EncoderDecoder(config).train()
    batches = s2s_data.train_batches(s.batch_size, s.seed, s2s_data.word_ids(tokenizer))
    losses = reference(model, make_optimizer(model, s), batches, lambda b: ts.loss_on(model, b),
                       s.steps, lambda step: lr_at(step, s.steps, s), s.grad_clip)
    assert seen["losses"] == smoothed(losses) and len(losses) == 12
    assert_same_weights(seen["weights"]["s.safetensors"], model)


@pytest.mark.parametrize("copy_only", [False, True])
def test_the_lab_is_its_old_loop(tmp_path, seen, copy_only):
    """Constant learning rate, no clipping; events every step (their measuring in between
    must not touch the weights); the saved fp32 file too."""
    settings = lab.LabSettings(max_steps=10, seconds=60.0, update_s=0.0, batch=8,
                               copy_loss_only=copy_only)
    summary = lab.run_lab(settings, out=tmp_path)
    model = lab.build(settings)
    opt = torch.optim.AdamW(model.parameters(), lr=settings.lr, betas=(0.9, 0.98),
                            weight_decay=0.0)
    gen = torch.Generator().manual_seed(settings.seed)
    task = settings.task()
    made = iter(lambda: lab_batch(task, settings.batch, gen), None)

    def loss_of(b):  # the Lab's loss as it was written in its loop
        logits = model(b.tokens)
        losses = F.cross_entropy(logits[:, :-1].flatten(0, 1), b.tokens[:, 1:].flatten(),
                                 reduction="none").view(b.copy.shape)
        return losses[b.copy].mean() if copy_only else losses.mean()

    reference(model, opt, made, loss_of, 10)
    assert summary["steps"] == 10 and not summary["stopped"]
    assert_same_weights(seen["weights"]["model.safetensors"], model)
    saved = load_model(tmp_path / "model.safetensors")
    assert_same_weights(saved.state_dict(), model)


def test_a_lab_run_is_bounded_by_steps_and_a_time_cap_is_never_a_result():
    """No time cap by default (a busy machine makes a run slower, never shorter); a cap
    asked for on the command line that cuts the run says so in its summary."""
    assert lab.LabSettings().seconds == 0
    summary = lab.run_lab(lab.LabSettings(max_steps=6, batch=4, update_s=0.0))
    assert summary["steps"] == 6 and not summary["timed_out"] and not summary["stopped"]
    cut = lab.run_lab(lab.LabSettings(max_steps=100_000, seconds=0.05, batch=4,
                                      update_s=1.0))
    assert cut["timed_out"] and cut["stopped"] and cut["steps"] < 100_000
    with pytest.raises(ValueError):
        lab.LabSettings(seconds=-1)
