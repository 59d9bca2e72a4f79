"""A curious student alone, and the projector's small slips, in real Chromium (issue 42
items 11 and 13): the Explore grid has a colour key drawn in the grid's own colours and a
"New? Start here" button that opens Start here, both on the first screen of a laptop and
a phone; at a projector "Set up this step" is on the screen for every step, with the
step's question above it, and Ablate's guesses keep their title inside the figure.

Screens as the issue tried them: a laptop (1366x900), a projector at 1280x720 with the
browser at 150 % (853x480 CSS px, ?projector=1) and a phone (390x844)."""

from __future__ import annotations

import re

import pytest

from explorer.views.grid_payload import canvas_colors
from tests.server import GRID_DRAWN, settle

LAPTOP = dict(viewport={"width": 1366, "height": 900})
PROJECTOR = dict(viewport={"width": 853, "height": 480}, device_scale_factor=1.5)
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True,
             is_mobile=True)
WAIT = 60000  # a loaded 2-core machine draws the first grid late

KEY = """() => {
  const bar = document.querySelector('#newcomer .ae-key-bar');
  const button = document.querySelector('#newcomer .ae-start-link');
  const box = (el) => { const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; };
  return {gradient: getComputedStyle(bar).backgroundImage, bar: box(bar),
          button: box(button), grid: box(document.querySelector('#grid canvas')),
          screen: [innerWidth, innerHeight]};
}"""


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def open_page(browser, url: str, query: str = "", **screen):  # noqa: F811
    page = browser.new_page(**screen)
    page.goto(url + query)
    page.wait_for_function(GRID_DRAWN, timeout=WAIT)
    return page


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_the_grid_has_a_colour_key_in_its_own_colours_and_a_way_to_start_here(
        browser, app_url, screen):  # noqa: F811
    page = open_page(browser, app_url, **(LAPTOP if screen == "laptop" else PHONE))
    try:
        seen = page.evaluate(KEY)
        stops = [tuple(map(int, m)) for m in
                 re.findall(r"rgb\((\d+), (\d+), (\d+)\)", seen["gradient"])]
        scale = canvas_colors("light")["scale"]  # what the canvas paints with
        # the key's two ends are the grid's palette ends: dark is 0, bright is 100 %
        assert stops[0] == rgb(scale[0][1]) and stops[-1] == rgb(scale[-1][1]), stops
        assert len(stops) == len(scale)  # every stop of the one scale, none made up
        width, height = seen["screen"]
        for name in ("bar", "button"):  # on the first screen, inside its width
            box = seen[name]
            assert box["height"] > 8 and 0 <= box["left"] and box["right"] <= width, seen
            assert 0 <= box["top"] and box["bottom"] <= height, (name, seen)
        # above the grid, and not far: one heading line and a short paragraph
        assert seen["button"]["bottom"] <= seen["grid"]["top"]
        # (the grid's own caption and guesses lie between: ~170 px on a laptop)
        assert seen["grid"]["top"] - seen["button"]["top"] < (340 if screen == "phone" else 220)
        page.click("#newcomer .ae-start-link")
        page.wait_for_function("""() => document.querySelector(
            '#tabs button[role="tab"][data-tab-id="start"]').getAttribute('aria-selected')
            === 'true' && document.querySelector('#start-setup')?.offsetParent !== null""",
                               timeout=WAIT)
    finally:
        page.close()


BOXES = """() => {
  const r = (s) => document.querySelector(s).getBoundingClientRect();
  return {setup: [r('#start-setup').top, r('#start-setup').bottom],
          question: r('#start-question').bottom, screen: innerHeight};
}"""


def test_set_up_this_step_is_on_a_projectors_screen_for_every_step(browser, app_url,
                                                                    resources):
    from explorer.views.start_here import default_path

    path = default_path(resources[1], resources[0])
    page = open_page(browser, app_url, "?projector=1", **PROJECTOR)
    try:
        page.locator('#tabs button[role="tab"][data-tab-id="start"]').click()
        page.locator("#start-setup").wait_for(state="visible", timeout=WAIT)
        labels = page.locator("#start-step label")
        for n in range(labels.count()):
            labels.nth(n).click()
            # the step's own text has come (its radio's change asks the server for it)
            words = path[n].question.replace("*", "")[:40]
            page.wait_for_function(
                "(w) => (document.querySelector('#start-question')?.innerText || '')"
                ".replace(/\\*/g, '').includes(w)", arg=words, timeout=WAIT)
            settle(page)
            seen = page.evaluate(BOXES)
            top, bottom = seen["setup"]
            assert bottom <= seen["screen"] + 0.5, (n + 1, seen)  # not cut at the edge
            # the question is not hidden under the buttons (at the page's top)
            assert seen["question"] <= top + 2, (n + 1, seen)
    finally:
        page.close()


TITLE_BOX = """() => {
  const gd = document.querySelector('#ablate-predictions .js-plotly-plot');
  const t = gd && [...gd.querySelectorAll('.annotation-text')]
    .find((e) => e.textContent.startsWith('Guesses'));
  if (!t) return null;
  const f = gd.getBoundingClientRect(), a = t.getBoundingClientRect();
  return {figure: [f.left, f.right], title: [a.left, a.right], text: t.textContent};
}"""


def test_ablates_guesses_keep_their_title_at_a_projector(browser, app_url):  # noqa: F811
    page = open_page(browser, app_url, "?projector=1&step=3", **PROJECTOR)
    try:
        page.locator("#start-setup").click()
        page.wait_for_function(f"() => !!({TITLE_BOX})()", timeout=WAIT)
        seen = page.evaluate(TITLE_BOX)
        (f_left, f_right), (t_left, t_right) = seen["figure"], seen["title"]
        assert f_right - f_left < 400  # the narrow figure the slip was seen in
        assert f_left - 0.5 <= t_left and t_right <= f_right + 0.5, seen
    finally:
        page.close()
