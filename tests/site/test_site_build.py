"""``python -m explorer.site OUT``: what the folder holds, its sizes, the Space card, and
only honest model files (their sha256 as the manifest says, and in the page's config)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from difflib import SequenceMatcher

import pytest

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
    assert {"index.html", "site.js", "sw.js", "site.css", "README.md",
            "models/tokenizer.json"} <= names
    # one script, the bundle; the service worker (static/site/sw.js, its BUILD filled); and
    # the Lab's trainer, the Web Worker step 9 starts (the checked-in bundle)
    assert not any(n.endswith(".js") for n in names - {"site.js", "sw.js", "lab_worker.js"})
    assert (site / "lab_worker.js").read_bytes() == \
        (STATIC / "build" / "lab_worker.js").read_bytes()
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
    tok, zoo = resources
    config = config_of(site)
    assert config["objectives"] == OBJECTIVES
    assert config["scaling"] == list(SCALE_CHOICES)
    steps = default_path(zoo, tok, edition="static")
    assert [s["title"] for s in config["steps"]] == [s.title for s in steps]
    assert [s["question"] for s in config["steps"]] == [to_html(s.question) for s in steps]
    assert [s["look"] for s in config["steps"]] == [to_html(s.look) for s in steps]
    assert [s["answer"] for s in config["steps"]] == [to_html(s.answer) for s in steps]
    # every step has its figure, computed in the browser (the Lab's trained there, Through
    # training on the training snapshots): none sends to the full app
    assert [s["figure"] for s in config["steps"]] == [
        "large", "large", "ablate", "losses", "shuffle", "compare", "snapshots", "patch",
        "lab"]
    assert not any(s["elsewhere"] for s in config["steps"])
    assert config["steps"][6]["hidden"] == ["#snapshots-summary"]  # the training intro's
    assert config["steps"][8]["own"] == {"layers": 1}
    assert config["steps"][7]["own"] == {"corrupt": steps[7].own["corrupt"]}
    assert config["steps"][5]["own"] == {"scaling": "none"}
    assert config["steps"][4]["hidden"] == list(steps[4].hidden)
    # the guesses' legend is the large head's guesses here; at step 4 the list of losses too
    assert "#head-large .ae-grid-guesses, #losses" in config["steps"][1]["hidden"]
    assert config["steps"][3]["hidden"] == ["#head-large .ae-grid-guesses, #losses"]
    assert config["steps"][5]["hidden"] == ["#cmp-right"]  # the head without scaling
    assert 'data-view="explore"' in config["gridHtml"]["explore"]
    assert "#grid .ae-grid-tip" in config["gridCss"]  # the grid's one CSS, scoped
    assert "#step-figure .ae-grid-tip" in config["gridCss"]  # and the steps' panels'
    assert "{diff}" in config["shuffleWords"]["changed"]


def test_the_static_editions_words_are_true_of_its_page(resources):
    """The static page shows the steps in the static edition's words: no view, slider or
    table it does not have, nothing recorded elsewhere, no server; the prose is the app's
    but for those phrases (one source), and the app's own words are untouched."""
    tok, zoo = resources
    app, static = default_path(zoo, tok), default_path(zoo, tok, edition="static")
    unsaid = ("**Ablate**", "sliders", "The table names", "table under the figures",
              "the table to name", "the page names it", "recorded", "server", "tick it below",
              "**Layers** is now")
    for a, s in zip(app, static, strict=True):
        text = " ".join((s.look, s.question, s.answer))
        assert not [w for w in unsaid if w in text], s.title
        assert (s.title, s.question, s.tab, s.values, s.hidden) == \
            (a.title, a.question, a.tab, a.values, a.hidden)
        for mine, theirs in ((s.look, a.look), (s.answer, a.answer)):
            blocks = SequenceMatcher(None, mine, theirs, autojunk=False).get_matching_blocks()
            assert sum(b.size for b in blocks) >= 0.75 * len(mine), s.title  # app prose
    said = " ".join(a.look + a.answer for a in app)
    assert "open **Ablate**" in said or "(**Ablate**)" in said  # the app's words stay
    assert "The sliders now point at it" in said
    with pytest.raises(ValueError):
        default_path(zoo, edition="notebook")


def test_markdown_is_escaped():
    assert to_html("**a** <b>x</b> *y* `z`") == \
        "<strong>a</strong> &lt;b&gt;x&lt;/b&gt; <em>y</em> <code>z</code>"


def _sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_file_copied_is_in_the_config_with_its_sha256(site):
    hashes = config_of(site)["hashes"]
    manifest = json.loads((CHECKPOINTS / "manifest.json").read_text())["files"]
    copied = {p.relative_to(site / "models").as_posix() for p in (site / "models").rglob("*")
              if p.is_file()}
    assert set(hashes) == copied
    # 21 models and the tokenizer, and the default model's training snapshots
    assert len([n for n in copied if not n.startswith("snapshots/")]) == 22
    assert len([n for n in copied if n.startswith("snapshots/causal-h4-rotary/")]) == 10
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
