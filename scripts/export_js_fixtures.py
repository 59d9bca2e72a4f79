"""Write the fixtures of the browser engine's Node unit tests (tests/js/) from the Python side.

    python -m scripts.export_js_fixtures        (tests/test_js_fixtures.py checks they are current)

What Python says, for the JavaScript to match (tests/js/*.test.mjs):

* ``tokenizer_cases.json``: a few hundred varied strings (Unicode, spaces, punctuation, mask
  markers, special tokens, lone surrogates, cuts) through the real tokenizer
  (checkpoints/tokenizer.json, :mod:`explorer.models.tokenizer`): ids, pieces with offsets,
  decode, and :func:`explorer.analysis.run.prepare`'s facts for the hard ones.
* ``tiny_tokenizer.json`` and ``tiny/<name>.safetensors``: a byte-level BPE of ~300 tokens and
  six tiny seeded models (d_model 32, 2 layers, 1-8 heads, every positional encoding,
  causal and bidirectional) built by :mod:`explorer.models.transformer`, stored as the zoo
  stores its models (F16 safetensors, the config in the metadata), under zoo names.
* ``tiny_runs.json``: those models on short texts under the page's knobs, as
  ``analyse(..., detail=False)`` computes them (ids, tokens, patterns, guesses) and the
  logits at the guessed position, from the F16 weights read back as float32.
* ``tiny_losses.json``: :func:`explorer.analysis.losses.loss_spec` on lists of ids (every
  rule: too short, only masks, more than ``MAX_MASKED`` words), and the tiny models' loss
  (``spec_loss``, heads off included) and head ranking (:func:`explorer.views.ablate.
  rank_heads`) on short texts under the page's knobs, as the browser's engine.loss and
  engine.rank return them (static/engine/losses.js).
* ``tiny_detail.json``: every stage of one head (:func:`explorer.analysis.stages.head_stages`,
  what ``engine.run(text, {detail: true})`` returns) on each tiny model under the page's knobs
  (mask off, scaling none, temperature), and :func:`explorer.analysis.patching.patch` on
  pairs of texts (one under ``MIN_GAP``), with the Patch view's guesses for the head it
  patches (``engine.patch``, static/engine/patching.js).
* ``tiny_steps.json``: what the static edition's Start here computes besides: numpy's
  ``default_rng(seed).permutation(n)`` (static/engine/numpy_random.js), the shuffle test's
  word starts and word order (:mod:`explorer.analysis.positional_views`) on lists of pieces,
  :func:`~explorer.analysis.positional_views.shuffle_experiment` on the tiny models under
  the page's knobs (``engine.shuffle``), and :func:`explorer.views.ablate.ablate` with its
  guesses before -> after (:func:`explorer.views.compare.prediction_rows`, ``engine.ablate``).
* ``payload_cases.json``: :func:`explorer.views.grid_payload.grid_payload` of the tiny zoo
  for sentences and knobs that make every kind of caption, and the texts the browser reads
  (:func:`explorer.views.engine_texts.engine_texts`).

Numbers are rounded (6 decimals) so that the files do not change with the last
bit of a float32 sum; the tests compare within 1e-4. Everything is seeded: the same files
every time, under 1 MB in all.
"""

from __future__ import annotations

import json
import math
import random
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch
from tokenizers import pre_tokenizers, trainers

from explorer.analysis.losses import LossSpec, loss_spec, spec_loss
from explorer.analysis.patching import HEAD_HOOK, patch, patch_one
from explorer.analysis.positional_views import (
    shuffle_experiment,
    word_permutation,
    word_starts,
)
from explorer.analysis.run import MAX_CHARS, analyse, prepare
from explorer.analysis.stages import head_stages
from explorer.models.checkpoint import load_model, save_model
from explorer.models.config import ModelConfig
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import SPECIAL_TOKENS, Tokenizer, new_bpe
from explorer.models.transformer import Transformer
from explorer.models.zoo import Zoo
from explorer.paths import CHECKPOINTS
from explorer.views.ablate import ablate, rank_heads
from explorer.views.compare import prediction_rows
from explorer.views.controls import CONTROL_NAMES, parse_controls
from explorer.views.engine_texts import engine_texts
from explorer.views.grid_payload import grid_payload

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "js" / "fixtures"
N_CTX = 128  # the zoo's context, for prepare's cut
TINY_CTX = 12
# name -> (heads, positional encoding, causal, seed): every encoding, 1-8 heads, both kinds
TINY = {
    "causal-h2-none": (2, "none", True, 1),
    "causal-h4-sinusoidal": (4, "sinusoidal", True, 2),
    "causal-h1-learned": (1, "learned", True, 3),
    "causal-h4-rotary": (4, "rotary", True, 4),
    "causal-h8-alibi": (8, "alibi", True, 5),
    "bidir-h4-rotary": (4, "rotary", False, 6),
}
TINY_CORPUS = ["the cat sat on the mat. the dog ran to the park.",
               "a little girl had a red ball and she liked to play with it every day."]
