"""Any model's attention, as a notebook hands it over, read into what the grid draws.

:func:`read_attention` accepts an array-like ``[layers, heads, query, key]`` (numpy, a torch
tensor, nested lists), or a tuple/list with one entry per layer, each ``[batch, heads,
query, key]`` (what a transformers model returns with ``output_attentions=True``) or
``[heads, query, key]``. Tensors are read through ``.detach().cpu().float()`` when they have
those methods, so neither torch nor transformers is imported here.

Bad input gets a clear :class:`AttentionInputError` (wrong shapes, a token count that does
not match, NaN or infinite or negative weights), never a blank drawing; input that can be
drawn but is not what a softmax gives (rows not summing to 1), or is too large for a canvas
(cut to :data:`MAX_TOKENS` tokens and :data:`MAX_PANELS` heads), is drawn with a notice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

MAX_TOKENS = 128  # a panel of 128 tokens is already under 2 px a cell on a laptop
MAX_PANELS = 256  # layers x heads drawn at most (a 16 x 16 model); each is n x n bytes
ROW_TOLERANCE = 0.02  # |row sum - 1| above this on a non-empty row: not a softmax's output


class AttentionInputError(ValueError):
    """Attention or tokens that cannot be drawn, with a sentence saying why."""


def as_array(value: Any) -> np.ndarray:
    """A numpy float array from numpy, nested lists or a tensor of any library (through
    ``.detach()``, ``.cpu()`` and ``.float()`` when it has them: bf16 has no numpy type)."""
    for method in ("detach", "cpu", "float"):
        if hasattr(value, method) and not isinstance(value, np.ndarray):
            value = getattr(value, method)()
    try:
        return np.asarray(value, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise AttentionInputError(
            "The attention could not be read as numbers: pass an array [layers, heads, "
            "query, key] or the tuple of per-layer tensors a model returns.") from exc


def stack_layers(attention: Any, batch_index: int = 0) -> np.ndarray:
    """``[layers, heads, query, key]`` from an array or a per-layer tuple (see the module
    docstring); ``batch_index`` picks the sequence of a batch."""
    if isinstance(attention, tuple | list) and attention and not np.isscalar(attention[0]) \
            and np.ndim(as_array(attention[0])) in (3, 4):
        layers = [as_array(layer) for layer in attention]
        shapes = {layer.shape for layer in layers}
        if len(shapes) != 1:
            raise AttentionInputError(
                f"The layers have different shapes ({', '.join(map(str, sorted(shapes)))}): "
                "each layer must be [batch, heads, query, key] or [heads, query, key], the same "
                "for every layer.")
        (shape,) = shapes
        if len(shape) == 4:
            if not 0 <= batch_index < shape[0]:
                raise AttentionInputError(
                    f"batch_index={batch_index}, but the batch has {shape[0]} sequence(s).")
            layers = [layer[batch_index] for layer in layers]
        return np.stack(layers)
    array = as_array(attention)
    if array.ndim == 3:  # one layer
        return array[None]
    if array.ndim != 4:
        raise AttentionInputError(
            f"The attention has shape {tuple(array.shape)}; expected [layers, heads, query, "
            "key] (4 dimensions), [heads, query, key] for one layer, or a tuple of per-layer "
            "[batch, heads, query, key] tensors.")
    return array


def read_attention(attention: Any, tokens: Sequence[str],
                   batch_index: int = 0) -> tuple[np.ndarray, list[str], list[str]]:
    """``(patterns [L, H, n, n] float32 in 0..1, tokens, notices)`` ready for the grid, or
    :class:`AttentionInputError`. ``notices``: plain sentences on what was cut or odd."""
    patterns = stack_layers(attention, batch_index)
    n_layers, n_heads, n_query, n_key = patterns.shape
    if min(patterns.shape) == 0:
        raise AttentionInputError(f"The attention is empty (shape {tuple(patterns.shape)}).")
    if n_query != n_key:
        raise AttentionInputError(
            f"The attention is {n_query} queries x {n_key} keys; this view draws "
            "self-attention, where both are the same tokens (for cross-attention pass one "
            "square block).")
    if isinstance(tokens, str):
        raise AttentionInputError("tokens must be a list of strings, one per position, not "
                                  "one string.")
    tokens = [str(t) for t in tokens]
    if len(tokens) != n_key:
        raise AttentionInputError(
            f"There are {len(tokens)} tokens for attention over {n_key} positions: pass one "
            "token per position (the tokenizer's tokens, padding included).")
    if not np.isfinite(patterns).all():
        bad = int((~np.isfinite(patterns)).sum())
        raise AttentionInputError(f"The attention has {bad} NaN or infinite weight(s).")
    if (patterns < -1e-6).any():
        raise AttentionInputError(
            f"The attention has negative weights (down to {patterns.min():.3g}): pass the "
            "weights after the softmax, not the scores.")
    notices = []
    sums = patterns.sum(-1)
    off = np.abs(sums - 1) > ROW_TOLERANCE
    off &= sums > ROW_TOLERANCE  # an all-zero row is a padded position: nothing to say
    if off.any():
        notices.append(f"{int(off.sum())} of {sums.size} rows do not sum to 1 (from "
                       f"{sums[off].min():.3g} to {sums[off].max():.3g}): drawn as given, "
                       "weights above 1 as 1.")
    if n_key > MAX_TOKENS:
        notices.append(f"Showing the first {MAX_TOKENS} of {n_key} tokens.")
        patterns, tokens = patterns[:, :, :MAX_TOKENS, :MAX_TOKENS], tokens[:MAX_TOKENS]
    if n_layers * n_heads > MAX_PANELS:
        keep = max(1, MAX_PANELS // n_heads)
        heads = min(n_heads, MAX_PANELS)
        notices.append(f"Showing layers 0-{keep - 1} of {n_layers}"
                       + (f" and heads 0-{heads - 1} of {n_heads}" if heads < n_heads else "")
                       + f" (at most {MAX_PANELS} heads are drawn).")
        patterns = patterns[:keep, :heads]
    return np.clip(patterns, 0.0, 1.0), tokens, notices
