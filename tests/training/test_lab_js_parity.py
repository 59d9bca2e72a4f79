"""The Lab's JavaScript math (static/lab/) against torch, the live reference: for each of
the Lab's options (defaults; MLP; LayerNorm; each positional choice; 1 to 3 layers; 1, 2
and 4 heads; the copy-only loss), a model built by lab.py's own ``build`` and a batch of
lab_task.py's, written to JSON; ``node tests/js/lab_grad_cli.mjs`` runs the JavaScript
forward and backward pass on them; the loss must agree within 1e-5 and every parameter's
gradient within 1e-4 (the norm of the difference over the norm of torch's, per tensor).

The reference runs in float64 on the model's float32 weights (the JavaScript keeps weights
in float32 and computes in float64: compared with torch in float32, torch's own rounding
would be most of the difference). Also: AdamW's steps (JavaScript's adamw.js against
torch.optim.AdamW with lab.py's hyper-parameters, on the same float32 weights and
gradients) and the head scores (head_scores.py's previous-token and induction scores on
the same patterns). Each case runs twice: on the WebAssembly kernel (float32 products, what
the browser runs) and on the plain loops (float64 throughout). Skipped where there is no
``node`` (CI has it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import asdict
from pathlib import Path

import pytest
import torch

from explorer.training import lab
from explorer.training.head_scores import (
    induction_mask,
    induction_scores,
    patterns_of,
    previous_token_scores,
)
from explorer.training.lab_task import RepeatTask, batch

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "tests" / "js" / "lab_grad_cli.mjs"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed (CI has it)")

SMALL = dict(d_model=32, vocab=48, n_ctx=24)  # the Lab's shapes, smaller: a case is ~1 s
CASES = {
    "defaults": {},
    "mlp": {"mlp": True},
    "norm": {"norm": True},
    "mlp_norm": {"mlp": True, "norm": True},
    "pos_none": {"pos": "none"},
    "pos_sinusoidal": {"pos": "sinusoidal"},
    "pos_rotary": {"pos": "rotary"},
    "pos_alibi": {"pos": "alibi"},
    "layers_1": {"layers": 1},
    "layers_3": {"layers": 3, "mlp": True, "norm": True},
    "heads_1": {"heads": 1},
    "heads_4": {"heads": 4, "pos": "rotary", "norm": True},
    "copy_only": {"copy_loss_only": True},
    "lab_size": {"d_model": 64, "vocab": 64, "n_ctx": 64},
}
LOSS_TOL, GRAD_TOL, ADAM_TOL = 1e-5, 1e-4, 1e-5
BATCH, LENGTH = 3, 20  # sequences of 20 tokens, blocks of 3 to 9


def _settings(case: dict) -> lab.LabSettings:
    return lab.LabSettings(**{**SMALL, **case})


def _model(settings: lab.LabSettings) -> torch.nn.Module:
    """lab.py's model; its LayerNorms moved off 1 and 0 (else their gradients test little)."""
    model = lab.build(settings)
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if ".ln" in name or name.startswith("ln_"):
                p.add_(0.2 * torch.randn(p.shape, generator=gen))
    return model


def _batch(settings: lab.LabSettings):
    task = RepeatTask(vocab_size=settings.vocab, n_ctx=LENGTH, min_block=3, max_block=9)
    return batch(task, BATCH, torch.Generator().manual_seed(settings.seed + 5))


def _flat(t: torch.Tensor) -> list[float]:
    return t.detach().double().flatten().tolist()


