"""The padding view of the encoder-decoder tab: two lists of different lengths in one batch.

A batch is a rectangle, so the shorter list is filled with ``<pad>`` up to the longer
one's length. The source padding mask removes those positions as keys in the encoder's
self-attention and in cross-attention (weight exactly 0), and so each list gives the same
numbers in the batch as alone. The decoder reads the correct reversed lists (teacher
forcing, as in training), so the batch and each list alone see exactly the same tokens.
No gradio here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import torch

from explorer.figures.matrices import matrix_figure
from explorer.figures.numbers import plain_number
from explorer.models.capture import run_with_cache
from explorer.models.device import model_device
from explorer.models.settings import AttentionSettings
from explorer.training import seq2seq_task as data

START, PAD = "⟨start⟩", "⟨pad⟩"  # how the special tokens are shown
PATTERNS = ["enc_blocks.*.attn.hook_pattern", "dec_blocks.*.cross_attn.hook_pattern"]


@dataclass
class Padded:
    """Two lists in one padded batch."""

    rows: list[list[str]]  # tokens per input, PAD where padded
    dec_tokens: list[list[str]]  # decoder input per input: START, the reversed list
    padding: np.ndarray  # [2, src] bool, True at padding
    enc: np.ndarray  # [2, layer, head, src, src]
    cross: np.ndarray  # [2, layer, head, tgt, src]
    pad_weight: float  # largest weight any head of any layer puts on a padding position
    max_diff: float  # largest |logit difference| between the batch and each input alone


def padded_batch(model, ids: dict[str, int], lists: list[list[str]],
                 settings: AttentionSettings) -> Padded:
    b = data.make_batch(lists, ids)
    logits, cache = run_with_cache(model, b.src, settings, names=PATTERNS, tgt=b.tgt_in,
                                   src_padding_mask=b.src_padding_mask,
                                   tgt_padding_mask=b.tgt_padding_mask)
    diffs = []
    device = model_device(model)  # run_with_cache moves its inputs; a direct call must too
    with torch.inference_mode():
        for i, words in enumerate(lists):  # the same list alone: no padding anywhere
            n = len(words)
            alone = model(b.src[i:i + 1, :n].to(device), b.tgt_in[i:i + 1, :n + 1].to(device),
                          settings).float().cpu()
            diffs.append(float((logits[i, :n + 1] - alone[0]).abs().max()))
    enc = cache.stack("attn.hook_pattern", "enc_blocks.").transpose(0, 1).numpy()
    cross = cache.stack("cross_attn.hook_pattern", "dec_blocks.").transpose(0, 1).numpy()
    pad = b.src_padding_mask.numpy()
    on_pad = max(float(a[i][..., pad[i]].max(initial=0.0)) for a in (enc, cross)
                 for i in range(len(lists)))
    rows = [[*w, *[PAD] * (pad.shape[1] - len(w))] for w in lists]
    dec = [[START, *data.target_of(w)] for w in lists]
    return Padded(rows, dec, pad, enc, cross, on_pad, max(diffs))


def padding_figures(p: Padded, layer: int, head: int,
                    theme: str = "light") -> tuple[go.Figure, go.Figure]:
    """One head of the padded list: encoder self-attention and cross-attention, the
    padding columns grey (weight 0). ``layer`` indexes both stacks (clamped by caller)."""
    short = int(p.padding.sum(1).argmax())  # the list that was padded
    pad = p.padding[short]
    cols = p.rows[short]
    n_real = int((~pad).sum())
    enc = p.enc[short, layer, head]  # [src, src]
    cross = p.cross[short, layer, head][: n_real + 1]  # its real output positions x src
    kw = dict(colors="weights", cell_text=".2f", blocked_text="0",
              value_name="weight", col_tokens=cols, col_title="source position",
              theme=theme)
    e = matrix_figure(enc, blocked=np.broadcast_to(pad[None], enc.shape), row_tokens=cols,
                      row_title="query", **kw,
                      title=f"Encoder self-attention, layer {layer} head {head}",
                      subtitle="List B in the batch: the padding columns are grey, their "
                               "weight is exactly 0.")
    c = matrix_figure(cross, blocked=np.broadcast_to(pad[None], cross.shape),
                      row_tokens=p.dec_tokens[short], row_title="output position", **kw,
                      title=f"Cross-attention, layer {layer} head {head}",
                      subtitle="The same source padding mask: no output position reads a "
                               "padding position.")
    return e, c


def padding_note(p: Padded) -> str:
    """What the numbers say (Markdown, our own text only)."""
    return (f"Largest weight any head, in any layer, of the encoder or the cross-attention "
            f"puts on a padding position: **{p.pad_weight:g}**. Each list gives the same "
            f"numbers in the batch as alone (largest difference in the output scores: "
            f"{plain_number(p.max_diff, 1)}, rounding). The decoder reads the correct "
            "reversed lists here (teacher forcing, as in training).")
