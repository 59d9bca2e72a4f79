"""Train the encoder-decoder:
``python -m explorer.training.train --task seq2seq --name NAME [options]``.

The task and its data are :mod:`explorer.training.seq2seq_task` (reverse a list of words, all
generated, seeded). Teacher forcing with cross-entropy on the next target token; AdamW
with warm-up and cosine decay, in the loop all trainers share (:mod:`explorer.training.loop`);
CPU, one thread by default, deterministic for a seed. Writes, atomically:

- ``OUT/NAME.safetensors`` (fp16 weights + the config in the header),
- ``OUT/NAME.json``, the card: config, training settings, examples seen, train loss,
  held-out exact-match and token accuracy, wall time, tokenizer sha256, the command,
- ``OUT/eval/NAME.json``: the held-out accuracy the zoo index lists.

Held-out accuracy is measured by greedy decoding, step by step, on word lists the
training stream never produces (see ``seq2seq_data.is_held_out``).
"""

from __future__ import annotations

import argparse
import platform
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
import torch.nn.functional as F

from explorer.models.checkpoint import load_model, save_model, sha256_file
from explorer.models.config import ModelConfig
from explorer.models.encoder_decoder import EOS_ID, EncoderDecoder
from explorer.models.tokenizer import Tokenizer
from explorer.training import seq2seq_task as data
from explorer.training.cli import setup, task_parser, write_json
from explorer.training.loop import LoopState, lr_at, make_optimizer, run
from explorer.training.progress import Progress

EVAL_SEED = 20240  # the held-out lists every evaluation uses


@dataclass
class Seq2SeqSettings:
    steps: int = 1500
    batch_size: int = 64
    lr: float = 3e-3
    min_lr_ratio: float = 0.05
    warmup_steps: int = 100
    weight_decay: float = 0.01
    grad_clip: float = 1.0
    seed: int = 0
    eval_n: int = 1000  # held-out lists for the final accuracy


def loss_on(model: EncoderDecoder, b: data.Batch) -> torch.Tensor:
    logits = model(b.src, b.tgt_in, src_padding_mask=b.src_padding_mask,
                   tgt_padding_mask=b.tgt_padding_mask, fused=True)
    return F.cross_entropy(logits.flatten(0, 1), b.labels.flatten(),
                           ignore_index=data.IGNORE_INDEX)


@torch.no_grad()
def evaluate(model: EncoderDecoder, ids: dict[str, int], n: int,
             seed: int = EVAL_SEED, batch_size: int = 250) -> dict:
    """Greedy decoding on ``n`` held-out lists: exact match (the whole output, EOS
    included) and token accuracy (share of target positions, EOS included, right)."""
    was_training = model.training
    model.eval()
    lists = data.sample_lists(n, "held_out", seed)
    exact = right = total = 0
    for start in range(0, n, batch_size):
        b = data.make_batch(lists[start:start + batch_size], ids)
        out = model.generate(b.src, data.MAX_WORDS + 1, src_padding_mask=b.src_padding_mask)
        for i, labels in enumerate(b.labels):
            want = labels[labels != data.IGNORE_INDEX].tolist()  # target then EOS
            got = out[i].tolist()
            got = got[: got.index(EOS_ID) + 1] if EOS_ID in got else got
            exact += got == want
            right += sum(g == w for g, w in zip(got, want, strict=False))
            total += len(want)
    model.train(was_training)
    return {"exact_match": exact / n, "token_accuracy": right / total, "n": n}


def measure(model: EncoderDecoder, tok: Tokenizer, n: int) -> dict:
    """The eval file's number measured again (tests/models/test_checkpoints.py): greedy exact match
    on the same ``n`` held-out lists."""
    result = evaluate(model, data.word_ids(tok), n)
    return {"accuracy": result["exact_match"], **result}


