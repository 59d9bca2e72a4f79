"""Training speed on this machine: fp32 vs bf16 autocast, with and without torch.compile.

``python -m benchmarks.train_speed [--steps 60] [--threads 1]`` times optimizer steps of
the default model's size (d_model 128, 4 layers, 4 heads, rotary, context 128) on random
tokens, one configuration after another in one process, and prints the median tokens/s
of each and its ratio to fp32. Whether bf16 pays depends on the CPU: with AMX or fast
bf16 kernels it is faster; without them (seen here, on an AVX-512 Xeon with no AMX) it can
be slower, so the trainer's default is whatever this prints as fastest (``--precision``).
On 2026-11-24, on a 2-core AMD EPYC with AVX2 only (no AVX-512), with one training process
on the other core, ``python -m benchmarks.train_speed --steps 30`` printed fp32 2,624
tokens/s, bf16 0.12x, fp32 + compile 1.01x (inductor cannot fuse rotary's complex
multiply), bf16 + compile 0.12x: plain fp32 it is, at about 2.5k tokens/s per core there
(a 12M-token zoo model then takes ~80 minutes, against ~27 on the earlier machine).
On 2026-11-25, on a 2-core AMD EPYC *with* AVX-512 BF16, the other core idle, ``--steps
45`` printed fp32 9,402 tokens/s, bf16 1.42x, fp32 + compile 0.99x, bf16 + compile 1.46x:
there bf16 pays, but the zoo stays fp32 so that every model shares one recipe.
Run it with the other core idle, or with one training process on it, as you will train.
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks.common import ROOT  # noqa: F401  (puts the project on sys.path)


def time_steps(precision: str, compiled: bool, batch: int, steps: int) -> float:
    """Median tokens/s over ``steps`` optimizer steps after a third as many warm-up steps."""
    import torch

    from explorer.models.config import ModelConfig
    from explorer.models.transformer import Transformer
    from explorer.training.train import TrainSettings, autocast, loss_on, make_optimizer

    torch.manual_seed(0)
    cfg = ModelConfig(vocab_size=4096, d_model=128, n_layers=4, n_heads=4, d_ff=512,
                      n_ctx=128, pos_encoding="rotary")
    model = Transformer(cfg).train()
    s = TrainSettings(precision=precision, batch_size=batch)
    opt = make_optimizer(model, s)
    forward = torch.compile(model) if compiled else model
    gen = torch.Generator().manual_seed(0)
    x = torch.randint(0, 4096, (batch, 128), generator=gen)
    y = torch.randint(0, 4096, (batch, 128), generator=gen)
    times = []
    for i in range(steps + steps // 3):
        t0 = time.perf_counter()
        with autocast("cpu", s):
            loss = loss_on(forward, x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if i >= steps // 3:
            times.append(time.perf_counter() - t0)
    return batch * 128 / statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--no-compile", action="store_true", help="skip the compiled rows")
    args = p.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    rows = [("fp32", False), ("bf16", False)]
    if not args.no_compile:
        rows += [("fp32", True), ("bf16", True)]
    base = None
    print(f"batch {args.batch} x 128 tokens, {args.threads} thread(s), median of "
          f"{args.steps} steps")
    for precision, compiled in rows:
        speed = time_steps(precision, compiled, args.batch, args.steps)
        base = base or speed
        name = precision + (" + compile" if compiled else "")
        print(f"{name:<16} {speed:>9,.0f} tokens/s   {speed / base:.2f}x fp32", flush=True)


if __name__ == "__main__":
    main()
