"""Write the static edition into a folder: the page (static/site/index.html and site.css),
its one script (static/build/site.js, the bundle of static/site/site.js with the engine and
the grid renderer inside: ``npm run build``), the tokenizer and the 21 zoo language models
(checkpoints/, F16 safetensors) under models/, the configuration read from the views
(config.py) inlined into index.html as JSON, and README.md carrying the static Space card.

Only honest files are copied: a model whose bytes do not hash as checkpoints/manifest.json
says (or that the zoo refuses) is left out with a logged warning, and is then missing on the
page as on the app. The sha256 of every file copied goes into the configuration
(``hashes``), and the browser's engine checks each file against it before parsing, so a
copy damaged later (a USB stick, a partial upload) is refused in plain words.

The service worker (static/site/sw.js, copied to the root so that its scope is the page)
gets the build's version and the lesson's files (``_worker``): with it, the page, the
tokenizer and every model the nine steps use keep working offline after the first load.

Shape of OUT::

    index.html  site.js  lab_worker.js  sw.js  site.css  README.md
    models/tokenizer.json  models/<name>.safetensors (21)
    models/snapshots/<default model>/step_NNNNN.safetensors   its training snapshots (step 7)

The default model's training snapshots (checkpoints/snapshots/, listed in its card) are
copied under the same checks as the models (``_copy_snapshots``), their list (step, tokens,
train_loss, file) in the configuration's ``snapshots``, within SNAPSHOT_LIMITS.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from pathlib import Path

from explorer.analysis.snapshots import FILE_RE, load_snapshots
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import (
    CHECKPOINT_DIR,
    DEFAULT_NAME,
    NAME_RE,
    Zoo,
    load_zoo,
    read_manifest,
)
from explorer.paths import STATIC
from explorer.site.config import site_config

log = logging.getLogger(__name__)

BUNDLE = STATIC / "build" / "site.js"  # scripts/build_js.mjs writes it from static/site/site.js
LAB_WORKER = STATIC / "build" / "lab_worker.js"  # the Lab's trainer, a Web Worker (step 9)
WORKER = STATIC / "site" / "sw.js"  # copied as it is, its BUILD filled in
WORKER_MARK = '/*BUILD*/ { version: "dev", lesson: [] }'
# the snapshots' folder at most 100 MB in all, no file over 10 MB (a static host's limits)
SNAPSHOT_LIMITS = (100 * 2**20, 10 * 2**20)
DEFAULT_APP_URL = "README.md"  # the card below, which names the full app's repository
CARD = """---
title: Attention Explorer (static)
emoji: 🔍
colorFrom: indigo
colorTo: yellow
sdk: static
app_file: index.html
pinned: false
short_description: {short}
---

# Attention Explorer — static edition

Type a sentence and see what every attention head of a small trained transformer does
with it, or follow Start here's nine steps; the models run in your browser, so this folder
needs no server, only a static host; the Lab trains its tiny transformer in the browser too.
The full app (every view, class mode) is the `attention-explorer` repository:
`pip install -r requirements.txt && python app.py`.
"""
SHORT_DESCRIPTION = "Every attention head of a small transformer, in your browser"


def zoo_models(directory: Path = CHECKPOINT_DIR) -> list[Path]:
    """The zoo's language models (the names explorer.models.zoo loads), sorted."""
    return sorted(p for p in directory.glob("*.safetensors") if NAME_RE.match(p.stem))


def _page(config: dict) -> str:
    template = (STATIC / "site" / "index.html").read_text(encoding="utf-8")
    # JSON inside <script>: "</" and "<!--" must not end or open anything
    data = json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")
    return template.replace("/*CONFIG*/{}", data)


def _copy_files(checkpoints: Path, zoo: Zoo, models: Path) -> dict[str, str]:
    """Copy the tokenizer and every zoo model the manifest vouches for into ``models``;
    return file name -> sha256 of the bytes written. A model whose bytes hash otherwise, or
    that the zoo refused, is skipped with a warning (and one an older build left is removed)."""
    manifest = read_manifest(checkpoints)
    hashes = {}
    for path in [*zoo_models(checkpoints), checkpoints / "tokenizer.json"]:
        data = path.read_bytes()  # hashed as written: one read, no window between
        sha = hashlib.sha256(data).hexdigest()
        is_model = path.suffix == ".safetensors"
        if is_model and (sha != manifest.get(path.name) or path.stem not in zoo.models
                         or zoo.untrained):
            log.warning("leaving %s out of the static edition: %s", path.name,
                        zoo.unavailable.get(path.stem, "its sha256 differs from "
                                            "checkpoints/manifest.json's"))
            (models / path.name).unlink(missing_ok=True)
            continue
        (models / path.name).write_bytes(data)
        hashes[path.name] = sha
    return hashes


