"""Which words a model fails to copy in the list check, and whether the repeated-span
recipe ever asked it to copy them.

The evaluation's list check (``explorer/training/head_scores.py``) asks 192 lists of eight
everyday words, said once and then again up to the sixth word: is the top guess the seventh?
This prints, for each everyday word that was the right answer, how often the model said
it, next to the word's frequency rank in the training stream and whether it is in the pool
the repeated spans are drawn from (``--repeat-top`` most frequent tokens; a card's own
``repeat_top`` is used when the checkpoint has a card).

``--frames`` instead compares frames: the same 96 lists (another seed than the
evaluation's) said in a few different sentences, bare or in a story.

Usage: python -m scripts.list_misses [CHECKPOINT.safetensors] [--top N] [--frames]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np
import torch

from explorer.models.checkpoint import load_model
from explorer.models.tokenizer import Tokenizer
from explorer.training import head_scores as hs
from explorer.training.data import build_dataset
from explorer.training.repeats import RepeatRecipe, span_pool
from explorer.training.train import DEFAULT_CORPUS
from explorer.training.zoo_plan import RECIPE_A_POOL

ROOT = Path(__file__).resolve().parents[1]
FRAMES = {  # the list, then its first six words again: is the top guess the seventh?
    "evaluation": hs.list_prompt,
    "bare": lambda w: " ".join(w) + ". " + " ".join(w[:6]),
    "Mia's list": lambda w: (f"Mia made a list: {' '.join(w)}. "
                             f"She read it again: {' '.join(w[:6])}"),
    "story": lambda w: (f"Tim had a box. In the box were {' '.join(w)}. "
                        f"He took them out one by one: {' '.join(w[:6])}"),
    "the list said": lambda w: f"The list said: {' '.join(w)}. The list said: "
                               f"{' '.join(w[:6])}",
}


def top_guess(model, tok: Tokenizer, text: str) -> int:
    with torch.inference_mode():
        return int(model(torch.tensor([tok.encode(text)]))[0, -1].argmax())


def compare_frames(model, tok: Tokenizer) -> None:
    lists = hs.everyday_lists(tok, n=96, seed=5)
    for name, frame in FRAMES.items():
        right = sum(top_guess(model, tok, frame(w)) == tok.encode(" " + w[hs.LIST_GIVEN])[0]
                    for w in lists)
        print(f"{name:>14}: {right}/{len(lists)} continued")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoint", nargs="?", type=Path,
                   default=ROOT / "checkpoints" / "causal-h4-rotary.safetensors")
    p.add_argument("--top", type=int, default=None,
                   help="span pool size (default: the card's repeat_top, else recipe A's 2000)")
    p.add_argument("--frames", action="store_true", help="compare list frames instead")
    args = p.parse_args()
    torch.set_num_threads(1)
    if args.frames:
        compare_frames(load_model(args.checkpoint).eval(),
                       Tokenizer.load(ROOT / "checkpoints" / "tokenizer.json"))
        return

    card_path = args.checkpoint.with_suffix(".json")
    card = json.loads(card_path.read_text()) if card_path.is_file() else {}
    top = args.top or card.get("training", {}).get("repeat_top") or RECIPE_A_POOL
    tok = Tokenizer.load(ROOT / "checkpoints" / "tokenizer.json")
    model = load_model(args.checkpoint).eval()
    stream = build_dataset(DEFAULT_CORPUS, tok).train
    pool = set(span_pool(stream, tok, RepeatRecipe(share=0.25, top_n=top)).tolist())
    counts = np.bincount(np.asarray(stream, np.int64), minlength=tok.vocab_size)
    rank = {int(t): r + 1 for r, t in enumerate(np.argsort(-counts, kind="stable"))}

    asked, right, wrong_guesses = Counter(), Counter(), Counter()
    for words in hs.everyday_lists(tok, n=hs.LIST_N_EVAL):
        guess = top_guess(model, tok, hs.list_prompt(words))
        target = words[hs.LIST_GIVEN]
        asked[target] += 1
        if guess == tok.encode(" " + target)[0]:
            right[target] += 1
        else:
            wrong_guesses[tok.decode([guess])] += 1

    rows = sorted(asked, key=lambda w: rank[tok.encode(" " + w)[0]])
    print(f"{args.checkpoint.name}: span pool = the {top} most frequent tokens")
    print(f"{'word':>10} {'rank':>5} {'in pool':>7} {'continued':>9}")
    totals = {True: [0, 0], False: [0, 0]}
    for w in rows:
        t = tok.encode(" " + w)[0]
        inside = t in pool
        totals[inside][0] += right[w]
        totals[inside][1] += asked[w]
        print(f"{w:>10} {rank[t]:>5} {'yes' if inside else 'no':>7} {right[w]:>4}/{asked[w]:<4}")
    for inside, (r, n) in totals.items():
        if n:
            print(f"seventh word {'in' if inside else 'not in'} the pool: {r}/{n} continued")
    print("wrong guesses:", ", ".join(f"{g!r} {c}" for g, c in wrong_guesses.most_common(10)))


if __name__ == "__main__":
    main()
