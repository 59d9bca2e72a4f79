"""Inside one attention head: every stage of one head's computation as plain arrays.

For one sentence, one layer and one head, :func:`head_stages` runs ONE forward
pass (:func:`~explorer.models.capture.run_with_cache`, limited to the hook points this
view needs) and returns the stages in the order the model computes them:

    X -> Q, K, V (-> rotated q, k) -> Q·Kᵀ -> × scale (+ ALiBi, ÷ T) -> mask -> softmax
      -> pattern·V -> heads concatenated -> output projection W_O

Each :class:`Stage` carries the 2-D matrix that is drawn (this head's slice where
the tensor has a head axis), the real shape of the captured tensor and a name
for every axis, so a figure can say "[5, 32] for this head, of [1, 4, 5, 32]".
Every control of the explorer applies (the same :class:`AttentionSettings`), so
flipping the mask or the scaling shows up at the stage it changes.

No gradio here, and no user text in any string this module writes: tokens are
returned separately, for Plotly labels only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
import torch

from explorer.analysis.run import plural, prepare
from explorer.models.capture import run_with_cache
from explorer.models.config import ModelConfig
from explorer.models.settings import AttentionSettings, ResolvedSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer


@dataclass(frozen=True)
class Stage:
    key: str  # "x", "q", "k", "v", "rot_q", "rot_k", "scores", "scaled", "masked", "pattern",
    #            "z", "concat", "out"
    step: str  # "1", "2", ... as printed next to the title
    title: str  # what this is, e.g. "Raw scores Q·Kᵀ"
    formula: str  # how it is computed, with the numbers of this model and these settings
    hook: str  # the hook point it was read from
    captured: tuple[int, ...]  # the full captured shape, e.g. (1, 4, 5, 5)
    captured_dims: tuple[str, ...]  # a name per captured axis
    values: np.ndarray  # the 2-D float32 matrix drawn (this head's slice)
    dims: tuple[str, str]  # names of the drawn axes, e.g. ("pos", "d_head")
    square: bool  # True for [query, key] matrices, False for [pos, features]
    blocked: np.ndarray | None = None  # bool [q, k]: True where the mask put -inf
    head_columns: tuple[int, int] | None = None  # [start, stop) of this head in d_model

    @property
    def shape(self) -> tuple[int, int]:
        return tuple(self.values.shape)

    @property
    def shape_text(self) -> str:
        """``[5, 32]  (pos, d_head)``."""
        numbers = ", ".join(str(n) for n in self.values.shape)
        return f"[{numbers}]  ({', '.join(self.dims)})"


@dataclass
class HeadStages:
    tokens: list[str]  # the student's tokens, for Plotly labels only
    ids: list[int]
    layer: int
    head: int
    config: ModelConfig
    resolved: ResolvedSettings
    stages: dict[str, Stage] = field(default_factory=dict)  # in compute order
    notices: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.tokens

    def __getitem__(self, key: str) -> Stage:
        return self.stages[key]


def scale_text(config: ModelConfig, rs: ResolvedSettings) -> str:
    """How the raw scores are scaled, with the numbers: '× 1/√d_head = 1/√32 ≈ 0.1768'."""
    if rs.scale_name == "d_head":
        text = f"× 1/√d_head = 1/√{config.d_head} ≈ {1 / math.sqrt(config.d_head):.4f}"
    elif rs.scale_name == "d_model":
        text = f"× 1/√d_model = 1/√{config.d_model} ≈ {1 / math.sqrt(config.d_model):.4f}"
    else:
        text = "× 1 (no scaling)"
    if rs.temperature != 1.0:
        text += f", ÷ temperature {rs.temperature:g} → × {rs.scale:.4f} in all"
    return text


def scaled_text(config: ModelConfig, rs: ResolvedSettings, model: Transformer,
                head: int) -> str:
    """How the scaled score is computed. Temperature divides the whole score, so with
    ALiBi it divides the distance penalty too: '(S × 1/√d_head + ALiBi bias) ÷ T'."""
    if config.pos_encoding != "alibi":
        return f"S {scale_text(config, rs)}"
    slope = float(model.pos.slopes[head])
    bias = f"ALiBi bias −{slope:.4g}·|i − j| (this head's slope {slope:.4g})"
    plain = replace(rs, scale=rs.scale * rs.temperature, temperature=1.0)
    if rs.temperature == 1.0:
        return f"S {scale_text(config, plain)} + {bias}"
    return f"(S {scale_text(config, plain)} + {bias}) ÷ temperature {rs.temperature:g}"


def hook_names(config: ModelConfig, layer: int) -> list[str]:
    """The hook points the inside-one-head view reads: one layer's attention only."""
    parts = ["x", "q", "k", "v"]
    if config.pos_encoding == "rotary":
        parts += ["rot_q", "rot_k"]
    parts += ["scores", "scaled", "masked", "pattern", "z", "concat", "out"]
    return [f"blocks.{layer}.attn.hook_{p}" for p in parts]


