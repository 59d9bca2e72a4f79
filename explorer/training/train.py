"""Train one checkpoint: ``python -m explorer.training.train --name NAME [options]``.

Causal models learn next-token prediction; bidirectional ones (``--bidirectional``)
learn masked-word prediction (BERT-style corruption). CPU by default, CUDA when
available. Deterministic for a seed on one device. Writes, atomically:

- ``OUT/NAME.safetensors`` (fp16 weights + the model config in the header),
- ``OUT/NAME.json``, the card: config, training settings, tokens seen, train/val
  loss, wall time, corpus and tokenizer hashes, the exact command,
- with ``--snapshots K``, K weight snapshots taken during training under
  ``OUT/snapshots/NAME/`` (for the "watch attention emerge" view).

The recipe that grows previous-token and induction heads (see
``checkpoints/README.md``, "What we tried") is the command-line default: batch 8,
a quarter of the rows with a repeated span (:mod:`explorer.training.repeats`), bf16 autocast
with fp32 master weights, and the head scores tracked every ``--track-every`` steps
so the card holds their curve against tokens seen. ``TrainSettings``' own defaults
stay those of the first zoo, so older cards still read as what they were.

``--resume`` continues from ``runs/NAME/resume.safetensors`` (weights, AdamW
state and RNG state, saved as safetensors like everything else: no pickles). The steps
themselves are :func:`explorer.training.loop.run`'s, the loop every trainer shares; this
module gives it the batches, the loss and the work between steps. No UI imports here.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.torch import load_file, save_file

from explorer.models.checkpoint import save_model, sha256_file
from explorer.models.config import ModelConfig
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer
from explorer.training.cli import setup, task_parser, write_json
from explorer.training.data import (
    IGNORE_INDEX,
    Dataset,
    build_dataset,
    mlm_batch,
    random_batches,
)
from explorer.training.head_scores import common_word_ids, track
from explorer.training.loop import LoopState, lr_at, make_optimizer, run
from explorer.training.progress import Progress
from explorer.training.repeats import KINDS, RepeatRecipe, add_repeats, span_pool

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "tinystories.txt"


@dataclass
class TrainSettings:
    tokens: int = 2_000_000  # training budget, counted as input tokens
    batch_size: int = 16
    lr: float = 2e-3
    min_lr_ratio: float = 0.1
    warmup_steps: int = 60
    weight_decay: float = 0.1
    grad_clip: float = 1.0
    seed: int = 0
    probe_share: float = 0.1
    eval_every: int = 100
    eval_batches: int = 20
    snapshots: int = 0
    mask_p: float = 0.15
    # The head recipe (explorer.training.repeats); off by default so the first zoo's cards
    # read right.
    repeat_share: float = 0.0
    repeat_min: int = 8
    repeat_max: int = 32
    repeat_kind: str = "frequent"
    repeat_top: int = 2000
    repeat_gap: int = 0
    repeat_text_share: float = 0.5  # kind "mixed": share of repeated rows that repeat own text
    precision: str = "fp32"  # "bf16": autocast forward and loss, fp32 master weights
    compile: bool = False  # torch.compile the training forward
    track_every: int = 0  # steps between head-score points on the card (0: none)

    def recipe(self) -> RepeatRecipe:
        return RepeatRecipe(share=self.repeat_share, min_len=self.repeat_min,
                            max_len=self.repeat_max, kind=self.repeat_kind, top_n=self.repeat_top,
                            max_gap=self.repeat_gap, text_share=self.repeat_text_share)

    def steps(self, n_ctx: int) -> int:
        return max(1, self.tokens // (self.batch_size * n_ctx))


def loss_on(model: Transformer, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    logits = model(x, fused=True)
    # fp32 logits for the loss even under bf16 autocast: log-softmax over 4k entries
    return F.cross_entropy(logits.flatten(0, 1).float(), y.flatten(), ignore_index=IGNORE_INDEX)


def autocast(device, s: TrainSettings):
    """bf16 autocast when asked for (weights and optimizer stay fp32), else nothing."""
    if s.precision == "fp32":
        return contextlib.nullcontext()
    if s.precision != "bf16":
        raise ValueError(f"precision must be fp32 or bf16, got {s.precision!r}")
    return torch.autocast(device_type=torch.device(device).type, dtype=torch.bfloat16)


def comma_id(tok: Tokenizer) -> int | None:
    """The comma's token id (lists written with commas), or None if it is not one token."""
    ids = tok.encode(",")
    return ids[0] if len(ids) == 1 else None