def _run_js(tmp_path: Path, job: dict) -> dict:
    src, dst = tmp_path / "in.json", tmp_path / "out.json"
    src.write_text(json.dumps(job))
    done = subprocess.run([NODE, str(CLI), str(src), str(dst)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(dst.read_text())


def _job(settings: lab.LabSettings, model: torch.nn.Module, b, **extra) -> dict:
    return {"settings": asdict(settings),
            "params": {k: _flat(v) for k, v in model.state_dict().items()},
            "tokens": b.tokens.tolist(), "copy": b.copy.int().tolist(),
            "copy_only": settings.copy_loss_only, **extra}


def _rel(js: list[float], ref: torch.Tensor) -> float:
    """|js - ref| / |ref| over one tensor (the absolute difference where ref is all 0)."""
    diff = float((torch.tensor(js, dtype=torch.float64) - ref.double().flatten()).norm())
    scale = float(ref.double().norm())
    return diff / scale if scale > 0 else diff


@pytest.mark.parametrize("simd", [True, False], ids=["kernel", "loops"])
@pytest.mark.parametrize("name", list(CASES))
def test_the_loss_and_every_gradient_match_torch(tmp_path, name, simd):
    settings = _settings(CASES[name])
    model = _model(settings)
    b = _batch(settings)
    out = _run_js(tmp_path, _job(settings, model, b, simd=simd))
    assert out["simd"] == simd  # the kernel ran (Node 20 has WebAssembly SIMD), or did not
    ref = model.double()
    loss = lab.loss_on(ref, b, "cpu", settings.copy_loss_only)
    loss.backward()
    loss = loss.item()
    assert abs(out["loss"] - loss) <= LOSS_TOL, (out["loss"], loss)
    errors = {}
    for key, p in ref.named_parameters():
        grad = p.grad if p.grad is not None else torch.zeros_like(p)  # ln2 without an MLP
        errors[key] = _rel(out["grads"][key], grad)
    assert set(out["grads"]) == set(errors)
    worst = max(errors, key=errors.get)
    path = "kernel" if simd else "loops"
    print(f"{name} {path}: loss {abs(out['loss'] - loss):.2e}, worst gradient {worst} "
          f"{errors[worst]:.2e}")  # -s shows the measured parity
    assert errors[worst] <= GRAD_TOL, errors


def test_adamw_steps_match_torch(tmp_path):
    """Three steps of AdamW on the same float32 weights and gradients (a different set each
    step), lab.py's optimizer against adamw.js."""
    settings = _settings({"mlp": True, "norm": True, "pos": "sinusoidal"})
    model = _model(settings)
    start = {k: v.clone() for k, v in model.state_dict().items()}
    gen = torch.Generator().manual_seed(7)
    steps = [{k: torch.randn(p.shape, generator=gen) * 10.0 ** -i for k, p in
              model.named_parameters()} for i in range(3)]
    job = _job(settings, model, _batch(settings),
               adam={"lr": settings.lr, "grads": [{k: _flat(g) for k, g in s.items()}
                                                  for s in steps]})
    out = _run_js(tmp_path, job)
    opt = torch.optim.AdamW(model.parameters(), lr=settings.lr, betas=(0.9, 0.98),
                            weight_decay=0.0)  # as lab.run_lab
    for s in steps:
        for k, p in model.named_parameters():
            p.grad = s[k].clone()
        opt.step()
    weights, updates = {}, {}
    for k, p in model.named_parameters():
        weights[k] = _rel(out["adam_params"][k], p.detach())
        moved = p.detach().double() - start[k].double()
        got = torch.tensor(out["adam_params"][k], dtype=torch.float64) - start[k].double().flatten()
        updates[k] = _rel(got.tolist(), moved)  # the update itself
    print(f"adamw: weights {max(weights.values()):.2e}, updates {max(updates.values()):.2e}")
    assert max(weights.values()) <= ADAM_TOL, weights
    assert max(updates.values()) <= 1e-3, updates


@pytest.mark.parametrize("name", ["defaults", "heads_4"])
def test_the_head_scores_match_head_scores_py(tmp_path, name):
    settings = _settings(CASES[name])
    model = _model(settings)
    b = _batch(settings)
    out = _run_js(tmp_path, _job(settings, model, b))
    with torch.no_grad():
        _, patterns = patterns_of(model.double().eval(), b.tokens)
    queries = torch.zeros(b.tokens.shape, dtype=torch.bool)
    queries[:, 1:] = b.copy  # as lab.measure
    induction = induction_scores(patterns, induction_mask(b.tokens), queries)
    previous = previous_token_scores(patterns)
    for key, ref in (("induction", induction), ("previous_token", previous)):
        got = torch.tensor(out[key], dtype=torch.float64)
        assert torch.allclose(got, torch.from_numpy(ref).flatten(), atol=1e-9, rtol=1e-6), key
    assert induction.max() > 0 and previous.max() > 0
