"""explorer/server/engine_route.py: the browser engine's files served by one ASGI middleware:
exactly the listed files (by their content's hash), immutable; the texts revalidated by ETag;
nothing a
request names is joined to a path; every other request passed on."""

from __future__ import annotations

import asyncio
import json
import re

import httpx
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from explorer.server.engine_route import (
    CONFIG_ID,
    IMMUTABLE,
    PREFIX,
    TEXTS,
    EngineFiles,
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
