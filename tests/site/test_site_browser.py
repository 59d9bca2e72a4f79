"""The static edition in real Chromium, served by a plain local static server: the first
grid, typing with the network cut (and a model that cannot download then, said plainly), a
click opening the large head, a knob, Start here (all nine steps on one page, their figures'
numbers checked against the Python functions', and a step's own link), the phone and
projector screens, a damaged model refused in plain words, and the page opened as a file. No
request may leave for another host, and no message says a server is busy: this page has
none."""

from __future__ import annotations

import numpy as np
import pytest

GRID = "window.AttentionExplorer?.grid?.state('#grid canvas')"
LARGE = "window.AttentionExplorer?.grid?.state('#head-large canvas')"


def drawn(page, which=GRID) -> int:
    return page.evaluate(f"({which} || {{drawn: 0}}).drawn")


@pytest.fixture()
def opened(browser, site_url, request):  # noqa: F811
    size, scale = getattr(request, "param", ((1280, 800), 1))
    # the service worker blocked: these are of the page over the network (a cut network, a
    # damaged download routed in); offline after a first load is test_site_offline.py's
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  device_scale_factor=scale, service_workers="block")
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(site_url)
    page.wait_for_function(f"{GRID} && {GRID}.ok", timeout=15000)
    yield page, context
    elsewhere = [u for u in asked if not u.startswith(site_url)]
    assert not elsewhere, elsewhere
    context.close()


def test_typing_offline_follows_every_keystroke(opened):
    page, context = opened
    first = page.evaluate(f"{GRID}")
    assert first["layers"] == 4 and first["heads"] == 4 and first["n"] > 5
    context.set_offline(True)
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    box = page.locator("#sentence textarea")
    box.fill("The cat")
    page.wait_for_function(f"{GRID}.n === 2", timeout=5000)
    for word in [" sat", " on", " the"]:
        before = drawn(page)
        box.press_sequentially(word[:1] + word[1:], delay=0)
        page.wait_for_function(f"{GRID}.drawn > {before} && "
                               f"{GRID}.tokens.join('').endsWith('{word[1:]}')", timeout=5000)
    assert page.evaluate(f"{GRID}.n") == 5
    assert not failed, failed
    # another model while offline: it cannot download, and the page says so plainly
    page.select_option("#heads", "2")
    page.wait_for_function("document.querySelector('#grid .ae-grid-caption').textContent"
                           ".includes('Could not load the model causal-h2-rotary')",
                           timeout=5000)
    said = (page.locator("#grid .ae-grid-caption").inner_text(),
            page.locator("#where").inner_text())
    assert "check the connection" in said[0] and said[0] == said[1], said
    assert "server" not in " ".join(said).lower(), said
    context.set_offline(False)  # back online: the next change loads it
    box.press_sequentially(" mat", delay=0)
    page.wait_for_function(f"{GRID}.ok && {GRID}.heads === 2", timeout=15000)


def test_click_opens_the_large_head_and_a_knob_changes_the_caption(opened):
    page, _ = opened
    geom = page.evaluate(f"{GRID}.geom")
    # the square of layer 1, head 2
    x = geom["left"] + 2 * (geom["size"] + geom["gap"]) + geom["size"] / 2
    y = geom["top"] + 1 * (geom["size"] + geom["gap"]) + geom["size"] / 2
    page.locator("#grid canvas").click(position={"x": x, "y": y})
    page.wait_for_function(f"{LARGE} && {LARGE}.ok", timeout=5000)
    large = page.evaluate(LARGE)
    assert large["layers"] == 1 and large["heads"] == 1
    assert page.evaluate(f"{GRID}.selected") == [1, 2]
    assert "Layer 1, head 2" in page.locator("#large-title").inner_text()
    assert page.locator("#grid .ae-grid-guesses").inner_text().startswith("Guesses")
    caption = page.locator("#grid .ae-grid-caption")
    assert "experiment" not in caption.inner_text()
    page.select_option("#mask", "off")
    page.wait_for_function("document.querySelector('#grid .ae-grid-caption')"
                           ".textContent.includes('experiment')", timeout=5000)


