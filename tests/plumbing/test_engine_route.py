"""explorer/server/engine_route.py: the browser engine's files served by one ASGI middleware:
exactly the listed files (by their content's hash), immutable; a model only when its bytes
hash as the manifest says, and every served file's sha256 in the page's configuration; the
texts revalidated by ETag; nothing a request names is joined to a path; every other request
passed on."""

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
