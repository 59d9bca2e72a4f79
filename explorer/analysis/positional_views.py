"""Positional encodings as data to draw, and the word-shuffle experiment.

* :func:`encoding_view` -- what the selected model's encoding *is*, for its
  first ``n`` positions: the sinusoidal table and a few of its waves; the
  trained learned table; RoPE's rotation angle per (position, pair) and the
  unit vector of a pair turning with position; ALiBi's slopes and per-head bias
  matrices; for "none", nothing at all.
* the position-by-position comparison in the same view: cosine similarity of
  position vectors (absolute encodings); for rotary, the score q·k of one fixed
  vector placed at positions m and n, which depends only on the offset m − n;
  for ALiBi, the bias against distance.
* :func:`shuffle_experiment` -- shuffle the student's words, run the model on
  both orders with the causal mask OFF (``AttentionSettings(causal=False)``), put
  the shuffled attention back into the original order and compare. Without a
  positional encoding, attention is permutation-equivariant: the pattern simply
  moves with the words (difference ~1e-7). Any encoding breaks that.

Everything is numpy; no gradio, and no user text in any string built here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.analysis.run import prepare
from explorer.models.capture import run_with_cache
from explorer.models.config import ModelConfig
from explorer.models.positional import alibi_slopes, sinusoidal_table
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer

WAVE_PAIRS = (0, 2, 8, 32)  # sinusoidal: the pairs (2i, 2i+1) whose waves are drawn
MIN_POSITIONS = 32  # the intrinsic pictures show at least this many positions

KIND_NAMES = {
    "none": "no positional encoding",
    "sinusoidal": "sinusoidal (fixed formula, added to the embeddings)",
    "learned": "learned (a trained table, added to the embeddings)",
    "rotary": "rotary, RoPE (rotates q and k inside every head)",
    "alibi": "ALiBi (a distance penalty added to the scores)",
}


@dataclass
class EncodingView:
    kind: str
    n: int  # positions shown
    d_model: int
    d_head: int
    n_heads: int
    table: np.ndarray | None = None  # [n, d_model] added vectors (sinusoidal, learned)
    waves: dict[str, np.ndarray] = field(default_factory=dict)  # label -> [n] (sinusoidal)
    angles: np.ndarray | None = None  # [n, d_head/2] rotary angle in radians (not wrapped)
    thetas: np.ndarray | None = None  # [d_head/2] rotary angle per position, per pair
    slopes: np.ndarray | None = None  # [n_heads] ALiBi
    bias: np.ndarray | None = None  # [n_heads, n, n] ALiBi
    similarity: np.ndarray | None = None  # [n, n] cosine (absolute encodings)
    offset_score: dict[str, np.ndarray] = field(default_factory=dict)  # rotary: label -> [n]
    trained: bool = True  # False when the table is an untrained stand-in
    note: str = ""


def cosine_similarity(table: np.ndarray) -> np.ndarray:
    """[n, d] -> [n, n] cosine similarity of the rows (a zero row gives 0)."""
    t = np.asarray(table, dtype=np.float64)
    norms = np.linalg.norm(t, axis=1, keepdims=True)
    unit = np.divide(t, norms, out=np.zeros_like(t), where=norms > 0)
    return (unit @ unit.T).astype(np.float32)


def rotary_thetas(d_head: int, base: float) -> np.ndarray:
    """θᵢ = base^(−2i/d_head) for pairs i = 0..d_head/2−1 (as RotaryEncoding builds them)."""
    return (1.0 / base ** (np.arange(0, d_head, 2, dtype=np.float64) / d_head)).astype(
        np.float32)


def rotate_pairs(x: np.ndarray, positions: np.ndarray, thetas: np.ndarray) -> np.ndarray:
    """Rotate vector ``x`` [d] placed at each of ``positions`` -> [len(positions), d]."""
    angle = positions[:, None] * thetas[None, :]  # [n, d/2]
    cos, sin = np.cos(angle), np.sin(angle)
    even, odd = x[0::2], x[1::2]
    out = np.empty((len(positions), len(x)), dtype=np.float64)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return out


def rotary_offset_scores(d_head: int, base: float, n: int,
                         seed: int = 0) -> dict[str, np.ndarray]:
    """q·k of one fixed vector at query position m and key position 0..n−1, shown against
    the offset m − n (it depends on nothing else). Two vectors: all ones (the RoPE
    paper's decay curve) and a seeded random one."""
    thetas = rotary_thetas(d_head, base).astype(np.float64)
    offsets = np.arange(n, dtype=np.float64)
    out = {}
    vectors = {"q = k = all ones": np.ones(d_head),
               "q = k = a random vector": np.random.default_rng(seed).standard_normal(d_head)}
    for label, v in vectors.items():
        rotated = rotate_pairs(v, offsets, thetas)  # key at offset d, query at 0
        out[label] = (rotated @ v).astype(np.float32)  # q(0) · k(d) = q(m) · k(m + d)
    return out


def encoding_view(config: ModelConfig, model: Transformer | None, n_tokens: int = 0) -> \
        EncodingView:
    """The encoding of ``config`` for ``max(n_tokens, MIN_POSITIONS)`` positions (at most
    the context). ``model`` supplies trained values (the learned table); without it a
    learned table cannot be shown and the view says so."""
    n = int(min(config.n_ctx, max(n_tokens, MIN_POSITIONS)))
    kind = config.pos_encoding
    view = EncodingView(kind, n, config.d_model, config.d_head, config.n_heads)
    if kind == "sinusoidal":
        table = sinusoidal_table(n, config.d_model).numpy()
        view.table = table
        for i in WAVE_PAIRS:
            if 2 * i + 1 < config.d_model:
                rate = 1.0 / 10000 ** (2 * i / config.d_model)
                view.waves[f"dim {2 * i}: sin, {rate:.3g} rad per position"] = table[:, 2 * i]
        view.similarity = cosine_similarity(table)
    elif kind == "learned":
        if model is None:
            view.trained = False
            view.note = "This model is not trained yet, so there is no learned table to show."
        else:
            table = model.pos.W_pos.weight[:n].detach().float().cpu().numpy()
            view.table = np.ascontiguousarray(table)
            for d in range(4):
                view.waves[f"dim {d}"] = view.table[:, d]
            view.similarity = cosine_similarity(view.table)
    elif kind == "rotary":
        thetas = rotary_thetas(config.d_head, config.rotary_base)
        view.thetas = thetas
        view.angles = (np.arange(n, dtype=np.float32)[:, None] * thetas[None, :]).astype(
            np.float32)
        view.offset_score = rotary_offset_scores(config.d_head, config.rotary_base, n)
    elif kind == "alibi":
        slopes = alibi_slopes(config.n_heads).numpy().astype(np.float32)
        view.slopes = slopes
        pos = np.arange(n, dtype=np.float32)
        distance = np.abs(pos[:, None] - pos[None, :])
        view.bias = (-slopes[:, None, None] * distance[None]).astype(np.float32)
    else:
        view.note = ("This model adds no position information at all: attention alone "
                     "treats the sentence as a bag of tokens (only a causal mask reveals "
                     "order).")
    return view


# --------------------------------------------------------------------------- shuffle


def word_starts(pieces: list[str]) -> list[int]:
    """Indices of tokens that begin a word: the first token and any token that starts
    with whitespace (punctuation stays with the word before it)."""
    return [i for i, p in enumerate(pieces) if i == 0 or (p[:1].isspace())]


def word_permutation(pieces: list[str], seed: int) -> np.ndarray | None:
    """A token order that moves whole words: ``perm[j]`` = original position of the token
    now at position j. None when there is only one word (nothing to shuffle)."""
    starts = word_starts(pieces) + [len(pieces)]
    words = [list(range(a, b)) for a, b in zip(starts[:-1], starts[1:], strict=True)]
    if len(words) < 2:
        return None
    rng = np.random.default_rng(seed)
    for _ in range(50):  # a real shuffle: never hand back the original order
        order = rng.permutation(len(words))
        if not np.array_equal(order, np.arange(len(words))):
            break
    return np.array([i for w in order for i in words[w]], dtype=np.int64)


@dataclass
class ShuffleResult:
    tokens: list[str]  # original order
    shuffled_tokens: list[str]
    perm: np.ndarray | None  # shuffled position j holds original token perm[j]
    layer: int
    head: int
    original: np.ndarray | None = None  # [q, k] pattern of (layer, head), original order
    shuffled: np.ndarray | None = None  # [q, k] as the model saw the shuffled sentence
    restored: np.ndarray | None = None  # shuffled, rows and columns put back in the original order
    max_diff_head: float = 0.0  # max |original - restored| for this head
    max_diff_all: float = 0.0  # ... over every layer and head
    top_changed: int = 0  # positions whose top guess changed (compared at the same token)
    interventions: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()


def shuffle_from_ids(model: Transformer, ids: list[int], pieces: list[str],
                     settings: AttentionSettings | None = None, layer: int = 0,
                     head: int = 0, seed: int = 0) -> ShuffleResult:
    """Compare the model on the words in order and shuffled, mask OFF."""
    config = model.config
    layer, head = config.clamp(layer, head)
    settings = dataclasses.replace(settings or AttentionSettings(), causal=False)
    perm = word_permutation(pieces, seed) if ids else None
    result = ShuffleResult(list(pieces), list(pieces), perm, layer, head,
                           interventions=settings.resolve(config).interventions)
    if perm is None:
        return result
    result.shuffled_tokens = [pieces[i] for i in perm]
    original_ids = torch.tensor([list(ids)])
    shuffled_ids = original_ids[:, torch.from_numpy(perm)]
    both = torch.cat([original_ids, shuffled_ids])  # one batched forward pass
    logits, cache = run_with_cache(model, both, settings, names="*hook_pattern")
    patterns = cache.stack("attn.hook_pattern").numpy()  # [layer, batch, head, q, k]
    orig, shuf = patterns[:, 0], patterns[:, 1]  # [layer, head, q, k]
    inverse = np.argsort(perm)  # original position i sits at shuffled position inverse[i]
    restored = shuf[..., inverse, :][..., inverse]
    result.original = np.ascontiguousarray(orig[layer, head])
    result.shuffled = np.ascontiguousarray(shuf[layer, head])
    result.restored = np.ascontiguousarray(restored[layer, head])
    result.max_diff_head = float(np.abs(result.original - result.restored).max())
    result.max_diff_all = float(np.abs(orig - restored).max())
    top_orig = logits[0].argmax(-1).numpy()
    top_shuf = logits[1].argmax(-1).numpy()[inverse]
    result.top_changed = int((top_orig != top_shuf).sum())
    return result


def shuffle_experiment(model: Transformer, tok: Tokenizer, text: str,
                       settings: AttentionSettings | None = None, layer: int = 0,
                       head: int = 0, seed: int = 0) -> ShuffleResult:
    config = model.config
    prep = prepare(tok, text, config.n_ctx, masked_word=not config.causal)
    result = shuffle_from_ids(model, prep.ids, prep.pieces, settings, layer, head, seed)
    result.notices = prep.notices
    return result


def equivariance_gap(result: ShuffleResult) -> str:
    """A plain-words reading of the shuffle numbers (no user text)."""
    if result.perm is None:
        return "Type at least two words to shuffle."
    if result.max_diff_all < 1e-4:
        return ("The attention only moved with the words: put back in the original order it "
                "is the same (largest difference less than 0.0001: rounding). Without "
                "positions the model cannot tell the two orders apart.")
    return (f"The attention changed, not just moved (largest difference "
            f"{result.max_diff_all:.3f} over all heads): the positional encoding tells the "
            "model where each word is, so a new order means new attention.")


# ------------------------------------------------ the Lessons tab's lesson 6: side by side

ENCODINGS = ("none", "sinusoidal", "learned", "rotary", "alibi")


@dataclass
class EncodingPanel:
    kind: str
    picture: np.ndarray  # [n, m] what the encoding contributes
    picture_what: str  # what the axes of ``picture`` are
    compare: np.ndarray  # [n, n] position-vs-position
    compare_what: str
    trained: bool = True
    picture_range: tuple[float, float] | None = None  # None: symmetric around 0
    compare_range: tuple[float, float] | None = None


def encodings_side_by_side(n: int = 32, d_model: int = 64, n_heads: int = 4,
                           learned_table: np.ndarray | None = None,
                           base: float = 10000.0) -> list[EncodingPanel]:
    """One panel per kind for ``n`` positions. ``learned_table`` is a trained model's
    W_pos; without one, an untrained table (N(0, 0.02) like the model's init) is shown
    and marked as such."""
    n = int(min(max(n, 2), 128))
    panels = []
    zeros = np.zeros((n, d_model), dtype=np.float32)
    panels.append(EncodingPanel("none", zeros, "nothing is added: every position is 0",
                                np.zeros((n, n), np.float32), "all positions look alike"))
    sin = sinusoidal_table(n, d_model).numpy()
    panels.append(EncodingPanel("sinusoidal", sin, "position × dimension, added to X",
                                cosine_similarity(sin), "cosine similarity of positions"))
    trained = learned_table is not None
    if trained:
        learned = np.ascontiguousarray(np.asarray(learned_table, dtype=np.float32)[:n])
    else:
        learned = (np.random.default_rng(0).standard_normal((n, d_model)) * 0.02).astype(
            np.float32)
    panels.append(EncodingPanel("learned", learned,
                                "position × dimension, a trained table" if trained else
                                "position × dimension (UNTRAINED: random init)",
                                cosine_similarity(learned), "cosine similarity of positions",
                                trained=trained))
    d_head = d_model // n_heads
    thetas = rotary_thetas(d_head, base)
    angles = np.arange(n, dtype=np.float32)[:, None] * thetas[None, :]
    v = np.ones(d_head)
    rotated = rotate_pairs(v, np.arange(n, dtype=np.float64), thetas.astype(np.float64))
    panels.append(EncodingPanel("rotary", np.cos(angles).astype(np.float32),
                                "cos(angle) per position × pair: q, k are rotated",
                                (rotated @ rotated.T).astype(np.float32),
                                "q·k of one vector at two positions"))
    slopes = alibi_slopes(n_heads).numpy()
    pos = np.arange(n)
    distance = np.abs(pos[:, None] - pos[None, :])
    other = min(1, n_heads - 1)
    steep, flat = -slopes[0] * distance, -slopes[other] * distance
    peak = float(np.abs(steep).max()) or 1.0
    panels.append(EncodingPanel(
        "alibi", steep.astype(np.float32),
        f"head 0's bias −{slopes[0]:.3g}·|i − j|, added to its scores",
        flat.astype(np.float32),
        f"head {other}'s bias (slope {slopes[other]:.3g}): it can look further",
        picture_range=(-peak, peak), compare_range=(-peak, peak)))
    return panels
