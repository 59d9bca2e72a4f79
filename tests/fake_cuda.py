"""A stand-in GPU for machines without one: catches CPU tensors fed to a "GPU" model.

Without CUDA, a forgotten ``.to(device)`` or a ``.numpy()`` without ``.cpu()`` shows only
on a GPU machine. :class:`FakeCuda` is a ``TorchFunctionMode`` that pretends some tensors
live on ``cuda``: while it is active,

* :meth:`FakeCuda.put` marks a model's parameters and buffers as on the GPU;
* a tensor made with ``device="cuda"`` (or ``=x.device`` of a marked ``x``) or moved with
  ``.to("cuda")``/``.cuda()`` is marked; ``.cpu()``/``.to("cpu")`` gives an unmarked copy;
* what an op computes from a marked tensor is marked, and ``x.device`` of a marked tensor
  says ``cuda``;
* an op that mixes a marked tensor with an unmarked one of one element or more (torch
  allows CPU *scalars*, 0-d, beside CUDA tensors, and CPU index tensors into a CUDA
  tensor) raises :class:`DeviceMix`, as CUDA would; so does ``.numpy()`` or
  ``np.asarray`` of a marked tensor.

Everything still computes on the CPU, so the numbers are the real ones. Test helper only.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

CUDA = torch.device("cuda")
# Ops that may take tensors of two devices: copies and moves, and indexing a GPU tensor
# with CPU indices.
_MOVES = {torch.Tensor.to, torch.Tensor.cpu, torch.Tensor.cuda, torch.Tensor.copy_}
_INDEXING = {torch.Tensor.__getitem__, torch.Tensor.__setitem__, torch.Tensor.index_put_,
             torch.Tensor.index_put}
_TO_NUMPY = {torch.Tensor.numpy, torch.Tensor.__array__}


class DeviceMix(RuntimeError):
    """A CPU tensor met a (fake) GPU tensor where CUDA would refuse it."""


def _tensors(obj) -> Iterator[torch.Tensor]:
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _tensors(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from _tensors(item)


def _is_cuda(device) -> bool | None:
    """True / False for a device argument naming cuda / cpu; None for anything else."""
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        return device.type == "cuda"
    return None


class FakeCuda(TorchFunctionMode):
    def __init__(self) -> None:
        super().__init__()
        self._marked: dict[int, weakref.ref] = {}

    # ------------------------------------------------------------------ marks
    def on_gpu(self, t: torch.Tensor) -> bool:
        ref = self._marked.get(id(t))
        return ref is not None and ref() is t

    def _mark(self, obj) -> None:
        for t in _tensors(obj):
            key = id(t)
            self._marked[key] = weakref.ref(t, lambda _r, key=key: self._marked.pop(key, None))

    def put(self, model: nn.Module) -> nn.Module:
        """Mark ``model``'s parameters and buffers as on the GPU (its "``.to('cuda')``")."""
        self._mark(list(model.parameters()) + list(model.buffers()))
        return model

    # ------------------------------------------------------------------ dispatch
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        descriptor = getattr(func, "__self__", None)
        if descriptor is torch.Tensor.device and args and self.on_gpu(args[0]):
            return CUDA  # ``x.device`` of a marked tensor
        if descriptor is torch.Tensor.is_cuda and args and self.on_gpu(args[0]):
            return True
        inputs = list(_tensors(args)) + list(_tensors(kwargs))
        gpu = [t for t in inputs if self.on_gpu(t)]
        if func in _TO_NUMPY and gpu:
            raise DeviceMix(f"{func.__name__}() of a CUDA tensor: call .cpu() first")
        if _is_cuda(kwargs.get("device")):  # a factory asked for the GPU
            out = func(*args, **{**kwargs, "device": "cpu"})
            self._mark(out)
            return out
        if func in _MOVES:
            return self._move(func, args, kwargs, gpu)
        if gpu and func not in _INDEXING:
            cpu = [t for t in inputs if not self.on_gpu(t) and t.dim() > 0]
            if cpu:
                raise DeviceMix(f"{getattr(func, '__name__', func)}: a CPU tensor of shape "
                                f"{tuple(cpu[0].shape)} beside a CUDA tensor")
        if func in _INDEXING and args and not self.on_gpu(args[0]) and gpu:
            raise DeviceMix(f"{func.__name__}: a CPU tensor indexed with a CUDA tensor")
        out = func(*args, **kwargs)
        if gpu and (func not in _INDEXING or self.on_gpu(args[0])):
            self._mark(out)
        return out

    def _move(self, func, args, kwargs, gpu):
        self_gpu = bool(args) and self.on_gpu(args[0])
        if func is torch.Tensor.cpu:  # really on the CPU already: copy, so the copy is unmarked
            out = func(*args, **kwargs)
            return out.clone() if self_gpu and out is args[0] else out
        if func is torch.Tensor.cuda:
            out = args[0].clone()
            self._mark(out)
            return out
        if func is torch.Tensor.copy_:
            return func(*args, **kwargs)  # copies across devices are allowed
        # Tensor.to(device | dtype | tensor, ...): find where it goes
        target = None
        for a in (*args[1:], kwargs.get("device")):
            found = _is_cuda(a)
            if found is None and isinstance(a, torch.Tensor):
                found = self.on_gpu(a)
            if found is not None:
                target = found
                break
        clean = [a if _is_cuda(a) is None else "cpu" for a in args]
        if "device" in kwargs:
            kwargs = {**kwargs, "device": "cpu"}
        out = func(*clean, **kwargs)
        if target is None:
            target = self_gpu
        if target:
            if out is args[0]:  # no copy was made: the same tensor, now "moved"
                out = out.clone()
            self._mark(out)
        elif self_gpu and out is args[0]:
            out = out.clone()  # .to("cpu") of a marked tensor: an unmarked copy
        return out
