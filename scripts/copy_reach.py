"""How far back a model's copying reaches: the induction score and the copy gain on random
common words said twice, by the length of the list, and on held-out story text said twice.

    python -m scripts.copy_reach [NAME | RUN_DIR/NAME.safetensors ...]

The evaluation measures induction on 20 words said twice; a sentence a student types and
pastes twice is often longer, and is ordinary text. For each length ``n`` this draws 20
lists of ``n`` of the 500 commonest word tokens (seeded), says each twice, and prints the
best head's mean weight from each second-copy token on the token after its twin, and how
much lower the loss on the second copy is than on the first (nats per token). The story
rows do the same with the first ``n`` tokens of held-out stories.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from explorer.analysis.head_labels import copy_scores
from explorer.models.capture import run_with_cache
from explorer.models.checkpoint import load_model
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.training.data import load_corpus, split_stories
from explorer.training.head_scores import common_word_ids
from explorer.training.train import DEFAULT_CORPUS

LENGTHS = (8, 16, 24, 32, 40, 48, 60)
LISTS = 20


def said_twice(model, ids: list[int]) -> tuple[np.ndarray, float]:
    """([layer, head] weight on the copy target, as the page scores it; loss on the first
    copy minus loss on the second, nats per token)."""
    n = len(ids)
    logits, cache = run_with_cache(model, torch.tensor([ids + ids]), names="*hook_pattern")
    p = cache.stack("attn.hook_pattern")[:, 0].double().numpy()  # [layer, head, q, k]
    nll = -F.log_softmax(logits[0, :-1].double(), -1).gather(
        -1, torch.tensor(ids + ids)[1:, None])[:, 0].numpy()
    return copy_scores(p, n), float(nll[:n - 1].mean() - nll[n:].mean())


def reach(model, rows: list[list[int]]) -> tuple[float, str, float]:
    """(best head's mean score, its name, mean copy gain) over ``rows``."""
    scores, gains = zip(*(said_twice(model, r) for r in rows), strict=True)
    mean = np.mean(scores, 0)
    la, h = np.unravel_index(mean.argmax(), mean.shape)
    return float(mean[la, h]), f"L{la}H{h}", float(np.mean(gains))


def main(argv: list[str]) -> None:
    torch.set_num_threads(1)
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    stories, _ = load_corpus(DEFAULT_CORPUS)
    _, val = split_stories(stories, 0.02, 0)
    docs = [tok.encode(s) for s in val]
    words = common_word_ids(tok, np.concatenate(docs))
    rng = np.random.default_rng(0)
    lists = {n: [rng.choice(words, n, replace=False).tolist() for _ in range(LISTS)]
             for n in LENGTHS}
    for spec in argv or ["causal-h4-rotary"]:
        path = Path(spec) if spec.endswith(".safetensors") else CHECKPOINT_DIR / spec
        model = load_model(path.with_suffix(".safetensors"))
        print(f"{spec}")
        print("  length | words: best head, score, copy gain | story text: best head, score, gain")
        for n in LENGTHS:
            w = reach(model, lists[n])
            s = reach(model, [d[:n] for d in docs if len(d) >= n][:LISTS])
            print(f"  {n:6d} | {w[1]} {w[0]:.2f} {w[2]:+.2f} | {s[1]} {s[0]:.2f} {s[2]:+.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
