"""An encoder classifier (notebook 003's first transformer): blocks, mean pool, class head.

Token embedding (+ absolute position, if the config has one) -> the same
:class:`~explorer.models.transformer.Block` stack as the language model, bidirectional
(``config.causal`` is False) -> final LayerNorm -> mean over the *non-padding*
positions -> one linear layer ``W_C`` -> log-probabilities over the classes.

Because the head is linear and comes after a mean, the class logits split exactly
into one share per token::

    logit_c = b_c + (1/n) * sum_i W_c . x_i      (x_i: final vector of token i, n tokens)

``hook_token_logits`` holds those shares (``[batch, pos, n_classes]``; 0 at padding):
"which tokens the pooled output draws on". Each x_i has already mixed in what token
i attended to, so a share says where the evidence *ended up*, not where it started.

Hook names match :class:`~explorer.models.transformer.Transformer` (``blocks.{i}.attn.hook_pattern``
...), so :func:`~explorer.models.capture.run_with_cache`, ``Cache.stack`` and the grid
figures work on this model unchanged.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from explorer.models.config import ModelConfig
from explorer.models.positional import build_positional
from explorer.models.settings import AttentionSettings
from explorer.models.transformer import Block, HookedModel, HookPoint, encode, init_and_name


class Classifier(HookedModel):
    """Token embedding (+ position) -> blocks -> final norm -> masked mean -> W_C."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        if config.n_classes < 2:
            raise ValueError("a classifier needs n_classes >= 2")
        self.config = config
        self.W_E = nn.Embedding(config.vocab_size, config.d_model)
        self.pos = build_positional(config)
        self.drop = nn.Dropout(config.dropout)
        self.hook_embed = HookPoint()  # [batch, pos, d_model]  token embeddings
        self.hook_pos_embed = HookPoint()  # [pos, d_model]  added position vectors (0 if none)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.n_layers))
        # Post-LN blocks already end in a LayerNorm; pre-LN needs one before the head.
        self.ln_final = nn.LayerNorm(config.d_model) if config.norm == "pre" else nn.Identity()
        self.hook_final = HookPoint()  # [batch, pos, d_model]  after the final norm
        self.hook_token_logits = HookPoint()  # [batch, pos, n_classes]  W_C x_i / n; 0 at pads
        self.hook_pooled = HookPoint()  # [batch, d_model]  mean of hook_final over real tokens
        self.W_C = nn.Linear(config.d_model, config.n_classes)  # the class head, with bias
        self.hook_logits = HookPoint()  # [batch, n_classes]  before log-softmax

        init_and_name(self, residual_writes=2 * config.n_layers)

    def forward(self, tokens: torch.Tensor, settings: AttentionSettings | None = None,
                key_padding_mask: torch.Tensor | None = None,
                fused: bool = False) -> torch.Tensor:
        """tokens ``[batch, pos]`` (int64) -> log-probabilities ``[batch, n_classes]``.
        ``key_padding_mask`` ``[batch, pos]`` is True at padding positions: no token
        attends to them and the mean leaves them out."""
        batch, n = tokens.shape
        x = encode(self, tokens, settings, key_padding_mask, fused)  # [batch, pos, d_model]

        if key_padding_mask is None:
            keep = torch.ones(batch, n, 1, device=x.device, dtype=x.dtype)
        else:
            keep = (~key_padding_mask).to(x.dtype)[:, :, None]  # [batch, pos, 1]
        count = keep.sum(1).clamp(min=1.0)  # [batch, 1]: real tokens (an empty row pools to 0)
        # Each token's exact share of every class logit (the bias is nobody's share).
        self.hook_token_logits(x @ self.W_C.weight.T * keep / count[:, None])
        pooled = self.hook_pooled((x * keep).sum(1) / count)
        logits = self.hook_logits(self.W_C(pooled))
        return F.log_softmax(logits, dim=-1)
