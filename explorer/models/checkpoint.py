"""Saving and loading models as safetensors (never pickles).

A checkpoint is ``NAME.safetensors`` whose header metadata holds the model
config as JSON, plus an optional ``NAME.json`` card written by the trainer.
Loading checks what it reads: every expected tensor present with the right
shape, nothing extra, all values finite. Anything wrong raises
:class:`CheckpointError` with a sentence a person can act on.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file

from explorer.models.config import ModelConfig
from explorer.models.transformer import Transformer

CONFIG_KEY = "explorer_config"


class CheckpointError(Exception):
    """A checkpoint that is missing, altered, or does not match its config."""


def sha256_file(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


# Random initialisation is most of the cost of building a model whose every weight a
# checkpoint then overwrites: 0.7 of 1.0 s for the 23 checkpoints here. torch's layers
# call these ``torch.nn.init`` functions from their constructors (and so does our own
# init), so while a checkpoint loads they return the tensor untouched. Gated by a
# ContextVar, not a global switch: a model another thread builds meanwhile (the lessons
# build seeded ones per request) is initialised as usual. load_model refuses a file that
# lacks any weight, so no uninitialised one survives.
_SKIP_INIT: ContextVar[bool] = ContextVar("skip_init", default=False)
_INIT_FUNCTIONS = ("uniform_", "normal_", "trunc_normal_", "constant_", "ones_", "zeros_",
                   "kaiming_uniform_", "kaiming_normal_", "xavier_uniform_", "xavier_normal_")
_INSTALL_LOCK = threading.Lock()


def _skippable(init_fn):
    @functools.wraps(init_fn)
    def init(tensor, *args, **kwargs):
        return tensor if _SKIP_INIT.get() else init_fn(tensor, *args, **kwargs)

    init.skippable = True
    return init


@contextmanager
def weights_from_file() -> Iterator[None]:
    """Within this block (and this thread or task only), building a model skips the
    random initialisation of its weights: the caller loads every one of them."""
    with _INSTALL_LOCK:
        for name in _INIT_FUNCTIONS:
            fn = getattr(torch.nn.init, name, None)
            if fn is not None and not getattr(fn, "skippable", False):
                setattr(torch.nn.init, name, _skippable(fn))
    token = _SKIP_INIT.set(True)
    try:
        yield
    finally:
        _SKIP_INIT.reset(token)


def build_model(config: ModelConfig) -> torch.nn.Module:
    """The network a config describes (its ``task`` picks the class; imported lazily so
    the language model does not depend on the other two)."""
    if config.task == "classify":
        from explorer.models.classifier import Classifier
        return Classifier(config)
    if config.task == "seq2seq":
        from explorer.models.encoder_decoder import EncoderDecoder
        return EncoderDecoder(config)
    return Transformer(config)


def _own_tensors(model: Transformer) -> dict[str, torch.Tensor]:
    """State dict without the tied unembedding (safetensors refuses shared storage)."""
    state = model.state_dict()
    if model.config.tie_embeddings and "W_U.weight" in state:
        state.pop("W_U.weight")
    return state


def save_model(model: Transformer, path: str | Path, dtype: torch.dtype = torch.float32,
               extra_metadata: dict[str, str] | None = None) -> Path:
    """Write atomically (temp file, then rename) so no half-written checkpoint exists."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tensors = {k: v.detach().to("cpu", dtype).contiguous() for k, v in _own_tensors(model).items()}
    metadata = {CONFIG_KEY: model.config.to_json(), **(extra_metadata or {})}
    tmp = path.with_name(path.name + ".tmp")
    save_file(tensors, str(tmp), metadata=metadata)
    tmp.replace(path)
    return path


def read_config(path: str | Path) -> ModelConfig:
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        meta = f.metadata() or {}
    if CONFIG_KEY not in meta:
        raise CheckpointError(f"{Path(path).name}: no model config in its metadata")
    try:
        return ModelConfig.from_json(meta[CONFIG_KEY])
    except (ValueError, TypeError, ArithmeticError) as exc:  # bad JSON, wrong types/values
        raise CheckpointError(f"{Path(path).name}: invalid model config in its metadata "
                              f"({exc})") from exc


def load_model(path: str | Path, device: str | torch.device = "cpu",
               expected_sha256: str | None = None) -> Transformer:
    """Build the model from the config inside the file and load its weights (float32)."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"{path.name}: file not found")
    if expected_sha256 is not None and sha256_file(path) != expected_sha256:
        raise CheckpointError(f"{path.name}: sha256 differs from the manifest (altered file?)")
    try:
        config = read_config(path)
        tensors = load_file(str(path))
    except (SafetensorError, OSError, ValueError, json.JSONDecodeError) as exc:
        raise CheckpointError(
            f"{path.name}: not a readable safetensors checkpoint ({exc})") from exc

    try:
        with weights_from_file():
            model = build_model(config)
    except (ValueError, TypeError, ArithmeticError, RuntimeError) as exc:
        raise CheckpointError(f"{path.name}: its model config cannot be built ({exc})") from exc
    expected = _own_tensors(model)
    missing = sorted(set(expected) - set(tensors))
    extra = sorted(set(tensors) - set(expected))
    if missing or extra:
        raise CheckpointError(
            f"{path.name}: tensors missing {missing[:3]} / unexpected {extra[:3]}")
    for name, ref in expected.items():
        got = tensors[name]
        if tuple(got.shape) != tuple(ref.shape):
            raise CheckpointError(f"{path.name}: {name} has shape {tuple(got.shape)}, "
                                  f"config says {tuple(ref.shape)}")
    weights = {k: v.float() for k, v in tensors.items()}
    # One check over all weights at once (a check per tensor cost more than reading them);
    # only a bad file pays for finding which tensor it is.
    if weights and not torch.isfinite(torch.cat([w.reshape(-1) for w in weights.values()])).all():
        name = next(k for k, w in weights.items() if not torch.isfinite(w).all())
        raise CheckpointError(f"{path.name}: {name} holds NaN or infinite values")
    model.load_state_dict(weights, strict=False)
    return model.to(device).eval()
