"""Train the encoder classifier: ``python -m explorer.training.train --task classify --name NAME``.

The task is :mod:`explorer.training.classify_task` (sentiment with negation and a distractor
clause), generated here from a seed, so the run needs no corpus. AdamW with the
language-model trainer's warm-up + cosine schedule and weight-decay groups, in the loop all
trainers share (:mod:`explorer.training.loop`), CPU, one thread by default; deterministic
for a seed. Writes, atomically:

- ``OUT/NAME.safetensors`` (fp16 weights + the config in the header),
- ``OUT/NAME.json``, the card (config, settings, examples seen, loss, accuracies,
  wall time, tokenizer hash, class names, the exact command),
- ``OUT/eval/NAME.json``: the held-out accuracy of the *saved* (fp16) weights, in
  the format every non-language-model checkpoint shares
  (``{"task", "metric", "accuracy", "n", "what", ...}``).
"""

from __future__ import annotations

import argparse
import platform
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
import torch.nn.functional as F

from explorer.models.checkpoint import load_model, save_model, sha256_file
from explorer.models.classifier import Classifier
from explorer.models.config import ModelConfig
from explorer.models.tokenizer import PAD, Tokenizer
from explorer.training.classify_task import CLASSES, Example, generate
from explorer.training.cli import setup, task_parser, write_json
from explorer.training.loop import LoopState, lr_at, make_optimizer, run
from explorer.training.progress import Progress

HELDOUT_SEED = 1  # the held-out sentences (word/shape pairs never trained on)
VAL_SEED = 2  # fresh sentences from the training pairs, for comparison
WHAT = ("share of {n:,} generated held-out sentences (each feeling word in a sentence shape it "
        "never appeared in during training; half of them negated, and half of those with a "
        "second clause have a distracting 'not' there) whose class the saved fp16 model gets "
        "right")


