"""The named heads in a real Chromium: the "clear heads in this model" pointer opens a head
large, and the guided path's step links and "Set up this step" drive the page."""

import json
from pathlib import Path

import pytest

from explorer.views.start_here import REPEAT
from tests.server import GRID_DRAWN


@pytest.fixture
def page(browser, app_url):  # noqa: F811
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    yield page
    context.close()


def induction_head() -> tuple[int, int]:
    """The shipped default model's induction head, as its evaluation found it."""
    path = Path(__file__).resolve().parents[2] / "checkpoints/eval/causal-h4-rotary.json"
    best = json.loads(path.read_text())["induction"]["random_repeat"]["best"]
    return best["layer"], best["head"]


def slider(page, elem_id: str) -> str:
    return page.locator(f"#{elem_id} input[type=number]").input_value()


def test_the_pointer_opens_the_induction_head_and_the_table_names_it(page, app_url):  # noqa: F811
    from explorer.app import build_app  # noqa: F401  (the shipped zoo, as the server loads it)

    page.goto(app_url)
    page.wait_for_function(GRID_DRAWN, timeout=60000)  # (a cold server, two trainings)
    pointer = page.locator("#clear-heads")
    pointer.get_by_text("induction").wait_for(timeout=15000)
    box = page.locator("#sentence textarea")
    box.fill(REPEAT)
    box.dispatch_event("input")
    layer, head = induction_head()
    pointer.get_by_text("induction").click()
    page.wait_for_function("() => document.querySelector('#layer input[type=number]')"
                           f".value === '{layer}'", timeout=15000)
    assert slider(page, "head") == str(head)
    table = page.locator("#head-table")
    table.get_by_text(f"L{layer} H{head} — induction").wait_for(timeout=20000)
    assert "Named heads on this sentence" in table.inner_text()


def test_a_step_link_opens_its_step_and_set_up_drives_the_page(page, app_url):  # noqa: F811
    page.goto(app_url + "?step=2")  # opens the Start here tab, not Explore
    page.locator("#start-look").wait_for(timeout=30000)
    page.wait_for_function(
        "() => { const c = document.querySelector('#start-step input:checked');"
        " return c && c.value.startsWith('2 '); }", timeout=15000)
    assert "?step=2" in page.locator("#start-link textarea, #start-link input").first\
        .input_value()
    assert page.locator("#start-look").is_visible()  # the Start here tab is the open one
    page.locator("#start-setup").click()
    page.wait_for_function("(t) => document.querySelector('#sentence textarea').value === t",
                           arg=REPEAT, timeout=15000)
    page.wait_for_function("() => document.querySelector('#layer input[type=number]')"
                           f".value === '{induction_head()[0]}'", timeout=15000)
    from explorer.models.tokenizer import Tokenizer
    n = len(Tokenizer.load(Path(__file__).resolve().parents[2] / "checkpoints/tokenizer.json")
            .encode(REPEAT))
    page.locator("#status").get_by_text(f"{n} tokens").wait_for(timeout=20000)
    assert page.locator("#grid canvas").is_visible()  # Explore opened for the step