def training_batch(batches, config: ModelConfig, tok: Tokenizer, gen: torch.Generator,
                   s: TrainSettings, pool: torch.Tensor, device
                   ) -> tuple[torch.Tensor, torch.Tensor]:
    """The next training batch, with repeated spans written into ``s.repeat_share`` of its
    rows (targets no copy can predict are ignored); evaluation batches never get them."""
    x, y = next(batches)
    recipe = s.recipe()
    if recipe.share > 0:
        windows, no_loss = add_repeats(torch.cat([x, y[:, -1:]], dim=1), pool, recipe, gen,
                                       comma=comma_id(tok))
        x, y = windows[:, :-1], windows[:, 1:].masked_fill(no_loss, IGNORE_INDEX)
    if not config.causal:  # masked-word: predict the corrupted positions of x itself
        x, y = mlm_batch(x, tok.mask_id, tok.vocab_size, gen, p=s.mask_p)
    return x.to(device), y.to(device)


def make_batch(batches, config: ModelConfig, tok: Tokenizer, gen: torch.Generator,
               s: TrainSettings, device) -> tuple[torch.Tensor, torch.Tensor]:
    x, y = next(batches)
    if not config.causal:  # masked-word: predict the corrupted positions of x itself
        x, y = mlm_batch(x, tok.mask_id, tok.vocab_size, gen, p=s.mask_p)
    return x.to(device), y.to(device)


@torch.no_grad()
def evaluate(model: Transformer, stream: np.ndarray, config: ModelConfig, tok: Tokenizer,
             s: TrainSettings, device, n_batches: int) -> float:
    """Mean loss on fixed batches (same seed every time, so numbers are comparable)."""
    was_training = model.training
    model.eval()
    gen = torch.Generator().manual_seed(1234)
    batches = random_batches(stream, s.batch_size, config.n_ctx, gen)
    losses = [loss_on(model, *make_batch(batches, config, tok, gen, s, device)).item()
              for _ in range(n_batches)]
    model.train(was_training)
    return float(np.mean(losses))


def cpu_twin(model: Transformer) -> Transformer:
    """A CPU copy with the same weights (a module holding hook state cannot be deep-copied)."""
    twin = Transformer(model.config)
    twin.load_state_dict({k: v.detach().cpu() for k, v in model.state_dict().items()})
    return twin.train(model.training)


def on_cpu(model: Transformer) -> Transformer:
    """The model itself on the CPU, else its CPU twin: the head scores build their inputs
    on the CPU, and a copy leaves the training model (and its optimizer) where it is."""
    return model if next(model.parameters()).device.type == "cpu" else cpu_twin(model)


# --- resume state (safetensors, not pickle) -----------------------------------------------

def save_resume(path: Path, model: Transformer, opt: torch.optim.AdamW, gen: torch.Generator,
                info: dict) -> None:
    tensors = {f"model.{k}": v.detach().cpu().contiguous()
               for k, v in model.state_dict().items() if k != "W_U.weight"}
    for i, state in opt.state_dict()["state"].items():
        for key, value in state.items():
            tensors[f"opt.{i}.{key}"] = torch.as_tensor(value).detach().cpu().contiguous()
    tensors["rng"] = gen.get_state()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    save_file(tensors, str(tmp), metadata={"info": json.dumps(info)})
    tmp.replace(path)


def load_resume(path: Path, model: Transformer, opt: torch.optim.AdamW,
                gen: torch.Generator) -> dict:
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        info = json.loads(f.metadata()["info"])
    tensors = load_file(str(path))
    model.load_state_dict({k[6:]: v for k, v in tensors.items() if k.startswith("model.")},
                          strict=False)
    state = opt.state_dict()
    for key, value in tensors.items():
        if key.startswith("opt."):
            _, i, name = key.split(".", 2)
            state["state"].setdefault(int(i), {})[name] = value
    opt.load_state_dict(state)
    gen.set_state(tensors["rng"])
    return info


