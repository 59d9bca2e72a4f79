"""Which device the models run on: the CPU, or a CUDA GPU when there is one.

:func:`resolve_device` turns a choice into a device name: the explicit choice (``--device``)
if given, else the environment variable ``AE_DEVICE``, else ``"auto"``; ``"auto"`` is
``"cuda"`` when ``torch.cuda.is_available()`` and ``"cpu"`` otherwise, so a machine
without a GPU serves as it always did. Only ``cpu``, ``cuda``, ``cuda:N`` and ``auto``
are accepted; anything else, or a GPU asked for where there is none, raises
:class:`DeviceError` with one sentence a person can act on (the app prints it and exits,
no traceback for a typo).

:func:`model_device` is where a model's weights live: every tensor made for a model
(inputs, masks) goes there, and everything read back goes to the CPU before numpy.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

import torch
from torch import nn

ENV_VAR = "AE_DEVICE"
CHOICES = ("auto", "cpu", "cuda", "cuda:N")
_CUDA_RE = re.compile(r"cuda(?::(\d+))?")


class DeviceError(ValueError):
    """A device choice that is malformed or names a GPU this machine does not have."""


def resolve_device(choice: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """``"cpu"``, ``"cuda"`` or ``"cuda:N"`` from ``choice``, else ``env[AE_DEVICE]``, else
    auto (see the module docstring). ``env`` defaults to ``os.environ`` (tests pass their
    own)."""
    env = os.environ if env is None else env
    if choice is not None and str(choice).strip():
        raw, source = str(choice), "--device"
    else:
        raw, source = env.get(ENV_VAR, ""), ENV_VAR
    value = raw.strip().lower() or "auto"
    if value == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if value == "cpu":
        return "cpu"
    match = _CUDA_RE.fullmatch(value)
    if match is None:
        raise DeviceError(f"{source} is {raw!r}, which is not a device here: use one of "
                          f"{', '.join(CHOICES)}.")
    if not torch.cuda.is_available():
        raise DeviceError(f"{source} asks for {value}, but this machine has no CUDA GPU that "
                          f"torch {torch.__version__} can use: use cpu or auto.")
    index = match.group(1)
    if index is not None and int(index) >= torch.cuda.device_count():
        raise DeviceError(f"{source} asks for {value}, but this machine has "
                          f"{torch.cuda.device_count()} CUDA device(s), numbered from 0.")
    return value


def describe(device: str | torch.device) -> str:
    """The device in words for the start-up log: ``cuda:0 (NVIDIA H100 80GB HBM3)``."""
    device = torch.device(device)
    if device.type != "cuda":
        return f"{device.type} ({torch.get_num_threads()} torch thread(s))"
    index = device.index if device.index is not None else torch.cuda.current_device()
    return f"cuda:{index} ({torch.cuda.get_device_name(index)})"


def model_device(model: nn.Module) -> torch.device:
    """Where the model's weights are (every model here has at least one)."""
    return next(model.parameters()).device


def warm_up(model: nn.Module) -> None:
    """One tiny forward pass where the model lives, at start-up. On a GPU the first pass
    pays for CUDA's lazy set-up (kernels loaded, cuBLAS's handle made), which the first
    student's keystroke would otherwise wait for; on the CPU there is nothing to do.
    ``model`` takes token ids alone (a zoo model)."""
    device = model_device(model)
    if device.type == "cpu":
        return
    with torch.inference_mode():
        model(torch.zeros(1, 2, dtype=torch.long, device=device))
    torch.cuda.synchronize(device)
