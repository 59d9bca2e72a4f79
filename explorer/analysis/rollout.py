"""Attention rollout: how much of each input token reaches an output token, layer by layer.

One attention pattern says where a token looks *in one layer*. After a few layers a
token's representation is a mixture of mixtures, and the residual connection keeps
part of every token as it was. Rollout (Abnar & Zuidema 2020, "Quantifying
Attention Flow in Transformers") follows that mixing through the layers.

Notation (one sentence of ``T`` tokens): ``P_l`` is layer ``l``'s pattern
``[head, q, k]``, ``P̄_l = mean over heads of P_l`` (``[q, k]``, rows sum to 1),
``I`` the ``T x T`` identity.

Classic rollout (Abnar & Zuidema)::

    A_l = renormalise_rows(0.5 * P̄_l + 0.5 * I)
    R_0 = A_0,    R_l = A_l @ R_{l-1}

Residual-aware rollout (this module's variant): instead of the fixed 0.5/0.5 split,
each token ``i`` of each layer weighs "attention" against "residual" by how large
the two things added to the residual stream really are::

    alpha_l[i] = ‖attn_out_l[i]‖ / (‖attn_out_l[i]‖ + ‖resid_pre_l[i]‖)
    A_l[i, :]  = alpha_l[i] * P̄_l[i, :] + (1 - alpha_l[i]) * e_i

read from the hook points ``blocks.{l}.hook_attn_out`` (what the attention layer
adds) and ``blocks.{l}.hook_resid_pre`` (the stream it is added to), Euclidean
norms over ``d_model``. A layer that writes little compared with the stream moves
little information between tokens; with ``alpha = 0.5`` everywhere it is the
classic rollout. (The same idea as Kobayashi et al. 2021, "Attention is not only a
weight", reduced to one number per token and layer.)

In both, rows of ``A_l`` and therefore of ``R_l`` sum to 1: ``R_l[t, j]`` is the
share of output token ``t`` after layer ``l`` that comes from input token ``j``.
Caveats a student should hear: heads are averaged (no head is special), the MLPs
are ignored (they do not move information between tokens) and the value vectors
are ignored (a head that attends strongly may still write little); rollout is a
picture of attention flow, not a proof of what the model used.

No gradio here; every function is a pure function of numpy arrays except
:func:`rollout_for`, which runs one forward pass.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from explorer.analysis.run import prepare
from explorer.models.capture import run_with_cache
from explorer.models.settings import AttentionSettings, ResolvedSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer

METHODS = ("rollout", "residual")
METHOD_NAMES = {"rollout": "attention rollout (Abnar & Zuidema)",
                "residual": "residual-aware rollout"}


def _check_patterns(patterns: np.ndarray) -> np.ndarray:
    p = np.asarray(patterns, dtype=np.float64)
    if p.ndim != 4 or p.shape[-1] != p.shape[-2]:
        raise ValueError(f"patterns must be [layer, head, T, T], got shape {p.shape}")
    return p


def renormalise_rows(a: np.ndarray) -> np.ndarray:
    """Rows divided by their sum; a row that sums to 0 (attends nowhere) stays 0."""
    sums = a.sum(-1, keepdims=True)
    return np.divide(a, sums, out=np.zeros_like(a), where=sums > 0)


def mixing_matrices(patterns: np.ndarray, alpha: np.ndarray | float = 0.5) -> np.ndarray:
    """Per-layer ``A_l = renormalise(alpha * mean_heads(P_l) + (1 - alpha) * I)``.

    ``patterns``: ``[layer, head, T, T]``. ``alpha``: a scalar, or ``[layer, T]``
    (one weight per layer and query token). Returns ``[layer, T, T]`` float64.
    """
    p = _check_patterns(patterns)
    n_layers, _, n, _ = p.shape
    a = np.asarray(alpha, dtype=np.float64)
    if a.ndim == 0:
        a = np.full((n_layers, n), float(a))
    if a.shape != (n_layers, n):
        raise ValueError(f"alpha must be a scalar or [{n_layers}, {n}], got {a.shape}")
    if not np.all((a >= 0) & (a <= 1)):
        raise ValueError("alpha must lie in [0, 1]")
    mean = p.mean(1)  # [layer, q, k]
    eye = np.eye(n)[None]
    return renormalise_rows(a[..., None] * mean + (1.0 - a[..., None]) * eye)


def rollout(mixing: np.ndarray) -> np.ndarray:
    """Cumulative products ``R_l = A_l @ ... @ A_0`` for every layer: ``[layer, T, T]``."""
    m = np.asarray(mixing, dtype=np.float64)
    if m.ndim != 3 or m.shape[-1] != m.shape[-2]:
        raise ValueError(f"mixing must be [layer, T, T], got shape {m.shape}")
    out = np.empty_like(m)
    acc = np.eye(m.shape[-1])
    for layer in range(m.shape[0]):
        acc = m[layer] @ acc
        out[layer] = acc
    return out


def attention_rollout(patterns: np.ndarray) -> np.ndarray:
    """Classic rollout (Abnar & Zuidema 2020): ``[layer, T, T]``, rows sum to 1."""
    return rollout(mixing_matrices(patterns, 0.5))


def residual_alpha(resid_pre: np.ndarray, attn_out: np.ndarray) -> np.ndarray:
    """``alpha[l, i] = ‖attn_out[l, i]‖ / (‖attn_out[l, i]‖ + ‖resid_pre[l, i]‖)``.

    Both ``[layer, T, d_model]``. Where both norms are 0 the split is 0.5 (no
    evidence either way).
    """
    r = np.linalg.norm(np.asarray(resid_pre, dtype=np.float64), axis=-1)
    a = np.linalg.norm(np.asarray(attn_out, dtype=np.float64), axis=-1)
    if r.shape != a.shape:
        raise ValueError(f"resid_pre {r.shape} and attn_out {a.shape} differ")
    total = a + r
    return np.divide(a, total, out=np.full_like(total, 0.5), where=total > 0)


def residual_rollout(patterns: np.ndarray, resid_pre: np.ndarray,
                     attn_out: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Residual-aware rollout: (``[layer, T, T]`` rollout, ``[layer, T]`` alpha)."""
    alpha = residual_alpha(resid_pre, attn_out)
    return rollout(mixing_matrices(patterns, alpha)), alpha


