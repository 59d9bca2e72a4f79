"""The Lab's trainer: a tiny transformer learns the repeated-block task while you watch.

    python -m explorer.training.lab --layers 2 --heads 2 --pos learned --seed 0 \\
        --out DIR --json

trains the project's own :class:`~explorer.models.transformer.Transformer` (attention only
and no LayerNorm by default: config fields ``mlp`` and ``norm``, saved in the checkpoint)
on :mod:`explorer.training.lab_task` and reports, every ``update_s`` seconds of training, an
event: the loss on the second copy and on fresh tokens, every head's previous-token and
induction score on held-out sequences (:mod:`explorer.training.head_scores`, the same
definitions as the evaluation's), and optionally every head's pattern on one fixed probe
sequence. The run stops at ``max_steps`` (a busy machine makes it slower, never shorter), at
``seconds`` of training only when a cap is asked for (``--seconds``; then the summary says
``timed_out`` and ``stopped``: a run cut short is not a result), or when ``should_stop()``
says so (checked every step), and ends with a summary: whether an induction head formed
(best induction score >= 0.3, the evaluation's bar), at which step and second, and the best
scores. A run's weights are fixed by its settings and seed (one CPU thread, the same steps);
the step marked "formed" is not quite: the checks fall every ``update_s`` seconds of
training, so it moves by a few steps from run to run (seed 0: 403, 405, 412).

Measured (``checkpoints/eval/lab.json`` and ``lab_measures.json``, one thread of a 2-core
box): with the defaults, 2 layers of 2 heads, an induction head forms within a few hundred
steps (seconds on one CPU core); one layer never forms one (its best induction score stays
near 0.1, about twice what attention spread evenly scores, far under the 0.3 bar): in one
layer a key is built from its own token and its position only, so it cannot say which
token came before it, and reading "the token after the earlier occurrence" needs a
previous-token head in an earlier layer.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from explorer.models.checkpoint import save_model
from explorer.models.config import POSITIONAL_ENCODINGS, ModelConfig
from explorer.models.transformer import Transformer
from explorer.training.head_scores import (
    THRESHOLDS,
    induction_mask,
    induction_scores,
    patterns_of,
    previous_token_scores,
    token_losses,
)
from explorer.training.lab_task import Batch, RepeatTask, batch, probe
from explorer.training.loop import LoopState, run

FORMED = THRESHOLDS["induction_score"]  # the evaluation's bar: 30 % on the induction target
HELD_OUT_SEED = 10_000  # held-out sequences come from a generator no training seed uses
HELD_OUT = 64  # held-out sequences scored at each update


@dataclass(frozen=True)
class LabSettings:
    """Everything that fixes a run (with the seed, the same run every time on one thread)."""

    layers: int = 2
    heads: int = 2
    pos: str = "learned"
    mlp: bool = False
    norm: bool = False  # True: pre-LayerNorm, as the zoo's models
    lr: float = 3e-3
    seed: int = 0
    d_model: int = 64
    batch: int = 32
    vocab: int = 64
    n_ctx: int = 64
    copy_loss_only: bool = False  # train only where a copy can predict (faster still)
    seconds: float = 0.0  # a cap on seconds of training (0: none, the run is bounded by steps)
    max_steps: int = 3000
    update_s: float = 0.4  # an event at least this often (of training time)

    def __post_init__(self) -> None:
        checks = [(1 <= self.layers <= 3, "layers must be 1 to 3"),
                  (self.heads in (1, 2, 4), "heads must be 1, 2 or 4"),
                  (self.pos in POSITIONAL_ENCODINGS, f"pos must be one of {POSITIONAL_ENCODINGS}"),
                  (1e-5 <= self.lr <= 1e-1, "lr must be between 1e-5 and 0.1"),
                  (0 <= self.seed < 2**31, "seed must be 0 or more"),
                  (0 <= self.seconds <= 600, "seconds must be 0 (no cap) to 600"),
                  (1 <= self.max_steps <= 100_000, "max_steps must be 1 to 100,000"),
                  (1 <= self.batch <= 256, "batch must be 1 to 256")]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)

    def config(self) -> ModelConfig:
        return ModelConfig(vocab_size=self.vocab, d_model=self.d_model, n_layers=self.layers,
                           n_heads=self.heads, d_ff=4 * self.d_model, n_ctx=self.n_ctx,
                           pos_encoding=self.pos, norm="pre" if self.norm else "none",
                           mlp=self.mlp, init="torch", tie_embeddings=False)

    def task(self) -> RepeatTask:
        return RepeatTask(vocab_size=self.vocab, n_ctx=self.n_ctx)

    def key(self) -> str:
        """What fixes the run, as canonical JSON (the time budget too: it decides the end)."""
        return json.dumps(asdict(self), sort_keys=True)


def build(settings: LabSettings, device: str | torch.device = "cpu") -> Transformer:
    torch.manual_seed(settings.seed)
    return Transformer(settings.config()).to(device)


def _grid(scores: np.ndarray) -> list[list[float]]:
    return [[round(float(v), 3) for v in row] for row in scores]


def measure(model: Transformer, held: Batch, probe_tokens: torch.Tensor | None) -> dict:
    """Losses and head scores on the held-out sequences; the probe's patterns if given."""
    was_training = model.training
    model.eval()
    try:
        logits, patterns = patterns_of(model, held.tokens)  # [layer, batch, head, q, k]
        losses = token_losses(logits, held.tokens)  # [batch, n - 1]
        queries = torch.zeros(held.tokens.shape, dtype=torch.bool)
        queries[:, 1:] = held.copy  # a query whose next token the first copy predicts
        induction = induction_scores(patterns, induction_mask(held.tokens), queries)
        previous = previous_token_scores(patterns)
        out = {"loss_copy": round(float(losses[held.copy].mean()), 4),
               "loss_fresh": round(float(losses[held.fresh].mean()), 4),
               "previous_token": _grid(previous), "induction": _grid(induction),
               "best_induction": round(float(induction.max()), 3),
               "best_previous_token": round(float(previous.max()), 3)}
        if probe_tokens is not None:  # [layer, head, n, n] in whole percent, for drawing
            _, seen = patterns_of(model, probe_tokens)
            out["probe"] = (seen[:, 0] * 100).round().to(torch.uint8).tolist()
        return out
    finally:
        model.train(was_training)


