"""``python -m explorer.site OUT``: what the folder holds, its sizes, the Space card, and
only honest model files (their sha256 as the manifest says, and in the page's config)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil

from explorer.paths import CHECKPOINTS, STATIC
from explorer.site.build import build, zoo_models
from explorer.site.markdown import to_html
from explorer.views.controls import OBJECTIVES, SCALE_CHOICES
from explorer.views.start_here import default_path

MB = 1024 * 1024


def config_of(site) -> dict:
    page = (site / "index.html").read_text(encoding="utf-8")
    raw = re.search(r'<script id="ae-config" type="application/json">(.*?)</script>', page,
                    re.S).group(1)
    return json.loads(raw)


def test_contents_and_sizes(site):
    names = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    models = zoo_models()
    assert len(models) == 21
    assert {f"models/{p.name}" for p in models} <= names
    assert {"index.html", "site.js", "site.css", "README.md", "models/tokenizer.json"} <= names
    assert not any(n.endswith(".js") for n in names - {"site.js"})  # one script, the bundle
    # the page's script is the checked-in bundle (the engine and the app's grid renderer
    # inside: static/site/site.js imports them), loaded by one tag
    assert (site / "site.js").read_bytes() == (STATIC / "build" / "site.js").read_bytes()
    page = (site / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script[^>]*>", page) == [
        '<script id="ae-config" type="application/json">', '<script src="site.js">']
    sizes = [p.stat().st_size for p in site.rglob("*") if p.is_file()]
    assert max(sizes) <= 10 * MB
    assert sum(sizes) <= 100 * MB
    # before the first grid: the page, its scripts, the tokenizer and the default model
    first = ["index.html", "site.js", "site.css", "models/tokenizer.json",
             "models/causal-h4-rotary.safetensors"]
    assert sum((site / f).stat().st_size for f in first) <= 5 * MB


def test_space_card(site):
    card = (site / "README.md").read_text(encoding="utf-8")
    front = re.match(r"---\n(.*?)\n---\n", card, re.S).group(1)
    fields = dict(line.split(": ", 1) for line in front.splitlines())
    assert fields["sdk"] == "static"
    assert fields["app_file"] == "index.html"
    assert 0 < len(fields["short_description"]) <= 60
    assert {"title", "emoji", "colorFrom", "colorTo"} <= set(fields)
    assert "attention-explorer" in card  # names the full app's repository


def test_config_comes_from_the_views(site, resources):
    _, zoo = resources
    config = config_of(site)
    assert config["objectives"] == OBJECTIVES
    assert config["scaling"] == list(SCALE_CHOICES)
    steps = default_path(zoo)  # titles and questions measure nothing
    assert [s["title"] for s in config["steps"]] == [s.title for s in steps]
    assert [s["question"] for s in config["steps"]] == [to_html(s.question) for s in steps]
    live = [s["live"] for s in config["steps"]]
    assert live == [s.tab in ("explore", "ablate") for s in steps] and any(live) \
        and not all(live)
    assert 'data-view="explore"' in config["gridHtml"]["explore"]
    assert "#grid .ae-grid-tip" in config["gridCss"]  # the grid's one CSS, scoped


def test_markdown_is_escaped():
    assert to_html("**a** <b>x</b> *y* `z`") == \
        "<strong>a</strong> &lt;b&gt;x&lt;/b&gt; <em>y</em> <code>z</code>"


def _sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_file_copied_is_in_the_config_with_its_sha256(site):
    hashes = config_of(site)["hashes"]
    manifest = json.loads((CHECKPOINTS / "manifest.json").read_text())["files"]
    copied = {p.name for p in (site / "models").iterdir()}
    assert set(hashes) == copied and len(copied) == 22  # 21 models and the tokenizer
    for name, sha in hashes.items():
        assert sha == _sha256(site / "models" / name) == manifest[name], name


def test_a_damaged_model_is_left_out(tmp_path, caplog):
    """Built from a copy of three checkpoints, one with a byte flipped: that one is neither
    copied (an older build's copy is removed) nor offered, and a warning names it."""
    source = tmp_path / "checkpoints"
    source.mkdir()
    good = ["causal-h4-rotary", "causal-h2-rotary"]
    for name in ["manifest.json", "tokenizer.json",
                 *(f"{m}{ext}" for m in [*good, "causal-h1-none"]
                   for ext in (".safetensors", ".json"))]:
        shutil.copyfile(CHECKPOINTS / name, source / name)
    damaged = source / "causal-h1-none.safetensors"
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0x01
    damaged.write_bytes(bytes(data))
    out = tmp_path / "site"
    (out / "models").mkdir(parents=True)
    shutil.copyfile(damaged, out / "models" / damaged.name)  # an older build's copy
    with caplog.at_level("WARNING"):
        build(out, checkpoints=source)
    assert sorted(p.name for p in (out / "models").iterdir()) == [
        "causal-h2-rotary.safetensors", "causal-h4-rotary.safetensors", "tokenizer.json"]
    config = config_of(out)
    assert config["models"] == sorted(good)
    assert config["hashes"] == {p.name: _sha256(CHECKPOINTS / p.name)
                                for p in (out / "models").iterdir()}
    assert "causal-h1-none" in config["missing"]
    assert any("causal-h1-none.safetensors" in r.getMessage() and r.name == "explorer.site.build"
               for r in caplog.records)
