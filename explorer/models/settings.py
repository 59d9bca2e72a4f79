"""Runtime attention settings: experiments on a trained model, per call.

A :class:`AttentionSettings` travels with one forward pass as an argument; the
model is never mutated. Every field defaults to ``None`` = "as the checkpoint
was trained". :meth:`AttentionSettings.resolve` turns it into concrete values
plus the list of *interventions* (settings that differ from training), which the
UI shows as "an experiment on the trained model".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from explorer.models.config import SCALINGS, ModelConfig

# The scalings as the Scaling knob names them.
SCALE_WORDS = {"d_head": "1/√d_head", "d_model": "1/√d_model", "none": "none"}


@dataclass(frozen=True)
class AttentionSettings:
    causal: bool | None = None  # None: as trained (decoders causal, encoders not)
    scale: str | None = None  # "d_head" (1/sqrt(d_head)), "d_model" (1/sqrt(d_model)), "none"
    temperature: float = 1.0  # the whole score (scaled q·k + any ALiBi bias) is divided by it
    head_mask: tuple[tuple[int, int], ...] = ()  # (layer, head) pairs whose output is zeroed

    def resolve(self, config: ModelConfig) -> ResolvedSettings:
        causal = config.causal if self.causal is None else bool(self.causal)
        scale_name = config.attn_scale if self.scale is None else self.scale
        if scale_name not in SCALINGS:
            raise ValueError(f"scale must be one of {SCALINGS}, got {scale_name!r}")
        temperature = float(self.temperature)
        if not math.isfinite(temperature) or temperature <= 0:
            raise ValueError("temperature must be a positive finite number")
        for layer, head in self.head_mask:
            if not (0 <= layer < config.n_layers and 0 <= head < config.n_heads):
                raise ValueError(f"head ({layer}, {head}) does not exist in this model")

        factor = {
            "d_head": 1.0 / math.sqrt(config.d_head),
            "d_model": 1.0 / math.sqrt(config.d_model),
            "none": 1.0,
        }[scale_name]

        interventions = []
        if causal != config.causal:
            # "causal mask off (trained with it)" read as if the model had been trained
            # with the mask off: say what training had, then what is changed now
            interventions.append(f"causal mask {'on' if causal else 'off'} (the model was "
                                 f"trained with it {'on' if config.causal else 'off'})")
        if scale_name != config.attn_scale:
            interventions.append(f"scaling {SCALE_WORDS[scale_name]} (the model was trained "
                                 f"with {SCALE_WORDS[config.attn_scale]})")
        if temperature != 1.0:
            interventions.append(f"temperature {temperature:g}")
        if self.head_mask:
            heads = ", ".join(f"L{layer}H{head}" for layer, head in sorted(set(self.head_mask)))
            interventions.append(f"heads off: {heads}")
        return ResolvedSettings(
            causal=causal,
            scale_name=scale_name,
            scale=factor / temperature,
            temperature=temperature,
            head_mask=frozenset(self.head_mask),
            interventions=tuple(interventions),
        )


@dataclass(frozen=True)
class ResolvedSettings:
    """Concrete values one forward pass uses. ``scale`` already includes 1/temperature; a
    score bias (ALiBi) is divided by ``temperature`` where it is added (Attention.forward)."""

    causal: bool
    scale_name: str
    scale: float
    temperature: float
    head_mask: frozenset
    interventions: tuple[str, ...]

    @property
    def is_intervention(self) -> bool:
        return bool(self.interventions)

    def heads_off(self, layer: int) -> list[int]:
        return sorted(h for (lay, h) in self.head_mask if lay == layer)