def stages_from_ids(model: Transformer, ids: list[int],
                    settings: AttentionSettings | None = None, layer: int = 0,
                    head: int = 0) -> HeadStages:
    """Every stage of ``(layer, head)`` for token ids ``ids`` (at least one)."""
    config = model.config
    settings = settings or AttentionSettings()
    rs = settings.resolve(config)
    layer, head = config.clamp(layer, head)
    result = HeadStages([], list(ids), layer, head, config, rs)
    if not ids:
        return result
    names = hook_names(config, layer)
    _, cache = run_with_cache(model, torch.tensor([list(ids)]), settings, names=names)

    def get(part: str) -> tuple[torch.Tensor, str]:
        name = f"blocks.{layer}.attn.hook_{part}"
        return cache[name], name

    dh, dm, nh = config.d_head, config.d_model, config.n_heads
    per_head = ("batch", "head", "pos", "d_head")
    square_dims = ("batch", "head", "query pos", "key pos")
    cols = (head * dh, (head + 1) * dh)
    pre = config.norm == "pre"
    stages: list[Stage] = []

    def add(key, title, formula, part, dims, drawn, square, **extra):
        tensor, name = get(part)
        values = tensor[0] if tensor.dim() == 3 else tensor[0, head]
        stages.append(Stage(
            key=key, step=str(len(stages) + 1), title=title, formula=formula, hook=name,
            captured=tuple(tensor.shape), captured_dims=dims,
            values=np.ascontiguousarray(values.float().numpy(), dtype=np.float32),
            dims=drawn, square=square, **extra))

    add("x", "Block input X",
        (f"X = LayerNorm₁(residual stream) — what the projections read (layer {layer})"
         if pre else f"X = the residual stream entering layer {layer} (post-LN model)"),
        "x", ("batch", "pos", "d_model"), ("pos", "d_model"), False)
    for role in ("q", "k", "v"):
        big = role.upper()
        add(role, f"{big} for head {head}",
            f"{big} = X · W_{big}ᵀ (one wide projection, {dm} columns, split into {nh} "
            f"heads of {dh}); head {head} keeps columns {cols[0]}–{cols[1] - 1}",
            role, per_head, ("pos", "d_head"), False)
    if config.pos_encoding == "rotary":
        for role in ("q", "k"):
            add(f"rot_{role}", f"{role} after rotary",
                f"each pair of dimensions (2i, 2i+1) of {role} turned by position × θᵢ",
                f"rot_{role}", per_head, ("pos", "d_head"), False)
    qk = "rotated q · rotated kᵀ" if config.pos_encoding == "rotary" else "Q · Kᵀ"
    add("scores", "Raw scores Q·Kᵀ", f"S = {qk}: one dot product per (query, key)",
        "scores", square_dims, ("query pos", "key pos"), True)
    add("scaled", "Scaled scores",
        scaled_text(config, rs, model, head),
        "scaled", square_dims, ("query pos", "key pos"), True)
    masked, _ = get("masked")
    blocked = torch.isneginf(masked[0, head]).numpy()
    if rs.causal:
        mask_note = "causal mask: a query may not see later keys, their scores become −∞"
    else:
        mask_note = "no mask: every query sees every key (nothing set to −∞)"
    add("masked", "Masked scores", mask_note, "masked", square_dims,
        ("query pos", "key pos"), True, blocked=blocked)
    add("pattern", "Attention pattern", "A = softmax(masked scores) along each row: every "
        "row sums to 1, −∞ becomes exactly 0", "pattern", square_dims,
        ("query pos", "key pos"), True, blocked=blocked)
    add("z", f"Head {head} output", "Z = A · V: each row is a weighted average of the "
        "value rows", "z", per_head, ("pos", "d_head"), False)
    side_by_side = "the one head's Z" if nh == 1 else f"all {nh} heads' Z side by side"
    add("concat", "Heads concatenated",
        f"{side_by_side}: [pos, heads × d_head] = [pos, {dm}]; head {head} "
        f"is columns {cols[0]}–{cols[1] - 1}",
        "concat", ("batch", "pos", "d_model"), ("pos", "d_model"), False, head_columns=cols)
    add("out", "Output projection",
        "out = concat · W_Oᵀ: mixes the heads back into the residual stream",
        "out", ("batch", "pos", "d_model"), ("pos", "d_model"), False)
    result.stages = {s.key: s for s in stages}
    return result


