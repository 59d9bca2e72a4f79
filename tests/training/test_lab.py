"""The Lab's trainer (explorer/training/lab.py, lab_task.py) and the attention-only,
norm-free models it trains: the task's copies and masks, the model against an explicit
computation, the events and the summary, cancel, determinism, the saved checkpoint and the
command line. Few steps each: CI never trains for long."""

import json

import pytest
import torch

from explorer.models.checkpoint import load_model
from explorer.models.config import ModelConfig
from explorer.models.transformer import Transformer
from explorer.training import lab
from explorer.training.lab_task import BOS, RepeatTask, batch, probe

TINY = dict(max_steps=6, seconds=30.0, update_s=0.0, batch=8)


def test_the_task_says_a_random_block_twice_and_marks_what_a_copy_predicts():
    task = RepeatTask()
    b = batch(task, 50, torch.Generator().manual_seed(3))
    assert b.tokens.shape == (50, 64) and (b.tokens[:, 0] == BOS).all()
    assert ((b.tokens[:, 1:] >= 1) & (b.tokens[:, 1:] < 64)).all()
    lengths = set()
    for row, copy, fresh in zip(b.tokens, b.copy, b.fresh, strict=True):
        n = int(copy.sum()) + 1  # the second copy's first token is not predictable
        lengths.add(n)
        assert torch.equal(row[1:1 + n], row[1 + n:1 + 2 * n])  # said twice
        targets = torch.nonzero(copy)[:, 0] + 1  # positions of the predicted tokens
        assert targets.tolist() == list(range(n + 2, 2 * n + 1))
        assert fresh.sum() == 63 - 2 * n and not (copy & fresh).any()
    assert len(lengths) > 5 and min(lengths) >= 8 and max(lengths) <= 31  # random lengths
    again = batch(task, 50, torch.Generator().manual_seed(3))
    assert torch.equal(again.tokens, b.tokens)  # one generator, the same batch
    assert probe(task).shape == (1, 25)


def test_an_attention_only_model_without_norms_is_the_explicit_computation():
    torch.manual_seed(0)
    cfg = ModelConfig(vocab_size=20, d_model=16, n_layers=2, n_heads=2, n_ctx=12,
                      pos_encoding="learned", norm="none", mlp=False, init="torch",
                      tie_embeddings=False)
    model = Transformer(cfg).eval()
    assert not any("ln" in n or "mlp" in n for n, _ in model.named_parameters())
    tokens = torch.randint(0, 20, (3, 12))
    x = model.W_E.weight[tokens] + model.pos.embed_table(12)
    causal = torch.ones(12, 12, dtype=torch.bool).triu(1)
    for block in model.blocks:
        a = block.attn

        def heads(lin, x=x):
            return lin(x).view(3, 12, 2, 8).transpose(1, 2)

        q, k, v = heads(a.W_Q), heads(a.W_K), heads(a.W_V)
        scores = (q @ k.transpose(-1, -2)) / 8 ** 0.5
        pattern = scores.masked_fill(causal, float("-inf")).softmax(-1)
        x = x + a.W_O((pattern @ v).transpose(1, 2).reshape(3, 12, 16))
    with torch.no_grad():
        torch.testing.assert_close(model(tokens), model.W_U(x), rtol=1e-5, atol=1e-5)


def test_a_run_reports_events_then_a_summary_and_saves_a_model_that_loads(tmp_path):
    events = []
    settings = lab.LabSettings(**TINY)
    summary = lab.run_lab(settings, events.append, out=tmp_path, with_probe=True)
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "start" and kinds[-1] == "done" and kinds.count("update") >= 5
    first = events[0]
    assert first["step"] == 0 and len(first["induction"]) == 2 and len(first["induction"][0]) == 2
    assert len(first["probe"]) == 2 and len(first["probe"][0][0]) == 25  # [layer][head][q][k]
    assert first["loss_copy"] > 3.5  # an untrained model knows nothing: ~ln 63
    assert summary == events[-1] and summary["steps"] == 6 and not summary["stopped"]
    assert set(summary) >= {"formed", "formed_at_step", "formed_at_s", "best_induction",
                            "best_previous_token"}
    model = load_model(tmp_path / "model.safetensors")
    assert model.config == settings.config()
    assert json.loads((tmp_path / "summary.json").read_text())["steps"] == 6


def test_a_run_is_fixed_by_its_settings_and_stops_when_asked():
    a = lab.run_lab(lab.LabSettings(**TINY))
    b = lab.run_lab(lab.LabSettings(**TINY))
    assert a["final"] == b["final"]  # the same seed: the same run
    c = lab.run_lab(lab.LabSettings(**{**TINY, "seed": 1}))
    assert c["final"] != a["final"]
    calls = []
    stopped = lab.run_lab(lab.LabSettings(max_steps=1000, batch=8),
                          should_stop=lambda: calls.append(1) or len(calls) > 3)
    assert stopped["stopped"] and stopped["steps"] == 3


@pytest.mark.parametrize("bad", [dict(layers=0), dict(heads=3), dict(pos="nope"),
                                 dict(lr=5.0), dict(seconds=-1), dict(seconds=601)])
def test_settings_the_lab_does_not_offer_are_refused(bad):
    with pytest.raises(ValueError):
        lab.LabSettings(**bad)


def test_the_command_line_prints_json_lines_and_a_summary(capsys, tmp_path):
    lab.main(["--max-steps", "4", "--batch", "8", "--json", "--out", str(tmp_path)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["kind"] == "start" and lines[-1]["kind"] == "done"
    assert lines[-1]["steps"] == 4 and (tmp_path / "model.safetensors").exists()
    with pytest.raises(SystemExit) as exit_:
        lab.main(["--layers", "9"])
    assert exit_.value.code == 2
