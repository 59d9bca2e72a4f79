"""Measure what each checkpoint learned: ``python -m explorer.training.evaluate [NAME ...]``.

Writes ``checkpoints/eval/NAME.json`` per model (no timings in it, so the same
weights give the same file):

* ``loss``: the card's val loss, the same number recomputed from the saved fp16
  weights on the trainer's own validation batches, and a smoothed bigram model
  (:mod:`explorer.training.baseline`) scored on exactly those batches' target tokens;
* ``previous_token``: per head, the mean attention on the previous token over
  32 validation windows of 64 tokens;
* ``induction``: on ``<|endoftext|>`` + 20 random common-word tokens + the same 20
  again, per head the mean attention from a second-copy token to the token after
  its earlier occurrence, plus the loss with and without a copy to read from;
  the same attention score on the project's repeated-name probes;
* ``agreement`` (next-word models): how often the right verb form (" was" /
  " were", " is" / " are") gets the higher log-probability after the prefix;
* ``pronoun`` (masked-word models): per head, how often "it" attends more to
  the noun it refers to than to the other noun; the head is chosen on one set
  of sentences and scored on another, so choosing the best of many heads does
  not inflate its score.

Every score also carries its chance level (a head attending uniformly to what it
can see), and ``emerged`` holds a plain yes/no against the thresholds below,
which are stored in the file too. ``--write-index`` regenerates the manifest and
``checkpoints/README.md`` (:mod:`explorer.training.zoo_index`).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import time
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from explorer.models.checkpoint import load_model, sha256_file
from explorer.models.config import ModelConfig
from explorer.models.tokenizer import SPECIAL_TOKENS, Tokenizer
from explorer.models.transformer import Transformer
from explorer.models.zoo import CHECKPOINT_DIR, NAME_RE
from explorer.training.baseline import Bigram, fit_bigram, masked_log_prob
from explorer.training.counting import find_subsequence, occurs_in, token_at, wilson
from explorer.training.data import IGNORE_INDEX, Dataset, build_dataset, random_batches
from explorer.training.head_scores import (
    LIST_N_EVAL,
    THRESHOLDS,
    _grid,
    _r,
    best_head,
    common_word_ids,
    induction_mask,
    induction_random,
    induction_scores,
    list_continuation,
    patterns_of,
    previous_token,
    switch_off_check,
    token_losses,
    uniform_patterns,
)
from explorer.training.probes import agreement_pairs, generate_kind, pronoun_pairs
from explorer.training.train import DEFAULT_CORPUS, TrainSettings, make_batch
from explorer.training.zoo_index import write_index

EVAL_DIR = CHECKPOINT_DIR / "eval"
VAL_SEED = 1234  # the trainer's validation batches use this generator seed (train.evaluate)
NAME_PROBES, NAME_SEED = 64, 13
AGREEMENT_N, AGREEMENT_SEED = 200, 123
PRONOUN_N, PRONOUN_SELECT_SEED, PRONOUN_REPORT_SEED = 200, 321, 322


# --- the measurements ------------------------------------------------------------------


def loss_vs_bigram(model: Transformer, tok: Tokenizer, s: TrainSettings, val: np.ndarray,
                   bigram: Bigram, n_batches: int) -> dict:
    """Model and bigram loss on the trainer's validation batches (same generator seed, same
    corruption for masked-word models), batch means averaged as ``train.evaluate`` does."""
    config = model.config
    gen = torch.Generator().manual_seed(VAL_SEED)
    batches = random_batches(val, s.batch_size, config.n_ctx, gen)
    table = unigram = None
    if not config.causal:
        table, unigram = bigram.log_table(), bigram.log_unigram()
    specials = torch.arange(len(SPECIAL_TOKENS))
    model_losses, bigram_losses, n_targets = [], [], 0
    for _ in range(n_batches):
        x, y = make_batch(batches, config, tok, gen, s, "cpu")  # [batch, n_ctx] each
        with torch.inference_mode():
            logits = model(x, fused=True)
        model_losses.append(F.cross_entropy(logits.flatten(0, 1), y.flatten(),
                                            ignore_index=IGNORE_INDEX).item())
        if config.causal:  # y is x moved one left: predict y[j] from x[j]
            bigram_losses.append(bigram.loss(x.numpy().ravel(), y.numpy().ravel()))
            n_targets += y.numel()
            continue
        b, j = (y != IGNORE_INDEX).nonzero(as_tuple=True)  # masked positions
        left = torch.where(j > 0, x[b, (j - 1).clamp(min=0)], -1)
        right = torch.where(j < x.shape[1] - 1, x[b, (j + 1).clamp(max=x.shape[1] - 1)], -1)
        # a <mask>/<pad> neighbour says nothing a bigram could use: leave it out
        left = torch.where(torch.isin(left, specials[1:]), -1, left)
        right = torch.where(torch.isin(right, specials[1:]), -1, right)
        logp = masked_log_prob(table, unigram, left, right, y[b, j])
        bigram_losses.append(float(-logp.mean()))
        n_targets += len(j)
    val_loss = float(np.mean(model_losses))
    bigram_loss = float(np.mean(bigram_losses))
    return {
        "val_loss_fp16": _r(val_loss),
        "bigram_val_loss": _r(bigram_loss),
        "gap_to_bigram": _r(bigram_loss - val_loss),
        "bigram_k": bigram.k,
        "bigram_kind": "next token from the current one" if config.causal
        else "masked token from both neighbours",
        "uniform_loss": _r(math.log(config.vocab_size)),
        "target_tokens": n_targets,
    }


def induction_names(model: Transformer, tok: Tokenizer) -> dict:
    """Induction attention (and, next-word models, loss) at later mentions of a probe
    story's name. The texts come from the same generator as training probes, so some may
    have been seen in training: the random-word test above is the clean one."""
    texts = generate_kind("name_repeat", NAME_PROBES, seed=NAME_SEED)
    cfg = model.config
    sums = np.zeros((cfg.n_layers, cfg.n_heads))
    chance_sum, n_queries = 0.0, 0
    first_losses, later_losses = [], []
    for text in texts:
        name = re.search(r"named (\w+)\.", text).group(1)
        ids = tok.encode(text)[: cfg.n_ctx]
        name_ids = tok.encode(" " + name)
        starts = find_subsequence(ids, name_ids)
        if len(starts) < 2:
            continue
        tokens = torch.tensor([ids])
        logits, patterns = patterns_of(model, tokens)
        queries = torch.zeros(tokens.shape, dtype=torch.bool)
        for s in starts[1:]:
            queries[0, s:s + len(name_ids)] = True
        targets = induction_mask(tokens)
        queries &= targets.any(-1)  # only places that have an earlier occurrence to follow
        k = int(queries.sum())
        sums += induction_scores(patterns, targets, queries) * k
        uniform = uniform_patterns(1, 1, 1, len(ids), cfg.causal)
        chance_sum += induction_scores(uniform, targets, queries)[0, 0] * k
        n_queries += k
        if cfg.causal:
            losses = token_losses(logits, tokens)[0]  # entry i predicts token i + 1
            for j, s in enumerate(starts):
                if s == 0:
                    continue
                name_loss = losses[s - 1:s - 1 + len(name_ids)].mean().item()
                (first_losses if j == 0 else later_losses).append(name_loss)
    scores = sums / max(1, n_queries)
    out = {"texts": len(texts), "query_tokens": n_queries, "scores": _grid(scores),
           "best": best_head(scores), "chance": _r(chance_sum / max(1, n_queries))}
    if cfg.causal and first_losses and later_losses:
        out["name_loss_first_mention"] = _r(np.mean(first_losses))
        out["name_loss_later_mentions"] = _r(np.mean(later_losses))
    return out


def continuation_logprobs(model: Transformer, tok: Tokenizer, prefix: str,
                          conts: list[str]) -> list[float]:
    """Summed log-probability of each continuation's tokens after ``prefix`` (next-word
    models). One forward pass over the prefix serves every one-token continuation."""
    p = tok.encode(prefix)
    with torch.inference_mode():
        last = F.log_softmax(model(torch.tensor([p]))[0, -1].double(), -1)  # [vocab]
    out = []
    for cont in conts:
        c = tok.encode(cont)
        if len(c) == 1:
            out.append(float(last[c[0]]))
            continue
        with torch.inference_mode():
            logp = F.log_softmax(model(torch.tensor([p + c]))[0].double(), -1)
        out.append(float(sum(logp[len(p) - 1 + i, t] for i, t in enumerate(c))))
    return out


def agreement(model: Transformer, tok: Tokenizer, train_bytes: bytes = b"") -> dict:
    """Share of mismatch sentences ("The dog that the boys liked ...") where the verb that
    agrees with the subject beats the one that agrees with the nearer noun.

    The training stream holds probe sentences from the same template, so some test
    prefixes were seen in training (followed by the right verb); ``train_bytes`` (the
    training stream as uint16 bytes) lets the accuracy on unseen prefixes be reported apart.
    """
    pairs = agreement_pairs(n=AGREEMENT_N, seed=AGREEMENT_SEED)
    correct, singular_wins, singular_right = 0, 0, 0
    unseen_n = unseen_correct = 0
    for pair in pairs:
        right, wrong = continuation_logprobs(model, tok, pair.prefix, [pair.correct, pair.wrong])
        correct += right > wrong
        right_is_singular = pair.correct in (" was", " is")
        singular_right += right_is_singular
        singular_wins += (right > wrong) == right_is_singular
        # without the sentence-initial "The" (mid-text it is a different token, " The")
        if train_bytes and not occurs_in(train_bytes, tok.encode(pair.prefix)[1:]):
            unseen_n += 1
            unseen_correct += right > wrong
    n = len(pairs)
    majority = max(singular_right, n - singular_right) / n
    lo, hi = wilson(int(correct), n)
    out = {"pairs": n, "seed": AGREEMENT_SEED, "accuracy": _r(correct / n), "ci95": [lo, hi],
           "majority_baseline": _r(majority), "prefers_singular_share": _r(singular_wins / n),
           "nearest_noun_baseline": 0.0,
           "emerged": bool(lo > max(0.5, majority))}
    if train_bytes:
        out["unseen_pairs"] = unseen_n
        out["accuracy_unseen"] = _r(unseen_correct / unseen_n) if unseen_n else None
        out["ci95_unseen"] = list(wilson(int(unseen_correct), unseen_n))
    return out


def _pronoun_attention(model: Transformer, tok: Tokenizer, seed: int,
                       train_bytes: bytes = b"") -> dict:
    """Per sentence and head: attention from "it" to the referent and to the other noun."""
    pairs = pronoun_pairs(PRONOUN_N, seed)
    to_ref, to_other, referent_is_animal, seen = [], [], [], []
    for pair in pairs:
        s = pair.sentence
        seen.append(bool(train_bytes) and occurs_in(train_bytes, tok.encode(s)[1:]))
        it = token_at(tok, s, pair.pronoun_span[0])
        # first mention of each noun (both come before "it"); its first token if it splits
        ref_at = re.search(rf"\b{re.escape(pair.referent)}\b", s).start()
        other_at = re.search(rf"\b{re.escape(pair.other)}\b", s).start()
        ids = torch.tensor([tok.encode(s)])
        _, patterns = patterns_of(model, ids)
        row = patterns[:, 0, :, it]  # [layer, head, key]
        to_ref.append(row[..., token_at(tok, s, ref_at)].numpy())
        to_other.append(row[..., token_at(tok, s, other_at)].numpy())
        # the animal is the sentence's subject ("The dog didn't ..."), the object comes later
        referent_is_animal.append(ref_at < other_at)
    return {"ref": np.stack(to_ref), "other": np.stack(to_other),  # [sentence, layer, head]
            "animal": np.asarray(referent_is_animal), "seen": np.asarray(seen)}


def pronoun(model: Transformer, tok: Tokenizer, train_bytes: bytes = b"") -> dict:
    select = _pronoun_attention(model, tok, PRONOUN_SELECT_SEED, train_bytes)
    report = _pronoun_attention(model, tok, PRONOUN_REPORT_SEED, train_bytes)
    wins_select = (select["ref"] > select["other"]).mean(0)  # [layer, head]
    wins = report["ref"] > report["other"]  # [sentence, layer, head]
    chosen = best_head(wins_select)
    li, hi_ = chosen["layer"], chosen["head"]
    w = wins[:, li, hi_]
    animal = report["animal"]
    n = len(w)
    lo, hi = wilson(int(w.sum()), n)
    share_animal_ref = float(w[animal].mean())  # "tired" kind: "it" is the animal
    share_object_ref = float(w[~animal].mean())  # "wide" kind: "it" is the object
    return {
        "sentences_select": n, "sentences_report": n,
        "seeds": [PRONOUN_SELECT_SEED, PRONOUN_REPORT_SEED],
        "referent_share": _grid(wins.mean(0)),  # per head, on the report sentences
        "best": {"layer": li, "head": hi_, "share_on_selection": chosen["score"],
                 "share": _r(w.mean()), "ci95": [lo, hi],
                 "share_when_referent_is_animal": _r(share_animal_ref),
                 "share_when_referent_is_object": _r(share_object_ref),
                 # how much more often it prefers the animal when the animal is meant: 0 means
                 # the head ignores which noun "it" refers to
                 "flip": _r(share_animal_ref + share_object_ref - 1),
                 "mean_weight_referent": _r(report["ref"][:, li, hi_].mean()),
                 "mean_weight_other": _r(report["other"][:, li, hi_].mean())},
        "chance": 0.5,
        # sentences of the report set that occur verbatim in the training stream
        "seen_in_training_share": _r(report["seen"].mean()) if train_bytes else None,
        "emerged": bool(lo > 0.5 and share_animal_ref > 0.5 and share_object_ref > 0.5),
    }


# --- one model, end to end -------------------------------------------------------------


@lru_cache(maxsize=2)
def _dataset_and_bigram(corpus: Path, tokenizer: Path, probe_share: float, val_share: float,
                        seed: int) -> tuple[Dataset, Bigram]:
    """The trainer's streams (from its on-disk cache) and the bigram fitted on ``train``;
    cached so evaluating several models in one process fits the bigram once."""
    tok = Tokenizer.load(tokenizer)
    ds = build_dataset(corpus, tok, probe_share=probe_share, val_share=val_share, seed=seed)
    return ds, fit_bigram(ds.train, tok.vocab_size)


def evaluate_model(name: str, directory: Path = CHECKPOINT_DIR,
                   corpus: Path = DEFAULT_CORPUS) -> dict:
    weights = directory / f"{name}.safetensors"
    card = json.loads((directory / f"{name}.json").read_text())
    weights_sha = sha256_file(weights)
    if card["weights_sha256"] != weights_sha:
        raise ValueError(f"{name}: card's weights_sha256 does not match {weights.name}")
    tokenizer = directory / "tokenizer.json"
    if sha256_file(tokenizer) != card["tokenizer_sha256"]:
        raise ValueError(f"{name}: trained with another tokenizer than {tokenizer}")
    model = load_model(weights, expected_sha256=weights_sha)
    if model.config != ModelConfig.from_dict(card["config"]):
        raise ValueError(f"{name}: card config differs from the weights' config")
    tok = Tokenizer.load(tokenizer)
    s = TrainSettings(**card["training"])
    ds, bigram = _dataset_and_bigram(Path(corpus), tokenizer, s.probe_share,
                                     card["dataset"]["val_share"], s.seed)
    if ds.meta.corpus_sha256 != card["corpus_sha256"]:
        raise ValueError(f"{name}: trained on another corpus than {corpus}")
    cfg = model.config
    words = common_word_ids(tok, ds.train)
    train_bytes = np.ascontiguousarray(ds.train, dtype=np.uint16).tobytes()
    result = {
        "name": name,
        "objective": card["objective"],
        "n_heads": cfg.n_heads,
        "pos_encoding": cfg.pos_encoding,
        "tokens_seen": card["tokens_seen"],
        "weights_sha256": weights_sha,
        "thresholds": THRESHOLDS,
        "loss": {"val_loss": card["val_loss"],
                 **loss_vs_bigram(model, tok, s, ds.val, bigram, s.eval_batches)},
        "previous_token": previous_token(model, ds.val),
        "next_token": None if cfg.causal else previous_token(model, ds.val, offset=+1),
        "induction": {"random_repeat": induction_random(model, tok, words),
                      "name_probes": induction_names(model, tok)},
        "agreement": agreement(model, tok, train_bytes) if cfg.causal else None,
        "list_continuation": lists_with_interval(model, tok) if cfg.causal else None,
        "pronoun": None if cfg.causal else pronoun(model, tok, train_bytes),
        "snapshots": emergence(name, card, directory, ds.val, words, tok),
    }
    if cfg.causal:  # does switching the best heads off break what they are named for?
        best = {"previous_token": result["previous_token"]["best"],
                "induction": result["induction"]["random_repeat"]["best"]}
        result["switched_off"] = switch_off_check(
            model, tok, words, {k: (v["layer"], v["head"]) for k, v in best.items()},
            n_lists=LIST_N_EVAL)
    return result


def lists_with_interval(model: Transformer, tok: Tokenizer) -> dict:
    """The list check on ``LIST_N_EVAL`` lists, each share with its 95 % interval."""
    out = list_continuation(model, tok, n=LIST_N_EVAL)
    for r in (out, out["comma"]):
        r["ci95"] = list(wilson(r["continued"], r["lists"]))
    return out


def emergence(name: str, card: dict, directory: Path, val: np.ndarray,
              words: np.ndarray, tok: Tokenizer) -> list[dict]:
    """Best previous-token and induction scores at each training snapshot (if any)."""
    rows = []
    for snap in card.get("snapshots", []):
        path = directory / "snapshots" / name / snap["file"]
        if not path.exists():
            continue
        model = load_model(path)
        ind = induction_random(model, tok, words)
        row = {"step": snap["step"], "tokens": snap["tokens"],
               "previous_token": previous_token(model, val)["best"],
               "induction": ind["best"], "copy_gain_nats": ind["copy_gain_nats"]}
        if model.config.causal:
            row["list_continuation"] = list_continuation(model, tok)["share"]
        rows.append(row)
    return rows


def write_eval(result: dict, eval_dir: Path = EVAL_DIR) -> Path:
    eval_dir.mkdir(parents=True, exist_ok=True)
    path = eval_dir / f"{result['name']}.json"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)
    return path


def summary_line(r: dict) -> str:
    loss, prev = r["loss"], r["previous_token"]["best"]
    ind = r["induction"]["random_repeat"]
    parts = [f"{r['name']}: val {loss['val_loss']:.3f} (bigram {loss['bigram_val_loss']:.3f})",
             f"prev-token L{prev['layer']}H{prev['head']} {prev['score']:.2f}",
             f"induction L{ind['best']['layer']}H{ind['best']['head']} {ind['best']['score']:.2f}"
             f" (copy loss {ind['loss_without_copy']:.2f} -> {ind['loss_with_copy']:.2f})"]
    if r.get("list_continuation"):
        lc = r["list_continuation"]
        parts.append(f"lists continued {lc['continued']}/{lc['lists']}")
    if r["agreement"]:
        parts.append(f"agreement {r['agreement']['accuracy']:.2f}")
    if r["pronoun"]:
        parts.append(f"pronoun L{r['pronoun']['best']['layer']}H{r['pronoun']['best']['head']} "
                     f"{r['pronoun']['best']['share']:.2f}")
    return "; ".join(parts)


def trained_names(directory: Path = CHECKPOINT_DIR) -> list[str]:
    """Checkpoints with both weights and a card."""
    return sorted(p.stem for p in directory.glob("*.safetensors")
                  if NAME_RE.match(p.stem) and p.with_suffix(".json").exists())


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("names", nargs="*", help="checkpoints to evaluate (default: all trained)")
    p.add_argument("--write-index", action="store_true",
                   help="regenerate checkpoints/manifest.json and checkpoints/README.md "
                        "(alone: without evaluating anything)")
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    names = args.names or ([] if args.write_index else trained_names())
    for name in names:
        t0 = time.perf_counter()
        result = evaluate_model(name, corpus=args.corpus)
        path = write_eval(result)
        print(f"{summary_line(result)}  [{time.perf_counter() - t0:.0f} s -> {path.name}]")
    if args.write_index:
        for path in write_index():
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
