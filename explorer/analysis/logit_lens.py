"""Read the residual stream as guesses: the logit lens and direct logit attribution.

**Logit lens**: the residual stream after each layer (``blocks.{l}.hook_resid_post``,
``[batch, pos, d_model]``) put through the model's final norm and unembedding ``W_U``, as if
the model stopped there. An approximation of what the layer "thinks": the later layers were
never trained to have their input read this way, so the early rows are often noise. After
the last layer it *is* the model's guess (the same computation).

**Direct logit attribution (DLA)**: at the last position the final residual stream is a sum
of what each part wrote into it (pre-norm models)::

    resid = embed + pos_embed + sum_l (sum_h head_{l,h} + mlp_l)
    head_{l,h} = z[l][h] @ W_O[:, h*d_head:(h+1)*d_head]^T      (hook_z [batch, head, pos, d_head])

With the final LayerNorm's scale ``sigma`` frozen at its value on this run (the standard
choice: it makes the norm linear), each part ``c`` pushes the logit difference by::

    ((c - mean(c)) / sigma * ln.weight) . (W_U[answer] - W_U[competitor])

and the norm's bias adds ``ln.bias . (W_U[answer] - W_U[competitor])``. The parts sum to the
run's logit difference exactly. A post-norm model (a LayerNorm after every block) has no
such sum, so it gets no attribution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from explorer.models.capture import Cache, run_with_cache
from explorer.models.settings import AttentionSettings
from explorer.models.transformer import Transformer

TOP_K = 5
# What direct_logit_attribution reads from a run (and the lens: the residual stream).
DLA_HOOKS = ["blocks.*.attn.hook_z", "blocks.*.hook_mlp_out", "blocks.*.hook_resid_post",
             "hook_embed", "hook_pos_embed"]


@dataclass(frozen=True)
class LogitLens:
    top_ids: np.ndarray  # [layer, pos, TOP_K] int, likeliest first
    top_probs: np.ndarray  # [layer, pos, TOP_K]


def lens_logits(model: Transformer, cache: Cache) -> torch.Tensor:
    """``[layer, pos, vocab]`` logits of the residual stream after each layer (batch row 0)."""
    resid = cache.stack("hook_resid_post")[:, 0]  # [layer, pos, d_model]
    weight = model.W_U.weight
    with torch.inference_mode():
        normed = model.ln_final(resid.to(weight.device, weight.dtype))
        return (normed @ weight.T).float().cpu()


def logit_lens(model: Transformer, cache: Cache, k: int = TOP_K) -> LogitLens:
    probs = torch.softmax(lens_logits(model, cache), -1)
    top = torch.topk(probs, min(k, probs.shape[-1]), dim=-1)
    return LogitLens(top.indices.numpy(), top.values.numpy())


@dataclass(frozen=True)
class Attribution:
    heads: np.ndarray  # [layer, head]: each head's direct push on the logit difference
    mlps: np.ndarray  # [layer]: each MLP's (0 for an attention-only model)
    embed: float  # token + position embeddings
    bias: float  # the final norm's bias
    total: float  # the run's logit difference (the sum of all of the above)


def _head_outputs(model: Transformer, cache: Cache, at: int) -> torch.Tensor:
    """``[layer, head, d_model]``: what each head wrote into the residual stream at ``at``."""
    config = model.config
    z = cache.stack("attn.hook_z")[:, 0, :, at]  # [layer, head, d_head]
    w_o = torch.stack([b.attn.W_O.weight.detach().float().cpu() for b in model.blocks])
    # W_O.weight is [d_model, head*d_head]: split its input side into heads
    w_o = w_o.reshape(config.n_layers, config.d_model, config.n_heads, config.d_head)
    return torch.einsum("lhd,lmhd->lhm", z.float(), w_o)


def direct_logit_attribution(model: Transformer, cache: Cache, answer: int, wrong: int,
                             at: int = -1) -> Attribution | None:
    """Each part's direct push toward ``answer`` over ``wrong`` at position ``at``; None for
    a post-norm model (see the module docstring). ``cache`` needs ``hook_z``,
    ``hook_mlp_out``, ``hook_resid_post``, ``hook_embed`` and ``hook_pos_embed``."""
    config = model.config
    if config.norm == "post":
        return None
    direction = (model.W_U.weight[answer] - model.W_U.weight[wrong]).detach().float().cpu()
    resid = cache[f"blocks.{config.n_layers - 1}.hook_resid_post"][0, at].float()
    ln = model.ln_final
    if isinstance(ln, nn.LayerNorm):
        centre = True
        sigma = torch.sqrt(resid.var(unbiased=False) + ln.eps)
        gain = ln.weight.detach().float().cpu() / sigma
        bias = float(ln.bias.detach().float().cpu() @ direction)
    else:  # norm "none": the unembedding reads the stream as it is
        centre, gain, bias = False, torch.ones_like(resid), 0.0

    def push(c: torch.Tensor) -> torch.Tensor:  # [..., d_model] -> [...]
        if centre:
            c = c - c.mean(-1, keepdim=True)
        return (c * gain) @ direction

    heads = push(_head_outputs(model, cache, at))
    mlps = push(cache.stack("hook_mlp_out")[:, 0, at].float())
    pos = cache["hook_pos_embed"]
    pos = pos[at] if pos.dim() == 2 else pos[0, at]  # [pos, d_model] as the model adds it
    embed = float(push(cache["hook_embed"][0, at].float() + pos.float()))
    total = float(heads.sum() + mlps.sum()) + embed + bias
    return Attribution(heads.numpy().astype(np.float64), mlps.numpy().astype(np.float64),
                       embed, bias, total)


def attribute(model: Transformer, ids: list[int], answer: int, wrong: int, at: int = -1,
              settings: AttentionSettings | None = None) -> Attribution | None:
    """One run of ``ids`` (under ``settings``: heads switched off write nothing, so they get
    0) and its direct logit attribution of ``answer`` over ``wrong`` at ``at``."""
    _, cache = run_with_cache(model, torch.tensor([ids]), settings, names=DLA_HOOKS)
    return direct_logit_attribution(model, cache, answer, wrong, at)