# --- the loop ------------------------------------------------------------------------------

def snapshot_steps(total: int, k: int) -> list[int]:
    """k steps: a third spread log-uniformly over the first tenth of training (the loss
    and the previous-token head move early), the rest evenly to the end (induction heads
    appear suddenly, late: an even spacing catches the moment)."""
    if k <= 0:
        return []
    early = max(1, k // 3)
    points = np.geomspace(max(1, total / 200), max(1, total / 10), early)
    n_late = k - early
    late = np.linspace(total / n_late, total, n_late) if n_late else np.zeros(0)
    points = np.unique(np.round(np.concatenate([points, late])).astype(int))
    return [int(p) for p in points if 1 <= p <= total]


@dataclass
class LMRun:
    """One language-model run as it trains: what the work between steps and the card read."""

    name: str
    config: ModelConfig
    s: TrainSettings
    out: Path
    device: str
    tok: Tokenizer
    dataset: Dataset
    model: Transformer
    opt: torch.optim.AdamW
    gen: torch.Generator
    resume_path: Path
    step: int = 0  # where this run starts (a resumed run: where the last one stopped)
    elapsed: float = 0.0  # seconds trained before that
    history: list = field(default_factory=list)  # the card's curve: losses, head scores
    snaps: list = field(default_factory=list)  # the snapshots saved so far

    @property
    def total(self) -> int:
        return self.s.steps(self.config.n_ctx)

    @property
    def tokens_per_step(self) -> int:
        return self.s.batch_size * self.config.n_ctx


def start_run(name: str, config: ModelConfig, s: TrainSettings, corpus: Path, out: Path,
              tokenizer_path: Path, resume: bool, device: str | None, dataset) -> LMRun:
    """Seed, data, model, optimizer and sampling generator, in that order (the order fixes
    the weights); with ``resume``, the saved state of an interrupted run loaded over them."""
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(s.seed)
    tok = Tokenizer.load(tokenizer_path)
    if dataset is None:
        dataset = build_dataset(corpus, tok, probe_share=s.probe_share, seed=s.seed)
    model = Transformer(config).to(device).train()
    opt = make_optimizer(model, s)
    gen = torch.Generator().manual_seed(s.seed)
    # Resume state of the zoo's models lives in runs/NAME (zoo_build looks there); a run
    # writing elsewhere (a study variant) keeps its own beside its output.
    run_dir = (ROOT / "runs" / name if Path(out).resolve() == (ROOT / "checkpoints").resolve()
               else Path(out) / "resume")
    r = LMRun(name, config, s, Path(out), device, tok, dataset, model, opt, gen,
              run_dir / "resume.safetensors")
    if resume and r.resume_path.exists():
        info = load_resume(r.resume_path, model, opt, gen)
        r.step, r.elapsed, r.history, r.snaps = (info["step"], info["elapsed"],
                                                 info["history"], info["snapshots"])
    return r


def between_steps(r: LMRun, state: LoopState, progress: Progress, words, want_snaps: set[int],
                  start: float) -> None:
    """After a step: the validation loss every ``eval_every`` steps, the head scores every
    ``track_every``, a snapshot at the planned steps, the resume state with each evaluation."""
    s, step, tokens = r.s, state.step, state.step * r.tokens_per_step
    if step % s.eval_every == 0 or step == r.total:
        val = evaluate(r.model, r.dataset.val, r.config, r.tok, s, r.device, s.eval_batches // 2)
        r.history.append({"step": step, "tokens": tokens,
                          "train_loss": round(state.train_loss, 4), "val_loss": round(val, 4)})
        progress.note(f"step {step}: val loss {val:.3f}")
    if s.track_every and (step % s.track_every == 0 or step == r.total):
        point = track(on_cpu(r.model), r.tok, r.dataset.val, words)
        r.history.append({"step": step, "tokens": tokens, "heads": point})
        progress.note(f"step {step}: heads {json.dumps(point)}")
    if step in want_snaps:
        path = r.out / "snapshots" / r.name / f"step_{step:05d}.safetensors"
        save_model(r.model, path, dtype=torch.float16)
        r.snaps.append({"step": step, "tokens": tokens,
                        "train_loss": round(state.train_loss, 4), "file": path.name})
    if step % s.eval_every == 0 and step < r.total:
        save_resume(r.resume_path, r.model, r.opt, r.gen, {
            "step": step, "elapsed": time.perf_counter() - start, "history": r.history,
            "snapshots": r.snaps})


def train(name: str, config: ModelConfig, s: TrainSettings, corpus: Path, out: Path,
          tokenizer_path: Path, resume: bool = False, device: str | None = None,
          command: str = "", quiet: bool = False, dataset=None) -> dict:
    """Train (or, with ``resume``, go on training) one checkpoint; write it and its card
    (see the module docstring) and return the card."""
    r = start_run(name, config, s, corpus, out, tokenizer_path, resume, device, dataset)
    batches = random_batches(r.dataset.train, s.batch_size, config.n_ctx, r.gen)
    pool = span_pool(r.dataset.train, r.tok, s.recipe())
    words = common_word_ids(r.tok, r.dataset.train) if s.track_every else None
    forward = torch.compile(r.model) if s.compile else r.model
    want_snaps = set(snapshot_steps(r.total, s.snapshots))
    progress = Progress(r.total, r.tokens_per_step, quiet=quiet, start=r.step)
    start = time.perf_counter() - r.elapsed

    def loss_of(batch: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        with autocast(r.device, s):
            return loss_on(forward, *batch)

    state = run(r.model, r.opt,
                lambda _: training_batch(batches, config, r.tok, r.gen, s, pool, r.device),
                loss_of, r.total, start=r.step, lr=lambda step: lr_at(step, r.total, s),
                grad_clip=s.grad_clip, progress=progress,
                after_step=lambda st: between_steps(r, st, progress, words, want_snaps, start))
    progress.close()
    card = finish(r, state.train_loss, time.perf_counter() - start, tokenizer_path, command)
    if r.resume_path.exists():
        r.resume_path.unlink()
    return card


def finish(r: LMRun, train_loss: float, wall: float, tokenizer_path: Path,
           command: str) -> dict:
    """The final evaluation of the trained (fp32) model, its fp16 weights saved, and the
    card written and returned."""
    config, s, dataset, device = r.config, r.s, r.dataset, r.device
    r.model.eval()
    val_loss = evaluate(r.model, dataset.val, config, r.tok, s, device, s.eval_batches)
    # a run without probes (--probe-share 0) has no probe stream to score
    val_probe_loss = (evaluate(r.model, dataset.val_probes, config, r.tok, s, device,
                               s.eval_batches)
                      if len(dataset.val_probes) > config.n_ctx else None)
    weights = save_model(r.model, r.out / f"{r.name}.safetensors", dtype=torch.float16)
    card = {
        "name": r.name,
        "objective": "next-token" if config.causal else "masked-word",
        "config": config.to_dict(),
        "training": asdict(s),
        "steps": r.total,
        "tokens_seen": r.total * r.tokens_per_step,
        "train_loss": round(train_loss, 4),
        "val_loss": round(val_loss, 4),
        "val_probe_loss": None if val_probe_loss is None else round(val_probe_loss, 4),
        "history": r.history,
        "snapshots": r.snaps,
        "wall_time_s": round(wall, 1),
        # of this run only when it was resumed (the earlier part's time is in wall_time_s)
        "tokens_per_s": round((r.total - r.step) * r.tokens_per_step
                              / max(1e-9, wall - r.elapsed)),
        "precision": s.precision,
        "threads": torch.get_num_threads(),
        "device": str(device),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "corpus_sha256": dataset.meta.corpus_sha256,
        "tokenizer_sha256": sha256_file(tokenizer_path),
        "dataset": asdict(dataset.meta),
        "weights_sha256": sha256_file(weights),
        "command": command,
    }
    write_json(r.out / f"{r.name}.json", card)
    return card


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The common options (:func:`explorer.training.cli.task_parser`: ``--name`` required,
    ``--threads`` 0 by default) and the language model's own."""
    p = task_parser(__doc__.split("\n")[0])
    p.set_defaults(threads=0)
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    p.add_argument("--bidirectional", action="store_true", help="masked-word encoder")
    p.add_argument("--norm", default="pre", choices=["pre", "post"])
    p.add_argument("--ctx", type=int, default=128)
    p.add_argument("--tokens", type=float, default=2e6)
    p.add_argument("--probe-share", type=float, default=0.1)
    p.add_argument("--snapshots", type=int, default=0)
    p.add_argument("--repeat-share", type=float, default=0.25,
                   help="share of rows with a repeated span (0: plain text only)")
    p.add_argument("--repeat-min", type=int, default=8, help="shortest span, tokens")
    p.add_argument("--repeat-max", type=int, default=32, help="longest span, tokens")
    p.add_argument("--repeat-kind", default="frequent", choices=KINDS)
    p.add_argument("--repeat-top", type=int, default=2000,
                   help="spans draw from this many most frequent tokens")
    p.add_argument("--repeat-gap", type=int, default=0,
                   help="up to this many text tokens between a span's two copies")
    p.add_argument("--repeat-text-share", type=float, default=0.5,
                   help="--repeat-kind mixed: share of repeated rows that repeat their own "
                        "text (the rest repeat random tokens)")
    p.add_argument("--precision", default="fp32", choices=["fp32", "bf16"],
                   help="bf16: autocast (fp32 master weights); fp32: plain")
    p.add_argument("--compile", action="store_true", help="torch.compile the training forward")
    p.add_argument("--track-every", type=int, default=500,
                   help="steps between head-score points on the card (0: none)")
    p.add_argument("--eval-every", type=int, default=100)
    p.add_argument("--device", default=None)
    p.add_argument("--resume", action="store_true")
    return p.parse_args(argv)


# The other transformers of the notebooks train on generated tasks with loops of their own;
# ``--task`` hands the rest of the command line to that module's ``main``.
TASK_TRAINERS = {"classify": "explorer.training.train_classifier",
                 "seq2seq": "explorer.training.train_seq2seq"}


def main(argv: list[str] | None = None) -> dict:
    argv = sys.argv[1:] if argv is None else list(argv)
    task = argparse.ArgumentParser(add_help=False)
    task.add_argument("--task", default="lm", choices=["lm", *TASK_TRAINERS])
    known, rest = task.parse_known_args(argv)
    if known.task != "lm":
        import importlib

        return importlib.import_module(TASK_TRAINERS[known.task]).main(rest)
    args, tok, command = setup(rest, parse_args, task="lm" if rest != argv else None)
    config = ModelConfig(vocab_size=tok.vocab_size, d_model=args.d_model, n_layers=args.layers,
                         n_heads=args.heads, d_ff=args.d_ff, n_ctx=args.ctx,
                         pos_encoding=args.pos, causal=not args.bidirectional, norm=args.norm)
    settings = TrainSettings(tokens=int(args.tokens), batch_size=args.batch_size, lr=args.lr,
                             seed=args.seed, probe_share=args.probe_share,
                             snapshots=args.snapshots, eval_every=args.eval_every,
                             repeat_share=args.repeat_share, repeat_min=args.repeat_min,
                             repeat_max=args.repeat_max, repeat_kind=args.repeat_kind,
                             repeat_top=args.repeat_top,
                             repeat_gap=args.repeat_gap,
                             repeat_text_share=args.repeat_text_share, precision=args.precision,
                             compile=args.compile, track_every=args.track_every)
    card = train(args.name, config, settings, args.corpus, args.out, args.tokenizer,
                 resume=args.resume, device=args.device, command=command, quiet=args.quiet)
    print(f"{args.name}: val loss {card['val_loss']:.3f} after {card['tokens_seen']:,} tokens "
          f"in {card['wall_time_s']:.0f} s")
    return card


if __name__ == "__main__":
    main()