# The engine's knobs (heads_off kept to each model's heads)
KNOBS = [
    {},
    {"causal": False},
    {"causal": True, "scale": "none"},
    {"scale": "d_model", "temperature": 2.0},
    {"temperature": 0.5, "heads_off": [[0, 0], [1, 3]]},
    {"causal": False, "scale": "none", "temperature": 0.5, "heads_off": [[1, 0]]},
]
TINY_TEXTS = ["the [mask] sat on", "hé 😀", "",
              "the cat sat on the mat. the dog ran to the park."]  # the last: past n_ctx
HARD = [
    "", " ", "   ", "\t", "\n", " \n ", "The cat sat.   ", "end with tab\t", "Lines\r\nand\n\n",
    "café naïve résumé Ångström", "日本語のテキスト", "中文 和 English", "👩\u200d👩\u200d👧",
    "a 👍🏽 🇫🇷!", "e\u0301 combining a\u0300\u0301", "שלום עולם", "مرحبا بالعالم",
    "abc \u202edef\u202c ghi", "lone \ud800 high", "lone \udfff low", "x\udbff\ud800y",
    "<|endoftext|>", "Once upon a time.<|endoftext|>The end", "The <mask> sat.", "<mask><mask>",
    "<pad> and <MASK>", "[MASK] is [mask] and [Mask]", "Fill ____ and ___ in __",
    "[ma\u017fk] and [mas\u212a] fold", "<mask", "1234567890", "3.14 and 1,000,000 and 42nd",
    "٣٤٥ ²³ ½ Ⅻ", "It's I'll we've they're I'm he'd don't", "IT'S 'S 'll ''",
    "!!!??? ... ,,, ;;; ---", "\"Quoted,\" she said -- (really?)", "bbb ccccc Eeeee llllll",
    "\ufeffBOM at start", "nel\u0085and\u00a0nbsp\u3000ideographic\u2028line",
    "\u200b\u200c\u200d zero widths", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛", "a" * 1200, "word " * 140,
    "x " * 130 + "end", "[mask] " * 140, "a" * 999 + "😀😀", "ok" + " " * 1100,
    "😀 " * 10 + "cat " * 77 + "[mask] the end",
]
FRAGMENTS = ["the", "The", " cat", "sat", "on", "mat", "Lily", "ran", "to", "park", " ", "  ",
             "\t", "\n", "\u00a0", "\u3000", ".", ",", "!", "?", "'s", "'ll", "\"", "-", "(",
             ")", "[mask]", "<mask>", "___", "<|endoftext|>", "123", "4.5", "é", "ñ", "ü",
             "日本", "中文", "😀", "👍🏽", "ж", "Ω", "\u0301", "שלום", "ab", "xyz", "  end"]


def _round(values, places: int = 8) -> list[float]:
    return [round(float(v), places) for v in values]


