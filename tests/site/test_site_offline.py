"""The static edition offline, for the whole lesson (static/site/sw.js and offline.js): the
first load saves the page, the tokenizer and every model the nine steps use in the
background and says how much; then, with the network cut, the page reloads and every step
draws its figure, the lesson's knobs work, and a model the lesson does not use says plainly
that it is not saved for offline use. No text on the page mentions a server, and no request
leaves for another host. (test_site_browser.py's tests block the worker: they are of the page
over the network.)"""

from __future__ import annotations

import json
import re
import shutil

from explorer.models.zoo import DEFAULT_NAME, checkpoint_name
from explorer.views.controls import OBJECTIVES
from explorer.views.start_here import default_path

GRID = "window.AttentionExplorer?.grid?.state('#grid canvas')"
LARGE = "window.AttentionExplorer?.grid?.state('#head-large canvas')"
SHOWN = "window.AttentionExplorer?.site?.shown"
OFFLINE = "window.AttentionExplorer?.offline?.state()"
CAPTION = "document.querySelector('#grid .ae-grid-caption').textContent"
NOT_SAVED = "not saved for offline use: open it once while connected"


def config_of(site) -> dict:
    page = (site / "index.html").read_text(encoding="utf-8")
    raw = re.search(r'<script id="ae-config" type="application/json">(.*?)</script>', page,
                    re.S).group(1)
    return json.loads(raw)


def lesson(resources) -> list[str]:
    """The models the nine steps' knobs name, from the steps themselves."""
    tok, zoo = resources
    names = [checkpoint_name(OBJECTIVES[c["objective"]], c["heads"], c["pos"])
             for c in (s.controls() for s in default_path(zoo, tok, edition="static"))]
    return sorted({DEFAULT_NAME, *names})


def test_the_worker_saves_what_the_lesson_uses(site, resources):
    config = config_of(site)
    assert sorted(config["lessonModels"]) == lesson(resources)
    assert len(config["lessonModels"]) < len(config["models"])  # the lesson's, not all
    worker = (site / "sw.js").read_text(encoding="utf-8")
    build = json.loads(re.search(r"const BUILD = (\{.*?\});", worker).group(1))
    assert build["lesson"] == ["./", "site.js", "site.css", "lab_worker.js",
                               "models/tokenizer.json",
                               *(f"models/{m}.safetensors" for m in config["lessonModels"]),
                               *snapshot_files(config)]
    assert re.fullmatch(r"[0-9a-f]{16}", build["version"])


def snapshot_files(config) -> list[str]:
    """Step 7's training snapshots, as the worker's lesson names them."""
    model = config["snapshots"]["model"]
    return [f"models/snapshots/{model}/{s['file']}" for s in config["snapshots"]["list"]]


def said(page) -> str:
    text = page.evaluate("document.body.innerText")
    assert "server" not in text.lower(), text
    return text


def step(page, n: int, kind: str | None) -> None:
    """Open step n and wait until its figure is drawn anew (a step of the full app's views:
    its line with the link)."""
    before = page.evaluate(f"({SHOWN}?.[{kind!r}] || {{drawn: 0}}).drawn") if kind else 0
    page.locator("#step-list button").nth(n - 1).click()
    assert page.locator("#step-title").inner_text().startswith(f"{n} ·")
    if kind in ("large", None):
        page.wait_for_function(f"{GRID}?.ok && {LARGE}?.ok", timeout=20000)
    elif kind == "app":
        assert "full app" in page.locator("#step-elsewhere").inner_text()
    else:
        page.wait_for_function(f"({SHOWN}?.[{kind!r}] || {{drawn: 0}}).drawn > {before}",
                               timeout=30000)
        assert page.evaluate(f"{SHOWN}[{kind!r}].ok"), n
    said(page)


def test_the_lesson_works_offline_after_the_first_load(browser, site_url, site, resources):
    context = browser.new_context()  # service workers allowed (Playwright's default)
    asked: list[str] = []
    context.on("request", lambda r: asked.append(r.url))
    page = context.new_page()
    page.goto(site_url)
    page.wait_for_function(f"{GRID}?.ok", timeout=20000)
    # saved in the background after the first grid, and said with its size
    page.wait_for_function(f"{OFFLINE}?.state === 'saved'", timeout=60000)
    state = page.evaluate(OFFLINE)
    assert state["models"] == lesson(resources)
    files = ["index.html", "site.js", "site.css", "lab_worker.js", "models/tokenizer.json",
             *(f"models/{m}.safetensors" for m in state["models"])]
    snapshots = snapshot_files(config_of(site))  # step 7's training snapshots
    assert state["bytes"] == sum((site / f).stat().st_size for f in files + snapshots)
    line = page.locator("#offline").inner_text()
    assert line.startswith("Saved for offline use")
    assert f"{len(snapshots)} training snapshots and " in line
    assert f"the {len(files) - 5} models the nine steps use." in line
    assert f"({state['bytes'] / 2**20:.1f} MB)" in line
    # a model no step uses, opened while connected: saved too, and counted
    page.select_option("#heads", "1")
    page.wait_for_function(f"{GRID}.ok && {GRID}.heads === 1", timeout=20000)
    page.wait_for_function(f"{OFFLINE}.models.includes('causal-h1-rotary')", timeout=20000)
    page.wait_for_function("document.getElementById('offline').textContent"
                           ".includes('use, and causal-h1-rotary.')", timeout=5000)

    context.set_offline(True)
    page.reload()
    page.wait_for_function(f"{GRID}?.ok", timeout=20000)
    page.wait_for_function(f"{OFFLINE}?.state === 'saved'", timeout=20000)
    assert said(page).count("Saved for offline use") == 1
    page.click("#tab-steps")
    figures = [s["figure"] for s in config_of(site)["steps"]]
    for n, kind in enumerate(figures, start=1):
        step(page, n, kind)
    train_offline(page)
    walk_the_knobs_offline(page)
    context.close()
    elsewhere = [u for u in asked if not u.startswith(site_url)]
    assert not elsewhere, elsewhere