def train(name: str, config: ModelConfig, s: Seq2SeqSettings, out: Path,
          tokenizer_path: Path, command: str = "", quiet: bool = False) -> dict:
    torch.manual_seed(s.seed)
    tok = Tokenizer.load(tokenizer_path)
    ids = data.word_ids(tok)
    model = EncoderDecoder(config).train()
    opt = make_optimizer(model, s)
    batches = data.train_batches(s.batch_size, s.seed, ids)
    progress = Progress(s.steps, s.batch_size, quiet=quiet, unit="lists")
    history = []

    def after_step(state: LoopState) -> None:
        if state.step % max(1, s.steps // 10) == 0:
            acc = evaluate(model, ids, 200)
            history.append({"step": state.step, "train_loss": round(state.train_loss, 4),
                            "held_out_exact_match_200": acc["exact_match"]})
            progress.note(f"step {state.step}: held-out exact match "
                          f"{acc['exact_match']:.1%} (200)")

    start = time.perf_counter()
    state = run(model, opt, lambda _: next(batches), lambda b: loss_on(model, b), s.steps,
                lr=lambda step: lr_at(step, s.steps, s), grad_clip=s.grad_clip,
                progress=progress, after_step=after_step)
    progress.close()
    wall = time.perf_counter() - start
    return finish(name, config, s, model, ids, out, tokenizer_path, command, {
        "train_loss": round(state.train_loss, 4), "history": history,
        "wall_time_s": round(wall, 1)})


def finish(name: str, config: ModelConfig, s: Seq2SeqSettings, model: EncoderDecoder,
           ids: dict[str, int], out: Path, tokenizer_path: Path, command: str,
           trained: dict) -> dict:
    """Save the fp16 weights, evaluate *them* (as they will be served), write the card
    (``trained``: what training adds: its loss, curve and time) and the eval file; the card."""
    weights = save_model(model, out / f"{name}.safetensors", dtype=torch.float16)
    acc = evaluate(load_model(weights), ids, s.eval_n)  # the fp16 file as it will be served
    card = {
        "name": name,
        "task": "seq2seq",
        "objective": f"{data.TASK} (encoder-decoder, greedy decoding)",
        "config": config.to_dict(),
        "training": asdict(s),
        "data": {"words": list(data.WORDS), "min_words": data.MIN_WORDS,
                 "max_words": data.MAX_WORDS, "held_out": f"1 list in {data.HELD_OUT_EVERY} "
                 "by a stable hash of its words, never trained on",
                 "eval_seed": EVAL_SEED},
        "examples_seen": s.steps * s.batch_size,
        "train_loss": trained["train_loss"],
        "held_out_exact_match": acc["exact_match"],
        "held_out_token_accuracy": round(acc["token_accuracy"], 4),
        "held_out_n": acc["n"],
        "history": trained["history"],
        "wall_time_s": trained["wall_time_s"],
        "threads": torch.get_num_threads(),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "tokenizer_sha256": sha256_file(tokenizer_path),
        "weights_sha256": sha256_file(weights),
        "command": command,
    }
    write_json(out / f"{name}.json", card)
    write_json(out / "eval" / f"{name}.json", {
        "task": "seq2seq", "metric": "accuracy", "accuracy": acc["exact_match"],
        "n": acc["n"], "token_accuracy": round(acc["token_accuracy"], 4),
        "weights_sha256": card["weights_sha256"],
        "what": f"Exact match of greedy decoding (every word and the end token right) on "
                f"{acc['n']} held-out lists of {data.MIN_WORDS}-{data.MAX_WORDS} words to "
                "reverse; token accuracy "
                f"{acc['token_accuracy']:.1%}."})
    return card


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The common options (:func:`explorer.training.cli.task_parser`; ``--layers``: encoder
    blocks) with the encoder-decoder's defaults, and its own: ``--dec-layers``, ``--norm``,
    ``--steps``, ``--eval-n``."""
    p = task_parser(__doc__.split("\n")[0], "seq2seq-h4-reverse",
                    positions=("learned", "sinusoidal"))
    p.set_defaults(layers=2, pos="learned", batch_size=Seq2SeqSettings.batch_size,
                   lr=Seq2SeqSettings.lr)
    p.add_argument("--dec-layers", type=int, default=2, help="decoder blocks")
    p.add_argument("--norm", default="pre", choices=["pre", "post"])
    p.add_argument("--steps", type=int, default=Seq2SeqSettings.steps)
    p.add_argument("--eval-n", type=int, default=Seq2SeqSettings.eval_n)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    """``argv`` is what follows ``--task seq2seq`` on ``python -m explorer.training.train``."""
    args, tok, command = setup(argv, parse_args, task="seq2seq")
    config = ModelConfig(vocab_size=tok.vocab_size, d_model=args.d_model, n_layers=args.layers,
                         n_dec_layers=args.dec_layers, n_heads=args.heads, d_ff=args.d_ff,
                         n_ctx=data.MAX_WORDS + 1, pos_encoding=args.pos, causal=True,
                         norm=args.norm, task="seq2seq")
    settings = Seq2SeqSettings(steps=args.steps, batch_size=args.batch_size, lr=args.lr,
                               seed=args.seed, eval_n=args.eval_n)
    card = train(args.name, config, settings, args.out, args.tokenizer, command=command,
                 quiet=args.quiet)
    print(f"{args.name}: held-out exact match {card['held_out_exact_match']:.1%} "
          f"(token accuracy {card['held_out_token_accuracy']:.1%}, n={card['held_out_n']}) "
          f"after {card['examples_seen']:,} lists in {card['wall_time_s']:.0f} s")
    return card
