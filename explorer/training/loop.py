"""The one training loop: the three trainers (:mod:`.train`, :mod:`.train_classifier`,
:mod:`.train_seq2seq`) and the Lab (:mod:`.lab`) all step through :func:`run`.

nanoGPT-style plain code. One step is: set the learning rate (if a schedule is given), get
the batch, compute the loss, ``zero_grad``, ``backward``, clip the gradient norm (if asked),
``opt.step()``; then the smoothed loss goes to the progress line and ``after_step`` does
whatever the trainer does between steps (evaluate, track head scores, save a snapshot or
resume state, report to the Lab's page). The run ends after ``total`` steps, after
``seconds`` of stepping, or when ``should_stop()`` says so (checked before every step).

Each trainer supplies what is its own: ``get_batch(step)`` (the 0-based index of the step
about to run), ``loss_of(batch)`` (a scalar tensor; autocast, if any, inside it) and the
callbacks. The operations and their order are those each trainer had in its own copy of
this loop, so a seeded run gives bit-identical losses and weights
(``tests/training/test_loop.py`` checks that against a written-out reference loop).

Also here, because every trainer but the Lab uses them: the warm-up + cosine schedule
(:func:`lr_at`) and AdamW with weight decay on matrices only (:func:`make_optimizer`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from explorer.training.progress import Progress


@dataclass
class LoopState:
    """Where a run is, as ``after_step`` sees it (and :func:`run` returns it)."""

    step: int = 0  # steps done; also the 0-based index of the next step
    train_loss: float = math.nan  # smoothed: the first step seeds it, then 0.95 / 0.05
    loss: float = math.nan  # the last step's loss, unsmoothed
    seconds: float = 0.0  # time spent stepping (``after_step`` and its measuring not counted)
    stopped: bool = False  # ``should_stop()`` ended the run
    timed_out: bool = False  # ``seconds`` of stepping ended it before ``total``

    def record(self, value: float) -> None:
        self.loss = value
        self.train_loss = (value if math.isnan(self.train_loss)
                           else 0.95 * self.train_loss + 0.05 * value)


def lr_at(step: int, total: int, s: Any) -> float:
    """Linear warm-up over ``s.warmup_steps``, then cosine decay from ``s.lr`` to
    ``s.min_lr_ratio * s.lr`` at ``total``."""
    if step < s.warmup_steps:
        return s.lr * (step + 1) / s.warmup_steps
    progress = (step - s.warmup_steps) / max(1, total - s.warmup_steps)
    return s.lr * (s.min_lr_ratio + (1 - s.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * progress)))


def make_optimizer(model: torch.nn.Module, s: Any) -> torch.optim.AdamW:
    """AdamW at ``s.lr``, betas (0.9, 0.95); weight decay ``s.weight_decay`` on matrices
    only (not on norms, biases or other 1-D params)."""
    decay = [p for p in model.parameters() if p.dim() >= 2]
    rest = [p for p in model.parameters() if p.dim() < 2]
    return torch.optim.AdamW([{"params": decay, "weight_decay": s.weight_decay},
                              {"params": rest, "weight_decay": 0.0}], lr=s.lr, betas=(0.9, 0.95))


def run(model: torch.nn.Module, opt: torch.optim.Optimizer, get_batch: Callable[[int], Any],
        loss_of: Callable[[Any], torch.Tensor], total: int, *, start: int = 0,
        lr: Callable[[int], float] | None = None, grad_clip: float | None = None,
        progress: Progress | None = None, after_step: Callable[[LoopState], None] | None = None,
        should_stop: Callable[[], bool] | None = None, seconds: float = math.inf) -> LoopState:
    """Train ``model`` from step ``start`` (a resumed run) up to ``total`` steps.

    ``lr(step)``: the learning rate of the 0-based step, set on every param group before it
    (None: leave the optimizer's). ``grad_clip``: clip the global gradient norm to this
    (None: no clipping). ``progress.update(steps done, smoothed loss)`` after each step, then
    ``after_step(state)``. Stops at ``total``, at ``seconds`` of stepping, or when
    ``should_stop()`` (then ``state.stopped``; a run ``seconds`` cut short: ``state.timed_out``)."""
    state = LoopState(step=start)
    while state.step < total:
        if state.seconds >= seconds:
            state.timed_out = True
            break
        if should_stop is not None and should_stop():
            state.stopped = True
            break
        t0 = time.perf_counter()
        if lr is not None:
            for group in opt.param_groups:
                group["lr"] = lr(state.step)
        loss = loss_of(get_batch(state.step))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if grad_clip is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        opt.step()
        state.seconds += time.perf_counter() - t0
        state.step += 1
        state.record(loss.item())
        if progress is not None:
            progress.update(state.step, state.train_loss)
        if after_step is not None:
            after_step(state)
    return state