def test_switching_a_head_off_changes_the_grid(opened):
    page, _ = opened
    before = page.evaluate(f"Array.from({GRID}.cells).join(',')")
    page.click("#heads-off summary")
    page.locator("#heads-off-boxes input[data-head='0,1']").check()
    page.wait_for_function(f"Array.from({GRID}.cells).join(',') !== '{before}'"
                           if len(before) < 20000 else "true", timeout=5000)
    assert "experiment" in page.locator("#grid .ae-grid-caption").inner_text()


SHOWN = "window.AttentionExplorer?.site?.shown"
COVER = ("(s) => [...document.querySelectorAll(s)].map((e) => "
         "getComputedStyle(e, '::after').content)")


def step_button(page, n: int):
    return page.locator("#step-list button").nth(n - 1)


def show(page, n: int, kind: str | None = None) -> dict | None:
    """Open step n (1-based) and, for a step with a figure, wait until it is drawn anew
    with numbers; then nothing the page says may call it recorded or mention a server."""
    before = page.evaluate(f"({SHOWN}?.[{kind!r}] || {{drawn: 0}}).drawn") if kind else 0
    step_button(page, n).click()
    assert page.locator("#step-title").inner_text().startswith(f"{n} ·")
    assert page.url.endswith(f"?step={n}")
    shown = None
    if kind:
        page.wait_for_function(f"({SHOWN}?.[{kind!r}] || {{drawn: 0}}).drawn > {before}",
                               timeout=20000)
        shown = page.evaluate(f"{SHOWN}[{kind!r}]")
        assert shown["ok"], shown
    said = page.evaluate("document.body.innerText").lower()
    assert "recorded" not in said and "server" not in said, n
    return shown


def covered(page, selectors: list[str]) -> list[bool]:
    """Whether each selector's elements are covered ("Hidden until Reveal")."""
    return [all(c == '"Hidden until Reveal"' for c in page.evaluate(COVER, s))
            and bool(page.evaluate(COVER, s)) for s in selectors]


def reveal(page, selectors: list[str]) -> None:
    assert covered(page, selectors) == [True] * len(selectors), selectors
    page.click("#reveal")
    assert page.locator("#step-answer").is_visible()
    assert covered(page, selectors) == [False] * len(selectors), selectors


def wait_for(page, kind: str, condition: str) -> dict:
    page.wait_for_function(f"(s => s && s.ok && ({condition}))({SHOWN}?.[{kind!r}])",
                           timeout=20000)
    return page.evaluate(f"{SHOWN}[{kind!r}]")


@pytest.fixture(scope="module")
def python_numbers(resources):
    """What the Python functions say of the steps' sentences on the default model: step 3's
    ranking and its copying head switched off (the Ablate view's), step 4's three losses,
    step 5's shuffle test, step 8's patching (the Patch view's)."""
    from explorer.analysis.losses import loss_spec, spec_loss
    from explorer.analysis.patching import patch
    from explorer.analysis.positional_views import equivariance_gap, shuffle_experiment
    from explorer.models.settings import AttentionSettings
    from explorer.models.zoo import DEFAULT_NAME
    from explorer.views.ablate import ablate, rank_heads
    from explorer.views.patch import EXAMPLE_CLEAN, EXAMPLE_CORRUPT
    from explorer.views.start_here import ORDER, REPEAT, STORY, default_path

    tok, zoo = resources
    model = zoo.get(DEFAULT_NAME)
    path = default_path(zoo, edition="static")
    ind = (path[1].controls()["layer"], path[1].controls()["head"])
    spec = loss_spec(tok.encode(REPEAT), True, tok.mask_id)
    off = ablate(model, tok, REPEAT, AttentionSettings(), [ind])
    story = loss_spec(tok.encode(STORY), True, tok.mask_id)
    shuffled = shuffle_experiment(zoo.get("causal-h4-none"), tok, ORDER,
                                  AttentionSettings(causal=False), 0, 0, seed=0)
    patched = patch(model, tok.encode(EXAMPLE_CLEAN), tok.encode(EXAMPLE_CORRUPT))
    return {
        "ind": ind, "ranking": rank_heads(model, spec), "loss_on": off.loss_on,
        "loss_off": off.loss_off,
        "top": (tok.decode([int(np.argmax(off.on.probs))]),
                tok.decode([int(np.argmax(off.off.probs))])),
        "losses": [spec_loss(model, story, s) for s in (
            AttentionSettings(), AttentionSettings(causal=False),
            AttentionSettings(causal=False, head_mask=(ind,)))],
        "shuffle": shuffled, "reading": equivariance_gap(shuffled), "heads": patched.heads,
    }