def _json(obj) -> bytes:
    """Compact UTF-8 JSON; a lone surrogate (no UTF-8 has one) written as its escape."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return (re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m[0]):04x}", text) + "\n").encode()


def tokenizer_strings() -> list[str]:
    """The hard cases, then 250 seeded mixes of fragments."""
    rng = random.Random(0)
    mixed = ["".join(rng.choice(FRAGMENTS) + rng.choice(["", " "])
                     for _ in range(rng.randrange(1, 12))) for _ in range(250)]
    return HARD + mixed


def prepare_facts(tok: Tokenizer, text: str, masked_word: bool) -> dict:
    """prepare's facts in the browser's shape (keptChars read from its notice)."""
    p = prepare(tok, text, N_CTX, masked_word)
    cut = [n for n in p.notices if n.startswith(f"The model reads at most {N_CTX} tokens")]
    kept = int(re.search(r"its first ([\d,]+) character", cut[0])[1].replace(",", "")) \
        if cut else None
    return {"ids": p.ids, "pieces": p.pieces, "cutTokens": bool(cut), "keptChars": kept,
            "cutChars": len(text) > MAX_CHARS, "text": text[:MAX_CHARS].rstrip(" ")[:kept]}


def tokenizer_cases(tok: Tokenizer) -> dict:
    cases = []
    for i, text in enumerate(tokenizer_strings()):
        ids = tok.encode(text)
        # each token's [start, end) in code points, flat; its piece is the cleaned text's
        # code points start..end (Tokenizer.token_pieces)
        case = {"text": text, "ids": ids, "decoded": tok.decode(ids),
                "spans": [x for *_, span in tok.token_pieces(text) for x in span]}
        if i < len(HARD):
            case["prepared"] = [prepare_facts(tok, text, m) for m in (False, True)]
        cases.append(case)
    return {"nCtx": N_CTX, "cases": cases}


def tiny_tokenizer() -> Tokenizer:
    inner, _ = new_bpe()
    trainer = trainers.BpeTrainer(vocab_size=320, special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    inner.train_from_iterator(TINY_CORPUS, trainer=trainer)
    return Tokenizer(inner)


def tiny_model_bytes(name: str, vocab_size: int) -> bytes:
    """A seeded tiny model as the zoo stores one: F16 safetensors, config in the metadata.
    torch's own init (larger than GPT-2's), so that the patterns are far from uniform."""
    heads, pos, causal, seed = TINY[name]
    config = ModelConfig(vocab_size=vocab_size, d_model=32, n_layers=2, n_heads=heads,
                         d_ff=64, n_ctx=TINY_CTX, pos_encoding=pos, causal=causal,
                         init="torch")
    torch.manual_seed(seed)
    with tempfile.TemporaryDirectory() as tmp:
        return save_model(Transformer(config), Path(tmp) / "m.safetensors",
                          dtype=torch.float16).read_bytes()


def read_back(data: bytes) -> Transformer:
    """The model the browser computes: the F16 weights as float32 (as the zoo loads them)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.safetensors"
        path.write_bytes(data)
        return load_model(path).eval()


def engine_run(model: Transformer, tok: Tokenizer, text: str, knobs: dict,
               with_logits: bool) -> dict:
    off = [[la, h] for la, h in knobs.get("heads_off", []) if h < model.config.n_heads]
    knobs = {**knobs, **({"heads_off": off} if "heads_off" in knobs else {})}
    settings = AttentionSettings(causal=knobs.get("causal"), scale=knobs.get("scale"),
                                 temperature=knobs.get("temperature", 1.0),
                                 head_mask=tuple(tuple(x) for x in off))
    a = analyse(model, tok, text, settings, detail=False)
    logits = None
    if with_logits and a.predict_at is not None:
        with torch.inference_mode():
            out = model(torch.tensor([a.ids]), settings,
                        logits_at=torch.tensor([a.predict_at]))
        logits = _round(out[0, 0].tolist(), 6)
    return {"text": text, "knobs": knobs, "ids": a.ids, "tokens": a.tokens,
            "patterns": _round(a.patterns.reshape(-1), 6), "predictAt": a.predict_at,
            "guesses": [[t, round(p, 6)] for t, p in a.predictions[:3]], "logits": logits}


def tiny_zoo(tok: Tokenizer) -> tuple[dict[str, bytes], Zoo]:
    files = {name: tiny_model_bytes(name, tok.vocab_size) for name in TINY}
    return files, Zoo(models={name: read_back(data) for name, data in files.items()})


def tiny_runs(zoo: Zoo, tok: Tokenizer) -> dict:
    runs = {}
    for i, (name, model) in enumerate(zoo.models.items()):
        runs[name] = [engine_run(model, tok, text, KNOBS[(i + j) % len(KNOBS)] if j % 2 else {},
                                 with_logits=j < 2) for j, text in enumerate(TINY_TEXTS)]
    return {"nCtx": TINY_CTX, "runs": runs}


