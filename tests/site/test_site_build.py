"""``python -m explorer.site OUT``: what the folder holds, its sizes and the Space card."""

from __future__ import annotations

import json
import re

from explorer.paths import STATIC
from explorer.site.build import zoo_models
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