def test_start_here_walks_all_nine_steps(opened, python_numbers):
    """One page, step by step: each step sets its sentence and knobs and draws its figure
    in the browser, with the Python functions' numbers; what gives an answer away is covered
    until Reveal."""
    page, _ = opened
    py = python_numbers
    page.click("#tab-steps")
    assert page.locator("#step-list button").count() == 9
    walk_steps_1_to_4(page, py)
    walk_steps_5_to_9(page, py)


def walk_steps_1_to_4(page, py) -> None:
    # 1: the large head over the grid
    show(page, 1)
    assert not page.locator("#step-answer").is_visible()
    page.wait_for_function(f"{LARGE} && {LARGE}.ok && {GRID}.ok", timeout=10000)
    assert page.locator("#sentence textarea").input_value().startswith("Once there was")
    page.click("#reveal")
    assert "large head" in page.locator("#step-answer").inner_text()
    # 2: the guesses covered until Reveal
    show(page, 2)
    page.wait_for_function(f"{LARGE} && {LARGE}.ok && {LARGE}.n === 24", timeout=10000)
    reveal(page, ["#grid .ae-grid-guesses", "#head-large .ae-grid-guesses"])
    assert "coat" in page.locator("#grid .ae-grid-guesses").inner_text()
    # 3: the ranking is the Ablate view's; the copying head ticked off, the guesses and loss
    # before -> after are ablate's
    shown = show(page, 3, "ablate")
    assert page.evaluate("document.getElementById('heads-off').open")
    ranking = py["ranking"]
    assert abs(shown["base"] - ranking.base) <= 1e-3
    rise = {(r.layer, r.head): r.delta for r in ranking.rows}
    for place, row in enumerate(shown["ranking"][:3]):
        want = ranking.rows[place]
        assert abs(row["delta"] - rise[row["layer"], row["head"]]) <= 1e-3, row
        if (row["layer"], row["head"]) != (want.layer, want.head):  # only a near tie
            assert abs(rise[row["layer"], row["head"]] - want.delta) <= 1e-3, (place, row)
    cells = page.locator("#ablate-ranking tbody tr").first.locator("td").all_inner_texts()
    top = shown["ranking"][0]
    assert cells[1] == f"L{top['layer']} H{top['head']}" and cells[2] == f"+{top['delta']:.3f}"
    layer, head = py["ind"]
    assert f"L{layer} H{head}" in page.locator("#step-look").inner_text()
    page.locator(f"#heads-off-boxes input[data-head='{layer},{head}']").check()
    shown = wait_for(page, "ablate", "s.headsOff.length === 1")
    assert abs(shown["lossOn"] - py["loss_on"]) <= 1e-3
    assert abs(shown["lossOff"] - py["loss_off"]) <= 1e-3
    assert (shown["top"]["was"], shown["top"]["now"]) == py["top"] and py["top"][0] == " coat"
    status = page.locator("#ablate-status").inner_text()
    assert status.startswith("Top guess “␣coat”") and "is the top guess" in status
    assert "before → after" in page.locator("#ablate-figure h3").first.inner_text()
    # a click on a square switches that head off, as on the app's Ablate grid
    geom = page.evaluate(f"{GRID}.geom")  # the square of layer 0, head 1
    page.locator("#grid canvas").click(position={
        "x": geom["left"] + (geom["size"] + geom["gap"]) + geom["size"] / 2,
        "y": geom["top"] + geom["size"] / 2})
    wait_for(page, "ablate", "s.headsOff.length === 2")
    assert page.locator("#heads-off-boxes input[data-head='0,1']").is_checked()
    assert not page.locator("#large").is_visible()
    # 4: the loss as trained, with the mask off, and with the copying head off too
    shown = show(page, 4, "losses")
    assert page.locator("#mask").input_value() == "off"
    assert shown["large"] == list(py["ind"])  # every head on again, the large head copying
    for got, want in zip((shown["trained"], shown["now"], shown["largeOff"]), py["losses"],
                         strict=True):
        assert abs(got - want) <= 1e-3, (got, want)
    assert page.locator("#losses li").count() == 3
    assert f"{py['losses'][2]:.2f}" in page.locator("#losses li").nth(2).inner_text()
    page.wait_for_function(f"{LARGE} && {LARGE}.ok", timeout=10000)


