"""Training snapshots of the default model: the same model at several points of training.

The trainer saves ``checkpoints/snapshots/{name}/step_*.safetensors`` and lists them
in the model's card (``checkpoints/{name}.json``, ``"snapshots": [{"step", "tokens",
"train_loss", "file"}, ...]``) and their sha256 in ``checkpoints/manifest.json``.
:func:`load_snapshots` loads every one through the same checks as a checkpoint of
the zoo (:func:`explorer.models.checkpoint.load_model`: manifest sha256, tensor names and
shapes, finite values) plus: the file name a card gives must be a plain
``step_NNNNN.safetensors`` (no path), the snapshot's config must equal the final
model's, and its vocabulary must match the tokenizer. A snapshot that fails is
skipped with a reason; the rest still serve.

:func:`cached_snapshots` loads once per (directory, name, device) and keeps the result in
a small module-level cache, read-only after load (models are in eval mode and only
ever run under ``torch.inference_mode``); nothing per-user is stored here.

:func:`snapshot_view` is one request of the "Through training" tab: the chosen
snapshot's attention on the student's sentence plus the numbers to show with it.
No gradio here.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from explorer.analysis.head_labels import copy_scores, doubled
from explorer.analysis.head_stats import previous_token_share
from explorer.analysis.run import prepare
from explorer.models.capture import run_with_cache
from explorer.models.checkpoint import CheckpointError, load_model, read_config
from explorer.models.settings import AttentionSettings, ResolvedSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer
from explorer.models.zoo import CHECKPOINT_DIR, DEFAULT_NAME, read_manifest

log = logging.getLogger(__name__)

FILE_RE = re.compile(r"^step_\d{1,9}\.safetensors$")
PREV_TOKEN_THRESHOLD = 0.5  # a head "is" a previous-token head above this mean weight


@dataclass(frozen=True)
class Snapshot:
    step: int
    tokens: int  # training tokens seen when it was saved
    train_loss: float | None
    file: str
    model: Transformer


@dataclass(frozen=True)
class SnapshotSet:
    name: str  # the checkpoint these are snapshots of
    snapshots: tuple[Snapshot, ...]  # by step
    history: tuple[dict, ...]  # the card's validation history: {"step", "tokens", "val_loss"}
    unavailable: tuple[tuple[str, str], ...] = ()  # (file, reason)
    total_steps: int | None = None

    def __len__(self) -> int:
        return len(self.snapshots)

    def get(self, index) -> Snapshot:
        """The snapshot at ``index`` (bounded to the ones that exist; last when unreadable)."""
        if not self.snapshots:
            raise IndexError("no training snapshot is available")
        try:
            i = int(index)
        except (TypeError, ValueError, OverflowError):
            i = len(self.snapshots) - 1
        return self.snapshots[min(max(i, 0), len(self.snapshots) - 1)]


def _number(value, kind=float):
    try:
        out = kind(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return out if np.isfinite(out) else None


def _history(card: dict) -> tuple[dict, ...]:
    rows = []
    for row in card.get("history") or ():
        if not isinstance(row, dict):
            continue
        step, tokens, loss = (_number(row.get("step"), int), _number(row.get("tokens"), int),
                              _number(row.get("val_loss")))
        if step is not None and tokens is not None and loss is not None:
            rows.append({"step": step, "tokens": tokens, "val_loss": loss})
    return tuple(sorted(rows, key=lambda r: r["step"]))


def load_snapshots(directory: Path = CHECKPOINT_DIR, name: str = DEFAULT_NAME,
                   vocab_size: int | None = None, device: str = "cpu") -> SnapshotSet:
    """Every snapshot of ``name`` that passes the checks (see the module docstring), its
    model on ``device``."""
    directory = Path(directory)
    card_path = directory / f"{name}.json"
    try:
        card = json.loads(card_path.read_text())
    except (OSError, ValueError) as exc:
        log.warning("no training snapshots: %s unreadable (%s)", card_path.name, exc)
        return SnapshotSet(name, (), (), (("card", "the model card is missing or unreadable"),))
    manifest = read_manifest(directory)
    final = directory / f"{name}.safetensors"
    try:
        final_config = read_config(final)
    except Exception as exc:  # missing, unreadable or invalid: no snapshots, app still runs
        log.warning("no training snapshots: %s", exc)
        return SnapshotSet(name, (), _history(card), (("final", f"{final.name} unreadable"),))
    loaded: list[Snapshot] = []
    skipped: list[tuple[str, str]] = []
    entries = card.get("snapshots") or []
    for entry in entries if isinstance(entries, list) else []:
        file = str(entry.get("file", "")) if isinstance(entry, dict) else ""
        try:
            if not FILE_RE.match(file):
                raise CheckpointError(f"{file or '?'}: not a snapshot file name")
            rel = f"snapshots/{name}/{file}"
            expected = manifest.get(rel)
            if expected is None:
                raise CheckpointError(f"{file}: not listed in manifest.json")
            model = load_model(directory / rel, device=device, expected_sha256=expected)
            if model.config != final_config:
                raise CheckpointError(f"{file}: its config differs from {name}'s")
            if vocab_size is not None and model.config.vocab_size != vocab_size:
                raise CheckpointError(f"{file}: vocabulary does not match the tokenizer")
            step, tokens = _number(entry.get("step"), int), _number(entry.get("tokens"), int)
            if step is None or tokens is None:
                raise CheckpointError(f"{file}: the card gives no step/tokens for it")
        except (CheckpointError, OSError, ValueError, RuntimeError) as exc:
            log.warning("skipping snapshot: %s", exc)
            skipped.append((file, str(exc).split(": ", 1)[-1]))
            continue
        for p in model.parameters():
            p.requires_grad_(False)
        loaded.append(Snapshot(step, tokens, _number(entry.get("train_loss")), file, model))
    loaded.sort(key=lambda s: s.step)
    return SnapshotSet(name, tuple(loaded), _history(card), tuple(skipped),
                       _number(card.get("steps"), int))


_CACHE: dict[tuple[str, str, str], SnapshotSet] = {}
_LOCK = threading.Lock()


def cached_snapshots(directory: Path = CHECKPOINT_DIR, name: str = DEFAULT_NAME,
                     vocab_size: int | None = None, device: str = "cpu") -> SnapshotSet:
    """:func:`load_snapshots` once per (directory, name, device); later calls share the
    result (the device is part of the key: a check may hold a CPU and a GPU copy)."""
    key = (str(Path(directory).resolve()), name, str(device))
    with _LOCK:
        if key not in _CACHE:
            _CACHE[key] = load_snapshots(directory, name, vocab_size, device)
        return _CACHE[key]


# --------------------------------------------------------------------------- one request


@dataclass
class SnapshotResult:
    tokens: list[str]  # for labels only
    index: int  # which snapshot (0-based, after bounding)
    snapshot: Snapshot
    patterns: np.ndarray  # [layer, head, T, T] float32
    prev_share: np.ndarray  # [layer, head]
    resolved: ResolvedSettings
    notices: tuple[str, ...] = ()
    previous_heads: list[tuple[int, int, float]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.tokens


def snapshot_view(snaps: SnapshotSet, tok: Tokenizer, text: str, index,
                  settings: AttentionSettings | None = None) -> SnapshotResult:
    """The chosen snapshot's attention on the sentence (one forward pass)."""
    snap = snaps.get(index)
    i = snaps.snapshots.index(snap)
    config = snap.model.config
    prep = prepare(tok, text, config.n_ctx, masked_word=not config.causal)
    settings = settings or AttentionSettings()
    resolved = settings.resolve(config)
    if not prep.ids:
        empty = np.zeros((config.n_layers, config.n_heads, 0, 0), np.float32)
        return SnapshotResult([], i, snap, empty, np.zeros((config.n_layers, config.n_heads)),
                              resolved, prep.notices)
    _, cache = run_with_cache(snap.model, torch.tensor([prep.ids]), settings,
                              names="*hook_pattern")
    patterns = cache.stack("attn.hook_pattern")[:, 0].numpy()
    prev = previous_token_share(patterns)
    heads = [(int(la), int(h), float(prev[la, h]))
             for la, h in zip(*np.nonzero(prev > PREV_TOKEN_THRESHOLD), strict=True)]
    heads.sort(key=lambda x: -x[2])
    return SnapshotResult(prep.pieces, i, snap, patterns, prev, resolved, prep.notices, heads)


