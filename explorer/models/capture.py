"""Per-call capture of named intermediate tensors through forward hooks.

``run_with_cache(model, tokens, ...)`` runs one forward pass and returns the
logits plus a fresh :class:`Cache` of the hook points it was asked for
(detached, on CPU) and their shapes. Hooks are registered for the call only and
removed in ``finally``; nothing is stored on the model or at module level.

Thread safety: Gradio runs handlers on a thread pool over one shared model, and
a forward hook on a shared module fires for *every* thread's forward pass. Each
call therefore tags its hooks with its own cache object and records only while
that object is the one active in the current context (a ``ContextVar`` is
per-thread and per-asyncio-task), so concurrent calls never see each other's
tensors.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar

import torch

from explorer.models.settings import AttentionSettings, ResolvedSettings
from explorer.models.transformer import Transformer

# Which Cache is being filled in this thread/task. It holds no data itself.
_ACTIVE_CACHE: ContextVar[Cache | None] = ContextVar("active_cache", default=None)

NameFilter = str | Iterable[str] | Callable[[str], bool] | None


class Cache(Mapping[str, torch.Tensor]):
    """Named tensors of one forward pass, in the order the model produced them."""

    def __init__(self, settings: ResolvedSettings) -> None:
        self._tensors: dict[str, torch.Tensor] = {}
        self.settings = settings

    def __getitem__(self, name: str) -> torch.Tensor:
        return self._tensors[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tensors)

    def __len__(self) -> int:
        return len(self._tensors)

    @property
    def shapes(self) -> dict[str, tuple[int, ...]]:
        return {name: tuple(t.shape) for name, t in self._tensors.items()}

    @property
    def interventions(self) -> tuple[str, ...]:
        return self.settings.interventions

    def stack(self, suffix: str, prefix: str = "blocks.") -> torch.Tensor:
        """All layers' ``{prefix}{i}.<suffix>`` stacked on a new leading layer axis
        (e.g. ``stack("attn.hook_pattern")`` -> ``[layer, batch, head, q, k]``;
        ``stack("cross_attn.hook_pattern", "dec_blocks.")`` for an encoder-decoder)."""
        layers = sorted(
            (int(name[len(prefix):].split(".")[0]), t) for name, t in self._tensors.items()
            if name.startswith(prefix) and name.endswith("." + suffix)
        )
        if not layers:
            raise KeyError(f"no captured tensor ends with {suffix!r}")
        return torch.stack([t for _, t in layers])

    def _record(self, name: str, tensor: torch.Tensor) -> None:
        self._tensors[name] = tensor.detach().to("cpu", copy=False)


def select_names(all_names: Iterable[str], names: NameFilter) -> list[str]:
    """Resolve a filter (None = everything, a glob or exact name, a list of them, or a
    predicate) to hook names; an unknown exact name is an error, not an empty capture."""
    all_names = list(all_names)
    if names is None:
        return all_names
    if callable(names):
        return [n for n in all_names if names(n)]
    patterns = [names] if isinstance(names, str) else list(names)
    chosen: list[str] = []
    for pattern in patterns:
        hits = fnmatch.filter(all_names, pattern)
        if not hits:
            raise KeyError(f"no hook point matches {pattern!r}")
        chosen.extend(h for h in hits if h not in chosen)
    return [n for n in all_names if n in chosen]  # keep model order


def run_with_cache(
    model: Transformer,
    tokens: torch.Tensor,
    settings: AttentionSettings | None = None,
    names: NameFilter = None,
    key_padding_mask: torch.Tensor | None = None,
    edits: Mapping[str, Callable[[torch.Tensor], torch.Tensor]] | None = None,
    **inputs: torch.Tensor | None,
) -> tuple[torch.Tensor, Cache]:
    """One inference forward pass on the explicit attention path.

    tokens: ``[batch, pos]`` int64 (a 1-D sequence is treated as batch 1).
    ``edits``: hook name -> function of that point's output returning what the rest of the
    model sees instead (patching: a hook that swaps a value), for this call only; an
    edited point that is also captured is recorded as edited.
    ``inputs``: further tensors the model's forward takes by name (an encoder-decoder's
    ``tgt``, ``src_padding_mask``, ...); None values are left out.
    Returns (logits ``[batch, pos, vocab]`` on CPU, Cache).
    """
    if tokens.dim() == 1:
        tokens = tokens[None]
    settings = settings or AttentionSettings()
    cache = Cache(settings.resolve(model.config))
    points = model.hook_points()
    wanted = select_names(points, names)
    edits = dict(edits or {})
    unknown = set(edits) - set(points)
    if unknown:
        raise KeyError(f"no hook point named {sorted(unknown)[0]!r}")

    def make_hook(name: str):
        edit, record = edits.get(name), name in wanted

        def hook(module, inputs, output):
            if _ACTIVE_CACHE.get() is not cache:
                return None  # another call's forward pass: leave it alone
            if edit is not None:
                output = edit(output)
            if record:
                cache._record(name, output)
            return output if edit is not None else None
        return hook

    handles = []
    token = _ACTIVE_CACHE.set(cache)
    try:
        for name in [*wanted, *(n for n in edits if n not in wanted)]:
            handles.append(points[name].register_forward_hook(make_hook(name)))
        device = next(model.parameters()).device
        extra = {name: t.to(device) for name, t in
                 {"key_padding_mask": key_padding_mask, **inputs}.items() if t is not None}
        with torch.inference_mode():
            logits = model(tokens.to(device), settings=settings, **extra)
        return logits.detach().float().cpu(), cache
    finally:
        for handle in handles:
            handle.remove()
        _ACTIVE_CACHE.reset(token)