def walk_steps_5_to_9(page, py) -> None:
    # 5: the shuffle test on the model with no positional encoding, as the view's
    shown = show(page, 5, "shuffle")
    r = py["shuffle"]
    assert page.locator("#pos").input_value() == "none"
    assert shown["perm"] == r.perm.tolist() and shown["maxDiffAll"] < 1e-4
    assert abs(shown["maxDiffHead"] - r.max_diff_head) <= 1e-3
    assert not page.locator("#grid").is_visible()
    for box in ("difference", "original", "shuffled"):
        assert page.evaluate(f"AttentionExplorer.grid.state('#pe-shuffle-{box} canvas').ok")
    assert max(page.evaluate("[...AttentionExplorer.grid.state("
                             "'#pe-shuffle-difference canvas').cells]")) == 0
    reveal(page, ["#pe-shuffle-difference", "#pe-shuffle-summary"])
    assert page.locator("#pe-shuffle-summary p").first.inner_text() == py["reading"]
    # 6: the same head as trained and with scaling none: sharper on the right
    shown = show(page, 6, "compare")
    assert shown["scalings"] == ["1/√d_head", "none"]
    assert "scaling none" in shown["captions"][1] and "scaling" not in shown["captions"][0]
    peaks = page.evaluate("""() => ['#cmp-left', '#cmp-right'].map((s) => {
        const g = AttentionExplorer.grid.state(s + ' canvas');
        let sum = 0;
        for (let q = 0; q < g.n; q++) sum += Math.max(...g.cells.slice(q * g.n, q * g.n + g.n));
        return sum / g.n;
    })""")
    assert peaks[1] > peaks[0] + 10, peaks
    snapshots_step(page)
    walk_step_8(page, py)
    lab_step(page)


def lab_step(page) -> None:
    """9: the Lab, trained in this browser (a run: test_site_lab_browser.py): its figure
    alone, one layer first, the line saying where it trains; no link to the full app."""
    shown = show(page, 9, "lab")
    assert shown["state"] in ("ready", "done"), shown
    assert page.locator("#lab-figure").is_visible()
    assert not page.locator("#step-elsewhere").is_visible()
    assert not page.locator("#sentence").is_visible() and not page.locator("#knobs").is_visible()
    assert page.locator("input[name=lab-layers][value='1']").is_checked()
    assert "Trains in your browser" in page.locator(".ae-lab-where").inner_text()
    assert page.locator("#step-look").inner_text().startswith("A tiny transformer")


def snapshots_step(page) -> None:
    """7: the training snapshots' slider, heads and curves, in the browser (its numbers:
    test_site_snapshots_browser.py); no line sending to the full app."""
    shown = show(page, 7, "snapshots")
    assert shown["index"] == 0 and shown["points"]["prev"] == 1, shown
    assert page.locator("#snapshots-figure").is_visible()
    assert not page.locator("#step-elsewhere").is_visible()
    assert not page.locator("#grid-part").is_visible()  # the figure's own grid instead
    assert page.locator("#step-look").inner_text().startswith("The slider below")


def walk_step_8(page, py) -> None:
    """8: every head patched alone, the heatmap covered until Reveal; a click on a cell
    patches that head."""
    shown = show(page, 8, "patch")
    assert page.locator("#corrupt-box").input_value().startswith("Tim wrote a list")
    heads = np.array(shown["heads"])
    assert heads.shape == py["heads"].shape and np.abs(heads - py["heads"]).max() <= 0.02
    best = np.unravel_index(int(np.argmax(py["heads"])), heads.shape)
    assert [shown["patched"]["layer"], shown["patched"]["head"]] == [int(x) for x in best]
    reveal(page, ["#patch-heads", "#patch-reading", "#patch-guesses"])
    assert page.locator("#patch-heads td button").count() == heads.size
    page.locator("#patch-heads td[data-head='2,0'] button").click()
    shown = wait_for(page, "patch", "s.patched.layer === 2 && s.patched.head === 0")
    assert "with L2 H0 patched" in page.locator("#patch-guesses h3").inner_text()
    assert page.locator("#patch-heads td[data-head='2,0'] button").get_attribute(
        "aria-pressed") == "true"


