"""Shared fixtures: tiny seeded models (every test using them runs in milliseconds), and the
app's real (tokenizer, zoo) for the tests that need the trained checkpoints."""

import pytest
import torch

from explorer.models.config import POSITIONAL_ENCODINGS, ModelConfig
from explorer.models.transformer import Transformer


def tiny_config(**overrides) -> ModelConfig:
    base = dict(vocab_size=61, d_model=32, n_layers=2, n_heads=4, d_ff=64, n_ctx=24)
    base.update(overrides)
    return ModelConfig(**base)


def tiny_model(seed: int = 0, **overrides) -> Transformer:
    torch.manual_seed(seed)
    return Transformer(tiny_config(**overrides)).eval()


@pytest.fixture
def model() -> Transformer:
    return tiny_model()


@pytest.fixture(params=POSITIONAL_ENCODINGS)
def any_pe_model(request) -> Transformer:
    return tiny_model(pos_encoding=request.param)


@pytest.fixture
def tokens() -> torch.Tensor:
    return torch.randint(0, 61, (1, 11), generator=torch.Generator().manual_seed(1))


@pytest.fixture(scope="module")
def resources():
    """(tokenizer, zoo) as the app loads them, with one torch thread like the server."""
    from explorer import app

    torch.set_num_threads(1)
    return app.load_resources()
