"""An encoder-decoder transformer ("Attention Is All You Need", 2017), built to be looked inside.

It is made of the language model's own pieces (:mod:`explorer.models.transformer`): the
encoder's blocks *are* :class:`~explorer.models.transformer.Block`; a decoder block is the
same attention, MLP, LayerNorm and hook points with one more sub-layer, cross-attention::

    source -> W_E + positions -> encoder blocks -> memory   [batch, src, d_model]
    target -> W_E + positions -> decoder blocks -> final norm -> W_U
                                             (masked self-attention, cross-attention
                                              reading the memory, MLP)  -> [batch, tgt, vocab]

Hook names are module paths: ``enc_blocks.{i}.attn.hook_pattern`` ``[batch, head, src, src]``,
``dec_blocks.{i}.self_attn.hook_pattern`` ``[batch, head, tgt, tgt]``,
``dec_blocks.{i}.cross_attn.hook_pattern`` ``[batch, head, tgt, src]``.

The three masks, and where each acts:

* padding -- ``src_padding_mask`` ``[batch, src]`` (True at ``<pad>``) removes padded
  source positions as *keys* in the encoder's self-attention and in cross-attention;
  ``tgt_padding_mask`` does the same in the decoder's self-attention;
* causal -- decoder self-attention only: target position t reads positions <= t
  (``AttentionSettings.causal`` switches it, as an experiment);
* cross -- cross-attention has no causal mask and no relative positions: every target
  position may read every real source position (its only mask is the source padding).

Positions are absolute (a sinusoidal or learned table added at the embeddings, shared by
both sides; attention itself gets a do-nothing positional stand-in across the two
sequences). Source and target share one vocabulary and ``W_E``; ``W_U`` is tied to it.
"""

from __future__ import annotations

from dataclasses import replace

import torch
from torch import nn

from explorer.models.config import ModelConfig
from explorer.models.positional import NoPositionalEncoding, build_positional
from explorer.models.settings import AttentionSettings, ResolvedSettings
from explorer.models.transformer import MLP, Attention, Block, HookedModel, HookPoint, init_and_name

BOS_ID = EOS_ID = 0  # the project tokenizer's <|endoftext|> starts and ends a target
PAD_ID = 1  # <pad>


