"""ModelConfig's small helpers."""

from __future__ import annotations

from explorer.models.config import ModelConfig


def test_clamp_moves_a_layer_and_head_into_the_models_range():
    c = ModelConfig(n_layers=4, n_heads=2)
    assert c.clamp(3, 1) == (3, 1)
    assert c.clamp(7, 5) == (3, 1)  # a head of a bigger model: this one's nearest
    assert c.clamp(-2, -1) == (0, 0)
    assert c.clamp("2") == (2, 0)
