"""explorer/server/engine_route.py: the browser engine's files served by one ASGI middleware:
exactly the listed files (by their content's hash), immutable; a model only when its bytes
hash as the manifest says, and every served file's sha256 in the page's configuration; the
texts revalidated by ETag; nothing a request names is joined to a path; every other request
passed on; files in flight capped per address, a reader that stops taking them dropped."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import shutil

import httpx
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from explorer.paths import CHECKPOINTS
from explorer.server import engine_route
from explorer.server.engine_route import (
    CONFIG_ID,
    IMMUTABLE,
    PREFIX,
    TEXTS,
    EngineFiles,
    catalogue,
    config,
    files,
    head,
    urls,
)


def _app():
    async def home(request):
        return PlainTextResponse("the page")

    return EngineFiles(Starlette(routes=[Route("/", home), Route("/ae-engine/x", home)]))


def _get(path: str, method: str = "GET", headers: dict | None = None) -> httpx.Response:
    async def go():
        transport = httpx.ASGITransport(app=_app())
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return await client.request(method, path, headers=headers)
    return asyncio.run(go())


def test_every_model_and_script_is_served_as_it_is_on_disk():
    where = urls()
    assert {"causal-h4-rotary", "bidir-h4-rotary", "tokenizer.json", "engine.js"} <= set(where)
    for name in ("causal-h4-rotary", "engine.js", "tokenizer.json"):
        key = where[name].removeprefix(PREFIX.lstrip("/"))
        got = _get("/" + where[name])
        assert got.status_code == 200
        assert got.content == files()[key].read_bytes()
        assert got.headers["cache-control"] == IMMUTABLE.decode()
        head = _get("/" + where[name], "HEAD")
        assert head.content == b"" and head.headers["content-length"] == str(len(got.content))


def test_names_outside_the_list_are_not_found_and_other_paths_pass_on():
    for path in ("ae-engine/../README.md", "ae-engine/000000000000/causal-h4-rotary.safetensors",
                 "ae-engine/%2e%2e/app.py", "ae-engine/x"):
        assert _get("/" + path).status_code == 404, path
    assert _get("/").text == "the page"


def test_the_texts_are_revalidated_by_their_etag():
    first = _get(PREFIX + TEXTS)
    assert first.status_code == 200 and first.json()
    etag = first.headers["etag"]
    again = _get(PREFIX + TEXTS, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""


def test_the_head_is_the_configuration_as_json_then_the_bundle():
    """No JavaScript in the head's markup: a JSON element the bundle reads
    (static/engine/index.js), then the bundle itself, in that order."""
    markup = head()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", markup, re.S)
    assert len(scripts) == 2
    (attrs, data), (bundle, body) = scripts
    assert f'type="application/json" id="{CONFIG_ID}"' in attrs and body == ""
    config = json.loads(data)
    assert config["urls"] == urls() and config["texts"] == PREFIX.lstrip("/") + TEXTS
    assert config["model"] in config["urls"]
    assert bundle == f' src="{urls()["engine.js"]}"'


def _sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_damaged_model_is_not_served(tmp_path, caplog):
    """A copy of the checkpoints with one model's byte flipped: that model is left out
    (logged), the intact one and the tokenizer are served with their own bytes' sha256."""
    for name in ("manifest.json", "tokenizer.json", "causal-h4-rotary.safetensors",
                 "causal-h2-none.safetensors"):
        shutil.copyfile(CHECKPOINTS / name, tmp_path / name)
    damaged = tmp_path / "causal-h2-none.safetensors"
    data = bytearray(damaged.read_bytes())
    data[-3] ^= 0x40
    damaged.write_bytes(bytes(data))
    with caplog.at_level("WARNING", logger="attention_explorer"):
        served = catalogue(tmp_path, tmp_path / "no-build")
    names = {key.split("/", 1)[1]: sha for key, (_, sha) in served.items()}
    assert set(names) == {"causal-h4-rotary.safetensors", "tokenizer.json"}
    for name, sha in names.items():
        assert sha == _sha256(CHECKPOINTS / name)
    assert "causal-h2-none.safetensors" in caplog.text
    # the same folder with that model intact again: it is served
    shutil.copyfile(CHECKPOINTS / damaged.name, damaged)
    again = {key.split("/", 1)[1] for key in catalogue(tmp_path, tmp_path / "no-build")}
    assert "causal-h2-none.safetensors" in again


def test_the_configuration_carries_every_read_files_sha256():
    manifest = json.loads((CHECKPOINTS / "manifest.json").read_text())["files"]
    hashes = config()["hashes"]
    models = [name for name in urls() if name.startswith(("causal-", "bidir-"))]
    assert len(models) == 21
    assert set(hashes) == {f"{m}.safetensors" for m in models} | {"tokenizer.json"}
    for name, sha in hashes.items():
        assert sha == _sha256(CHECKPOINTS / name), name
        if name.endswith(".safetensors"):
            assert sha == manifest[name], name
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", head(), re.S)
    assert json.loads(scripts[0][1])["hashes"] == hashes


def _asgi_get(app, path: str, send, address: str = "203.0.113.7") -> object:
    """One GET through the middleware with a ``send`` of the test's own (a slow reader)."""
    scope = {"type": "http", "method": "GET", "path": path, "headers": [],
             "client": (address, 5000)}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}
    return app(scope, receive, send)


def test_downloads_in_flight_are_capped_per_address_and_a_stalled_one_is_dropped(monkeypatch):
    """Readers that never take the body hold their address's places until SEND_TIMEOUT_S
    drops them; meanwhile that address gets 429 with Retry-After at once, another address
    is served, and the places come back when the stalled ones are dropped."""
    monkeypatch.setattr(engine_route, "DOWNLOADS_PER_ADDRESS", 3)
    monkeypatch.setattr(engine_route, "SEND_TIMEOUT_S", 0.5)
    app = EngineFiles(_app().app, hops=0)
    path = "/" + urls()["causal-h4-rotary"]

    async def go():
        stalled = asyncio.Event()  # never set: these readers never take a piece

        async def stuck(message):
            if message["type"] == "http.response.body":
                await stalled.wait()

        tasks = [asyncio.create_task(_asgi_get(app, path, stuck)) for _ in range(3)]
        while app.in_flight["203.0.113.7"] < 3:  # the three are sending their first piece
            await asyncio.sleep(0.01)
        refused, other = [], []

        async def keep(into, message):
            into.append(message)
        await _asgi_get(app, path, lambda m: keep(refused, m))
        await _asgi_get(app, path, lambda m: keep(other, m), address="198.51.100.9")
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        after = []
        await _asgi_get(app, path, lambda m: keep(after, m))
        return refused, other, outcomes, after

    refused, other, outcomes, after = asyncio.run(go())
    assert refused[0]["status"] == 429
    assert (b"retry-after", b"1") in refused[0]["headers"]
    assert other[0]["status"] == 200
    body = b"".join(m["body"] for m in other[1:])
    assert body == files()[urls()["causal-h4-rotary"].split("/", 1)[1]].read_bytes()
    assert len(other) - 1 == -(-len(body) // engine_route.CHUNK)  # sent in pieces
    assert all(isinstance(o, TimeoutError) for o in outcomes), outcomes
    assert after[0]["status"] == 200 and not app.in_flight  # the places came back
