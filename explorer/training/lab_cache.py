"""The Lab's cache of finished runs: one folder per run, private to its server, checked
before every replay.

An entry is ``<dir>/<key>/`` with ``events.jsonl`` (every event, the last ``"kind":
"done"``), ``model.safetensors``, ``summary.json`` and ``manifest.json`` (the sha256 of
each of the three). A worker writes it into ``<key>.tmp<pid>`` and renames it
(:func:`store`): never half there. :func:`load` checks an entry before a replay (the
manifest's hashes, every event line, the last one "done", the checkpoint loadable); a
damaged entry is removed and the run is trained again. :func:`private_dir` makes the
folder: ``$AE_LAB_CACHE`` or a given path (created, mode 0700), else a new temporary
folder (``tempfile.mkdtemp``, 0700) that the runner removes when it closes.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from pathlib import Path

from explorer.models.checkpoint import sha256_file

log = logging.getLogger(__name__)
FILES = ("events.jsonl", "model.safetensors", "summary.json")
MANIFEST = "manifest.json"


def private_dir(path: str | Path | None = None) -> tuple[Path, bool]:
    """(the cache folder, whether it is temporary: removed when the server closes)."""
    chosen = path or os.environ.get("AE_LAB_CACHE")
    if not chosen:
        return Path(tempfile.mkdtemp(prefix="ae-lab-")), True
    folder = Path(chosen)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)  # an existing folder too: no other user reads the runs
    return folder, False


def sweep(folder: Path) -> int:
    """Remove leftover ``*.tmp*`` folders (a worker killed while writing); how many."""
    gone = 0
    for path in folder.glob("*.tmp*"):
        shutil.rmtree(path, ignore_errors=True)
        gone += 1
    return gone


def store(tmp: Path, final: Path, events: list[dict]) -> None:
    """Finish a run's folder ``tmp`` (the trainer wrote the model and summary there):
    its events, the manifest, then the rename."""
    (tmp / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    manifest = {name: sha256_file(tmp / name) for name in FILES}
    (tmp / MANIFEST).write_text(json.dumps(manifest))
    if final.exists():  # another server's worker wrote it first: keep that one
        shutil.rmtree(tmp, ignore_errors=True)
        return
    tmp.replace(final)


def _check(entry: Path) -> list[dict]:
    """The entry's events, or ValueError/OSError saying why it cannot be replayed."""
    manifest = json.loads((entry / MANIFEST).read_text())
    for name in FILES:
        if manifest.get(name) != sha256_file(entry / name):
            raise ValueError(f"{name} does not match its hash")
    events = [json.loads(line) for line in (entry / "events.jsonl").read_text().splitlines()]
    if not events or events[-1].get("kind") != "done":
        raise ValueError("the events end before the run's summary")
    from explorer.models.checkpoint import CheckpointError, load_model

    try:
        load_model(entry / "model.safetensors")
    except CheckpointError as exc:
        raise ValueError(str(exc)) from None
    return events


def signature(entry: Path) -> tuple | None:
    """Size and modification time of an entry's files (None: one is missing): an entry
    checked once is not read again while its signature stays the same."""
    try:
        return tuple((p.stat().st_size, p.stat().st_mtime_ns)
                     for p in (entry / name for name in (*FILES, MANIFEST)))
    except OSError:
        return None


def load(folder: Path, key: str, checked: dict | None = None) -> list[dict] | None:
    """The checked events of entry ``key`` (None: none, or a damaged one, now removed).
    ``checked``: key -> (signature, events) of entries checked before (a replay of a
    class's thirty presses reads and hashes the files once; updated here)."""
    entry = folder / key
    if not entry.is_dir():
        return None
    sig = signature(entry)
    if checked is not None and sig is not None and checked.get(key, (None,))[0] == sig:
        os.utime(entry)  # recently used: kept longer
        return checked[key][1]
    try:
        events = _check(entry)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("lab cache entry %s dropped: %s", key, exc)
        shutil.rmtree(entry, ignore_errors=True)
        return None
    os.utime(entry)  # recently used: kept longer
    if checked is not None and sig is not None:
        checked[key] = (sig, events)
    return events


def prune(folder: Path, keep: int) -> None:
    """Keep the ``keep`` most recently used entries."""
    kept = sorted((p for p in folder.iterdir() if p.is_dir() and ".tmp" not in p.name),
                  key=lambda p: p.stat().st_mtime)
    for old in kept[:max(0, len(kept) - keep)]:
        shutil.rmtree(old, ignore_errors=True)
