"""Heads switched off in the full app's Start here (issue 48 item 8), in real Chromium: in
step 3 a head ticked off is drawn off in Ablate's grid (a grey veil and "off" on its
square), and setting up another step afterwards (step 2, which switches nothing off)
starts with every head on again: no box ticked, no square marked off."""

from __future__ import annotations

from tests.server import click_tab
from tests.ui.test_start_here_browser import LAPTOP, WAIT, choose_step, wait_shown
from tests.ui.test_step_walk_browser import set_up

# Ablate's grid: the labels written over its squares ("off" on each head switched off)
OFF_MARKS = """() => [...document.querySelectorAll('#ablate-grid .annotation-text')]
  .filter((t) => t.textContent.trim() === 'off').length"""
TICKED = """() => [...document.querySelectorAll('#ablate-heads input:checked')]
  .map((i) => i.closest('label').textContent.trim())"""


def test_a_head_off_in_step_3_is_marked_and_step_2_sets_every_head_on(browser, app_url):
    page = set_up(browser, app_url, 3, LAPTOP)
    try:
        page.locator("#ablate-heads label", has_text="L3 H2").click()
        page.wait_for_function(f"() => ({OFF_MARKS})() === 1", timeout=WAIT)
        assert page.evaluate(TICKED) == ["L3 H2"]
        choose_step(page, 2)
        page.locator("#start-setup").click()
        wait_shown(page, 2)
        page.wait_for_function(f"() => ({TICKED})().length === 0", timeout=WAIT)
        # back in Ablate (the tab, as a student wandering there would), every head is on
        click_tab(page, "Ablate")
        page.wait_for_function(f"() => !!document.querySelector('#ablate-grid .main-svg') "
                               f"&& ({OFF_MARKS})() === 0", timeout=WAIT)
        assert page.evaluate(TICKED) == []
    finally:
        page.close()
