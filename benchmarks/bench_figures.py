"""Time the figure builders and Gradio's serialisation (run by hand, not a test).

    python -m benchmarks.bench_figures            # from the repository root
    python -m benchmarks.bench_figures --runs 20 --sizes 8 32

For T in ``--sizes`` and a 4-layer x 4-head model, prints median and p95 wall
time (``time.perf_counter``) of: the ``make_subplots`` reference grid, the fast
grid, ``head_heatmap``, ``head_view``, ``predictions_bar``, and
``gr.Plot().postprocess`` of the fast grid (what Gradio does to every returned
figure: ``fig.to_json()``), plus the size of that JSON. The per-keystroke cost
of the grid is "fast grid + postprocess".
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from explorer.figures.attention import attention_grid, attention_grid_reference, head_heatmap
from explorer.figures.head_view import head_view
from explorer.figures.predictions import predictions_bar

N_LAYERS, N_HEADS = 4, 4


def causal_patterns(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = np.tril(rng.random(shape, dtype=np.float32) + 0.01)
    return (x / x.sum(-1, keepdims=True)).astype(np.float32)


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """(median, p95) in milliseconds after one warm-up call."""
    fn()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1e3)
    return float(np.median(samples)), float(np.percentile(samples, 95))


def serialiser() -> tuple[str, Callable[[object], str]]:
    try:
        import gradio as gr
    except ImportError:  # still useful without gradio: postprocess is fig.to_json()
        return "fig.to_json()", lambda fig: fig.to_json()
    plot = gr.Plot()
    return "gr.Plot().postprocess", lambda fig: plot.postprocess(fig).plot


def build_cases(n: int, runs: int, ref_runs: int, ser_name: str,
                serialise: Callable[[object], str]) -> tuple[object, dict]:
    """The fast grid for T=n and {name: (callable, runs)} to time."""
    p = causal_patterns((N_LAYERS, N_HEADS, n, n))
    tokens = [f" tok{i % 7}" for i in range(n)]
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(n, n)).astype(np.float32)
    mask = np.triu(np.ones((n, n), dtype=bool), 1)
    preds = [(f" w{i}", 0.5 / (i + 1)) for i in range(10)]
    grid = attention_grid(p, tokens)
    return grid, {
        "reference grid (make_subplots)": (lambda: attention_grid_reference(p, tokens),
                                           ref_runs),
        "fast grid": (lambda: attention_grid(p, tokens), runs),
        "head_heatmap": (lambda: head_heatmap(p[0, 0], tokens, scores=scores,
                                                scaled=scores / 4, mask=mask), runs),
        "head_view (4 heads)": (lambda: head_view(p[0], tokens), runs),
        "predictions_bar (k=10, compare)": (
            lambda: predictions_bar(preds, compare=preds[::-1]), runs),
        f"{ser_name} (fast grid)": (lambda: serialise(grid), runs),
        "fast grid + serialise": (lambda: serialise(attention_grid(p, tokens)), runs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--ref-runs", type=int, default=10, help="the reference is slow")
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 32, 64, 128])
    args = parser.parse_args()

    ser_name, serialise = serialiser()
    rows: dict[str, dict[int, str]] = {}
    sizes: dict[int, str] = {}
    for n in args.sizes:
        grid, cases = build_cases(n, args.runs, args.ref_runs, ser_name, serialise)
        for name, (fn, runs) in cases.items():
            med, p95 = timed(fn, runs)
            rows.setdefault(name, {})[n] = f"{med:7.2f} / {p95:7.2f}"
        sizes[n] = f"{len(serialise(grid).encode()) / 1024:8.1f} kB"
        print(f"T={n} done", flush=True)

    width = max(map(len, rows)) + 2
    head = "".join(f"{'T=' + str(n):>20}" for n in args.sizes)
    print(f"\n{N_LAYERS} layers x {N_HEADS} heads; ms median / p95 "
          f"({args.runs} runs, reference {args.ref_runs})")
    print(f"{'':<{width}}{head}")
    for name, cells in rows.items():
        print(f"{name:<{width}}" + "".join(f"{cells[n]:>20}" for n in args.sizes))
    print(f"{'grid JSON size':<{width}}" + "".join(f"{sizes[n]:>20}" for n in args.sizes))


if __name__ == "__main__":
    main()
