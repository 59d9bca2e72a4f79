"""A small GPT-style transformer, written to be looked inside.

Small classes from small to large: HookPoint, Attention, MLP, Block, Transformer.
Every intermediate tensor a student may want to see passes through a named
:class:`HookPoint` (an identity module); its name is its module path, fixed when
the model is built (``blocks.0.attn.hook_pattern``). :mod:`explorer.models.capture`
reads them with forward hooks, one call at a time.

Shape convention, written once: ``batch, pos, d_model`` for the residual stream;
``[batch, head, query_pos, key_pos]`` for scores and patterns; ``[batch, head,
pos, d_head]`` for per-head q, k, v and outputs.

Attention is computed explicitly (every stage visible) unless ``fused=True``,
which calls ``F.scaled_dot_product_attention`` for training speed; with the same
settings both paths agree (see tests/models/test_model.py).

The same :class:`Attention` is also cross-attention (``kv=`` another sequence: queries
from the decoder, keys and values from the encoder's output), which
:mod:`explorer.models.encoder_decoder` builds its encoder-decoder from; there ``key_pos`` counts
source tokens, so a pattern is ``[batch, head, target_pos, source_pos]``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

import torch
import torch.nn.functional as F
from torch import nn

from explorer.models.config import ModelConfig
from explorer.models.positional import NoPositionalEncoding, build_positional
from explorer.models.settings import AttentionSettings, ResolvedSettings


class HookPoint(nn.Module):
    """Identity; exists so a forward hook can read the tensor that flows here."""

    def __init__(self) -> None:
        super().__init__()
        self.name = ""  # set to the module path by Transformer.__init__

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        # Most hook points have no hook on most calls (a keystroke reads the patterns only):
        # those skip nn.Module's call machinery, ~80 calls a forward, 0.25 of its 9.5 ms at
        # 32 tokens here. Only hooks registered on the HookPoint itself are run.
        if self._forward_hooks or self._forward_pre_hooks:
            return super().__call__(x)
        return x


class HookedModel(nn.Module):
    """Base of every model here: its HookPoints by name, collected once when it is built
    (:func:`init_and_name`); walking its ~130 modules on every request cost 0.35 ms."""

    def hook_points(self) -> Mapping[str, HookPoint]:
        return self._hook_points


class Attention(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.n_heads, self.d_head = config.n_heads, config.d_head
        d_model = config.d_model
        # One wide projection per role, split into heads afterwards (the multi-head reshape).
        self.W_Q = nn.Linear(d_model, d_model, bias=False)
        self.W_K = nn.Linear(d_model, d_model, bias=False)
        self.W_V = nn.Linear(d_model, d_model, bias=False)
        self.W_O = nn.Linear(d_model, d_model, bias=False)
        self.dropout = config.dropout

        self.hook_x = HookPoint()  # [batch, pos, d_model]  input X the projections read
        self.hook_q = HookPoint()  # [batch, head, pos, d_head]  X W_Q, split into heads
        self.hook_k = HookPoint()  # [batch, head, key_pos, d_head]  (key_pos = pos unless kv)
        self.hook_v = HookPoint()  # [batch, head, key_pos, d_head]
        self.hook_rot_q = HookPoint()  # [batch, head, pos, d_head]  after rotary (else = q)
        self.hook_rot_k = HookPoint()  # [batch, head, key_pos, d_head]
        self.hook_scores = HookPoint()  # [batch, head, query_pos, key_pos]  q k^T, raw
        self.hook_scaled = HookPoint()  # [batch, head, query_pos, key_pos]  (* scale (+ ALiBi)) / T
        self.hook_masked = HookPoint()  # [batch, head, query_pos, key_pos]  -inf where masked
        self.hook_pattern = HookPoint()  # [batch, head, query_pos, key_pos]  softmax, rows sum 1
        self.hook_z = HookPoint()  # [batch, head, query_pos, d_head]  pattern @ v (ablated: 0)
        self.hook_concat = HookPoint()  # [batch, pos, d_model]  heads merged back
        self.hook_out = HookPoint()  # [batch, pos, d_model]  concat W_O

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        """[batch, pos, d_model] -> [batch, pos, head, d_head] -> [batch, head, pos, d_head]."""
        batch, pos, _ = x.shape
        return x.view(batch, pos, self.n_heads, self.d_head).transpose(1, 2)

    def _mask(self, n_q: int, n_k: int, rs: ResolvedSettings,
              key_padding_mask: torch.Tensor | None,
              device: torch.device) -> torch.Tensor | None:
        """Boolean ``[batch or 1, 1, query_pos, key_pos]``, True where attention is forbidden."""
        mask = None
        if rs.causal:
            mask = torch.ones(n_q, n_k, dtype=torch.bool, device=device).triu(1)[None, None]
        if key_padding_mask is not None:
            pad = key_padding_mask[:, None, None, :]  # [batch, 1, 1, key_pos]
            mask = pad if mask is None else (mask | pad)
        return mask

    def forward(self, x: torch.Tensor, pos: NoPositionalEncoding, rs: ResolvedSettings,
                layer: int, key_padding_mask: torch.Tensor | None = None,
                fused: bool = False, kv: torch.Tensor | None = None) -> torch.Tensor:
        """Self-attention of ``x`` ``[batch, pos, d_model]``; with ``kv`` ``[batch, key_pos,
        d_model]`` cross-attention: queries from ``x``, keys and values from ``kv``
        (``key_padding_mask`` is then ``kv``'s padding, ``[batch, key_pos]``). The caller
        passes what applies across two sequences: no causal mask in ``rs`` and a
        do-nothing ``pos`` (positions of two different sequences are not comparable)."""
        batch, n, d_model = x.shape
        x = self.hook_x(x)
        source = x if kv is None else kv  # what keys and values are read from
        q = self.hook_q(self._split(self.W_Q(x)))
        k = self.hook_k(self._split(self.W_K(source)))  # [batch, head, key_pos, d_head]
        v = self.hook_v(self._split(self.W_V(source)))  # [batch, head, key_pos, d_head]
        q, k = pos.rotate(q, k)
        q, k = self.hook_rot_q(q), self.hook_rot_k(k)
        n_k = source.shape[1]
        bias = pos.score_bias(n, n_k)  # [head, q, k] or None
        if bias is not None and rs.temperature != 1.0:
            # Temperature divides the whole score, ALiBi's distance penalty included
            # ((q·k × scale + bias) / T; rs.scale already holds the 1/T of the first
            # term): divided only in part, a high temperature would flatten ALiBi heads
            # toward softmax(bias), not toward uniform. At T = 1 nothing is divided.
            bias = bias / rs.temperature
        mask = self._mask(n, n_k, rs, key_padding_mask, x.device)

        if fused:
            z = self._fused(q, k, v, rs, bias, mask)
        else:
            scores = self.hook_scores(q @ k.transpose(-2, -1))
            scaled = scores * rs.scale
            if bias is not None:
                scaled = scaled + bias
            scaled = self.hook_scaled(scaled)
            masked = scaled if mask is None else scaled.masked_fill(mask, float("-inf"))
            masked = self.hook_masked(masked)
            pattern = torch.softmax(masked, dim=-1)
            if mask is not None:  # a row with every key masked (all padding) attends nowhere
                pattern = pattern.nan_to_num(0.0)
            pattern = self.hook_pattern(pattern)
            if self.training and self.dropout:
                pattern = F.dropout(pattern, self.dropout)
            z = pattern @ v

        heads_off = rs.heads_off(layer)
        if heads_off:  # ablation: the head still attends, but its output is removed
            keep = torch.ones(self.n_heads, device=x.device, dtype=z.dtype)
            keep[heads_off] = 0.0
            z = z * keep[None, :, None, None]
        z = self.hook_z(z)
        concat = self.hook_concat(z.transpose(1, 2).reshape(batch, n, d_model))
        return self.hook_out(self.W_O(concat))

    def _fused(self, q, k, v, rs: ResolvedSettings, bias, mask) -> torch.Tensor:
        attn_mask = None
        if bias is not None or mask is not None:
            attn_mask = torch.zeros(1, 1, 1, 1, device=q.device, dtype=q.dtype)
            if bias is not None:
                attn_mask = attn_mask + bias[None].to(q.dtype)
            if mask is not None:
                attn_mask = attn_mask.masked_fill(mask, float("-inf"))
        dropout = self.dropout if self.training else 0.0
        return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=dropout,
                                              scale=rs.scale)


class MLP(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.W_in = nn.Linear(config.d_model, config.d_ff)
        self.W_out = nn.Linear(config.d_ff, config.d_model)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dropout(self.W_out(F.gelu(self.W_in(x))))


class Block(nn.Module):
    """Attention then feed-forward, each wrapped in a residual connection and a LayerNorm:
    pre-LN ``x + f(LN(x))`` (GPT-2) or post-LN ``LN(x + f(x))`` (the 2017 paper)."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.pre_norm = config.norm != "post"  # "none": x + f(x), with no norm to apply
        norm = (lambda: nn.LayerNorm(config.d_model)) if config.norm != "none" else nn.Identity
        self.ln1 = norm()
        self.attn = Attention(config)
        self.ln2 = norm()
        self.mlp = MLP(config) if config.mlp else None  # None: attention only
        self.hook_resid_pre = HookPoint()  # [batch, pos, d_model]
        self.hook_attn_out = HookPoint()  # [batch, pos, d_model]
        self.hook_resid_mid = HookPoint()  # [batch, pos, d_model]
        self.hook_mlp_out = HookPoint()  # [batch, pos, d_model]
        self.hook_resid_post = HookPoint()  # [batch, pos, d_model]

    def forward(self, x, pos, rs, layer, key_padding_mask=None, fused=False) -> torch.Tensor:
        x = self.hook_resid_pre(x)
        attn_in = self.ln1(x) if self.pre_norm else x
        attn_out = self.hook_attn_out(self.attn(attn_in, pos, rs, layer, key_padding_mask, fused))
        x = x + attn_out if self.pre_norm else self.ln1(x + attn_out)
        x = self.hook_resid_mid(x)
        if self.mlp is None:  # attention only: the block adds nothing more (hook kept)
            return self.hook_resid_post(self.hook_mlp_out(torch.zeros_like(x)) + x)
        mlp_out = self.hook_mlp_out(self.mlp(self.ln2(x) if self.pre_norm else x))
        x = x + mlp_out if self.pre_norm else self.ln2(x + mlp_out)
        return self.hook_resid_post(x)


class Transformer(HookedModel):
    """Token embedding (+ absolute position) -> blocks -> final norm -> logits."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        self.W_E = nn.Embedding(config.vocab_size, config.d_model)
        self.pos = build_positional(config)
        self.drop = nn.Dropout(config.dropout)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.n_layers))
        # Post-LN blocks already end in a LayerNorm; pre-LN needs one before the unembedding.
        self.ln_final = nn.LayerNorm(config.d_model) if config.norm == "pre" else nn.Identity()
        self.W_U = nn.Linear(config.d_model, config.vocab_size, bias=False)
        if config.tie_embeddings:
            self.W_U.weight = self.W_E.weight
        self.hook_embed = HookPoint()  # [batch, pos, d_model]  token embeddings
        self.hook_pos_embed = HookPoint()  # [pos, d_model]  added position vectors (0 if none)
        self.hook_final = HookPoint()  # [batch, pos, d_model]  after the final norm

        init_and_name(self, residual_writes=2 * config.n_layers)

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, 0.0, 0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, tokens: torch.Tensor, settings: AttentionSettings | None = None,
                key_padding_mask: torch.Tensor | None = None,
                fused: bool = False, logits_at: torch.Tensor | None = None) -> torch.Tensor:
        """tokens ``[batch, pos]`` (int64) -> logits ``[batch, pos, vocab_size]``.
        ``key_padding_mask`` ``[batch, pos]`` is True at padding positions.
        ``logits_at`` (int64 ``[k]``): unembed only these positions -> ``[batch, k, vocab]``;
        ``W_U`` is the largest matrix of the model, and a live view needs one position."""
        x = encode(self, tokens, settings, key_padding_mask, fused)  # every position
        return self.W_U(x if logits_at is None else x[:, logits_at])


def encode(model: nn.Module, tokens: torch.Tensor, settings: AttentionSettings | None,
           key_padding_mask: torch.Tensor | None, fused: bool) -> torch.Tensor:
    """Token embedding (+ absolute position) -> blocks -> final norm: tokens ``[batch, pos]``
    -> ``[batch, pos, d_model]``. Shared by every model built as a stack of ``blocks`` over
    ``W_E`` (the language model and the classifier); ``model`` has their attribute names."""
    n = tokens.shape[1]
    if n > model.config.n_ctx:
        raise ValueError(f"{n} tokens is more than this model's context of "
                         f"{model.config.n_ctx}")
    rs = (settings or AttentionSettings()).resolve(model.config)
    x = model.hook_embed(model.W_E(tokens))
    table = model.pos.embed_table(n)
    if table is None:
        table = torch.zeros(n, model.config.d_model, device=x.device, dtype=x.dtype)
    x = model.drop(x + model.hook_pos_embed(table))
    for layer, block in enumerate(model.blocks):
        x = block(x, model.pos, rs, layer, key_padding_mask, fused)
    return model.hook_final(model.ln_final(x))


def init_and_name(model: HookedModel, residual_writes: int) -> None:
    """Initialise like GPT-2 (normal 0.02, zero biases; the matrices that write into the
    residual stream shrunk by sqrt(residual_writes), the number of such writes), or keep
    torch's own defaults (``config.init == "torch"``), and name every HookPoint by its
    module path. Shared by every model class here; the order of
    the random draws is the module order, so a seed rebuilds the same weights."""
    if model.config.init == "gpt2":  # else each module keeps torch's own default
        model.apply(Transformer._init_weights)
        for name, p in model.named_parameters():
            if name.endswith(("W_O.weight", "W_out.weight")):
                nn.init.normal_(p, 0.0, 0.02 / math.sqrt(residual_writes))
    points = {}
    for name, module in model.named_modules():
        if isinstance(module, HookPoint):
            module.name = name
            points[name] = module
    model._hook_points = MappingProxyType(points)  # read-only: every request shares it