def even_spread(n_tokens: int, causal: bool) -> float:
    """The previous-token share a head would have by spreading attention evenly: query
    ``i`` sees ``i + 1`` keys under the causal mask (all ``T`` without it)."""
    if n_tokens < 2:
        return 0.0
    if not causal:
        return 1.0 / n_tokens
    return float(np.mean(1.0 / np.arange(2, n_tokens + 1)))


# A list of everyday one-token words, not a training template: said twice, the copy is the
# only way to predict its second half, so the copying head shows here even when the
# student's sentence (whose second copy the story prior predicts too) barely uses it.
COPY_PROBE = "spoon lamp sock bread egg coat fork shoe"


def induction_trend(snaps: SnapshotSet, tok: Tokenizer, text: str,
                    settings: AttentionSettings | None = None) -> list[float] | None:
    """For each snapshot, the largest weight any head puts on the copy target when the
    sentence is said twice (:func:`explorer.analysis.head_labels.copy_scores`); None when
    the doubled sentence does not fit the context or is too short."""
    if not len(snaps):
        return None
    config = snaps.snapshots[0].model.config
    ids = prepare(tok, text, config.n_ctx, masked_word=not config.causal).ids
    rep = doubled(ids, config.n_ctx) if config.causal else None
    if rep is None:
        return None
    out = []
    for snap in snaps.snapshots:
        _, cache = run_with_cache(snap.model, torch.tensor([rep]), settings,
                                  names="*hook_pattern")
        patterns = cache.stack("attn.hook_pattern")[:, 0].double().numpy()
        out.append(float(copy_scores(patterns, len(ids)).max()))
    return out


