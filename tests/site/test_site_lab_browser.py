"""Step 9 of the static edition in real Chromium: the Lab trained in this browser, in a Web
Worker (static/site/fig_lab*.js, the trainer static/build/lab_worker.js copied beside the
page). A short one-layer run draws its events and ends with the app's sentence; the page
answers a click while a run trains, and Stop stops it; a finished run goes into this
browser's table and is still there after a reload; the page's interface
(window.AttentionExplorer.lab.train) gives the summary with the interface's names, and a
run is fixed by its settings. Nothing on the page says "recorded" or "server". Short runs
(20 to 60 steps): seconds each; every wait is for a condition."""

from __future__ import annotations

import pytest

SHOWN = "window.AttentionExplorer?.site?.shown"
LAB = f"{SHOWN}?.lab"


@pytest.fixture()
def lab_page(browser, site_url):
    # the service worker blocked: the page over the network (offline: test_site_offline.py)
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  service_workers="block")
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site_url}?step=9")
    page.wait_for_function(f"{LAB}?.state === 'ready'", timeout=20000)
    yield page
    assert not errors, errors
    assert not [u for u in asked if not u.startswith(site_url)]
    context.close()


def said(page) -> str:
    text = page.evaluate("document.body.innerText")
    assert "recorded" not in text.lower() and "server" not in text.lower(), text
    return text


def train(page, steps: int) -> None:
    page.fill("#lab-steps", str(steps))
    page.click("#lab-train")
    page.wait_for_function(f"{LAB}.state === 'running'", timeout=5000)


def rows(page) -> int:
    return page.locator("#lab-table tbody tr").count()


def test_a_short_run_draws_as_it_trains_and_is_kept(lab_page):
    page = lab_page
    assert page.locator("input[name=lab-layers][value='1']").is_checked()  # the step's
    assert "Trains in your browser, on this device" in said(page)
    assert rows(page) == 0 and page.locator("#lab-table p").is_visible()  # none yet
    train(page, 60)
    assert page.locator("#lab-train").is_disabled() and page.locator("#lab-stop").is_enabled()
    page.wait_for_function(f"{LAB}.state === 'done'", timeout=60000)
    shown = page.evaluate(LAB)
    assert shown["ok"] and shown["step"] == 60 and shown["events"] >= 2, shown
    summary = shown["summary"]
    assert summary["steps"] == 60 and not summary["stopped"] and not summary["formed"]
    assert summary["settings"]["layers"] == 1 and summary["settings"]["max_steps"] == 60
    status = page.locator("#lab-status").inner_text()
    assert status.startswith("Step 60") and "1 layer × 2 heads" in status
    assert "No induction head formed in 60 steps: with one layer it cannot" in status
    # the chart: two losses, chance, the bar and both heads' two scores
    assert page.locator("#lab-chart polyline").count() == 2 + 2 + 2 * 2
    assert page.locator("#lab-heads canvas").count() == 2  # 1 layer x 2 heads on the probe
    assert "every head on the sequence said twice" in page.locator("#lab-heads").inner_text()
    assert rows(page) == 1
    cells = page.locator("#lab-table tbody tr td").all_inner_texts()
    assert cells[:8] == ["1 × 2", "learned", "no", "no", "0.003", "0", "60", "no"], cells
    said(page)
    page.reload()  # this browser's table: kept in its storage
    page.wait_for_function(f"{LAB}?.state === 'ready'", timeout=20000)
    assert rows(page) == 1 and not page.locator("#lab-table p").is_visible()


def test_the_page_answers_while_it_trains_and_stop_stops(lab_page):
    page = lab_page
    page.check("input[name=lab-layers][value='2']")
    train(page, 3000)  # minutes of training: it is stopped long before its end
    page.wait_for_function(f"{LAB}.events >= 3", timeout=60000)
    # a click on the page, answered mid-run (the trainer is off the page's thread)
    page.click("#reveal")
    page.wait_for_selector("#step-answer", state="visible", timeout=2000)
    assert page.evaluate(f"{LAB}.state") == "running"
    page.click("#lab-stop")
    page.wait_for_function(f"{LAB}.state === 'stopped'", timeout=10000)
    shown = page.evaluate(LAB)
    assert shown["summary"]["stopped"] and shown["summary"]["steps"] < 3000, shown
    assert page.locator("#lab-status").inner_text().startswith("⏹️ Stopped.")
    assert page.locator("#lab-heads canvas").count() == 4  # 2 layers x 2 heads
    assert rows(page) == 0  # a stopped run is no result
    assert page.locator("#lab-train").is_enabled() and page.locator("#lab-stop").is_disabled()
    said(page)


def test_the_interface_trains_and_a_run_is_fixed_by_its_settings(lab_page):
    got = lab_page.evaluate("""async () => {
        const kinds = [];
        const run = () => AttentionExplorer.lab.train({layers: 1, seed: 3, steps: 20},
                                                      {onEvent: (e) => kinds.push(e.kind)});
        const [a, b] = [await run(), await run()];
        let refused = null;
        try { await AttentionExplorer.lab.train({layers: 1, speed: 9}); }
        catch (e) { refused = e.message; }
        return {a, b, kinds, refused};
    }""")
    a, b = got["a"], got["b"]
    assert a["steps"] == 20 and a["formed"] is False and a["formed_step"] is None
    assert a["best_previous"] == a["best_previous_token"] and 0 <= a["best_induction"] <= 1
    assert a["final"] == b["final"]  # the same settings and seed: the same run
    assert got["kinds"][0] == "start" and got["kinds"].count("done") == 2
    assert "speed" in got["refused"]
