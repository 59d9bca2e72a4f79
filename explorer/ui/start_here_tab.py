"""The "Start here" tab: a guided path (:mod:`explorer.views.start_here`) a teacher runs with
a class.

The table of contents of the path: one step at a time, what to look at, a question to
predict, the answer behind a "Reveal" fold (sent by the server only when the fold opens:
never in the page before), and a button that sets the sentence and knobs
and opens the view the step is about. The step travels with it: that view shows the
step's title, question, "Reveal" and "Next step" at its top (explorer/ui/step_bar.py, wired here
once every view is built). Each step has its own link (``?step=N``), which opens this tab
on it.
"""

from __future__ import annotations

import gradio as gr

from explorer.ui import bridge, step_bar
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
# A step link (?step=N) opens this tab and brings the step's question and "Set up this step"
# onto the screen: static/start_link.js, through the bridge.
OPEN_ON_LINK = "start.open_on_link"


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
        answer = gr.Markdown("", elem_id="start-answer")
    link = gr.Textbox(label="Link to this step", interactive=False, elem_id="start-link")

    def index_of(title) -> int:
        return names.index(title) if title in names else 0

    def show(title):
        s = path[index_of(title)]
        return s.look, "**Predict:** " + s.question, "", gr.Accordion(open=False)

    step.change(show, step, [look, question, answer, fold], queue=False,
                show_progress="hidden", api_name=False)
    # the answer arrives when the fold opens (issue 49 item 2: not in the page before)
    fold.expand(lambda t: path[index_of(t)].answer, step, answer, queue=False,
                show_progress="hidden", api_name=False)
    # The link is the page's own address plus ?step=N: made in the browser, which knows it.
    link_js = bridge.js("start.link", names)  # static/start_link.js
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
    demo.load(None, None, None, js=bridge.js(OPEN_ON_LINK, TITLE),
              api_name=False)
