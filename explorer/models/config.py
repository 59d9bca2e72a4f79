"""Model configuration: the one dataclass that describes an architecture.

It is saved (as JSON) inside every checkpoint's metadata and is enough to
rebuild the model, so a checkpoint is never separated from the knobs it was
trained with. Runtime attention experiments (mask off, other scaling, ...) are
*not* here: they live in :mod:`explorer.models.settings` and never change the model.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields

POSITIONAL_ENCODINGS = ("none", "sinusoidal", "learned", "rotary", "alibi")
# "none": no LayerNorm at all (the Lab's attention-only models: an induction head forms
# several times faster without it, issue 32)
NORM_PLACEMENTS = ("pre", "post", "none")
# How the weights start: "gpt2" (normal 0.02, residual writes shrunk; every zoo model) or
# "torch" (each nn module's own default; the Lab's tiny models learn much faster from it)
INITS = ("gpt2", "torch")
SCALINGS = ("d_head", "d_model", "none")
# What the network is for (notebook 003 builds the first two, 001/004 the third):
# "lm": a language model (causal next-token or bidirectional masked-word),
#   explorer/models/transformer.py;
# "classify": an encoder whose pooled output feeds a class head, explorer/models/classifier.py;
# "seq2seq": an encoder-decoder with cross-attention, explorer/models/encoder_decoder.py.
TASKS = ("lm", "classify", "seq2seq")


@dataclass(frozen=True)
class ModelConfig:
    vocab_size: int = 4096
    d_model: int = 128
    n_layers: int = 4
    n_heads: int = 4
    d_ff: int = 512
    n_ctx: int = 128  # maximum context (tokens)
    pos_encoding: str = "rotary"  # one of POSITIONAL_ENCODINGS
    causal: bool = True  # True: decoder trained on next-token; False: encoder, masked-word
    norm: str = "pre"  # "pre" (GPT-2 style) or "post" (as in "Attention Is All You Need")
    attn_scale: str = "d_head"  # the scaling the model was trained with, one of SCALINGS
    dropout: float = 0.0
    tie_embeddings: bool = True
    rotary_base: float = 10000.0
    task: str = "lm"  # one of TASKS
    n_classes: int = 0  # "classify" only: number of classes
    n_dec_layers: int = 0  # "seq2seq" only: decoder blocks (n_layers counts the encoder's)
    mlp: bool = True  # False: attention-only blocks (the Lab), no feed-forward at all
    init: str = "gpt2"  # one of INITS

    def __post_init__(self) -> None:
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}")
        if self.pos_encoding not in POSITIONAL_ENCODINGS:
            raise ValueError(f"pos_encoding must be one of {POSITIONAL_ENCODINGS}")
        if self.norm not in NORM_PLACEMENTS:
            raise ValueError(f"norm must be one of {NORM_PLACEMENTS}")
        if self.attn_scale not in SCALINGS:
            raise ValueError(f"attn_scale must be one of {SCALINGS}")
        if self.task not in TASKS:
            raise ValueError(f"task must be one of {TASKS}")
        if self.init not in INITS:
            raise ValueError(f"init must be one of {INITS}")
        if self.task != "lm" and (self.norm == "none" or not self.mlp):
            raise ValueError("only a language model may leave out its norms or its MLPs")
        if self.pos_encoding == "rotary" and self.d_head % 2:
            raise ValueError("rotary needs an even d_head")

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    def clamp(self, layer, head=0) -> tuple[int, int]:
        """(layer, head) moved into this model's range: a knob (or a link) may name a head
        only a bigger model has, and a view then shows this model's nearest one."""
        return (min(max(int(layer), 0), self.n_layers - 1),
                min(max(int(head), 0), self.n_heads - 1))

    def to_dict(self) -> dict:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict) -> ModelConfig:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown config fields: {sorted(unknown)}")
        return cls(**data)

    @classmethod
    def from_json(cls, text: str) -> ModelConfig:
        return cls.from_dict(json.loads(text))
