"""The "Start here" tab: a guided path (:mod:`explorer.views.start_here`) a teacher runs with
a class.

The table of contents of the path: one step at a time, what to look at, a question to
predict, the answer behind a "Reveal" fold, and a button that sets the sentence and knobs
and opens the view the step is about. The step travels with it: that view shows the
step's title, question, "Reveal" and "Next step" at its top (explorer/ui/step_bar.py, wired here
once every view is built). Each step has its own link (``?step=N``), which opens this tab
on it.
"""

from __future__ import annotations

import json

import gradio as gr

from explorer.ui import step_bar
from explorer.ui.controls import Panel
from explorer.views.start_here import default_path

TAB = "start"
TITLE = "Start here"
INTRO = ("**Start here.** Nine short steps through what attention heads do, for a class "
         "or on your own. Read the step, *predict* the answer, then press **Set up this "
         "step**, look, and reveal the answer.")
# The titles of the views the steps open, as app.TABS shows them (tests/views/test_start_here.py
# checks they agree).
TITLES = {"explore": "Explore", "compare": "Compare", "ablate": "Ablate",
          "positional": "Positional encodings",
          "training": "Through training", "patch": "Patch", "lab": "Lab"}
# ... and brings the chosen step's question and "Set up this step" onto the screen (on a
# phone they were 1,040-1,230 px down, under the list of steps): the step's name at the top
# where that leaves them on the screen, else "Set up" at its bottom. Again a moment later
# (the step's text arrives after its radio), unless the student scrolled or touched.
OPEN_ON_LINK = """() => {
  const raw = new URLSearchParams(window.location.search).get('step');
  if (raw === null) return;
  let tries = 120;  // 30 s: a busy server draws the first grid late
  let moved = false;
  ['wheel', 'touchmove', 'keydown', 'pointerdown'].forEach((t) => window.addEventListener(
    t, () => { moved = true; }, {capture: true, passive: true, once: true}));
  const show = () => {
    const radios = [...document.querySelectorAll('#start-step input')];
    const n = parseInt(raw.slice(0, 3), 10);
    const chosen = radios[Math.min(Math.max(Number.isNaN(n) ? 1 : n, 1), radios.length) - 1];
    const setup = document.querySelector('#start-setup');
    if (!chosen || !chosen.checked || !setup || setup.offsetParent === null) return false;
    const bottom = setup.getBoundingClientRect().bottom;
    if (moved || (window.scrollY === 0 && bottom <= window.innerHeight)) return true;
    const label = chosen.closest('label') || chosen;
    const top = Math.min(label.getBoundingClientRect().top - 8,
                         bottom - window.innerHeight + 16);
    window.scrollTo({top: window.scrollY + top, behavior: 'instant'});
    return true;
  };
  const follow = (left) => {
    if (show()) { setTimeout(show, 800); return; }
    if (left > 0) setTimeout(() => follow(left - 1), 250);
  };
  const open = () => {
    const b = [...document.querySelectorAll('#tabs button[role="tab"]')]
      .find((x) => x.textContent.trim() === __TITLE__);
    if (b && document.querySelector('#grid canvas')) { b.click(); follow(120); return; }
    if (--tries > 0) setTimeout(open, 250);
  };
  setTimeout(open, 500);
}"""


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab (inside the caller's ``gr.Tab``) and wire its events."""
    path = default_path(zoo, tok)
    names = [s.title for s in path]
    gr.Markdown(INTRO)
    step = gr.Radio(names, value=names[0], label="Step", elem_id="start-step")
    look = gr.Markdown(path[0].look, elem_id="start-look")
    question = gr.Markdown("**Predict:** " + path[0].question, elem_id="start-question")
    with gr.Row():
        setup = gr.Button("Set up this step", variant="primary", elem_id="start-setup")
        nxt = gr.Button("Next step →", elem_id="start-next")
    with gr.Accordion("Reveal the answer", open=False, elem_id="start-reveal") as fold:
        answer = gr.Markdown(path[0].answer, elem_id="start-answer")
    link = gr.Textbox(label="Link to this step", interactive=False, elem_id="start-link")

    def index_of(title) -> int:
        return names.index(title) if title in names else 0

    def show(title):
        s = path[index_of(title)]
        return s.look, "**Predict:** " + s.question, s.answer, gr.Accordion(open=False)

    step.change(show, step, [look, question, answer, fold], queue=False,
                show_progress="hidden", api_name=False)
    # The link is the page's own address plus ?step=N: made in the browser, which knows it.
    link_js = ("(t) => window.location.origin + window.location.pathname + '?step=' + "
               f"(Math.max(0, {json.dumps(names)}.indexOf(t)) + 1)")
    step.change(None, step, link, js=link_js, queue=False, api_name=False)
    demo.load(None, step, link, js=link_js, queue=False, api_name=False)
    nxt.click(lambda t: names[min(index_of(t) + 1, len(names) - 1)], step, step,
              queue=False, show_progress="hidden", api_name=False)

    # "Set up this step" and the step bars of the views: once every view (and bar) is built
    panel.after_tabs.append(lambda: step_bar.wire(panel, path, TITLES, step, setup, TITLE))

    def from_link(request: gr.Request):
        """``?step=N`` opens this tab on step N (an unreadable N: step 1)."""
        raw = (request.query_params.get("step") or "") if request else ""
        try:
            n = int(raw[:3])
        except ValueError:
            return gr.skip()
        return names[min(max(n, 1), len(names)) - 1]

    demo.load(from_link, None, step, queue=False, show_progress="hidden", api_name=False)
    # A step link opens this tab (once the tab bar is drawn: retried for a few seconds).
    demo.load(None, None, None, js=OPEN_ON_LINK.replace("__TITLE__", json.dumps(TITLE)),
              api_name=False)
