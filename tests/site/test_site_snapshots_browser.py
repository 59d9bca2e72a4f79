"""Start here's step 7 on the static edition (issue 48: the training snapshots in the
browser), in real Chromium over the built folder: ?step=7 opens the slider over the default
model's training snapshots at the first one; the slider (a labelled range, moved with the
keyboard) moves the grid of every head and the numbers; the chart draws the two curves of
the step's question up to the chosen snapshot, their numbers Python's
(:func:`explorer.analysis.snapshots.previous_token_trend` and ``induction_trend`` on the
step's sentence, within 1e-3); the whole run's summary is covered until Reveal; no word of a
recording or a server. The build side: every snapshot copied with its manifest sha256, in
the configuration and in the service worker's lesson."""

from __future__ import annotations

import hashlib
import json
import re

import numpy as np
import pytest

from explorer.analysis.snapshots import (
    induction_trend,
    load_snapshots,
    previous_token_trend,
    snapshot_view,
)
from explorer.models.zoo import CHECKPOINT_DIR, DEFAULT_NAME, read_manifest
from explorer.views.start_here import REPEAT

TOLERANCE = 1e-3
SHOWN = "window.AttentionExplorer?.site?.shown?.snapshots"
GRID = "AttentionExplorer.grid.state('#snapshot-grid canvas')"
COVER = ("(s) => [...document.querySelectorAll(s)].map((e) => "
         "getComputedStyle(e, '::after').content)")


def config_of(site) -> dict:
    page = (site / "index.html").read_text(encoding="utf-8")
    raw = re.search(r'<script id="ae-config" type="application/json">(.*?)</script>', page,
                    re.S).group(1)
    return json.loads(raw)


@pytest.fixture(scope="module")
def python(resources):
    """Python's numbers on step 7's sentence, for every snapshot."""
    tok, _ = resources
    snaps = load_snapshots(CHECKPOINT_DIR, vocab_size=tok.vocab_size)
    views = [snapshot_view(snaps, tok, REPEAT, i) for i in range(len(snaps))]
    best = [np.unravel_index(int(v.prev_share.argmax()), v.prev_share.shape) for v in views]
    return {"snaps": snaps, "prev": previous_token_trend(snaps, tok, REPEAT),
            "copy": induction_trend(snaps, tok, REPEAT), "best": best}


def test_the_snapshots_are_copied_checked_and_listed(site, python):
    config = config_of(site)
    snaps = python["snaps"]
    listed = config["snapshots"]
    assert listed["model"] == DEFAULT_NAME
    assert [s["file"] for s in listed["list"]] == [s.file for s in snaps.snapshots]
    assert [(s["step"], s["tokens"]) for s in listed["list"]] == \
        [(s.step, s.tokens) for s in snaps.snapshots]
    manifest = read_manifest(CHECKPOINT_DIR)
    folder = site / "models" / "snapshots" / DEFAULT_NAME
    sizes = []
    for s in listed["list"]:
        rel = f"snapshots/{DEFAULT_NAME}/{s['file']}"
        data = (folder / s["file"]).read_bytes()
        assert config["hashes"][rel] == hashlib.sha256(data).hexdigest() == manifest[rel]
        sizes.append(len(data))
    assert max(sizes) <= 10 * 2**20 and sum(sizes) <= 100 * 2**20
    worker = (site / "sw.js").read_text(encoding="utf-8")
    lesson = json.loads(re.search(r"const BUILD = (\{.*?\});", worker).group(1))["lesson"]
    assert {f"models/snapshots/{DEFAULT_NAME}/{s['file']}" for s in listed["list"]} <= \
        set(lesson)
    step = config["steps"][6]
    assert step["figure"] == "snapshots" and not step["elsewhere"]
    assert step["hidden"] == ["#snapshots-summary"]


