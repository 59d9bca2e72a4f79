"""What a class will see: how often Explore names each clear head on held-out stories.

The evaluation (:mod:`explorer.training.evaluate`) scores a head *on average* over
held-out text; the page names a head *on one sentence*, only when it clears the
threshold there and switching it off does its job (:mod:`explorer.analysis.head_labels`).
A head whose average sits just over the bar is named on about half the sentences a
student types, and an induction head trained on repeated random spans may copy a list
well but a story sentence said twice hardly at all. This module measures that, with the
page's own code, so the page and the README can say it instead of letting a class find
out:

    python -m explorer.analysis.page_check [NAME ...]

For each model it takes the opening (first ``SENTENCES`` sentences) of the first
``OPENINGS`` held-out stories of that model's own training split, runs Explore's
analysis and labels on each under the trained settings, and counts, per clear head of
the model, the openings on which the page gives that head its name. Writes
``checkpoints/eval/NAME.page.json`` with the weights' sha256, so a retrained model's old
counts are not shown (:func:`explorer.models.zoo.read_eval` attaches it to the evaluation
as ``"on_the_page"``). Deterministic: the same weights give the same file.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from explorer.analysis.clear_heads import ClearHead, clear_heads
from explorer.analysis.head_labels import INDUCTION, label_heads
from explorer.analysis.run import analyse
from explorer.models.checkpoint import sha256_file
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer
from explorer.models.zoo import CHECKPOINT_DIR, PAGE_SUFFIX, Zoo, load_zoo
from explorer.training.data import load_corpus, split_stories
from explorer.training.train import DEFAULT_CORPUS

OPENINGS = 100  # held-out stories looked at
SENTENCES = 3  # sentences of each story's opening (~35 tokens: a sentence a student types)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def story_openings(stories: Sequence[str], n: int = OPENINGS,
                   sentences: int = SENTENCES) -> list[str]:
    """The first ``sentences`` sentences of each of the first ``n`` stories."""
    out = []
    for story in stories[:n]:
        parts = _SENTENCE_END.split(story.strip())
        out.append(" ".join(parts[:sentences]))
    return out


def held_out_openings(card: dict, corpus: Path = DEFAULT_CORPUS) -> list[str]:
    """Openings of the stories this model's trainer held out (its card's split)."""
    stories, _ = load_corpus(corpus)
    ds = card["dataset"]
    _, val = split_stories(stories, ds["val_share"], ds["seed"])
    return story_openings(val)


def page_counts(model: Transformer, tok: Tokenizer, texts: Sequence[str],
                heads: Sequence[ClearHead]) -> list[dict]:
    """Per clear head: on how many of ``texts`` the page names it, and its median score
    there (for induction: on the text said twice, as the page measures it)."""
    named = np.zeros(len(heads), dtype=int)
    scores: list[list[float]] = [[] for _ in heads]
    checked = 0
    for text in texts:
        result = analyse(model, tok, text, detail=False)
        if not result.ids:
            continue
        labels = label_heads(model, result.ids, result.patterns, mask_id=tok.mask_id)
        checked += 1
        for i, h in enumerate(heads):
            named[i] += labels.kind(h.layer, h.head) == h.kind
            kind_scores = labels.scores.get(h.kind)
            if kind_scores is not None:
                scores[i].append(float(kind_scores[h.layer, h.head]))
    return [{"layer": h.layer, "head": h.head, "kind": h.kind, "named": int(named[i]),
             "of": checked,
             "median_score": round(float(np.median(scores[i])), 4) if scores[i] else None,
             "measured_on": ("the opening said twice" if h.kind == INDUCTION
                             else "the opening")}
            for i, h in enumerate(heads)]


def measure(model: Transformer, tok: Tokenizer, card: dict, evaluation: dict,
            corpus: Path = DEFAULT_CORPUS) -> dict:
    """Counts for the clear heads of ``evaluation`` on the openings ``card`` held out."""
    texts = held_out_openings(card, corpus)
    return {"openings": len(texts), "sentences_each": SENTENCES,
            "heads": page_counts(model, tok, texts, clear_heads(evaluation))}


def check_model(name: str, zoo: Zoo, tok: Tokenizer, directory: Path = CHECKPOINT_DIR,
                corpus: Path = DEFAULT_CORPUS) -> dict:
    """The ``NAME.page.json`` dict of one evaluated model of ``zoo``."""
    model, evaluation = zoo.get(name), zoo.evals.get(name)
    if model is None or evaluation is None:
        raise SystemExit(f"{name}: needs its checkpoint and a current evaluation "
                         f"(python -m explorer.training.evaluate {name})")
    return {"name": name,
            "weights_sha256": sha256_file(directory / f"{name}.safetensors"),
            **measure(model, tok, zoo.cards[name], evaluation, corpus)}


def write_check(result: dict, directory: Path = CHECKPOINT_DIR) -> Path:
    path = directory / "eval" / f"{result['name']}{PAGE_SUFFIX}"
    path.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("names", nargs="*", help="models to check (default: every evaluated one)")
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    names = args.names or sorted(p.stem for p in (CHECKPOINT_DIR / "eval").glob("*.json")
                                 if not p.name.endswith(PAGE_SUFFIX)
                                 and p.stem.startswith(("causal-", "bidir-")))
    zoo = load_zoo(CHECKPOINT_DIR, allow_untrained=False)
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    for name in names:
        result = check_model(name, zoo, tok, corpus=args.corpus)
        write_check(result)
        counts = ", ".join(f"L{h['layer']}H{h['head']} {h['kind']} {h['named']}/{h['of']}"
                           for h in result["heads"]) or "no clear heads"
        print(f"{name}: {counts}")


if __name__ == "__main__":
    main()
