"""explorer.notebook's HTML in a real Chromium with every network request blocked: a saved
head_view draws its grid and its large head, hovering names the weight and its two tokens,
clicking a head opens it large, two views on one page both draw, and nothing errors."""

import numpy as np
import pytest

from explorer.notebook import head_view, show

TOKENS = ["The", " cat", " sat", " on", " the", " mat", "</script>"]
DRAWN = ("(i) => !!window.AttentionExplorer?.grid?.state("
         "document.querySelectorAll('.ae-nb-grid canvas')[i])")


def causal(layers: int, heads: int, n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = np.tril(rng.random((layers, heads, n, n)) + 0.05)
    return a / a.sum(-1, keepdims=True)


@pytest.fixture
def offline_page(browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    blocked, errors = [], []

    def route(r):
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page, blocked, errors
    context.close()


def grid_state(page, index: int = 0, which: str = ".ae-nb-grid") -> dict:
    return page.evaluate("() => window.AttentionExplorer?.grid?.state("
                         f"document.querySelectorAll('{which} canvas')[{index}])")


def test_a_saved_head_view_draws_offline_and_hover_and_click_work(offline_page, tmp_path):
    page, blocked, errors = offline_page
    path = head_view(causal(3, 4, len(TOKENS)), TOKENS, theme="dark").save(tmp_path / "v.html")
    page.goto(path.as_uri())
    page.wait_for_function(DRAWN, arg=0, timeout=15000)
    grid = grid_state(page)
    assert grid["ok"] and (grid["layers"], grid["heads"], grid["n"]) == (3, 4, len(TOKENS))
    assert grid["tokens"][-1] == "</script>"  # a token is text on the canvas, never markup
    large = grid_state(page, 0, ".ae-nb-head")
    assert large["ok"] and (large["layers"], large["heads"]) == (1, 1)
    # the canvas drew pixels in the dark theme's paper colour, and the weights on top
    painted = page.evaluate("""() => { const c = document.querySelector('.ae-nb-grid canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const seen = new Set(); for (let i = 0; i < d.length; i += 4 * 97)
          seen.add(d[i] + ',' + d[i + 1] + ',' + d[i + 2]); return seen.size; }""")
    assert painted > 5
    # hover over the last query row of head L2 H3: the tip names the head, both tokens
    g = grid["geom"]
    canvas = page.locator(".ae-nb-grid canvas")
    x = g["left"] + 3 * (g["size"] + g["gap"]) + g["size"] * 0.5 / len(TOKENS)
    y = g["top"] + 2 * (g["size"] + g["gap"]) + g["size"] * (len(TOKENS) - 0.5) / len(TOKENS)
    canvas.hover(position={"x": x, "y": y})
    tip = page.locator(".ae-nb-grid .ae-grid-tip")
    tip.wait_for(state="visible", timeout=5000)
    assert tip.inner_text().startswith("L2 H3 · query 6 </script> → key 0 The: ")
    canvas.click(position={"x": x, "y": y})  # opens L2 H3 large
    page.wait_for_function("() => window.AttentionExplorer?.grid?.state('.ae-nb-head canvas')"
                           ".drawn >= 2", timeout=5000)
    assert "L2 H3 large" in page.locator(".ae-nb-head .ae-grid-caption").inner_text()
    assert grid_state(page)["selected"] == [2, 3]
    assert blocked == [] and errors == []


def test_two_views_on_one_page_both_draw(offline_page, tmp_path):
    page, blocked, errors = offline_page
    one = head_view(causal(2, 2, 4), ["a", "b", "c", "d"])
    two = show("The cat sat on the mat. The cat", heads=2, pos="rotary", mask="off")
    bad = show("", heads=2)  # nothing typed: a message, not a blank
    body = one._repr_html_() + two._repr_html_() + one._repr_html_() + bad._repr_html_()
    path = tmp_path / "notebook.html"
    path.write_text(f"<!DOCTYPE html><meta charset='utf-8'><body>{body}</body>")
    page.goto(path.as_uri())
    for i in range(3):
        page.wait_for_function(DRAWN, arg=i, timeout=15000)
    states = [grid_state(page, i) for i in range(3)]
    assert [s["heads"] for s in states] == [2, 2, 2] and states[1]["n"] == len(two.tokens)
    assert "Guesses for the next word" in page.locator(".ae-grid-guesses").nth(2).inner_text()
    last = page.locator(".ae-nb-grid .ae-grid-caption").nth(3)
    assert "Type a sentence" in last.inner_text()
    assert blocked == [] and errors == []