# The loss's knobs: mask off, scaling none, heads off (kept to each model's heads)
LOSS_KNOBS = [
    {},
    {"heads_off": [[0, 1]]},
    {"causal": False, "heads_off": [[1, 0]]},
    {"causal": True, "scale": "none"},
    {"scale": "d_model", "temperature": 2.0, "heads_off": [[0, 0], [1, 3]]},
]
LOSS_TEXTS = ["the cat sat on the mat.", "the [mask] sat on the mat. the dog ran", "a", ""]


def _settings(knobs: dict, n_heads: int) -> tuple[dict, AttentionSettings]:
    """The knobs with heads_off kept to the model's heads, and Python's settings for them."""
    off = [[la, h] for la, h in knobs.get("heads_off", []) if h < n_heads]
    knobs = {**knobs, **({"heads_off": off} if "heads_off" in knobs else {})}
    return knobs, AttentionSettings(causal=knobs.get("causal"), scale=knobs.get("scale"),
                                    temperature=knobs.get("temperature", 1.0),
                                    head_mask=tuple(tuple(x) for x in off))


def spec_case(ids: list[int], causal: bool, mask_id: int) -> dict:
    spec = loss_spec(ids, causal, mask_id)
    if isinstance(spec, str):
        return {"ids": ids, "causal": causal, "reason": spec}
    return {"ids": ids, "causal": causal, "how": spec.how, "rows": spec.rows.tolist(),
            "cols": spec.cols.tolist(), "targets": spec.targets.tolist()}


def spec_cases() -> list[dict]:
    """loss_spec's rules on plain ids (mask id 2): every length the 16-word cut meets."""
    rng = random.Random(1)
    lists = [[], [7], [7, 8], [2], [2, 2, 2], [5, 2, 9, 2], *([rng.choice([2, 3, 4, 5, 6])
             for _ in range(n)] for n in (15, 16, 17, 18, 31, 33, 47, 64, 100, 128))]
    return [spec_case(ids, causal, 2) for ids in lists for causal in (True, False)]


def tiny_losses(zoo: Zoo, tok: Tokenizer) -> dict:
    losses, ranks = [], []
    for i, (name, model) in enumerate(zoo.models.items()):
        config = model.config
        for j, text in enumerate(LOSS_TEXTS):
            knobs, settings = _settings(LOSS_KNOBS[(i + j) % len(LOSS_KNOBS)],
                                        config.n_heads)
            ids = prepare(tok, text, config.n_ctx, not config.causal).ids
            spec = loss_spec(ids, config.causal, tok.mask_id)
            case = {"model": name, "text": text, "knobs": knobs}
            if not isinstance(spec, LossSpec):
                losses.append({**case, "loss": None, "positions": 0, "how": spec})
                continue
            losses.append({**case, "loss": round(spec_loss(model, spec, settings), 6),
                           "positions": spec.positions, "how": spec.how})
            if j == 1 or (j == 0 and i % 2):
                r = rank_heads(model, spec, settings)
                ranks.append({**case, "base": round(r.base, 6), "how": r.how,
                              "heads": [[x.layer, x.head, round(x.loss, 6), round(x.delta, 6)]
                                        for x in r.rows]})
    return {"specs": spec_cases(), "losses": losses, "ranks": ranks}


# (model, text, knobs with layer and head): each encoding, causal and bidirectional, mask
# off and on, scaling none, a temperature (with ALiBi), the head shown switched off
STAGE_CASES = [
    ("causal-h2-none", "the cat sat on", {"layer": 1, "head": 1}),
    ("causal-h4-sinusoidal", "the dog ran", {"layer": 0, "head": 3, "causal": False}),
    ("causal-h1-learned", "a red ball", {"layer": 1, "head": 0, "scale": "none"}),
    ("causal-h4-rotary", "the cat sat on", {"layer": 1, "head": 2, "temperature": 0.5,
                                            "heads_off": [[1, 2]]}),
    ("causal-h8-alibi", "the mat. the", {"layer": 1, "head": 5, "temperature": 2.0,
                                         "scale": "d_model"}),
    ("causal-h8-alibi", "the park", {"layer": 0, "head": 0, "causal": False}),
    ("bidir-h4-rotary", "the [mask] sat", {"layer": 0, "head": 1}),
    ("bidir-h4-rotary", "the dog", {"layer": 9, "head": -1, "causal": True, "scale": "none"}),
]
# (model, clean, corrupt, knobs, the head to patch or None: the best)
PATCH_CASES = [
    ("causal-h2-none", "the dog ran to the park", "the cat ran to the park", {}, None),
    ("causal-h2-none", "the cat sat on the", "the dog sat on the", {}, None),  # under MIN_GAP
    ("causal-h4-rotary", "the mat. the dog", "the mat. the cat", {}, [0, 1]),
    ("causal-h8-alibi", "every day the cat sat", "every day the dog sat", {}, None),
    ("causal-h1-learned", "the mat. the dog", "the mat. the cat",
     {"causal": False, "scale": "none"}, None),
    ("causal-h4-sinusoidal", "a little girl had a red", "a little girl had a ball",
     {"temperature": 2.0, "heads_off": [[1, 0]]}, None),
]