def test_every_step_draws_offline_on_a_projector_and_a_phone(browser, site_url, site):
    """The nine steps again with the network cut after the first load, on a projector's
    short screen in Big screen mode (853x480 at 1.5) and then at a phone's width (390x844):
    every step draws its figure from what was saved, and no text mentions a server."""
    context = browser.new_context(viewport={"width": 853, "height": 480},
                                  device_scale_factor=1.5)
    page = context.new_page()
    page.goto(site_url + "?projector=1")
    page.wait_for_function(f"{GRID}?.ok", timeout=20000)
    page.wait_for_function(f"{OFFLINE}?.state === 'saved'", timeout=60000)
    context.set_offline(True)
    figures = [s["figure"] for s in config_of(site)["steps"]]
    for size, query in (((853, 480), "?projector=1"), ((390, 844), "")):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.goto(site_url + query)
        page.wait_for_function(f"{GRID}?.ok", timeout=20000)
        assert page.evaluate("document.documentElement.classList"
                             ".contains('ae-projector')") == bool(query)
        page.click("#tab-steps")
        for n, kind in enumerate(figures, start=1):
            step(page, n, kind)
            assert "recorded" not in said(page).lower(), (size, n)
    context.close()


def train_offline(page) -> None:
    """Step 9, offline: a short Lab run trains in the browser's Worker (lab_worker.js from
    the saved lesson) to its end."""
    page.locator("#step-list button").nth(8).click()
    page.fill("#lab-steps", "20")
    page.click("#lab-train")
    page.wait_for_function(f"{SHOWN}?.lab?.state === 'done'", timeout=60000)
    assert page.evaluate(f"{SHOWN}.lab.summary.steps") == 20
    said(page)


def walk_the_knobs_offline(page) -> None:
    """Explore, offline: the lesson's knobs (the mask, the positional encoding of step 5,
    the scaling, a head off) draw, and so does the model opened while connected; a model
    neither the steps nor the student opened is not saved, and says so."""
    page.click("#tab-explore")
    page.wait_for_function(f"{GRID}?.ok", timeout=20000)
    for knob, value in (("#mask", "off"), ("#scaling", "none"), ("#pos", "none")):
        before = page.evaluate(f"{GRID}.drawn")
        page.select_option(knob, value)
        page.wait_for_function(f"{GRID}.ok && {GRID}.drawn > {before}", timeout=20000)
    page.select_option("#pos", "rotary")
    before = page.evaluate(f"{GRID}.drawn")
    page.select_option("#heads", "1")  # no step uses it, but it was opened while connected
    page.wait_for_function(f"{GRID}.ok && {GRID}.heads === 1 && {GRID}.drawn > {before}",
                           timeout=20000)
    page.select_option("#heads", "4")
    page.wait_for_function(f"{GRID}.ok && {GRID}.heads === 4", timeout=20000)
    before = page.evaluate(f"{GRID}.drawn")
    page.click("#heads-off summary")
    page.locator("#heads-off-boxes input[data-head='0,1']").check()
    page.wait_for_function(f"{GRID}.ok && {GRID}.drawn > {before}", timeout=20000)
    assert "experiment" in page.locator("#grid .ae-grid-caption").inner_text()
    page.select_option("#heads", "2")  # causal-h2-rotary: no step uses it
    page.wait_for_function(f"{CAPTION}.includes({NOT_SAVED!r})", timeout=20000)
    assert "causal-h2-rotary" in page.locator("#where").inner_text()
    assert NOT_SAVED in page.locator("#where").inner_text()
    said(page)


# the versions of this page's caches, as the worker names them, once they are ``want``
# (caches.keys() answers later: each poll reads the previous poll's answer)
VERSIONS = """(want) => {
    caches.keys().then((names) => (window.cacheNames = names));
    const ours = (window.cacheNames || []).filter((n) => n.startsWith('attention-explorer '));
    return JSON.stringify(ours.map((n) => n.split(' ').pop())) === JSON.stringify(want);
}"""


def test_a_new_build_replaces_the_saved_one(browser, site, serve, tmp_path):
    """A new build is a new worker (its version differs): on the next visit it saves its own
    files, and the older build's cache is deleted."""
    folder = tmp_path / "site"
    folder.mkdir()
    for name in ("index.html", "site.js", "site.css", "sw.js", "lab_worker.js"):
        shutil.copyfile(site / name, folder / name)
    (folder / "models").symlink_to(site / "models")
    old = re.search(r'"version": "([0-9a-f]{16})"', (folder / "sw.js").read_text()).group(1)
    with serve(folder) as url:
        context = browser.new_context()
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(f"{OFFLINE}?.state === 'saved'", timeout=60000)
        page.wait_for_function(VERSIONS, arg=[old], timeout=5000)
        worker = (folder / "sw.js").read_text(encoding="utf-8")
        (folder / "sw.js").write_text(worker.replace(old, "0" * 16), encoding="utf-8")
        page.reload()
        page.wait_for_function(VERSIONS, arg=["0" * 16], timeout=60000)
        page.wait_for_function(f"{OFFLINE}?.state === 'saved'", timeout=20000)
        context.close()