@dataclass
class ClassifySettings:
    examples: int = 32_000  # training budget, counted in sentences
    batch_size: int = 64
    lr: float = 1e-3
    min_lr_ratio: float = 0.1
    warmup_steps: int = 100
    weight_decay: float = 0.1
    grad_clip: float = 1.0
    seed: int = 0
    eval_every: int = 100  # steps
    eval_n: int = 2000  # held-out sentences for the stated accuracy

    def steps(self) -> int:
        return max(1, self.examples // self.batch_size)


def encode(tok: Tokenizer, texts: list[str], n_ctx: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Texts -> (tokens ``[batch, pos]`` padded with <pad>, padding mask ``[batch, pos]``,
    True at padding), each text cut to ``n_ctx`` tokens."""
    ids = [row[:n_ctx] for row in tok.encode_batch(texts)]
    width = max(1, max(len(row) for row in ids))
    pad_id = tok.inner.token_to_id(PAD)
    tokens = torch.full((len(ids), width), pad_id, dtype=torch.long)
    pad = torch.ones(len(ids), width, dtype=torch.bool)
    for i, row in enumerate(ids):
        tokens[i, :len(row)] = torch.tensor(row, dtype=torch.long)
        pad[i, :len(row)] = False
    return tokens, pad


@torch.inference_mode()
def predict(model: Classifier, tok: Tokenizer, examples: list[Example],
            batch_size: int = 256) -> torch.Tensor:
    """Predicted class per example ``[n]`` (explicit attention path, as the app runs it)."""
    was_training = model.training
    model.eval()
    out = []
    for i in range(0, len(examples), batch_size):
        tokens, pad = encode(tok, [e.text for e in examples[i:i + batch_size]],
                             model.config.n_ctx)
        out.append(model(tokens, key_padding_mask=pad).argmax(-1))
    model.train(was_training)
    return torch.cat(out)


def accuracy(model: Classifier, tok: Tokenizer, examples: list[Example]) -> float:
    labels = torch.tensor([e.label for e in examples])
    return float((predict(model, tok, examples) == labels).float().mean())


def heldout_examples(n: int) -> list[Example]:
    return generate(n, seed=HELDOUT_SEED, split="heldout")


def measure(model: Classifier, tok: Tokenizer, n: int) -> dict:
    """The held-out accuracy of ``model`` and its breakdown (what the card states)."""
    examples = heldout_examples(n)
    right = (predict(model, tok, examples) == torch.tensor([e.label for e in examples]))

    def share(keep) -> float:
        picked = [bool(r) for r, e in zip(right, examples, strict=True) if keep(e)]
        return round(sum(picked) / max(1, len(picked)), 4)

    return {"accuracy": round(float(right.float().mean()), 4), "n": n,
            "negated": share(lambda e: e.negated), "not_negated": share(lambda e: not e.negated),
            "distractor_not": share(lambda e: e.distractor_not)}


def train(name: str, config: ModelConfig, s: ClassifySettings, out: Path, tokenizer_path: Path,
          command: str = "", quiet: bool = False) -> dict:
    torch.manual_seed(s.seed)
    tok = Tokenizer.load(tokenizer_path)
    model = Classifier(config).train()
    opt = make_optimizer(model, s)
    total = s.steps()
    data = generate(total * s.batch_size, seed=s.seed, split="train")
    heldout = heldout_examples(min(500, s.eval_n))  # a quick look during training
    progress = Progress(total, s.batch_size, quiet=quiet, unit="sentences")
    history = []

    def loss_of(batch: list[Example]) -> torch.Tensor:
        tokens, pad = encode(tok, [e.text for e in batch], config.n_ctx)
        labels = torch.tensor([e.label for e in batch])
        return F.nll_loss(model(tokens, key_padding_mask=pad, fused=True), labels)

    def after_step(state: LoopState) -> None:
        if state.step % s.eval_every == 0 or state.step == total:
            acc = accuracy(model, tok, heldout)
            history.append({"step": state.step, "examples": state.step * s.batch_size,
                            "train_loss": round(state.train_loss, 4),
                            "heldout_accuracy": round(acc, 4)})
            progress.note(f"step {state.step}: held-out accuracy {acc:.3f} ({len(heldout)})")

    start = time.perf_counter()
    state = run(model, opt, lambda step: data[step * s.batch_size:(step + 1) * s.batch_size],
                loss_of, total, lr=lambda step: lr_at(step, total, s), grad_clip=s.grad_clip,
                progress=progress, after_step=after_step)
    progress.close()
    wall = time.perf_counter() - start
    return finish(name, config, s, model, tok, out, tokenizer_path, command, {
        "train_loss": round(state.train_loss, 4), "history": history,
        "wall_time_s": round(wall, 1)})


def finish(name: str, config: ModelConfig, s: ClassifySettings, model: Classifier,
           tok: Tokenizer, out: Path, tokenizer_path: Path, command: str, trained: dict) -> dict:
    """Save the fp16 weights, measure *them*, write the card (``trained``: what training
    adds: its loss, curve and time) and the eval file; return the card."""
    weights = save_model(model, out / f"{name}.safetensors", dtype=torch.float16)
    saved = load_model(weights)  # state what the shipped fp16 weights do, not the fp32 ones
    result = measure(saved, tok, s.eval_n)
    val_seen = accuracy(saved, tok, generate(s.eval_n, seed=VAL_SEED, split="train"))
    card = {
        "name": name, "task": "classify", "objective": "sentiment with negation (generated)",
        "classes": list(CLASSES), "config": config.to_dict(), "training": asdict(s),
        "steps": s.steps(), "examples_seen": s.steps() * s.batch_size,
        "train_loss": trained["train_loss"], "heldout_accuracy": result["accuracy"],
        "heldout": result, "val_accuracy_seen_pairs": round(val_seen, 4),
        "history": trained["history"], "wall_time_s": trained["wall_time_s"], "device": "cpu",
        "threads": torch.get_num_threads(),
        "torch": torch.__version__, "python": platform.python_version(),
        "data": "explorer/training/classify_task.py",
        "tokenizer_sha256": sha256_file(tokenizer_path),
        "weights_sha256": sha256_file(weights), "command": command,
    }
    write_json(out / f"{name}.json", card)
    write_json(out / "eval" / f"{name}.json", {
        "task": "classify", "metric": "accuracy", "accuracy": result["accuracy"],
        "n": result["n"], "what": WHAT.format(n=result["n"]),
        "weights_sha256": card["weights_sha256"]})
    return card


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The common options (:func:`explorer.training.cli.task_parser`) with the classifier's
    defaults, and its own: ``--ctx``, ``--examples``, ``--eval-every``."""
    p = task_parser(__doc__.split("\n")[0], "classify-h4-sentiment")
    p.set_defaults(layers=2, batch_size=64, lr=1e-3)
    p.add_argument("--ctx", type=int, default=64)
    p.add_argument("--examples", type=float, default=32_000)
    p.add_argument("--eval-every", type=int, default=100)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    """``argv`` is what follows ``--task classify`` (see :func:`explorer.training.train.main`)."""
    args, tok, command = setup(argv, parse_args, task="classify")
    config = ModelConfig(vocab_size=tok.vocab_size, d_model=args.d_model, n_layers=args.layers,
                         n_heads=args.heads, d_ff=args.d_ff, n_ctx=args.ctx,
                         pos_encoding=args.pos, causal=False, task="classify",
                         n_classes=len(CLASSES))
    settings = ClassifySettings(examples=int(args.examples), batch_size=args.batch_size,
                                lr=args.lr, seed=args.seed, eval_every=args.eval_every)
    card = train(args.name, config, settings, args.out, args.tokenizer, command=command,
                 quiet=args.quiet)
    print(f"{args.name}: held-out accuracy {card['heldout_accuracy']:.3f} "
          f"({card['heldout']['n']} sentences) after {card['examples_seen']:,} examples "
          f"in {card['wall_time_s']:.0f} s")
    return card