def loss_on(model: Transformer, b: Batch, device: str | torch.device,
            copy_only: bool) -> torch.Tensor:
    """Mean next-token loss over the batch, or over the positions a copy predicts only."""
    logits = model(b.tokens.to(device))
    losses = F.cross_entropy(logits[:, :-1].flatten(0, 1), b.tokens[:, 1:].flatten().to(device),
                             reduction="none").view(b.copy.shape)
    return losses[b.copy.to(device)].mean() if copy_only else losses.mean()


def _summary(settings: LabSettings, state: LoopState, formed: tuple[int, float] | None,
             best: dict, last: dict, wall_s: float) -> dict:
    """The run's last event: how far it went, whether and when an induction head formed, the
    best scores and the final state's."""
    return {"kind": "done", "settings": asdict(settings), "steps": state.step,
            "seconds": round(state.seconds, 3), "wall_s": round(wall_s, 3),
            # a run cut short by its time cap is not a result: "stopped" as a Stop is
            "stopped": state.stopped or state.timed_out, "timed_out": state.timed_out,
            "formed": formed is not None,
            "formed_at_step": None if formed is None else formed[0],
            "formed_at_s": None if formed is None else round(formed[1], 3),
            "best_induction": round(best["induction"], 3),
            "best_previous_token": round(best["previous_token"], 3),
            "final": {k: last[k] for k in ("loss_copy", "loss_fresh", "best_induction",
                                              "best_previous_token", "induction",
                                              "previous_token")},
            "chance_loss": round(math.log(settings.vocab - 1), 4)}