def head_stages(model: Transformer, tok: Tokenizer, text: str,
                settings: AttentionSettings | None = None, layer: int = 0,
                head: int = 0) -> HeadStages:
    """Tokenize the student's text (bounded like the explorer) and trace one head."""
    config = model.config
    prep = prepare(tok, text, config.n_ctx, masked_word=not config.causal)
    result = stages_from_ids(model, prep.ids, settings, layer, head)
    result.tokens = list(prep.pieces)
    result.notices = prep.notices
    return result


# --------------------------------------------------------------------------- for the tabs


@dataclass
class Picked:
    """The explorer's controls resolved for a teaching view."""

    name: str  # checkpoint name
    model: Transformer | None  # None: not trained / not loadable
    missing: str  # why the model is missing ("" when it is here)
    layer: int
    head: int
    notes: tuple[str, ...] = ()  # e.g. "head 7 does not exist here: showing head 3"


def pick(zoo, controls) -> Picked:
    """Checkpoint, layer and head for ``controls`` (an :class:`explorer.views.explore.Controls`),
    clamped to the model, with a note when the sliders ask for more than it has."""
    name = controls.checkpoint()
    model = zoo.get(name)
    if model is None:
        return Picked(name, None, zoo.why_missing(name), 0, 0)
    config = model.config
    layer, head = config.clamp(controls.layer, controls.head)
    # a knob past the model's range: say what is shown instead
    notes = tuple(f"This model has {plural(count, what)}{per}: showing {what} {shown}."
                  for what, asked, shown, count, per in (
                      ("layer", controls.layer, layer, config.n_layers, ""),
                      ("head", controls.head, head, config.n_heads, " per layer"))
                  if shown != asked)
    return Picked(name, model, "", layer, head, notes)


def model_line(zoo, picked: Picked, n_tokens: int) -> str:
    """'Model **causal-h4-rotary** · 5 tokens · ...' (Markdown, no user text)."""
    config = picked.model.config
    parts = [zoo.title(picked.name)]  # "**Your Lab model**" for a student's own
    if zoo.untrained:
        parts = ["⚠️ **Untrained stand-in model** (no checkpoint installed)"]
    parts += [plural(n_tokens, "token"), f"d_model {config.d_model}",
              f"{plural(config.n_heads, 'head')} × d_head {config.d_head}",
              ("no positional encoding" if config.pos_encoding == "none"
               else f"{config.pos_encoding} positions"),
              "no LayerNorm" if config.norm == "none" else f"{config.norm}-LN"]
    return " · ".join(parts)