def _copy_snapshots(checkpoints: Path, models: Path, name: str = DEFAULT_NAME
                    ) -> tuple[list[dict], dict[str, str]]:
    """Copy the training snapshots of ``name`` that the app accepts
    (explorer.analysis.snapshots.load_snapshots: listed in the card with a step and tokens,
    a plain file name, in checkpoints/manifest.json with the sha256 of its bytes, the final
    model's config) into models/snapshots/<name>/, each hashed again as written, as
    _copy_files does a model; return their entries by step and "snapshots/<name>/<file>" ->
    sha256. One refused, that hashes otherwise now or is past SNAPSHOT_LIMITS is skipped
    with a warning (and one an older build left is removed)."""
    snaps = load_snapshots(checkpoints, name)
    manifest = read_manifest(checkpoints)
    folder = models / "snapshots" / name  # made for the first snapshot copied
    for file, why in snaps.unavailable:
        log.warning("leaving snapshots/%s/%s out of the static edition: %s", name, file, why)
        if FILE_RE.match(file):
            (folder / file).unlink(missing_ok=True)
    total_limit, file_limit = SNAPSHOT_LIMITS
    entries, hashes, total = [], {}, 0
    for snap in snaps.snapshots:  # by step
        rel = f"snapshots/{name}/{snap.file}"
        data = (checkpoints / rel).read_bytes()  # hashed as written: one read
        sha = hashlib.sha256(data).hexdigest()
        why = ("its sha256 differs from checkpoints/manifest.json's"
               if sha != manifest.get(rel) else
               "over 10 MB" if len(data) > file_limit else
               "the snapshots would pass 100 MB" if total + len(data) > total_limit else "")
        if why:
            log.warning("leaving %s out of the static edition: %s", rel, why)
            (folder / snap.file).unlink(missing_ok=True)
            continue
        folder.mkdir(parents=True, exist_ok=True)
        (folder / snap.file).write_bytes(data)
        hashes[rel] = sha
        total += len(data)
        entries.append({"step": snap.step, "tokens": snap.tokens,
                        "train_loss": snap.train_loss, "file": snap.file})
    return entries, hashes


def _worker(out: Path, config: dict) -> str:
    """sw.js with its BUILD: the version, a hash of the page (its configuration holds every
    model's sha256), its script and its style, so that a new build is a new worker with a
    cache of its own; and the files the lesson needs offline, relative to the page."""
    digest = hashlib.sha256()
    for name in ("index.html", "site.js", "site.css", "lab_worker.js"):
        digest.update((out / name).read_bytes())
    lesson = ["./", "site.js", "site.css", "lab_worker.js", "models/tokenizer.json",
              *(f"models/{m}.safetensors" for m in config["lessonModels"]),
              *(f"models/snapshots/{config['snapshots']['model']}/{s['file']}"
                for s in config["snapshots"]["list"])]
    text = WORKER.read_text(encoding="utf-8")
    assert WORKER_MARK in text, f"{WORKER} has lost its BUILD marker"
    data = json.dumps({"version": digest.hexdigest()[:16], "lesson": lesson})
    return text.replace(WORKER_MARK, data)


def build(out: Path, app_url: str | None = None, checkpoints: Path = CHECKPOINT_DIR) -> Path:
    """Write the static edition into ``out`` (created; files of an older build replaced)
    from the checkpoints in ``checkpoints``."""
    out = Path(out)
    (out / "models").mkdir(parents=True, exist_ok=True)
    tok = Tokenizer.load(checkpoints / "tokenizer.json")
    zoo = load_zoo(checkpoints, tok.vocab_size)
    hashes = _copy_files(checkpoints, zoo, out / "models")
    shutil.copyfile(BUNDLE, out / "site.js")
    shutil.copyfile(LAB_WORKER, out / "lab_worker.js")
    shutil.copyfile(STATIC / "site" / "site.css", out / "site.css")
    models = [name.removesuffix(".safetensors") for name in hashes if name != "tokenizer.json"]
    snapshots, snapshot_hashes = _copy_snapshots(checkpoints, out / "models")
    config = site_config(zoo, tok, models, app_url or DEFAULT_APP_URL,
                         {**hashes, **snapshot_hashes}, snapshots)
    (out / "index.html").write_text(_page(config), encoding="utf-8")
    (out / "sw.js").write_text(_worker(out, config), encoding="utf-8")
    (out / "README.md").write_text(CARD.format(short=SHORT_DESCRIPTION), encoding="utf-8")
    return out