@dataclass
class RolloutResult:
    tokens: list[str]  # the student's tokens, for labels only
    ids: list[int]
    patterns: np.ndarray  # [layer, head, T, T] float32
    classic: np.ndarray  # [layer, T, T] float64
    residual: np.ndarray  # [layer, T, T] float64
    alpha: np.ndarray  # [layer, T] share given to attention in the residual-aware variant
    resolved: ResolvedSettings
    notices: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.tokens

    def method(self, name: str) -> np.ndarray:
        if name not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {name!r}")
        return self.classic if name == "rollout" else self.residual

    def for_output(self, name: str, position: int) -> np.ndarray:
        """``[layer, T]``: row ``position`` of every layer's rollout."""
        return self.method(name)[:, clamp_position(position, len(self.tokens)), :]


def clamp_position(position, n_tokens: int) -> int:
    """An output-token position the UI may send, bounded to 0..T-1 (last when unreadable)."""
    if n_tokens <= 0:
        return 0
    try:
        value = int(position)
    except (TypeError, ValueError, OverflowError):
        return n_tokens - 1
    return min(max(value, 0), n_tokens - 1)


def rollout_for(model: Transformer, tok: Tokenizer, text: str,
                settings: AttentionSettings | None = None) -> RolloutResult:
    """One forward pass over the student's sentence; both rollouts of it."""
    config = model.config
    prep = prepare(tok, text, config.n_ctx, masked_word=not config.causal)
    settings = settings or AttentionSettings()
    resolved = settings.resolve(config)
    n_layers = config.n_layers
    if not prep.ids:
        z3 = np.zeros((n_layers, 0, 0))
        return RolloutResult([], [], np.zeros((n_layers, config.n_heads, 0, 0), np.float32),
                             z3, z3, np.zeros((n_layers, 0)), resolved, prep.notices)
    names = ["*hook_pattern", "blocks.*.hook_resid_pre", "blocks.*.hook_attn_out"]
    _, cache = run_with_cache(model, torch.tensor([prep.ids]), settings, names=names)
    patterns = cache.stack("attn.hook_pattern")[:, 0].numpy()
    resid_pre = cache.stack("hook_resid_pre")[:, 0].numpy()
    attn_out = cache.stack("hook_attn_out")[:, 0].numpy()
    residual, alpha = residual_rollout(patterns, resid_pre, attn_out)
    return RolloutResult(prep.pieces, prep.ids, patterns, attention_rollout(patterns),
                         residual, alpha, resolved, prep.notices)
