"""'Open my model' in a real Chromium (explorer/ui/lab_tab.py, explorer/server/lab_session.py):
train a Lab model with a few steps, open it, and the Model knob offers "my Lab model", chosen, with
the Lab's sequence said twice in words as the sentence; Explore's grid (the keystroke path) draws
the sentence a student types in the Lab's words, says which word it does not know; Inside one head,
Compare (against a zoo model), Ablate (its own heads to switch off) and Take it home (no link, the
model as a file) show the same model. A second session sees no such choice, and a keystroke it
sends for "my Lab model" is told it has none; closing the page closes the model. The page is
purpose-built (the sentence box, the knobs, the five views and the Lab) in a ClassroomBlocks, as
the app
serves it (the client guard names a keystroke's session); its runner has its own cache."""

from __future__ import annotations

import functools
import time

import pytest

from tests.server import click_tab, serve

WAIT = 60000  # ms: a worker process starts (imports torch) on a busy 2-core box
STATUS = "() => document.querySelector('#lab-status').innerText"
TOKENS = ("() => { const g = window.AttentionExplorer?.grid?.state('#grid canvas');"
          " return g && g.ok ? g.tokens.join(' ') : null; }")
CAPTION = "() => document.querySelector('#grid .ae-grid-caption').textContent"
LAB = "my Lab model"


def lab_page(tok, zoo, runner):
    import gradio as gr

    from explorer.server.classroom import ClassroomBlocks
    from explorer.ui import ablate_tab, compare_tab, explore_tab, inside_tab, lab_tab, take_home_tab
    from explorer.ui.controls import build_knobs, build_sentence, finish_live

    tabs = [("Explore", "explore", explore_tab.build),
            ("Inside one head", "inside", inside_tab.build),
            ("Compare", "compare", compare_tab.build),
            ("Ablate", "ablate", ablate_tab.build),
            ("Take it home", "take_home", take_home_tab.build),
            ("Lab", "lab", functools.partial(lab_tab.build, runner=runner))]
    with ClassroomBlocks(title="Attention Explorer (Lab models)", fill_width=True) as demo:
        text = build_sentence()
        with gr.Row(equal_height=False, elem_id="main-row"):
            with gr.Column(scale=1, min_width=280, elem_id="controls"):
                panel = build_knobs(text)
            with (gr.Column(scale=3, min_width=320),
                  gr.Tabs(elem_id="tabs", overflow_behavior="wrap")):
                for label, tab_id, build in tabs:
                    with gr.Tab(label, id=tab_id, elem_id=f"tab-{tab_id}") as tab:
                        build(demo, tab, tok, zoo, panel)
        finish_live(panel)
    return demo


@pytest.fixture(scope="module")
def lab_url(resources, tmp_path_factory):
    from explorer.views.lab import LabRunner

    runner = LabRunner(tmp_path_factory.mktemp("lab-cache"), workers=1)
    demo = lab_page(*resources, runner)
    try:
        with serve(demo) as url:
            yield url, demo
    finally:
        runner.close()


def grid_says(page, tokens: str) -> None:
    page.wait_for_function(f"(t) => ({TOKENS})() === t", arg=tokens, timeout=WAIT)


def type_sentence(page, text: str) -> None:
    box = page.locator("#sentence textarea")
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    box.press_sequentially(text, delay=20)


