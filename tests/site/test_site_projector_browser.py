"""Projector mode on the static edition's page (issue 48 item 4), in real Chromium:
``?projector=1`` and the header's Big screen switch (its class on <html> and the address,
as the full app's), at 1920x1080 a page as wide as the screen with the head drawn large as
tall as it and token labels of at least 14 px up to 64 tokens (thinned, the tip naming
each), a head clicked in the grid's last layer opening large on the screen (at a laptop and
a phone too), at a 1280x720 projector at 150 % (853x480) each step's question and figure on
the first screen, and the phone's one column as it was. Screenshots go to $AE_SHOTS
(default /tmp): site-projector-1920.png, site-projector-853-step<N>.png,
site-projector-phone.png."""

from __future__ import annotations

import os

import pytest

GRID = "window.AttentionExplorer?.grid?.state('#grid canvas')"
LARGE = "window.AttentionExplorer?.grid?.state('#head-large canvas')"
SHOTS = os.environ.get("AE_SHOTS", "/tmp")
# 64 words of one token each (and the full stop)
WORDS = ("Once there was a girl named Mia and she had a red ball and a big dog . "
         "One day the dog ran to the park with the ball and Mia ran after him . "
         "She saw a cat on the tree and the cat saw the dog and the ball . "
         "Then the dog gave the ball back to Mia and they went home")


def open_page(browser, site_url, size, scale=1, query=""):  # noqa: F811
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  device_scale_factor=scale, service_workers="block")
    page = context.new_page()
    page.goto(site_url + query)
    return page, context


def box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


TITLE_IN_VIEW = ("() => { const r = document.getElementById('large-title')"
                 ".getBoundingClientRect(); return r.top >= -1 && r.bottom <= innerHeight + 1; }")


def on_screen(page, selector: str, whole: bool = True) -> bool:
    b, view = box(page, selector), page.viewport_size
    if whole:
        return b["y"] >= -1 and b["y"] + b["height"] <= view["height"] + 1
    return 0 <= b["y"] < view["height"]


def click_head(page, layer: int, head: int) -> None:
    geom = page.evaluate(f"{GRID}.geom")
    page.locator("#grid canvas").click(position={
        "x": geom["left"] + head * (geom["size"] + geom["gap"]) + geom["size"] / 2,
        "y": geom["top"] + layer * (geom["size"] + geom["gap"]) + geom["size"] / 2})
    page.wait_for_function(
        "(t) => document.getElementById('large-title').textContent.startsWith(t)",
        arg=f"Layer {layer}, head {head}", timeout=10000)
    page.wait_for_function(f"{LARGE} && {LARGE}.ok", timeout=10000)
    # the scroll that brings its title into view (the next frame, or a smooth scroll's end)
    page.wait_for_function(TITLE_IN_VIEW, timeout=10000)


def test_big_screen_fills_1920_with_a_large_head_and_readable_labels(browser, site_url):
    page, context = open_page(browser, site_url, (1920, 1080), 1, "?projector=1")
    try:
        # Explore in projector mode opens the head drawn large by itself
        page.wait_for_function(f"{GRID} && {GRID}.ok && {LARGE} && {LARGE}.ok", timeout=20000)
        assert page.evaluate("document.documentElement.classList.contains('ae-projector')")
        assert box(page, "main")["width"] > 1600
        assert page.evaluate("document.documentElement.scrollWidth") <= 1920
        switch = page.locator(".ae-projector-switch")
        assert switch.inner_text() == "Normal screen"
        assert switch.get_attribute("aria-pressed") == "true"
        # the large head beside the grid, as tall as the screen allows
        large = page.evaluate(f"{LARGE}.geom")
        assert large["size"] >= 600, large
        assert box(page, "#head-large canvas")["height"] >= 600
        assert on_screen(page, "#head-large canvas")
        grid, head = box(page, "#grid canvas"), box(page, "#head-large canvas")
        assert grid["x"] >= head["x"] + head["width"] - 1  # beside it, not under it
        # 64 tokens: labels of at least 14 px, thinned so that they do not overlap
        drawn = page.evaluate(f"{LARGE}.drawn")
        page.locator("#sentence textarea").fill(WORDS)
        page.wait_for_function(f"{LARGE}.drawn > {drawn} && {LARGE}.n >= 64", timeout=20000)
        shown = page.evaluate(LARGE)
        g, n = shown["geom"], shown["n"]
        assert n >= 64
        cell = g["size"] / n
        assert g["font"] >= 14, g
        assert g["every"] * cell >= g["font"], g  # a row label clear of the next one
        assert g["everyKey"] * cell * 0.866 >= g["font"], g
        assert on_screen(page, "#head-large canvas")
        # a row left unlabelled is still named by the tip
        q = 1 if g["every"] > 1 else 0
        page.locator("#head-large canvas").hover(position={
            "x": g["left"] + cell / 2, "y": g["top"] + (q + 0.5) * cell})
        page.wait_for_function("!document.querySelector('#head-large .ae-grid-tip').hidden",
                               timeout=5000)
        tip = page.locator("#head-large .ae-grid-tip").inner_text()
        assert f"query {q} {shown['tokens'][q]} → key 0" in tip, tip
        assert page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                             "'#head-large .ae-grid-tip')).fontSize)") >= 14
        page.mouse.move(0, 0)
        # a head of the last layer opens large, on the screen
        last = page.evaluate(f"[{GRID}.layers - 1, {GRID}.heads - 1]")
        click_head(page, *last)
        assert on_screen(page, "#large")
        page.screenshot(path=f"{SHOTS}/site-projector-1920.png")
    finally:
        context.close()