def _finite(values) -> list:
    """Rounded, -inf (the masked cells) written as null (JSON has no infinity)."""
    return [None if math.isinf(v) else round(float(v), 6) for v in values.reshape(-1)]


def stage_case(zoo: Zoo, tok: Tokenizer, name: str, text: str, raw: dict) -> dict:
    model = zoo.get(name)
    knobs, settings = _settings(raw, model.config.n_heads)
    r = head_stages(model, tok, text, settings, raw["layer"], raw["head"])
    stages = {}
    for key, st in r.stages.items():
        stages[key] = {"step": st.step, "title": st.title, "formula": st.formula,
                       "hook": st.hook, "captured": list(st.captured),
                       "capturedDims": list(st.captured_dims), "dims": list(st.dims),
                       "shape": list(st.shape), "shapeText": st.shape_text,
                       "square": st.square, "values": _finite(st.values),
                       "blocked": None if st.blocked is None else st.blocked.tolist(),
                       "headColumns": None if st.head_columns is None
                       else list(st.head_columns)}
    return {"model": name, "text": text, "knobs": knobs, "layer": r.layer, "head": r.head,
            "keys": list(r.stages), "stages": stages}


def patch_case(zoo: Zoo, tok: Tokenizer, name, clean, corrupt, raw, head) -> dict:
    model = zoo.get(name)
    knobs, settings = _settings(raw, model.config.n_heads)
    a, b = (prepare(tok, t, model.config.n_ctx, False).ids for t in (clean, corrupt))
    p = patch(model, a, b, settings)
    case = {"model": name, "clean": clean, "corrupt": corrupt, "knobs": knobs,
            "patchHead": head, "answer": p.answer, "wrong": p.wrong,
            "ld_clean": round(p.ld_clean, 6), "ld_corrupt": round(p.ld_corrupt, 6),
            "heads": None, "positions": None, "patched": None, "guesses": None}
    if p.heads is None:
        return case
    layer, index = head or [int(i) for i in np.unravel_index(int(np.argmax(p.heads)),
                                                               p.heads.shape)]
    probs = patch_one(model, b, p.clean, HEAD_HOOK, layer, index, settings)
    corrupt_probs = torch.softmax(torch.tensor(p.corrupt_logits), -1).numpy()
    return {**case, "heads": p.heads.round(6).tolist(), "positions": p.positions.round(6).tolist(),
            "patched": {"layer": layer, "head": index,
                        "ld": round(float(np.log(probs[p.answer]) - np.log(probs[p.wrong])), 6),
                        "guess": tok.decode([int(np.argmax(probs))])},
            "guesses": [[t, round(x, 6), round(y, 6)]
                        for t, x, y in prediction_rows(tok, corrupt_probs, probs)]}


def tiny_detail(zoo: Zoo, tok: Tokenizer) -> dict:
    return {"stages": [stage_case(zoo, tok, *case) for case in STAGE_CASES],
            "patches": [patch_case(zoo, tok, *case) for case in PATCH_CASES]}


# numpy's generator: (seed, the lengths of permutations drawn one after the other)
PERMUTATIONS = [(0, [2, 5, 7, 1, 30]), (1, [3, 3, 3, 3]), (7, [12, 100]),
                (2**32 + 5, [9]), (2**70 + 3, [16]), (123456789, [300])]
