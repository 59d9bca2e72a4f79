"""Every piece of JavaScript Gradio runs is a call into the page's bundle, in one form.

Gradio takes JavaScript as strings (an event's ``js=``, a gr.HTML's ``js_on_load=``);
``explorer/ui/bridge.py`` writes all of them as calls of a name the page's modules register
(``static/handlers.js``). Here: the built app's whole Gradio config holds no other
JavaScript, every name it calls is registered (and built into ``static/build/app.js``),
and the Python source of the page (``explorer/ui/``, ``explorer/app.py``) holds no
JavaScript of its own.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from explorer.ui import bridge

ROOT = Path(__file__).resolve().parents[2]
HANDLERS_JS = ROOT / "static" / "handlers.js"
BUNDLE = ROOT / "static" / "build" / "app.js"
# Gradio's own js_on_load of a gr.HTML that sets none (a click event): not ours
GRADIO_DEFAULT = "element.addEventListener('click', function() { trigger('click') });"


def registered() -> dict[str, set[str]]:
    """The names in static/handlers.js's two tables, one entry a line."""
    text = HANDLERS_JS.read_text(encoding="utf-8")
    out = {}
    for table in ("HANDLERS", "MOUNTS"):
        body = re.search(rf"export const {table} = \{{\n(.*?)\n\}};", text, re.S)
        assert body, f"{table} not found in static/handlers.js"
        out[table] = set(re.findall(r'^  "?([\w.]+)"?:', body.group(1), re.M))
    return out


def test_the_tables_are_read_and_built():
    names = registered()
    assert {"live.controls", "live.open", "explore.pick"} <= names["HANDLERS"]
    assert {"live.anchor", "explore.grid", "lab.grid"} <= names["MOUNTS"]
    bundle = BUNDLE.read_text(encoding="utf-8")
    for name in names["HANDLERS"] | names["MOUNTS"]:
        assert f'"{name}"' in bundle or f"{name}:" in bundle, f"{name} is not in the bundle"


def test_the_bridge_forms_round_trip():
    text = bridge.js("live.open", "explore")
    m = bridge.JS_FORM.match(text)
    assert m and json.loads(m.group(1)) == "live.open" and json.loads(m.group(2)) == "explore"
    text = bridge.on_load("live.anchor", events=("update", "settle"))
    m = bridge.ON_LOAD_FORM.match(text)
    assert m and json.loads(m.group(2)) == {"events": ["update", "settle"]}
    # "</" never ends a <script> the string is copied into
    assert "</" not in bridge.js("page.constant", ["</script>"])


@pytest.fixture(scope="module")
def config(resources):
    from explorer import app

    return app.build_app(*resources).get_config_file()


def test_every_js_of_the_app_is_the_bridge(config):
    names = registered()
    used = {"HANDLERS": set(), "MOUNTS": set()}
    for dep in config["dependencies"]:
        js = dep.get("js")
        if not js:
            continue
        m = bridge.JS_FORM.match(js)
        assert m, f"js= not in the bridge's form: {js[:120]!r}"
        name = json.loads(m.group(1))
        json.loads(m.group(2))  # the data is JSON
        assert name in names["HANDLERS"], f"js= names {name!r}, not in static/handlers.js"
        used["HANDLERS"].add(name)
    for comp in config["components"]:
        js = comp.get("props", {}).get("js_on_load")
        if not js or js == GRADIO_DEFAULT:
            continue
        m = bridge.ON_LOAD_FORM.match(js)
        assert m, f"js_on_load not in the bridge's form: {js[:120]!r}"
        name = json.loads(m.group(1))
        json.loads(m.group(2))
        assert name in names["MOUNTS"], f"js_on_load names {name!r}, not in static/handlers.js"
        used["MOUNTS"].add(name)
    # and every registered name is used: the table holds nothing stale
    assert used == names


# What JavaScript looks like inside a Python string (docstrings aside).
JS_LIKE = re.compile(r"=>|\bdocument\.|\bwindow\.|addEventListener|\bfunction\s*\(|<script")


def _strings(tree: ast.AST):
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                yield node.lineno, node.value


def test_no_javascript_in_the_page_s_python():
    files = sorted((ROOT / "explorer" / "ui").glob("*.py")) + [ROOT / "explorer" / "app.py"]
    found = []
    for path in files:
        if path.name == "bridge.py":  # writes the bridge's one form
            continue
        for line, text in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            hit = JS_LIKE.search(text)
            # the one <script>: the page's bundle, read from static/build/app.js
            if hit and not (path.name == "page.py" and text in ("<script>\n", "\n</script>\n")):
                found.append(f"{path.relative_to(ROOT)}:{line}: {text[:60]!r}")
    assert not found, "JavaScript in Python strings:\n" + "\n".join(found)