def run_lab(settings: LabSettings, on_event: Callable[[dict], None] | None = None,
            should_stop: Callable[[], bool] | None = None, out: Path | None = None,
            device: str | torch.device = "cpu", with_probe: bool = False) -> dict:
    """Train one Lab run (see the module docstring); returns the summary, also the last
    event given to ``on_event`` (``"kind": "done"``). ``out``: write ``model.safetensors``
    and ``summary.json`` there."""
    model = build(settings, device)
    task = settings.task()
    opt = torch.optim.AdamW(model.parameters(), lr=settings.lr, betas=(0.9, 0.98),
                            weight_decay=0.0)
    gen = torch.Generator().manual_seed(settings.seed)
    held = batch(task, HELD_OUT, torch.Generator().manual_seed(HELD_OUT_SEED))
    probe_tokens = probe(task) if with_probe else None
    emit = on_event or (lambda event: None)
    started = time.perf_counter()
    formed = None  # (step, seconds) of the first update with best induction >= FORMED
    best = {"induction": 0.0, "previous_token": 0.0}
    last = {}

    def update(kind: str, step: int, trained_s: float) -> dict:
        nonlocal formed, last
        event = {"kind": kind, "step": step, "seconds": round(trained_s, 3),
                 "wall_s": round(time.perf_counter() - started, 3),
                 **measure(model, held, probe_tokens)}
        best["induction"] = max(best["induction"], event["best_induction"])
        best["previous_token"] = max(best["previous_token"], event["best_previous_token"])
        if formed is None and event["best_induction"] >= FORMED:
            formed = (step, trained_s)
            event["formed_now"] = True
        event["formed_at_step"] = None if formed is None else formed[0]
        last = event
        return event

    next_update = 0.0  # (seconds of training) an event at the first step, then every update_s

    def after_step(state: LoopState) -> None:
        nonlocal next_update
        if state.seconds >= next_update:
            emit(update("update", state.step, state.seconds))
            next_update = state.seconds + settings.update_s

    emit(update("start", 0, 0.0))
    # constant learning rate, no clipping; the clock counts training only, not measuring
    state = run(model, opt, lambda _: batch(task, settings.batch, gen),
                lambda b: loss_on(model, b, device, settings.copy_loss_only), settings.max_steps,
                after_step=after_step, should_stop=should_stop,
                seconds=settings.seconds or math.inf)
    if last.get("step") != state.step:  # the final state, if the last update was earlier
        emit(update("update", state.step, state.seconds))
    summary = _summary(settings, state, formed, best, last, time.perf_counter() - started)
    if out is not None:
        out = Path(out)
        save_model(model, out / "model.safetensors",
                   extra_metadata={"lab_settings": settings.key()})
        (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    emit(summary)
    return summary


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    defaults = LabSettings()
    for f in fields(LabSettings):
        value = getattr(defaults, f.name)
        flag = "--" + f.name.replace("_", "-")
        if isinstance(value, bool):
            ap.add_argument(flag, action=argparse.BooleanOptionalAction, default=value)
        else:
            ap.add_argument(flag, type=type(value), default=value)
    ap.add_argument("--out", type=Path, help="write model.safetensors and summary.json here")
    ap.add_argument("--json", action="store_true", help="print every event as a JSON line")
    ap.add_argument("--probe", action="store_true", help="events carry the probe's patterns")
    ap.add_argument("--device", default="cpu")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    torch.set_num_threads(1)  # a model this size: two threads are 3-7x slower than one
    try:
        settings = replace(LabSettings(), **{f.name: getattr(args, f.name)
                                             for f in fields(LabSettings)})
    except ValueError as exc:
        print(f"lab: {exc}", file=sys.stderr)
        raise SystemExit(2) from None

    def show(event: dict) -> None:
        if args.json:
            print(json.dumps(event), flush=True)
        elif event["kind"] != "done":
            print(f"step {event['step']:5d}  {event['seconds']:6.1f} s  copy loss "
                  f"{event['loss_copy']:.3f}  fresh {event['loss_fresh']:.3f}  induction "
                  f"{event['best_induction']:.2f}  previous {event['best_previous_token']:.2f}"
                  + ("  <- an induction head formed" if event.get("formed_now") else ""),
                  flush=True)

    summary = run_lab(settings, show, out=args.out, device=args.device, with_probe=args.probe)
    if not args.json:
        print(("formed at step {formed_at_step} ({formed_at_s} s)" if summary["formed"]
               else "no induction head formed") .format(**summary)
              + f"; best induction {summary['best_induction']}, previous token "
                f"{summary['best_previous_token']}")
    return summary


if __name__ == "__main__":
    main()
