"""The computations behind the Lessons tab, in the order the reference notebooks teach.

1. :func:`self_attention` -- attention with no parameters: scores ``X Xᵀ``, a
   softmax along each row, ``Y = A X`` (the 5 × 3 example of notebook 002 is
   :data:`SEED_X`; ``A`` and ``Y`` reproduce its printed numbers).
2. :func:`scaling_curves`, :func:`scaling_example` -- why ``q·k`` is divided by
   √d_k: for unit-variance q and k the dot product has standard deviation
   √d_k, and without the division the softmax saturates as d_k grows.
3. :func:`multihead_compare` -- one wide projection cut into heads (notebooks
   000/003/004) equals separate small heads stacked (notebook 001's wrapper).
4. :func:`mask_example` -- causal and padding masks on the app's own model code.
5. :func:`block_orders` -- residual + LayerNorm + feed-forward, pre-LN vs
   post-LN, on the same weights and a tiny input.
6. :func:`~explorer.analysis.positional_views.encodings_side_by_side` -- the five
   positional encodings (with the other positional views).

Everything returns numpy arrays and plain numbers; no gradio, no user text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.models.capture import run_with_cache
from explorer.models.config import ModelConfig
from explorer.models.positional import NoPositionalEncoding
from explorer.models.settings import AttentionSettings
from explorer.models.transformer import Block, Transformer

# --------------------------------------------------------------------------- lesson 1

# Notebook 002's five tokens ("This is an example sentence"), three features each.
SEED_X = (
    (0.5341, 0.3316, 0.5995),
    (0.9891, 0.8921, 0.4602),
    (0.1234, 0.5678, 0.9101),
    (0.4567, 0.7890, 0.1234),
    (0.2345, 0.6789, 0.3456),
)
SEED_WORDS = ("This", "is", "an", "example", "sentence")
# What that notebook printed (4 decimals); tests/analysis/test_lessons.py checks we reproduce them.
SEED_A = (
    (0.1953, 0.2759, 0.2044, 0.1640, 0.1604),
    (0.1564, 0.3793, 0.1484, 0.1750, 0.1410),
    (0.1822, 0.2334, 0.2628, 0.1517, 0.1698),
    (0.1578, 0.2971, 0.1637, 0.2060, 0.1754),
    (0.1679, 0.2605, 0.1993, 0.1908, 0.1815),
)
SEED_Y = (
    (0.5150, 0.6652, 0.5058),
    (0.5899, 0.7082, 0.4736),
    (0.4698, 0.6529, 0.5333),
    (0.5335, 0.6919, 0.4664),
    (0.5016, 0.6750, 0.4882),
)
MAX_ROWS, MAX_COLS, MAX_ABS = 10, 6, 50.0  # bounds on what a student can type in


def softmax_rows(s: np.ndarray) -> np.ndarray:
    """Row softmax, stable (subtract each row's max; −∞ entries give exactly 0)."""
    s = np.asarray(s, dtype=np.float64)
    top = np.max(s, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(s - top)
    total = e.sum(axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def parse_matrix(value, default=SEED_X) -> tuple[np.ndarray, list[str]]:
    """An edited table (list of rows, numpy or pandas) -> a bounded float matrix.

    Blank or unreadable cells become 0, values are clipped to ±MAX_ABS, the size to
    MAX_ROWS × MAX_COLS; each problem is reported once in plain words."""
    notes: list[str] = []
    if value is None:
        return np.array(default, dtype=np.float64), notes
    if hasattr(value, "values") and not isinstance(value, dict):  # pandas DataFrame
        value = value.values.tolist()
    rows = [list(r) if isinstance(r, (list, tuple, np.ndarray)) else [r] for r in value]
    rows = [r for r in rows if len(r)]
    if not rows:
        return np.array(default, dtype=np.float64), ["The table was empty; using the example."]
    if len(rows) > MAX_ROWS:
        notes.append(f"Only the first {MAX_ROWS} rows are used.")
        rows = rows[:MAX_ROWS]
    width = min(max(len(r) for r in rows), MAX_COLS)
    out = np.zeros((len(rows), width))
    bad = False
    for i, r in enumerate(rows):
        for j, cell in enumerate(r[:width]):
            try:
                x = float(cell)
            except (TypeError, ValueError):
                x = 0.0
                bad = bad or (cell not in (None, ""))
            if not math.isfinite(x):
                x, bad = 0.0, True
            out[i, j] = x
    if bad:
        notes.append("Cells that are not numbers were read as 0.")
    if np.abs(out).max(initial=0) > MAX_ABS:
        notes.append(f"Values are limited to ±{MAX_ABS:g}.")
        out = np.clip(out, -MAX_ABS, MAX_ABS)
    return out, notes


@dataclass
class SelfAttention:
    X: np.ndarray  # [n, d]
    scores: np.ndarray  # A* = X Xᵀ [n, n]
    A: np.ndarray  # softmax rows [n, n]
    Y: np.ndarray  # A X [n, d]


def self_attention(X) -> SelfAttention:
    """Attention with no trainable parameters: each token is query, key and value."""
    X = np.asarray(X, dtype=np.float64)
    scores = X @ X.T
    A = softmax_rows(scores)
    return SelfAttention(X, scores, A, A @ X)


# --------------------------------------------------------------------------- lesson 2

D_VALUES = tuple(2 ** i for i in range(11))  # 1 .. 1024
N_KEYS = 16  # keys per query in the saturation experiment


@dataclass
class ScalingCurves:
    d: np.ndarray  # d_k values
    std_raw: np.ndarray  # measured std of q·k
    std_scaled: np.ndarray  # measured std of q·k / √d_k
    max_raw: np.ndarray  # mean largest softmax weight, unscaled
    max_scaled: np.ndarray
    entropy_raw: np.ndarray  # mean softmax entropy in bits, unscaled
    entropy_scaled: np.ndarray
    n_keys: int = N_KEYS


def _entropy_bits(p: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.where(p > 0, p * np.log2(p), 0.0).sum(-1)


def scaling_curves(d_values=D_VALUES, samples: int = 400, seed: int = 0) -> ScalingCurves:
    """For each d_k: ``samples`` queries against N_KEYS keys, all entries N(0, 1)."""
    rng = np.random.default_rng(seed)
    cols = {k: [] for k in ("sr", "ss", "mr", "ms", "er", "es")}
    for d in d_values:
        q = rng.standard_normal((samples, 1, d))
        k = rng.standard_normal((samples, N_KEYS, d))
        dots = (q * k).sum(-1)  # [samples, keys]
        scaled = dots / math.sqrt(d)
        p_raw, p_scaled = softmax_rows(dots), softmax_rows(scaled)
        cols["sr"].append(dots.std())
        cols["ss"].append(scaled.std())
        cols["mr"].append(p_raw.max(-1).mean())
        cols["ms"].append(p_scaled.max(-1).mean())
        cols["er"].append(_entropy_bits(p_raw).mean())
        cols["es"].append(_entropy_bits(p_scaled).mean())
    arr = {k: np.array(v, dtype=np.float32) for k, v in cols.items()}
    return ScalingCurves(np.array(d_values, dtype=np.float32), arr["sr"], arr["ss"], arr["mr"],
                         arr["ms"], arr["er"], arr["es"])


@dataclass
class ScalingExample:
    d_k: int
    dots: np.ndarray  # [N_KEYS] one query's raw q·k
    weights_raw: np.ndarray  # softmax(q·k)
    weights_scaled: np.ndarray  # softmax(q·k / √d_k)
    std_raw: float
    std_scaled: float


def scaling_example(d_k: int, seed: int = 0) -> ScalingExample:
    d_k = int(min(max(int(d_k), 1), 4096))
    rng = np.random.default_rng(seed + d_k)
    q = rng.standard_normal(d_k)
    k = rng.standard_normal((N_KEYS, d_k))
    dots = k @ q
    many = (rng.standard_normal((2000, d_k)) * rng.standard_normal((2000, d_k))).sum(-1)
    return ScalingExample(d_k, dots.astype(np.float32),
                          softmax_rows(dots).astype(np.float32),
                          softmax_rows(dots / math.sqrt(d_k)).astype(np.float32),
                          float(many.std()), float((many / math.sqrt(d_k)).std()))


# --------------------------------------------------------------------------- lesson 3

@dataclass
class MultiHeadCompare:
    n_heads: int
    d_model: int
    d_head: int
    scale_name: str  # "d_model" or "d_head"
    scale: float
    X: np.ndarray  # [T, d_model]
    wide: np.ndarray  # [T, d_model] concat of heads, computed by split-after-projection
    stacked: np.ndarray  # [T, d_model] concat of separately computed heads
    patterns: np.ndarray  # [heads, T, T]
    max_diff: float
    wide_shapes: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    stacked_shapes: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)


def multihead_compare(n_heads: int = 2, d_model: int = 8, n_tokens: int = 4,
                      scale_name: str = "d_model", causal: bool = False,
                      seed: int = 0) -> MultiHeadCompare:
    """Two ways to compute multi-head attention with the SAME weights, in float32.

    Wide: ``Q = X W_Qᵀ`` with one [d_model, d_model] matrix, ``.view(T, h, d_head)``,
    ``.transpose`` -> per-head attention -> transpose back and reshape.
    Stacked: head i has its own [d_head, d_model] matrices -- rows i·d_head..(i+1)·d_head
    of the wide ones -- runs single-head attention, and the outputs are concatenated.
    ``scale_name`` "d_model" divides by √d_model as the notebooks' multi-head code does
    (``dot / k ** 0.5``); "d_head" is the usual choice (Vaswani et al.)."""
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by {n_heads} heads")
    d_head = d_model // n_heads
    scale = 1.0 / math.sqrt(d_model if scale_name == "d_model" else d_head)
    gen = torch.Generator().manual_seed(seed)
    X = torch.randn(n_tokens, d_model, generator=gen)
    W_Q, W_K, W_V = (torch.randn(d_model, d_model, generator=gen) / math.sqrt(d_model)
                     for _ in range(3))
    mask = torch.ones(n_tokens, n_tokens, dtype=torch.bool).triu(1) if causal else None

    def attend(q, k, v):  # [..., T, d] -> ([..., T, d], pattern)
        s = (q @ k.transpose(-2, -1)) * scale
        if mask is not None:
            s = s.masked_fill(mask, float("-inf"))
        p = torch.softmax(s, dim=-1)
        return p @ v, p

    T, h = n_tokens, n_heads
    wide_shapes = [("X", (T, d_model))]
    q_all = X @ W_Q.T
    wide_shapes.append(("X · W_Qᵀ (one wide projection)", tuple(q_all.shape)))
    q = q_all.view(T, h, d_head)
    wide_shapes.append((".view(tokens, heads, d_head)", tuple(q.shape)))
    q = q.transpose(0, 1)
    wide_shapes.append((".transpose(0, 1)", tuple(q.shape)))
    k = (X @ W_K.T).view(T, h, d_head).transpose(0, 1)
    v = (X @ W_V.T).view(T, h, d_head).transpose(0, 1)
    z, patterns = attend(q, k, v)
    wide_shapes.append(("softmax(Q·Kᵀ × scale) · V", tuple(z.shape)))
    wide = z.transpose(0, 1).reshape(T, d_model)
    wide_shapes.append((".transpose(0, 1).reshape(tokens, d_model)", tuple(wide.shape)))

    stacked_shapes = [("X", (T, d_model))]
    outs = []
    for i in range(h):
        rows = slice(i * d_head, (i + 1) * d_head)
        qi, ki, vi = X @ W_Q[rows].T, X @ W_K[rows].T, X @ W_V[rows].T
        zi, _ = attend(qi, ki, vi)
        outs.append(zi)
        if i == 0:
            stacked_shapes.append((f"head i: X · W_Q,iᵀ  (W_Q,i is {d_head} × {d_model})",
                                   tuple(qi.shape)))
            stacked_shapes.append(("head i: softmax(q·kᵀ × scale) · v", tuple(zi.shape)))
    stacked = torch.cat(outs, dim=-1)
    stacked_shapes.append((f"torch.cat of the {h} heads, last axis", tuple(stacked.shape)))
    return MultiHeadCompare(
        n_heads=h, d_model=d_model, d_head=d_head, scale_name=scale_name, scale=scale,
        X=X.numpy(), wide=wide.numpy(), stacked=stacked.numpy(), patterns=patterns.numpy(),
        max_diff=float((wide - stacked).abs().max()), wide_shapes=wide_shapes,
        stacked_shapes=stacked_shapes)


# --------------------------------------------------------------------------- lesson 4

MASK_WORDS = ("The", "cat", "sat", "down", "today", "now")
PAD = "<pad>"


@dataclass
class MaskExample:
    tokens: list[str]
    causal: bool
    n_pad: int
    scores: np.ndarray  # [T, T] scaled scores before the mask
    masked: np.ndarray  # [T, T] with -inf where masked
    pattern: np.ndarray  # [T, T]
    causal_blocked: np.ndarray  # bool [T, T]
    pad_blocked: np.ndarray  # bool [T, T]


def mask_example(causal: bool = True, n_pad: int = 2, n_real: int = 4,
                 seed: int = 0) -> MaskExample:
    """A tiny seeded model from this app (explorer/models/transformer.py), one head, one layer: the
    scores, the −∞ cells and the softmax for a causal mask and/or padding keys.
    Padding is passed as ``key_padding_mask``; padding *keys* get exactly zero weight."""
    n_real = int(min(max(n_real, 1), len(MASK_WORDS)))
    n_pad = int(min(max(n_pad, 0), 4))
    T = n_real + n_pad
    torch.manual_seed(seed)
    config = ModelConfig(vocab_size=16, d_model=8, n_layers=1, n_heads=1, d_ff=16,
                         n_ctx=16, pos_encoding="none", causal=True)
    model = Transformer(config).eval()
    with torch.no_grad():  # spread the scores out so the softmax is not uniform
        model.blocks[0].attn.W_Q.weight.mul_(20)
        model.blocks[0].attn.W_K.weight.mul_(20)
    ids = torch.tensor([[3 + i for i in range(n_real)] + [1] * n_pad])  # 1 = <pad>
    pad = torch.zeros(1, T, dtype=torch.bool)
    pad[0, n_real:] = True
    _, cache = run_with_cache(model, ids, AttentionSettings(causal=bool(causal)),
                              names=["blocks.0.attn.hook_scaled", "blocks.0.attn.hook_masked",
                                     "blocks.0.attn.hook_pattern"],
                              key_padding_mask=pad if n_pad else None)
    causal_blocked = np.triu(np.ones((T, T), dtype=bool), 1) if causal else np.zeros((T, T),
                                                                                     bool)
    pad_blocked = np.zeros((T, T), dtype=bool)
    pad_blocked[:, n_real:] = True
    return MaskExample(
        tokens=list(MASK_WORDS[:n_real]) + [PAD] * n_pad, causal=bool(causal), n_pad=n_pad,
        scores=cache["blocks.0.attn.hook_scaled"][0, 0].numpy(),
        masked=cache["blocks.0.attn.hook_masked"][0, 0].numpy(),
        pattern=cache["blocks.0.attn.hook_pattern"][0, 0].numpy(),
        causal_blocked=causal_blocked, pad_blocked=pad_blocked)


# --------------------------------------------------------------------------- lesson 5

BLOCK_D, BLOCK_HEADS, BLOCK_TOKENS = 6, 2, 4
BLOCK_X = ((1.0, 0.5, -0.3, 2.0, 0.0, -1.0),
           (0.2, -1.5, 0.8, 0.1, 1.2, 0.4),
           (-0.7, 0.3, 1.1, -0.4, 0.9, 2.2),
           (1.4, 1.0, -1.2, 0.6, -0.5, 0.3))


@dataclass
class BlockOrders:
    X: np.ndarray
    pre: list[tuple[str, np.ndarray]]  # (step, [T, d]) in order, last = output
    post: list[tuple[str, np.ndarray]]
    # the step-by-step result equals explorer.models.transformer.Block's output
    pre_matches_model: bool
    post_matches_model: bool


def block_config(norm: str = "pre") -> ModelConfig:
    return ModelConfig(vocab_size=8, d_model=BLOCK_D, n_layers=1, n_heads=BLOCK_HEADS,
                       d_ff=4 * BLOCK_D, n_ctx=16, pos_encoding="none", causal=False, norm=norm)


def _block(norm: str, seed: int) -> Block:
    config = block_config(norm)
    torch.manual_seed(seed)
    block = Block(config).eval()
    with torch.no_grad():  # the GPT-2 init is tiny (std 0.02): use 1/√fan_in, so every
        for lin in (block.attn.W_Q, block.attn.W_K, block.attn.W_V, block.attn.W_O,
                    block.mlp.W_in, block.mlp.W_out):  # sub-layer's output is visible
            lin.weight.normal_(0.0, 1.0 / math.sqrt(lin.in_features))
    return block


def block_orders(X=BLOCK_X, seed: int = 0) -> BlockOrders:
    """The same weights in a pre-LN block (``x + f(LN(x))``, GPT-2 and this app's models)
    and a post-LN block (``LN(x + f(x))``, the 2017 paper and notebooks 000/001/003),
    step by step, each checked against explorer.models.transformer.Block itself."""
    X = np.asarray(X, dtype=np.float32)
    x = torch.from_numpy(np.ascontiguousarray(X))[None]  # [1, T, d]
    pre_block, post_block = _block("pre", seed), _block("post", seed)
    post_block.load_state_dict(pre_block.state_dict())
    config = block_config()
    pos = NoPositionalEncoding(config)
    rs = AttentionSettings(causal=False).resolve(config)

    def np_(t):
        return t[0].detach().numpy().copy()

    with torch.inference_mode():
        b = pre_block
        ln1 = b.ln1(x)
        attn = b.attn(ln1, pos, rs, 0)
        mid = x + attn
        ln2 = b.ln2(mid)
        ff = b.mlp(ln2)
        out = mid + ff
        pre = [("X (input)", np_(x)), ("LN₁(X)", np_(ln1)), ("attention(LN₁(X))", np_(attn)),
               ("X + attention  (residual)", np_(mid)), ("LN₂(·)", np_(ln2)),
               ("FFN(LN₂(·))", np_(ff)), ("output = · + FFN  (residual)", np_(out))]
        pre_ok = torch.allclose(out, b(x, pos, rs, 0), atol=1e-6)

        b = post_block
        attn = b.attn(x, pos, rs, 0)
        added = x + attn
        ln1 = b.ln1(added)
        ff = b.mlp(ln1)
        added2 = ln1 + ff
        out = b.ln2(added2)
        post = [("X (input)", np_(x)), ("attention(X)", np_(attn)),
                ("X + attention  (residual)", np_(added)), ("LN₁(·)", np_(ln1)),
                ("FFN(·)", np_(ff)), ("· + FFN  (residual)", np_(added2)),
                ("output = LN₂(·)", np_(out))]
        post_ok = torch.allclose(out, b(x, pos, rs, 0), atol=1e-6)
    return BlockOrders(X, pre, post, bool(pre_ok), bool(post_ok))


SWEEP_SCALES = tuple(float(v) for v in np.geomspace(0.1, 20, 13))


def output_std(orders: BlockOrders) -> tuple[float, float]:
    """Mean per-token standard deviation of the pre-LN and post-LN outputs."""
    return (float(row_stats(orders.pre[-1][1])[1].mean()),
            float(row_stats(orders.post[-1][1])[1].mean()))


def block_sweep(X=BLOCK_X, scales=SWEEP_SCALES, seed: int = 0) -> dict:
    """Output size of both orders as the input is multiplied by each of ``scales``."""
    X = np.asarray(X, dtype=np.float32)
    pre, post = [], []
    for k in scales:
        a, b = output_std(block_orders(X * k, seed))
        pre.append(a)
        post.append(b)
    return {"scale": np.array(scales, np.float32), "pre": np.array(pre, np.float32),
            "post": np.array(post, np.float32)}


def row_stats(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-token mean and standard deviation over the features (what LayerNorm resets)."""
    a = np.asarray(a, dtype=np.float64)
    return a.mean(-1), a.std(-1)
