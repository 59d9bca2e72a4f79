"""The Explore grid's weights as one small array: every head of every layer in one
``uint8`` mosaic of whole percents (:func:`mosaic`), which
:mod:`explorer.views.grid_payload` sends to the page's canvas (``static/live_grid.js``).

Panel (layer, head) is the block ``z[layer*T:(layer+1)*T, head*T:(head+1)*T]``
(:func:`panel`): rows are layers, columns heads, query on y, key on x, as in
:func:`explorer.figures.attention.attention_grid`. One byte a weight instead of four; the exact
weights are in the large single-head view and the exports.
"""

from __future__ import annotations

import numpy as np


def to_percent(patterns: np.ndarray) -> np.ndarray:
    """Weights 0..1 -> whole percent 0..100 as uint8 (rounded to nearest)."""
    return np.rint(np.clip(patterns, 0.0, 1.0) * 100).astype(np.uint8)


def mosaic(patterns: np.ndarray) -> np.ndarray:
    """``[n_layers, n_heads, T, T]`` -> ``[n_layers*T, n_heads*T]`` whole percent, uint8."""
    n_layers, n_heads, n, _ = patterns.shape
    return np.ascontiguousarray(
        to_percent(patterns).transpose(0, 2, 1, 3).reshape(n_layers * n, n_heads * n))


def panel(z: np.ndarray, n_tok: int, layer: int, head: int) -> np.ndarray:
    """Panel (layer, head) back out of a mosaic ``z`` (the inverse of :func:`mosaic`)."""
    return z[layer * n_tok:(layer + 1) * n_tok, head * n_tok:(head + 1) * n_tok]