WORD_PIECES = [[], ["one"], ["The", " dog", " ran", "."], ["a", "b", " c", "\u3000d", "\xa0e"],
               ["x", "\u200bq", "\ufeffr", " s", "\x85t", "\x1cu", "\tv"],
               ["Mia", " made", " a", " list", ":", " spoon", " lamp", " sock", "."]]
# (model, text, knobs with layer and head, seed): each encoding, a masked-word model, one
# word, a head out of range (clamped), heads off and the mask knob on (the test ignores it)
SHUFFLE_CASES = [
    ("causal-h2-none", "the dog ran to the park", {"layer": 1, "head": 1}, 0),
    ("causal-h4-sinusoidal", "the cat sat on the mat.", {"layer": 0, "head": 2}, 0),
    ("causal-h1-learned", "a red ball and a cat", {"layer": 1, "head": 0, "scale": "none"}, 3),
    ("causal-h4-rotary", "the cat sat on the mat.", {"layer": 1, "head": 3, "causal": True,
                                                      "temperature": 2.0}, 0),
    ("causal-h8-alibi", "every day the cat sat", {"layer": 9, "head": 9}, 1),
    ("bidir-h4-rotary", "the [mask] sat on the mat", {"layer": 0, "head": 1}, 0),
    ("causal-h2-none", "cat", {"layer": 0, "head": 0}, 0),
    ("causal-h4-rotary", "the dog ran", {"layer": 0, "head": 0, "heads_off": [[0, 1]]}, 5),
]
# (model, text, knobs with heads_off): none off, one, several; a masked-word model with and
# without its [mask]; a sentence with no loss; a top guess that changes
ABLATE_CASES = [
    ("causal-h4-rotary", "the cat sat on the mat. the", {}),
    ("causal-h4-rotary", "the cat sat on the mat. the", {"heads_off": [[1, 2]]}),
    ("causal-h8-alibi", "the dog ran to the", {"heads_off": [[0, 0], [1, 5], [1, 7]],
                                               "temperature": 0.5}),
    ("causal-h2-none", "a", {"heads_off": [[0, 1]]}),
    ("causal-h1-learned", "she liked to play with", {"heads_off": [[1, 0]]}),  # a new guess
    ("bidir-h4-rotary", "the [mask] sat on the mat", {"heads_off": [[0, 2]]}),
    ("bidir-h4-rotary", "the cat sat", {"heads_off": [[1, 1]], "causal": True}),
]


def _square(values: np.ndarray | None):
    return None if values is None else values.round(6).tolist()


def shuffle_case(zoo: Zoo, tok: Tokenizer, name: str, text: str, raw: dict, seed: int) -> dict:
    model = zoo.get(name)
    knobs, settings = _settings(raw, model.config.n_heads)
    r = shuffle_experiment(model, tok, text, settings, raw["layer"], raw["head"], seed)
    return {"model": name, "text": text, "knobs": knobs, "seed": seed,
            "tokens": r.tokens, "shuffledTokens": r.shuffled_tokens,
            "perm": None if r.perm is None else r.perm.tolist(), "layer": r.layer,
            "head": r.head, "original": _square(r.original), "shuffled": _square(r.shuffled),
            "restored": _square(r.restored), "maxDiffHead": round(r.max_diff_head, 6),
            "maxDiffAll": round(r.max_diff_all, 6), "topChanged": r.top_changed}


def ablate_case(zoo: Zoo, tok: Tokenizer, name: str, text: str, raw: dict) -> dict:
    model = zoo.get(name)
    knobs, settings = _settings(raw, model.config.n_heads)
    a = ablate(model, tok, text, settings, [tuple(h) for h in knobs.get("heads_off", [])])
    rows = prediction_rows(tok, a.on.probs, a.off.probs) if a.on.probs is not None else []
    top = None
    if a.on.probs is not None:
        before, after = int(np.argmax(a.on.probs)), int(np.argmax(a.off.probs))
        top = {"was": tok.decode([before]), "wasOn": round(float(a.on.probs[before]), 6),
               "wasOff": round(float(a.off.probs[before]), 6), "now": tok.decode([after]),
               "nowOff": round(float(a.off.probs[after]), 6)}
    return {"model": name, "text": text, "knobs": knobs, "tokens": a.tokens,
            "predictAt": a.on.predict_at,
            "guesses": [[t, round(p, 6), round(q, 6)] for t, p, q in rows], "top": top,
            "lossOn": _maybe(a.loss_on), "lossOff": _maybe(a.loss_off), "how": a.loss_how}


