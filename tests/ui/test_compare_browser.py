"""The Compare and Ablate tabs in a real Chromium: open each, find its figures drawn, flip a
control, swap, click a head in the grid; screenshots at laptop and phone width.

Runs its own small app (``tests.views.test_compare.build_tabs_app``: the shared sentence box and
knobs plus these two tabs), so it does not depend on how ``app.py`` composes the page.
Figures are read from the page itself (Plotly keeps each plot's data on its DOM node).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from tests.server import DRAWN, READ_Z, painted, settle

torch.set_num_threads(1)
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"



def read_z(page, sel: str) -> np.ndarray | None:
    z = page.evaluate(READ_Z, sel)
    return None if z is None else np.nan_to_num(np.array(z, dtype=float))


def wait_for_z(page, sel: str, predicate, timeout: float = 20000) -> np.ndarray:
    """Read the heatmap at every painted frame until ``predicate`` holds (a deadline in
    seconds of the clock, not a count of tries: a slow read does not stretch it)."""
    import time

    deadline, last = time.monotonic() + timeout / 1000, None
    while time.monotonic() < deadline:
        last = read_z(page, sel)
        if last is not None and predicate(last):
            return last
        painted(page)
    raise AssertionError(f"{sel} never satisfied the condition; last: {last}")


def checked(page, container: str, label: str) -> bool:
    return page.locator(container).get_by_label(label, exact=True).is_checked()


@pytest.fixture(scope="module")
def page(browser, compare_url):
    """One page for the whole module: Plotly's first load is the slow part on a busy box."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(compare_url)
    page.wait_for_selector("#sentence textarea", timeout=30000)
    yield page
    context.close()


def open_tab(page, label: str, sel: str, minimum: int) -> None:
    page.get_by_role("tab", name=label, exact=True).click()
    page.wait_for_function(f"() => ({DRAWN})('{sel}') >= {minimum}", timeout=40000)
    settle(page)  # Plotly's layout is on the screen


def status_has(page, sel: str, text: str) -> None:
    page.wait_for_function(f"() => (document.querySelector('{sel}')?.innerText || '')"
                           f".includes({text!r})", timeout=20000)


def test_compare_tab_swaps_and_follows_its_knobs(page):
    ARTIFACTS.mkdir(exist_ok=True)
    open_tab(page, "Compare", "#tab-compare", 5)  # both heads, difference, grid, guesses
    # The right side starts with the mask off: it looks at later tokens, in red.
    before = wait_for_z(page, "#cmp-diff", lambda z: np.triu(z, 1).max() > 0)
    page.screenshot(path=str(ARTIFACTS / "compare-laptop.png"), full_page=True)

    # Swap: the knobs get the right side's mask, the right side the knobs'; right − left
    # changes sign.
    page.locator("#cmp-swap").click()
    page.wait_for_function(
        "() => document.querySelector('#mask input[value=\"off\"]')?.checked", timeout=20000)
    assert checked(page, "#cmp-mask", "as trained")
    wait_for_z(page, "#cmp-diff", lambda z: np.allclose(z, -before, atol=1e-6))

    # Flip the right side's mask to match: the same configuration twice, zero difference.
    page.locator("#cmp-mask").get_by_text("off", exact=True).click()
    wait_for_z(page, "#cmp-diff", lambda z: np.all(z == 0))
    status_has(page, "#cmp-status", "identically")
    page.locator("#mask").get_by_text("as trained", exact=True).click()  # as it was


def test_ablate_tab_ticks_and_clicks_heads_off(page):
    open_tab(page, "Ablate", "#tab-ablate", 2)  # the grid and the guesses
    page.wait_for_selector("#ablate-table [aria-rowcount='17']", timeout=20000)  # 16 + header

    page.locator("#ablate-heads").get_by_text("L0 H1", exact=True).click()
    status_has(page, "#ablate-status", "with L0 H1 off")
    moved = wait_for_z(page, "#ablate-change", lambda z: z.shape == (4, 4))
    assert np.all(moved[0] == 0) and moved[1:].max() > 0  # only later layers move

    # Clicking a square of the grid switches that head off too: L1 H2 is panel 1 * 4 + 2.
    page.locator("#ablate-grid .nsewdrag").nth(6).click()
    status_has(page, "#ablate-status", "L0 H1, L1 H2 off")
    assert checked(page, "#ablate-heads", "L1 H2")
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "ablate-laptop.png"), full_page=True)

    page.locator("#ablate-clear").click()
    status_has(page, "#ablate-status", "Tick heads")


def test_both_tabs_fit_a_phone(page):
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#ablate-heads").get_by_text("L2 H0", exact=True).click()
    status_has(page, "#ablate-status", "with L2 H0 off")
    settle(page)
    for label, key, minimum in (("Ablate", "ablate", 3), ("Compare", "compare", 5)):
        open_tab(page, label, f"#tab-{key}", minimum)
        # Plots of a tab that was hidden while the window shrank keep their old width
        # until the next resize event (a phone never resizes like this; the test does).
        page.evaluate("() => window.dispatchEvent(new Event('resize'))")
        try:  # the plots take the phone's width (Plotly redraws them after the event)
            page.wait_for_function("() => document.documentElement.scrollWidth <= 392",
                                   timeout=20000)
        except Exception:  # noqa: BLE001  (the assertion below says how wide)
            pass
        settle(page)
        page.screenshot(path=str(ARTIFACTS / f"{key}-phone.png"), full_page=True)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390 + 2, f"{key}: the page is {width}px wide on a 390px phone"