def test_a_damaged_snapshot_is_left_out(tmp_path, caplog):
    """A snapshot whose bytes differ from the manifest's sha256 is not copied, nor listed."""
    from explorer.site.build import _copy_snapshots

    source = tmp_path / "checkpoints"
    (source / "snapshots" / DEFAULT_NAME).mkdir(parents=True)
    card = json.loads((CHECKPOINT_DIR / f"{DEFAULT_NAME}.json").read_text())
    (source / f"{DEFAULT_NAME}.json").write_text(json.dumps(card))
    (source / "manifest.json").write_bytes((CHECKPOINT_DIR / "manifest.json").read_bytes())
    final = f"{DEFAULT_NAME}.safetensors"  # a snapshot's config is checked against it
    (source / final).write_bytes((CHECKPOINT_DIR / final).read_bytes())
    files = [e["file"] for e in card["snapshots"]][:2]
    for i, f in enumerate(files):
        data = bytearray((CHECKPOINT_DIR / "snapshots" / DEFAULT_NAME / f).read_bytes())
        if i == 1:
            data[-1] ^= 1
        (source / "snapshots" / DEFAULT_NAME / f).write_bytes(bytes(data))
    entries, hashes = _copy_snapshots(source, tmp_path / "models")
    assert [e["file"] for e in entries] == files[:1]
    assert list(hashes) == [f"snapshots/{DEFAULT_NAME}/{files[0]}"]
    assert not (tmp_path / "models" / "snapshots" / DEFAULT_NAME / files[1]).exists()
    assert files[1] in caplog.text  # the damaged one is named in a warning


def wait_for(page, condition: str) -> dict:
    page.wait_for_function(f"(s => s && s.ok && ({condition}))({SHOWN})", timeout=30000)
    return page.evaluate(SHOWN)


def said_right(page, python, shown, i: int) -> None:
    """The numbers the figure shows and keeps for snapshot i are Python's."""
    snap = python["snaps"].snapshots[i]
    assert shown["index"] == i and shown["step"] == snap.step
    assert abs(shown["previous"]["share"] - python["prev"][i]) <= TOLERANCE
    la, h = python["best"][i]
    assert f"L{la} H{h}" in page.locator("#snapshot-previous").inner_text()
    assert abs(shown["copy"]["score"] - python["copy"][i]) <= TOLERANCE
    assert f"step {snap.step:,}" in page.locator("#snapshot-status").inner_text()
    assert shown["points"] == {"prev": i + 1, "copy": i + 1}  # up to the chosen snapshot
    assert page.locator("#snapshot-chart circle[data-curve='prev']").count() == i + 1


def test_step_7_slides_through_training(browser, site_url, python):
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  service_workers="block")
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(site_url + "?step=7")
    shown = wait_for(page, "s.index === 0")
    assert page.locator("#step-title").inner_text().startswith("7 ·")
    assert page.locator("#sentence-box").input_value() == REPEAT
    assert not page.locator("#step-elsewhere").is_visible()
    # the curves across every snapshot are Python's (the chart draws them up to the chosen)
    assert np.abs(np.array(shown["prev"]) - python["prev"]).max() <= TOLERANCE
    assert np.abs(np.array(shown["copyTrend"]) - python["copy"]).max() <= TOLERANCE
    said_right(page, python, shown, 0)
    first = page.evaluate(f"Array.from({GRID}.cells)")
    slider = page.get_by_label("Training snapshot")
    assert slider.get_attribute("type") == "range"
    slider.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    shown = wait_for(page, "s.index === 3")
    said_right(page, python, shown, 3)
    assert "step" in slider.get_attribute("aria-valuetext")
    page.wait_for_function(f"{GRID}.ok")
    assert page.evaluate(f"Array.from({GRID}.cells)") != first  # the grid moved too
    page.keyboard.press("End")
    last = len(python["snaps"]) - 1
    said_right(page, python, wait_for(page, f"s.index === {last}"), last)
    # the whole run's story gives the answer away: covered until Reveal
    covers = page.evaluate(COVER, "#snapshots-summary")
    assert covers == ['"Hidden until Reveal"']
    page.click("#reveal")
    assert page.evaluate(COVER, "#snapshots-summary") != covers
    assert "reaches half" in page.locator("#snapshots-summary").inner_text()
    text = page.evaluate("document.body.innerText").lower()
    assert "recorded" not in text and "server" not in text
    context.close()
    elsewhere = [u for u in asked if not u.startswith(site_url)]
    assert not elsewhere, elsewhere