def test_open_my_model_puts_it_in_the_views_of_this_session_only(browser, lab_url):  # noqa: F811
    from explorer.views.lab import PROBE_SENTENCE

    lab_url, demo = lab_url
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(lab_url)
    click_tab(page, "Lab")
    assert page.locator("#lab-open").is_disabled()  # nothing trained yet
    box = page.locator("#lab-steps input[type=number]")
    box.fill("20")
    box.press("Enter")
    page.click("#lab-train")
    page.wait_for_function(f"() => ({STATUS})().includes('Step 20 ')", timeout=WAIT)
    page.locator("#lab-open:not([disabled])").wait_for(timeout=WAIT)
    page.click("#lab-open")
    page.wait_for_function("() => document.querySelector('#lab-open-status').innerText"
                           ".includes('Your model is open')", timeout=WAIT)
    # the Model knob has the choice, chosen; Heads and Positional are the model's, fixed
    page.locator("#objective input[value='my Lab model']:checked").wait_for(timeout=WAIT)
    page.locator("#heads input[value='2']:checked").wait_for(timeout=WAIT)
    page.wait_for_function("() => [...document.querySelectorAll('#heads input')]"
                           ".every(i => i.disabled)", timeout=WAIT)
    assert page.locator("#sentence textarea").input_value() == PROBE_SENTENCE

    click_tab(page, "Explore")
    grid_says(page, "<start> " + PROBE_SENTENCE)  # the Lab's sequence, in words
    page.wait_for_function("() => document.querySelector('#status').innerText"
                           ".includes('Your Lab model')", timeout=WAIT)
    type_sentence(page, "cat sun tree cat sun")
    grid_says(page, "<start> cat sun tree cat sun")
    type_sentence(page, "cat zebra")
    page.wait_for_function(f"() => ({CAPTION})().includes('not one your Lab model knows')",
                           timeout=WAIT)
    assert "zebra" not in page.evaluate(CAPTION)
    page.wait_for_function("() => document.querySelector('#status').innerText"
                           ".includes('2nd word')", timeout=WAIT)
    type_sentence(page, "dog owl dog")
    grid_says(page, "<start> dog owl dog")
    click_tab(page, "Inside one head")
    page.wait_for_function("() => document.querySelector('#inside-status').innerText"
                           ".includes('Your Lab model')", timeout=WAIT)
    click_tab(page, "Compare")  # the right side: a zoo model
    page.wait_for_function("() => document.querySelector('#cmp-status').innerText"
                           ".includes('word by word')", timeout=WAIT)
    click_tab(page, "Ablate")  # the Lab model's 2 × 2 heads to switch off
    page.wait_for_function("() => document.querySelectorAll('#ablate-heads input').length"
                           " === 4", timeout=WAIT)
    page.locator("#ablate-heads label", has_text="L1 H0").click()
    page.wait_for_function("() => document.querySelector('#ablate-status').innerText"
                           ".includes('with L1 H0 off')", timeout=WAIT)
    click_tab(page, "Take it home")
    page.wait_for_function("() => document.querySelector('#export-status').innerText"
                           ".includes('No link for your Lab model')", timeout=WAIT)
    page.click("#export-prepare")
    page.locator("#export-lab-model").wait_for(state="visible", timeout=WAIT)

    # another student: no such choice, and a hand-made keystroke for it is told so
    other = browser.new_context(viewport={"width": 1366, "height": 900})
    theirs = other.new_page()
    theirs.goto(lab_url)
    click_tab(theirs, "Explore")
    assert theirs.locator("#objective input[value='my Lab model']").count() == 0
    answer = theirs.evaluate("""async () => {
      const c = window.gradio_config;
      const grid = c.components.find(x => x.props && x.props.elem_id === 'grid');
      const hash = Math.random().toString(36).slice(2);
      const r = await fetch(c.root.replace(/\\/$/, '') + '/gradio_api/component_server', {
        method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({session_hash: hash, component_id: grid.id, fn_name: 'grid_data',
          data: AttentionExplorer.grid.request({text: 'cat sun', objective: 'my Lab model',
            heads: 2, pos: 'learned', mask: 'as trained', scaling: '1/√d_head',
            temperature: 1.0, layer: 0, head: 0, theme: 'light'})})});
      return await r.json();
    }""")
    assert answer["ok"] is False and "No Lab model is open" in answer["caption"]
    other.close()
    # the first student still has theirs
    click_tab(page, "Explore")
    type_sentence(page, "sun moon")
    grid_says(page, "<start> sun moon")
    assert len(demo.lab_models) == 1
    context.close()  # the page is closed: its model goes (the page's unload)
    deadline = time.monotonic() + 40
    while len(demo.lab_models) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert len(demo.lab_models) == 0