def test_a_step_link_opens_that_step(browser, site_url):
    """?step=N (1-based, as the app's links) opens Start here on step N, drawn."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + "?step=8")
    page.wait_for_function(f"{SHOWN}?.patch?.ok", timeout=20000)
    assert page.locator("#step-title").inner_text().startswith("8 ·")
    assert step_button(page, 8).get_attribute("aria-current") == "step"
    assert page.locator("#tab-steps").get_attribute("aria-pressed") == "true"
    assert page.locator("#step-link").get_attribute("href") == "?step=8"
    page.click("#tab-explore")  # back to Explore: the address names no step
    assert "step=" not in page.url and page.locator("#grid").is_visible()
    context.close()


SCREENS = [((390, 844), 3), ((853, 480), 1.5)]


@pytest.mark.parametrize("opened", SCREENS, indirect=True, ids=["phone", "projector"])
def test_screens_show_the_grid(opened, tmp_path_factory, request):
    page, _ = opened
    box = page.locator("#grid canvas").bounding_box()
    view = page.viewport_size
    assert box["width"] <= view["width"] + 1
    page.locator("#grid canvas").scroll_into_view_if_needed()
    box = page.locator("#grid canvas").bounding_box()
    assert box["y"] < view["height"] and box["y"] + box["height"] > 0
    out = tmp_path_factory.getbasetemp() / f"site-{request.node.callspec.id}.png"
    page.screenshot(path=str(out))
    print("screenshot", out)


def test_another_model_after_a_head_off(opened, site):
    page, _ = opened
    page.click("#heads-off summary")
    page.locator("#heads-off-boxes input[data-head='3,3']").check()
    page.wait_for_function("document.querySelector('#grid .ae-grid-caption')"
                           ".textContent.includes('experiment')", timeout=5000)
    page.select_option("#heads", "1")  # a model with no head 3: all its heads on
    page.wait_for_function(f"{GRID}.ok && {GRID}.heads === 1", timeout=15000)
    assert "experiment" not in page.locator("#grid .ae-grid-caption").inner_text()
    assert page.locator("#heads-off-boxes input").count() == 4
    # a model whose file arrives damaged: refused in the engine's plain words, not drawn;
    # intact on the next change, it loads (the failed load is not kept)
    name = "causal-h8-rotary.safetensors"
    body = bytearray((site / "models" / name).read_bytes())
    body[-3] ^= 0x40
    page.route(f"**/models/{name}", lambda route: route.fulfill(
        status=200, body=bytes(body), headers={"content-type": "application/octet-stream"}))
    page.select_option("#heads", "8")
    said = ("⚠️ The model file causal-h8-rotary.safetensors is damaged (its checksum does not "
            "match): download the page again.")
    for where in ("#grid .ae-grid-caption", "#where"):
        page.wait_for_function("([w, m]) => document.querySelector(w).textContent === m",
                               arg=[where, said], timeout=15000)
    assert page.evaluate(f"{GRID}.heads") == 1  # the grid below is still the older one
    page.unroute(f"**/models/{name}")
    page.locator("#sentence textarea").press_sequentially(" again", delay=0)
    page.wait_for_function(f"{GRID}.ok && {GRID}.heads === 8", timeout=15000)


def test_opened_as_a_file_says_how_to_serve_the_folder(browser, site):
    """From a USB stick, file:///…/index.html: within a second the status line (and the
    grid's caption) says how to serve the folder, not that a server is busy."""
    context = browser.new_context()
    page = context.new_page()
    page.goto((site / "index.html").as_uri())
    serve = "python -m http.server -d . 8000"
    page.wait_for_function("(s) => document.getElementById('where').textContent.includes(s)",
                           arg=serve, timeout=1000)
    where = page.locator("#where").inner_text()
    assert "opened as a file" in where and "http://localhost:8000/" in where
    page.wait_for_function("(s) => document.querySelector('#grid .ae-grid-caption')"
                           ".textContent.includes(s)", arg=serve, timeout=1000)
    assert "busy" not in page.locator("body").inner_text().lower()
    context.close()