def copy_control(snaps: SnapshotSet, tok: Tokenizer, index: int, text: str = COPY_PROBE,
                 settings: AttentionSettings | None = None) -> tuple[float, float] | None:
    """Is snapshot ``index``'s best copying head copying? (its weight on the copy target
    when ``text`` is said twice, its weight on the same places when the second half is the
    same tokens in another order: the list's two halves swapped). A head that only looks a
    fixed distance back scores about the same on both; one that copies drops on the second.
    None when the doubled text does not fit."""
    model = snaps.snapshots[index].model
    ids = prepare(tok, text, model.config.n_ctx, masked_word=False).ids
    rep = doubled(ids, model.config.n_ctx)
    if rep is None:
        return None
    n = len(ids)
    swapped = ids + ids[n // 2:] + ids[:n // 2]
    scores = []
    for seq in (rep, swapped):
        _, cache = run_with_cache(model, torch.tensor([seq]), settings, names="*hook_pattern")
        scores.append(copy_scores(cache.stack("attn.hook_pattern")[:, 0].double().numpy(), n))
    best = np.unravel_index(int(scores[0].argmax()), scores[0].shape)
    return float(scores[0][best]), float(scores[1][best])


def previous_token_trend(snaps: SnapshotSet, tok: Tokenizer, text: str,
                         settings: AttentionSettings | None = None) -> list[float]:
    """For each snapshot, the largest previous-token share of any head on the sentence
    (one forward pass per snapshot)."""
    return [float(snapshot_view(snaps, tok, text, i, settings).prev_share.max(initial=0.0))
            for i in range(len(snaps))]