class DecoderBlock(nn.Module):
    """Masked self-attention, cross-attention, feed-forward; each sub-layer wrapped in a
    residual connection and a LayerNorm, pre-LN or post-LN as in :class:`Block`."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.pre_norm = config.norm == "pre"
        self.ln1 = nn.LayerNorm(config.d_model)
        self.self_attn = Attention(config)
        self.ln2 = nn.LayerNorm(config.d_model)
        self.cross_attn = Attention(config)
        self.ln3 = nn.LayerNorm(config.d_model)
        self.mlp = MLP(config)
        self.hook_resid_pre = HookPoint()  # [batch, tgt, d_model]
        self.hook_self_attn_out = HookPoint()  # [batch, tgt, d_model]
        self.hook_resid_mid = HookPoint()  # [batch, tgt, d_model]
        self.hook_cross_attn_out = HookPoint()  # [batch, tgt, d_model]  read from the memory
        self.hook_resid_cross = HookPoint()  # [batch, tgt, d_model]
        self.hook_mlp_out = HookPoint()  # [batch, tgt, d_model]
        self.hook_resid_post = HookPoint()  # [batch, tgt, d_model]

    def _in(self, x: torch.Tensor, ln: nn.LayerNorm) -> torch.Tensor:
        return ln(x) if self.pre_norm else x

    def _add(self, x: torch.Tensor, out: torch.Tensor, ln: nn.LayerNorm) -> torch.Tensor:
        return x + out if self.pre_norm else ln(x + out)

    def forward(self, x, memory, pos, cross_pos, rs_self, rs_cross, layer,
                tgt_padding_mask=None, src_padding_mask=None, fused=False) -> torch.Tensor:
        x = self.hook_resid_pre(x)
        out = self.self_attn(self._in(x, self.ln1), pos, rs_self, layer, tgt_padding_mask, fused)
        x = self.hook_resid_mid(self._add(x, self.hook_self_attn_out(out), self.ln1))
        out = self.cross_attn(self._in(x, self.ln2), cross_pos, rs_cross, layer,
                              src_padding_mask, fused, kv=memory)
        x = self.hook_resid_cross(self._add(x, self.hook_cross_attn_out(out), self.ln2))
        out = self.hook_mlp_out(self.mlp(self._in(x, self.ln3)))
        return self.hook_resid_post(self._add(x, out, self.ln3))


class EncoderDecoder(HookedModel):
    """``config.n_layers`` encoder blocks, ``config.n_dec_layers`` decoder blocks."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        if config.n_dec_layers < 1:
            raise ValueError("an encoder-decoder needs n_dec_layers >= 1")
        self.config = config
        self.W_E = nn.Embedding(config.vocab_size, config.d_model)  # both sides' tokens
        self.pos = build_positional(config)
        self.cross_pos = NoPositionalEncoding(config)  # across two sequences: nothing
        self.drop = nn.Dropout(config.dropout)
        self.hook_src_embed = HookPoint()  # [batch, src, d_model]  token embeddings
        self.hook_src_pos_embed = HookPoint()  # [src, d_model]  added positions (0 if none)
        self.enc_blocks = nn.ModuleList(Block(config) for _ in range(config.n_layers))
        # Post-LN blocks end in a LayerNorm already; pre-LN needs one after each stack.
        self.ln_enc = nn.LayerNorm(config.d_model) if config.norm == "pre" else nn.Identity()
        self.hook_memory = HookPoint()  # [batch, src, d_model]  what cross-attention reads
        self.hook_tgt_embed = HookPoint()  # [batch, tgt, d_model]
        self.hook_tgt_pos_embed = HookPoint()  # [tgt, d_model]
        self.dec_blocks = nn.ModuleList(DecoderBlock(config) for _ in range(config.n_dec_layers))
        self.ln_final = nn.LayerNorm(config.d_model) if config.norm == "pre" else nn.Identity()
        self.hook_final = HookPoint()  # [batch, tgt, d_model]  after the final norm
        self.W_U = nn.Linear(config.d_model, config.vocab_size, bias=False)
        if config.tie_embeddings:
            self.W_U.weight = self.W_E.weight

        init_and_name(self, residual_writes=2 * (config.n_layers + config.n_dec_layers))

    def resolve(self, settings: AttentionSettings | None) -> ResolvedSettings:
        """Settings for one pass; ``causal`` is the decoder self-attention's mask."""
        rs = (settings or AttentionSettings()).resolve(self.config)
        if rs.head_mask:
            raise ValueError("switching heads off is offered for the language models only")
        return rs

    def _embed(self, tokens: torch.Tensor, hook: HookPoint, pos_hook: HookPoint) -> torch.Tensor:
        n = tokens.shape[1]
        if n > self.config.n_ctx:
            raise ValueError(f"{n} tokens is more than this model's context of "
                             f"{self.config.n_ctx}")
        x = hook(self.W_E(tokens))
        table = self.pos.embed_table(n)
        if table is None:
            table = torch.zeros(n, self.config.d_model, device=x.device, dtype=x.dtype)
        return self.drop(x + pos_hook(table))

    def encode(self, src: torch.Tensor, rs: ResolvedSettings,
               src_padding_mask: torch.Tensor | None = None,
               fused: bool = False) -> torch.Tensor:
        """src ``[batch, src]`` -> memory ``[batch, src, d_model]``. Never causal."""
        x = self._embed(src, self.hook_src_embed, self.hook_src_pos_embed)
        bidirectional = replace(rs, causal=False)
        for layer, block in enumerate(self.enc_blocks):
            x = block(x, self.pos, bidirectional, layer, src_padding_mask, fused)
        return self.hook_memory(self.ln_enc(x))

    def decode(self, tgt: torch.Tensor, memory: torch.Tensor, rs: ResolvedSettings,
               src_padding_mask: torch.Tensor | None = None,
               tgt_padding_mask: torch.Tensor | None = None,
               fused: bool = False) -> torch.Tensor:
        """tgt ``[batch, tgt]`` and the memory -> logits ``[batch, tgt, vocab]``."""
        x = self._embed(tgt, self.hook_tgt_embed, self.hook_tgt_pos_embed)
        cross = replace(rs, causal=False)  # every target position may read every source one
        for layer, block in enumerate(self.dec_blocks):
            x = block(x, memory, self.pos, self.cross_pos, rs, cross, layer,
                      tgt_padding_mask, src_padding_mask, fused)
        return self.W_U(self.hook_final(self.ln_final(x)))

    def forward(self, src: torch.Tensor, tgt: torch.Tensor,
                settings: AttentionSettings | None = None,
                src_padding_mask: torch.Tensor | None = None,
                tgt_padding_mask: torch.Tensor | None = None,
                fused: bool = False) -> torch.Tensor:
        """src ``[batch, src]``, tgt ``[batch, tgt]`` (int64; tgt starts with BOS) ->
        logits ``[batch, tgt, vocab]``: position t predicts target token t + 1.
        Padding masks are True at padding positions."""
        rs = self.resolve(settings)
        memory = self.encode(src, rs, src_padding_mask, fused)
        return self.decode(tgt, memory, rs, src_padding_mask, tgt_padding_mask, fused)

    @torch.no_grad()
    def generate(self, src: torch.Tensor, max_len: int,
                 settings: AttentionSettings | None = None,
                 src_padding_mask: torch.Tensor | None = None) -> torch.Tensor:
        """Greedy decoding, one token per step: start from BOS, append the most likely next
        token, stop when every sequence has written EOS or after ``max_len`` tokens.
        Returns ``[batch, steps]`` (no BOS; EOS kept; PAD after a sequence has ended)."""
        rs = self.resolve(settings)
        memory = self.encode(src, rs, src_padding_mask)
        tgt = torch.full((src.shape[0], 1), BOS_ID, dtype=torch.long, device=src.device)
        done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
        for _ in range(max_len):
            logits = self.decode(tgt, memory, rs, src_padding_mask)
            nxt = logits[:, -1].argmax(-1)  # [batch]
            nxt = torch.where(done, torch.full_like(nxt, PAD_ID), nxt)
            tgt = torch.cat([tgt, nxt[:, None]], dim=1)
            done |= nxt == EOS_ID
            if done.all():
                break
        return tgt[:, 1:]
