"""What the browser engine needs, served by the app (issue 38): the engine's bundle
(static/build/engine.js, built from static/engine/ by ``npm run build``), the tokenizer, the
zoo's 21 language models and the caption's texts.

One ASGI middleware answers ``GET <prefix>/<version>/<file>`` for a fixed list of files and
passes every other request on; nothing a request names is ever joined to a path. A file's URL
carries its sha256 (checkpoints/manifest.json for the weights, computed for the rest), so it
is served ``Cache-Control: immutable`` for a year: a student's browser fetches a model once.
A model is served only when its bytes hash as the manifest says (the zoo refuses the same
damaged copy), and the page's configuration carries every served file's full sha256, which
the engine checks before parsing (static/engine/engine.js ``hashes``).
The texts (explorer/views/engine_texts.py) are built on first request, kept, and revalidated
by ETag; a file is read from disk per request in a worker thread (the OS keeps it cached).

:func:`head` is the page's part, markup and data only: the engine's configuration as JSON
(``<script type="application/json" id="ae-engine-config">``: the URLs, the hashes, the
texts' URL, the default model), then the bundle, which reads it (static/engine/index.js says how).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from pathlib import Path

import anyio

from explorer.paths import CHECKPOINTS, STATIC
from explorer.views.controls import Controls
from explorer.views.engine_texts import engine_texts

log = logging.getLogger("attention_explorer")

BUILD = STATIC / "build"
PREFIX = "/ae-engine/"
SCRIPTS = ("engine.js",)  # static/build/: the engine's one bundle
CONFIG_ID = "ae-engine-config"  # static/engine/index.js reads the element of this id
TEXTS = "engine_texts.json"
IMMUTABLE = b"public, max-age=31536000, immutable"
TYPES = {".js": b"text/javascript; charset=utf-8", ".json": b"application/json",
         ".safetensors": b"application/octet-stream"}


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def catalogue(checkpoints: Path = CHECKPOINTS, build: Path = BUILD) -> dict[str, tuple[Path, str]]:
    """``"<sha12>/<name>"`` -> (file, its sha256), for every file that may be served: the
    bundle if built, the tokenizer, and each of the zoo's language models named in
    ``checkpoints/manifest.json`` whose bytes hash as the manifest says (a damaged or
    altered copy is left out, with a log line)."""
    manifest = json.loads((checkpoints / "manifest.json").read_text())["files"]
    out = {}
    for name, sha in manifest.items():
        stem = name.removesuffix(".safetensors")
        path = checkpoints / name
        if "/" in name or stem == name or stem.split("-")[0] not in ("causal", "bidir") \
                or not path.exists():
            continue
        if _sha(path) != sha:
            log.warning("not serving %s to the browser: its sha256 differs from "
                        "checkpoints/manifest.json's (a damaged or altered copy)", name)
            continue
        out[f"{sha[:12]}/{name}"] = (path, sha)
    for name in (*SCRIPTS, "tokenizer.json"):
        path = (build if name.endswith(".js") else checkpoints) / name
        if path.exists():
            sha = _sha(path)
            out[f"{sha[:12]}/{name}"] = (path, sha)
    return out


@functools.lru_cache(maxsize=1)
def _served() -> dict[str, tuple[Path, str]]:
    return catalogue()  # hashed once: every model's bytes are read at the first request


@functools.lru_cache(maxsize=1)
def files() -> dict[str, Path]:
    """``"<sha12>/<name>"`` -> file, for every file served (:func:`catalogue`)."""
    return {key: path for key, (path, _) in _served().items()}


def hashes() -> dict[str, str]:
    """The engine's ``configure({hashes})``: file name -> sha256, for the tokenizer and
    each model served (the files the engine reads)."""
    return {key.split("/", 1)[1]: sha for key, (_, sha) in _served().items()
            if not key.endswith(".js")}


def urls() -> dict[str, str]:
    """The engine's ``configure({urls})``: name -> URL relative to the page."""
    return {(name.removesuffix(".safetensors")): PREFIX.lstrip("/") + key
            for key, name in ((k, k.split("/", 1)[1]) for k in files())}


def config() -> dict:
    """The engine's configuration on the page: {urls, hashes, texts, model}
    (static/engine/index.js)."""
    return {"urls": urls(), "hashes": hashes(), "texts": PREFIX.lstrip("/") + TEXTS,
            "model": Controls().checkpoint()}


def head() -> str:
    """The page's engine: its configuration (JSON), then its bundle. Gradio adds the head's
    elements to the page in this order, so the JSON is there when the bundle runs."""
    where = urls()
    # JSON inside <script>: "</" and "<!--" must not end or open anything
    data = json.dumps(config(), ensure_ascii=False).replace("<", "\\u003c")
    tags = [f'<script type="application/json" id="{CONFIG_ID}">{data}</script>']
    tags += [f'<script src="{where[name]}"></script>' for name in SCRIPTS if name in where]
    return "\n".join(tags)


@functools.lru_cache(maxsize=1)
def _texts() -> tuple[bytes, bytes]:
    body = json.dumps(engine_texts(), ensure_ascii=False).encode()
    return body, b'"' + hashlib.sha256(body).hexdigest()[:16].encode() + b'"'


class EngineFiles:
    """ASGI middleware: the engine's files under :data:`PREFIX`, all else passed on."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith(PREFIX) or scope.get("method") not in ("GET", "HEAD"):
            return await self.app(scope, receive, send)
        key = path[len(PREFIX):]
        headers = dict(scope.get("headers") or [])
        if key == TEXTS:
            body, etag = _texts()
            if headers.get(b"if-none-match") == etag:
                return await self._send(send, 304, b"", [(b"etag", etag)], scope)
            return await self._send(send, 200, body, [
                (b"content-type", TYPES[".json"]), (b"etag", etag),
                (b"cache-control", b"no-cache")], scope)
        file = files().get(key)
        if file is None:
            return await self._send(send, 404, b"Not found", [
                (b"content-type", b"text/plain")], scope)
        # read in a worker thread: a model is a few MB, and the event loop serves the class
        body = await anyio.to_thread.run_sync(file.read_bytes)
        return await self._send(send, 200, body, [
            (b"content-type", TYPES[file.suffix]), (b"cache-control", IMMUTABLE)], scope)

    @staticmethod
    async def _send(send, status: int, body: bytes, headers: list, scope) -> None:
        headers = [*headers, (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body",
                    "body": b"" if scope.get("method") == "HEAD" else body})
