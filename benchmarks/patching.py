"""What one Patch update and the Ablate view's additions cost, on one CPU thread.

    python -m benchmarks.patching

A Patch update (issue 33's target: ≤ 1 s at 32 tokens on one core) is
:func:`explorer.views.patch.patch_view`: the clean and corrupted runs, 16 heads and
4 × 32 residual positions patched in batches, the logit lens, direct logit attribution,
the chosen cell patched, and the figures. Also timed: :func:`explorer.analysis.patching.patch`
alone, a lens click (:func:`explorer.views.patch.lens_detail`, one forward pass) and the
Ablate view's direct logit attribution (:func:`explorer.views.ablate.guess_attribution`).
Sentence pairs of exactly 23, 32 and 64 tokens (the issue's induction example, with
story text before it). Median of 7 calls after one warm-up. Results: benchmarks/README.md.
"""

from __future__ import annotations

import statistics
import time

import torch

from benchmarks.common import CORPUS, log
from explorer.analysis.patching import patch
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, load_zoo
from explorer.views.ablate import guess_attribution
from explorer.views.compare import run
from explorer.views.controls import Controls
from explorer.views.patch import EXAMPLE_CLEAN, EXAMPLE_CORRUPT, lens_detail, patch_view

SIZES = (23, 32, 64, 128)
REPEATS = 7


def median_ms(fn) -> float:
    fn()  # warm-up
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


LIST_END = 13  # the example's tokens up to "cup." (the list said once); the repeat follows


def pair(tok: Tokenizer, n: int, story_first: bool = True) -> tuple[str, str]:
    """The example pair (23 tokens, a word changed at position 9) with story tokens up to
    ``n`` tokens: before it (the usual case, the change near the end), or between the list
    and its repeat (the worst case: every position from the 10th on differs and is patched,
    and the repeat still copies, so the guess still turns on the change)."""
    story = tok.encode(" ".join(CORPUS))
    clean, corrupt = tok.encode(EXAMPLE_CLEAN), tok.encode(EXAMPLE_CORRUPT)
    fill = story[:max(0, n - len(clean))]
    if story_first:
        return tok.decode(fill + clean), tok.decode(fill + corrupt)
    return tuple(tok.decode(ids[:LIST_END] + fill + ids[LIST_END:]) for ids in (clean, corrupt))


def timings(zoo, tok: Tokenizer, controls: Controls, clean: str, corrupt: str) -> list[float]:
    """The four medians (ms) of one pair: Patch update, patching, lens click, attribution."""
    model = zoo.get(controls.checkpoint())
    ids_clean, ids_corrupt = tok.encode(clean), tok.encode(corrupt)
    shown = run(model, tok, clean, controls.settings())
    if not patch_view(zoo, tok, clean, corrupt, controls).heads:
        raise RuntimeError("no head heatmap: the pair patches nothing")
    return [
        median_ms(lambda: patch_view(zoo, tok, clean, corrupt, controls)),
        median_ms(lambda: patch(model, ids_clean, ids_corrupt, controls.settings())),
        median_ms(lambda: lens_detail(zoo, tok, clean, controls,
                                      f"lens 3 {len(ids_clean) - 1}")),
        median_ms(lambda: guess_attribution(model, tok, shown, controls.settings(), "light")),
    ]


def main() -> None:
    torch.set_num_threads(1)
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    zoo = load_zoo(CHECKPOINT_DIR, vocab_size=tok.vocab_size)
    controls = Controls()
    log(f"python -m benchmarks.patching  ({controls.checkpoint()}, 1 thread, median of "
        f"{REPEATS})")
    print("| tokens | Patch update | patching alone | lens click | Ablate's attribution |")
    print("|---:|---:|---:|---:|---:|")
    for n, story_first in [(n, True) for n in SIZES] + [(n, False) for n in SIZES[1:]]:
        clean, corrupt = pair(tok, n, story_first)
        ids_clean, ids_corrupt = tok.encode(clean), tok.encode(corrupt)
        if len(ids_clean) != n or len(ids_corrupt) != n:
            raise RuntimeError(f"the pair re-tokenised to {len(ids_clean)}/{len(ids_corrupt)} "
                               f"tokens, not {n}")
        cells = timings(zoo, tok, controls, clean, corrupt)
        where = "" if story_first else ", changed at the 10th"
        print(f"| {n}{where} | " + " | ".join(f"{ms:.0f} ms" for ms in cells) + " |", flush=True)


if __name__ == "__main__":
    main()
