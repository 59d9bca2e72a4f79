"""The shape of every tensor in one forward pass, with this sentence's real numbers.

:func:`shape_trace` runs the model once on the student's sentence, capturing
every hook point, and reads :attr:`~explorer.models.capture.Cache.shapes` in the
order the tensors were produced. It returns

* ``trace``: one row per captured tensor -- name, what each axis is, the shape,
  what it holds -- ending with the logits;
* ``split``: the multi-head split and merge as multi-head attention code does it,
  ``(batch, tokens, d_model) -> (batch, tokens, heads, d_head) -> (batch, heads,
  tokens, d_head) -> (batch, heads, tokens, tokens) -> ... -> (batch, tokens,
  d_model)``, each number taken from the captured tensors where one exists;
* ``sizes``: how many numbers each tensor of one layer holds (for a bar chart).

Rows hold only names and numbers, never the student's text, so a table can show
them as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from explorer.analysis.run import prepare
from explorer.models.capture import run_with_cache
from explorer.models.config import ModelConfig
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer

BTD = ("batch", "tokens", "d_model")
BHTD = ("batch", "heads", "tokens", "d_head")
BHTT = ("batch", "heads", "query tokens", "key tokens")

# hook suffix -> (axis names, what it holds)
HOOKS: dict[str, tuple[tuple[str, ...], str]] = {
    "hook_embed": (BTD, "token embeddings: the row of W_E for each token"),
    "hook_pos_embed": (("tokens", "d_model"),
                       "position vectors added to the embeddings (zeros if none are added)"),
    "hook_resid_pre": (BTD, "residual stream entering the block"),
    "attn.hook_x": (BTD, "what attention reads (LayerNorm₁ of the stream in a pre-LN model)"),
    "attn.hook_q": (BHTD, "queries: X·W_Qᵀ, then .view and .transpose(1, 2) into heads"),
    "attn.hook_k": (BHTD, "keys: X·W_Kᵀ, split into heads the same way"),
    "attn.hook_v": (BHTD, "values: X·W_Vᵀ, split into heads the same way"),
    "attn.hook_rot_q": (BHTD, "queries after rotary (the same as q for other encodings)"),
    "attn.hook_rot_k": (BHTD, "keys after rotary (the same as k for other encodings)"),
    "attn.hook_scores": (BHTT, "Q·Kᵀ: one raw score per (query, key), per head"),
    "attn.hook_scaled": (BHTT, "(scores × scale + the ALiBi bias on ALiBi models) ÷ temperature"),
    "attn.hook_masked": (BHTT, "−∞ where the mask forbids a key"),
    "attn.hook_pattern": (BHTT, "softmax over the keys: each row sums to 1"),
    "attn.hook_z": (BHTD, "pattern · V: each head's output"),
    "attn.hook_concat": (BTD, "heads side by side: .transpose(1, 2) then .reshape"),
    "attn.hook_out": (BTD, "concat · W_Oᵀ: the output projection"),
    "hook_attn_out": (BTD, "what attention adds to the residual stream"),
    "hook_resid_mid": (BTD, "stream after attention and its residual connection"),
    "hook_mlp_out": (BTD, "feed-forward output (d_model → d_ff → d_model, per token)"),
    "hook_resid_post": (BTD, "residual stream leaving the block"),
    "hook_final": (BTD, "after the final LayerNorm"),
}
TRACE_HEADERS = ["#", "tensor", "shape", "axes", "numbers", "what it holds"]
SPLIT_HEADERS = ["step", "shape", "axes", "operation", "read from"]


def _suffix(name: str) -> str:
    """'blocks.2.attn.hook_q' -> 'attn.hook_q'; 'hook_embed' -> 'hook_embed'."""
    parts = name.split(".")
    return ".".join(parts[2:]) if parts[0] == "blocks" else name


def _shape(shape: tuple[int, ...]) -> str:
    return " × ".join(str(n) for n in shape)


def _prod(shape: tuple[int, ...]) -> int:
    out = 1
    for n in shape:
        out *= n
    return out


@dataclass
class ShapeTrace:
    n_tokens: int
    config: ModelConfig
    layer: int
    shapes: dict[str, tuple[int, ...]] = field(default_factory=dict)  # Cache.shapes + logits
    trace: list[list] = field(default_factory=list)  # rows under TRACE_HEADERS
    split: list[list] = field(default_factory=list)  # rows under SPLIT_HEADERS
    # one layer (+ embeddings, final, logits): (name, shape, numbers, numbers at n_ctx tokens)
    sizes: list[tuple[str, tuple[int, ...], int, int]] = field(default_factory=list)
    notices: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return self.n_tokens == 0


def split_rows(shapes: dict[str, tuple[int, ...]], config: ModelConfig,
               layer: int) -> list[list]:
    """The head split and merge, step by step, with numbers from the captured shapes."""
    attn = f"blocks.{layer}.attn."
    b, t, _ = shapes[attn + "hook_x"]
    h, dh, dm = config.n_heads, config.d_head, config.d_model
    rows = [
        ["1", "X (the input of attention)", BTD, shapes[attn + "hook_x"], attn + "hook_x"],
        ["2", "X · W_Qᵀ — ONE wide projection for all heads", BTD, (b, t, dm), ""],
        ["3", f".view(batch, tokens, {h}, {dh}) — cut d_model into heads",
         ("batch", "tokens", "heads", "d_head"), (b, t, h, dh), ""],
        ["4", ".transpose(1, 2) — heads become a batch-like axis", BHTD,
         shapes[attn + "hook_q"], attn + "hook_q"],
        ["4b", "(some code also folds the heads into the batch, for one batched product)",
         ("batch·heads", "tokens", "d_head"), (b * h, t, dh), ""],
        ["5", "Q · Kᵀ (K transposed in its last two axes)", BHTT,
         shapes[attn + "hook_scores"], attn + "hook_scores"],
        ["6", "softmax(scaled, masked scores) — same shape", BHTT,
         shapes[attn + "hook_pattern"], attn + "hook_pattern"],
        ["7", "pattern · V", BHTD, shapes[attn + "hook_z"], attn + "hook_z"],
        ["8", ".transpose(1, 2) — tokens first again", ("batch", "tokens", "heads", "d_head"),
         (b, t, h, dh), ""],
        ["9", f".reshape(batch, tokens, {dm}) — heads concatenated", BTD,
         shapes[attn + "hook_concat"], attn + "hook_concat"],
        ["10", "· W_Oᵀ — output projection", BTD, shapes[attn + "hook_out"], attn + "hook_out"],
    ]
    return [[step, _shape(shape), "(" + ", ".join(axes) + ")", op, src]
            for step, op, axes, shape, src in rows]


def trace_from_ids(model: Transformer, ids: list[int],
                   settings: AttentionSettings | None = None, layer: int = 0) -> ShapeTrace:
    config = model.config
    layer, _ = config.clamp(layer)
    result = ShapeTrace(len(ids), config, layer)
    if not ids:
        return result
    logits, cache = run_with_cache(model, torch.tensor([list(ids)]), settings)
    shapes = dict(cache.shapes)  # execution order
    shapes["logits"] = tuple(logits.shape)
    result.shapes = shapes
    for i, (name, shape) in enumerate(shapes.items(), start=1):
        if name == "logits":
            axes, what = ("batch", "tokens", "vocab"), "final · W_Uᵀ: a score per vocabulary entry"
        else:
            axes, what = HOOKS.get(_suffix(name), (tuple("?" * len(shape)), ""))
        result.trace.append([i, name, _shape(shape), "(" + ", ".join(axes) + ")",
                             _prod(shape), what])
    result.split = split_rows(shapes, config, layer)
    prefix = f"blocks.{layer}."
    for name, shape in shapes.items():
        if name.startswith(prefix) or not name.startswith("blocks."):
            axes = (("batch", "tokens", "vocab") if name == "logits"
                    else HOOKS.get(_suffix(name), ((),))[0])
            full = tuple(config.n_ctx if "tokens" in a else n
                         for a, n in zip(axes, shape, strict=False))
            result.sizes.append((name.removeprefix(prefix), shape, _prod(shape),
                                 _prod(full) if len(full) == len(shape) else _prod(shape)))
    return result


def shape_trace(model: Transformer, tok: Tokenizer, text: str,
                settings: AttentionSettings | None = None, layer: int = 0) -> ShapeTrace:
    config = model.config
    prep = prepare(tok, text, config.n_ctx, masked_word=not config.causal)
    result = trace_from_ids(model, prep.ids, settings, layer)
    result.notices = prep.notices
    return result