@pytest.mark.parametrize("screen", [((1280, 800), 1, ""), ((390, 844), 3, ""),
                                    ((853, 480), 1.5, "?projector=1")],
                         ids=["laptop", "phone", "projector"])
def test_a_head_clicked_in_the_last_layer_opens_on_the_screen(browser, site_url, screen):
    size, scale, query = screen
    page, context = open_page(browser, site_url, size, scale, query)
    try:
        page.wait_for_function(f"{GRID} && {GRID}.ok", timeout=20000)
        last = page.evaluate(f"[{GRID}.layers - 1, {GRID}.heads - 1]")
        click_head(page, *last)
        page.wait_for_function(f"{LARGE} && {LARGE}.ok", timeout=10000)
        # its title and the top of the head on the screen (all of it where it fits)
        assert on_screen(page, "#large-title"), box(page, "#large")
        assert on_screen(page, "#head-large canvas", whole=False)
        if size[1] >= 800 and size[0] > 600:
            assert on_screen(page, "#large"), box(page, "#large")
    finally:
        context.close()


def test_the_switch_turns_projector_mode_on_and_off(browser, site_url):
    page, context = open_page(browser, site_url, (1366, 900), 1, "?step=2")
    try:
        page.wait_for_function(f"{GRID} && {GRID}.ok", timeout=20000)
        root = "document.documentElement.classList.contains('ae-projector')"
        switch = page.locator(".ae-projector-switch")
        assert not page.evaluate(root)
        assert switch.inner_text() == "Big screen" and switch.get_attribute(
            "aria-pressed") == "false"
        switch.click()
        assert page.evaluate(root)
        assert "projector=1" in page.url and "step=2" in page.url
        assert switch.inner_text() == "Normal screen" and switch.get_attribute(
            "aria-pressed") == "true"
        assert box(page, "main")["width"] > 1300
        # the keyboard reaches it: Enter switches back
        switch.focus()
        page.keyboard.press("Enter")
        assert not page.evaluate(root)
        assert "projector" not in page.url and "step=2" in page.url
        assert box(page, "main")["width"] < 1110
        # a step link keeps ?projector; leaving Start here keeps it too
        switch.click()
        page.locator("#step-list button").nth(2).click()
        assert "projector=1" in page.url and "step=3" in page.url
        page.click("#tab-explore")
        assert "projector=1" in page.url and "step=" not in page.url
    finally:
        context.close()


def test_each_step_fits_a_projectors_first_screen(browser, site_url):
    """853x480 at 150 % (a 1280x720 projector): for every step, set up by its link, the
    question is on the screen and its figure (the step's figure, or the head drawn large,
    or the line that names the full app) starts on it."""
    page, context = open_page(browser, site_url, (853, 480), 1.5, "?projector=1")
    try:
        for n in range(1, 10):
            page.goto(f"{site_url}?projector=1&step={n}")
            page.wait_for_function("(n) => document.getElementById('step-title')"
                                   ".textContent.startsWith(n + ' ·')", arg=n,
                                   timeout=20000)
            assert page.evaluate("document.documentElement.classList"
                                 ".contains('ae-projector')")
            if page.locator("#step-elsewhere").is_visible():
                figure = "#step-elsewhere"
            elif page.locator("#large").is_visible():
                figure = "#large"
                page.wait_for_function(f"{LARGE} && {LARGE}.ok", timeout=20000)
            else:
                figure = "#step-figure"
                page.wait_for_function("document.getElementById('step-figure')"
                                       ".getBoundingClientRect().height > 100",
                                       timeout=20000)
            assert on_screen(page, "#step-question"), (n, box(page, "#step-question"))
            top = box(page, figure)["y"]
            assert 0 <= top < 480 - 120, (n, figure, top)
            assert page.evaluate("document.documentElement.scrollWidth") <= 853
            page.screenshot(path=f"{SHOTS}/site-projector-853-step{n}.png")
    finally:
        context.close()


def test_the_phone_keeps_its_one_column(browser, site_url):
    page, context = open_page(browser, site_url, (390, 844), 3)
    try:
        page.wait_for_function(f"{GRID} && {GRID}.ok", timeout=20000)
        assert not page.evaluate("document.documentElement.classList"
                                 ".contains('ae-projector')")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert box(page, "main")["width"] <= 390
        assert not page.locator(".ae-projector-switch").is_visible()
        grid, sentence = box(page, "#grid canvas"), box(page, "#sentence")
        assert grid["y"] > sentence["y"] + sentence["height"]  # one column: under it
        page.screenshot(path=f"{SHOTS}/site-projector-phone.png")
    finally:
        context.close()