def _maybe(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def tiny_steps(zoo: Zoo, tok: Tokenizer) -> dict:
    permutations = []
    for seed, lengths in PERMUTATIONS:
        rng = np.random.default_rng(seed)
        permutations.append({"seed": str(seed), "lengths": lengths,
                             "drawn": [rng.permutation(n).tolist() for n in lengths]})
    words = [{"pieces": p, "starts": word_starts(p),
              "orders": [None if (o := word_permutation(p, seed)) is None else o.tolist()
                         for seed in (0, 1, 2)]} for p in WORD_PIECES]
    return {"permutations": permutations, "words": words,
            "shuffles": [shuffle_case(zoo, tok, *case) for case in SHUFFLE_CASES],
            "ablations": [ablate_case(zoo, tok, *case) for case in ABLATE_CASES]}


def _controls(objective: str, heads: int, pos: str, mask="as trained", scaling="1/√d_head",
              temperature=1.0, layer=0, head=0, theme="light") -> dict:
    return dict(zip(CONTROL_NAMES, (objective, heads, pos, mask, scaling, temperature,
                                    layer, head, theme), strict=True))


def payload_cases(zoo: Zoo, tok: Tokenizer) -> dict:
    nxt, masked = "next word (causal)", "masked word (bidirectional)"
    cases = [
        ("the cat sat on the mat.", _controls(nxt, 4, "rotary", layer=1, head=2)),
        ("the cat sat.   ", _controls(nxt, 4, "rotary", "off", "none", 2.5, 3, 3, "dark")),
        ("tiny dog", _controls(nxt, 2, "none", "on", "1/√d_model", 9.0)),  # clipped
        ("the cat sat on the mat. the dog ran to the park.", _controls(nxt, 8, "alibi")),
        ("a" * 1200, _controls(nxt, 1, "learned")),  # cut to n_ctx tokens
        ("ok" + " " * 1100, _controls(nxt, 1, "learned")),  # cut to MAX_CHARS characters
        ("Café ж", _controls(nxt, 4, "sinusoidal")),  # unfamiliar letters, byte tokens
        ("the cat sat on the mat.", _controls(masked, 4, "rotary")),  # no mask
        ("the [mask] sat on ___.", _controls(masked, 4, "rotary", "on")),
        ("x\u200b\u0301 the", _controls(nxt, 2, "none")),
        ("   ", _controls(nxt, 4, "rotary")),  # the empty state
    ]
    out = []
    for text, controls in cases:
        p = grid_payload(zoo, tok, text, parse_controls(*controls.values()))
        out.append({"text": text, "controls": controls, "payload": p})
    return {"texts": engine_texts(), "cases": out}


def fixtures() -> dict[str, bytes]:
    """Every fixture file (path under tests/js/fixtures/ -> bytes), made in memory."""
    real = Tokenizer.load(CHECKPOINTS / "tokenizer.json")
    tiny = tiny_tokenizer()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the same sums in the same order, whatever the machine
    try:
        files, zoo = tiny_zoo(tiny)
        out = {"tokenizer_cases.json": _json(tokenizer_cases(real)),
               "tiny_tokenizer.json": (tiny.inner.to_str() + "\n").encode(),
               "tiny_runs.json": _json(tiny_runs(zoo, tiny)),
               "tiny_losses.json": _json(tiny_losses(zoo, tiny)),
               "tiny_detail.json": _json(tiny_detail(zoo, tiny)),
               "tiny_steps.json": _json(tiny_steps(zoo, tiny)),
               "payload_cases.json": _json(payload_cases(zoo, tiny))}
    finally:
        torch.set_num_threads(threads)
    out.update({f"tiny/{name}.safetensors": data for name, data in files.items()})
    return out


def main() -> int:
    made = fixtures()
    for name, data in made.items():
        (OUT / name).parent.mkdir(parents=True, exist_ok=True)
        (OUT / name).write_bytes(data)
    total = sum(map(len, made.values()))
    print(f"{len(made)} fixtures, {total / 1024:.0f} KiB, written into {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
