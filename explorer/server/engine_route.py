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
by ETag; a file is read from disk once, in a worker thread, checked against the sha256 its
URL names and kept (the catalogue bounds what is kept: ~55 MB if every model is asked for),
so a request costs no read and what is sent is always what was hashed.

**Bounded per address and in all** (issue 49): at most ``DOWNLOADS_PER_ADDRESS`` files in
flight to one address (a class behind a school's one address loads the tokenizer and a model
each: the cap is far above a class's two per page) and ``DOWNLOADS`` in all; over either, HTTP
429 with ``Retry-After: 1`` at once (static/engine/io.js tries again). A file goes out in
``CHUNK`` pieces, each of which must be taken by the client within ``SEND_TIMEOUT_S``: a
client that stops reading is dropped, and holds at most one piece of the server's memory
until then. The address is client_guard's (``X-Forwarded-For`` only with ``AE_PROXY_HOPS``).

:func:`head` is the page's part, markup and data only: the engine's configuration as JSON
(``<script type="application/json" id="ae-engine-config">``: the URLs, the hashes, the
texts' URL, the default model), then the bundle, which reads it (static/engine/index.js says how).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import threading
from collections import Counter
from pathlib import Path

import anyio

from explorer.paths import CHECKPOINTS, STATIC
from explorer.server.client_guard import client_address, proxy_hops
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
DOWNLOADS_PER_ADDRESS = 64  # files in flight to one address (a class behind one: 2 a page)
DOWNLOADS = 256  # files in flight in all: at most this many CHUNKs held for slow readers
CHUNK = 256 * 1024  # bytes handed to the connection at a time
SEND_TIMEOUT_S = 30.0  # a client must take each CHUNK within this, or is dropped
BUSY = b"Too many downloads at once from your address: trying again in a moment."


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


_kept: dict[str, bytes] = {}  # "<sha12>/<name>" -> its bytes, as hashed (bounded: files())
_kept_lock = threading.Lock()


def _read_checked(key: str) -> bytes | None:
    """The bytes of file ``key``, read once and kept; None when they no longer hash as the
    catalogue says (the file changed on disk since: not served, with a log line)."""
    with _kept_lock:
        if key in _kept:
            return _kept[key]
    path, sha = _served()[key]
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != sha:
        log.warning("not serving %s to the browser: it changed on disk since it was hashed",
                    path.name)
        return None
    with _kept_lock:
        return _kept.setdefault(key, data)


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
    """ASGI middleware: the engine's files under :data:`PREFIX`, all else passed on; files
    in flight counted per address and in all (the module's docstring)."""

    def __init__(self, app, hops: int | None = None) -> None:
        self.app = app
        self.hops = proxy_hops() if hops is None else hops
        self.in_flight: Counter[str] = Counter()  # address -> files being sent to it

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
        address = client_address(scope, self.hops)
        if self.in_flight[address] >= DOWNLOADS_PER_ADDRESS \
                or self.in_flight.total() >= DOWNLOADS:
            return await self._send(send, 429, BUSY, [
                (b"content-type", b"text/plain; charset=utf-8"), (b"retry-after", b"1")], scope)
        self.in_flight[address] += 1
        try:
            # read once, in a worker thread: a model is a few MB, and the loop serves the class
            body = await anyio.to_thread.run_sync(_read_checked, key)
            if body is None:
                return await self._send(send, 404, b"Not found", [
                    (b"content-type", b"text/plain")], scope)
            await self._send(send, 200, body, [
                (b"content-type", TYPES[file.suffix]), (b"cache-control", IMMUTABLE)], scope)
        except TimeoutError:
            log.info("dropped a download of %s: the client stopped reading", file.name)
            raise
        finally:
            self.in_flight[address] -= 1
            if self.in_flight[address] <= 0:
                del self.in_flight[address]

    @staticmethod
    async def _send(send, status: int, body: bytes, headers: list, scope) -> None:
        """The response, its body in CHUNKs, each taken within SEND_TIMEOUT_S (TimeoutError
        otherwise: the server then drops the connection)."""
        headers = [*headers, (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if scope.get("method") == "HEAD":
            body = b""
        view = memoryview(body)
        for start in range(0, max(len(body), 1), CHUNK):
            piece = bytes(view[start:start + CHUNK])
            with anyio.fail_after(SEND_TIMEOUT_S):
                await send({"type": "http.response.body", "body": piece,
                            "more_body": start + CHUNK < len(body)})
