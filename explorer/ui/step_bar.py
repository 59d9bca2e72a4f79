"""A Start-here step in the view it opens: its title, where to look, the question, "Reveal
the answer" and "Next step", at the top of that view.

"Set up this step" (explorer/ui/start_here_tab.py) sets the sentence and knobs and opens a view; the
question used to stay behind on Start here. Each view a step opens calls :func:`declare`
first in its tab: a bar, hidden until a step of that view is set up. Every event that
changes the step (Set up, a bar's "Next step", "All steps") writes all the bars at once,
so one view shows the step and the others none; that needs every bar declared, so the
wiring (:func:`wire`) runs once all tabs are built (``Panel.after_tabs``, run by
``ui.controls.finish_live``).

The bar's text is the step's own (developer text, never the student's), rendered from its
little Markdown (**bold**, *italic*) after escaping. Its answer is a native
``<details>``: it opens from the keyboard and closes again for the next step. The answer
is not in the page until it is revealed (issue 49 item 2: a held student's devtools find
none): the bar holds an empty ``.ae-step-answer``; opening the fold (a Reveal, or the
teacher's reveal on a follower's page) clicks a hidden button whose event asks the server
for that step's answer (:func:`wire_answer`) and fills it in (static/step_answer.js). What the
browser does once a view opened (focus, the step's figures first, scrolling them onto
the first screen, a "Back to step N" chip in the other views, the bar's own "Knobs" and
"Normal screen" on a big screen) is static/steps.js; the step's figures are named in the
bar's ``data-figures``, what would give its answer away in ``data-hidden`` (a CSS selector
list: covered until the answer is revealed).
"""

from __future__ import annotations

import html
import json
import re
import time
from dataclasses import dataclass, field

import gradio as gr

from explorer.ui import bridge
from explorer.ui.controls import Panel
from explorer.views.start_here import Step

# The shared controls a step sets, in Panel's names (Step.controls() has each).
FIELDS = ("text", "objective", "heads", "pos", "mask", "scaling", "temperature", "layer",
          "head")
# static/steps.js: open the view named in the JSON and show the step there.
OPEN_JS = bridge.js("steps.open")
# static/step_answer.js: which step's answer the page asks for; then put it in its bar
ASK_JS = bridge.js("steps.ask")
FILL_JS = bridge.js("steps.fill")
BOLD = re.compile(r"\*\*(.+?)\*\*")
ITALIC = re.compile(r"\*(.+?)\*")


@dataclass
class StepBar:
    tab_id: str
    box: gr.Column
    text: gr.HTML
    next: gr.Button
    done: gr.Button
    own: dict = field(default_factory=dict)  # the view's own controls a step may set
    # own controls every step's set-up puts back (name -> value) unless the step sets them:
    # Ablate's heads switched off, so that a step after step 3 starts with every head on
    resets: dict = field(default_factory=dict)


def inline_html(markdown: str) -> str:
    """A step's text (developer text) as HTML: escaped, then **bold** and *italic*."""
    out = html.escape(markdown, quote=False)
    return ITALIC.sub(r"<em>\1</em>", BOLD.sub(r"<strong>\1</strong>", out))


def render(step: Step, n: int, total: int, stamp: str) -> str:
    """The bar's HTML for step ``n`` (0-based) of ``total``; ``stamp`` tells this showing
    from the last (static/steps.js waits for it)."""
    number, _, name = step.title.partition(" · ")
    title = f"Step {n + 1} of {total} · {name or step.title}"
    return (f'<section class="ae-step" data-step="{n + 1}" data-stamp="{html.escape(stamp)}" '
            f'data-figures="{html.escape(" ".join(step.figures))}" '
            f'data-key="{html.escape(step.key_figure)}" '
            f'data-hidden="{html.escape(", ".join(step.hidden))}" '
            f'aria-labelledby="ae-step-title-{n + 1}">'
            f'<h2 class="ae-step-title" id="ae-step-title-{n + 1}" tabindex="-1">'
            f"{inline_html(title)}</h2>"
            f'<p class="ae-step-look">{inline_html(step.look)}</p>'
            f'<p class="ae-step-question"><strong>Predict:</strong> '
            f"{inline_html(step.question)}</p>"
            '<details class="ae-step-reveal"><summary>Reveal the answer</summary>'
            '<p class="ae-step-answer" aria-live="polite"></p></details></section>')


def answer_reply(path: list[Step], asked) -> str | None:
    """The answer of the step ``asked`` names (1-based, as the bar's ``data-step``), as JSON
    ``{"step": n, "html": ...}`` for static/step_answer.js; None for no such step."""
    try:
        n = int(str(asked or "").strip()[:3])
    except ValueError:
        return None
    if not 1 <= n <= len(path):
        return None
    return json.dumps({"step": n, "html": inline_html(path[n - 1].answer)})


def wire_answer(path: list[Step]) -> None:
    """The answer on request: a hidden button that the page clicks when a bar's fold opens
    (its js names the step), the step's answer back from here, and the page fills it in."""
    asked = gr.Textbox("", elem_id="step-answer-asked", elem_classes="ae-hidden",
                       show_label=False)
    reply = gr.Textbox("", elem_id="step-answer-reply", elem_classes="ae-hidden",
                       show_label=False)
    ask = gr.Button("the step's answer", elem_id="step-answer-ask", elem_classes="ae-hidden")
    quiet = dict(queue=False, show_progress="hidden", api_name=False)

    def answer(n):
        got = answer_reply(path, n)
        return gr.skip() if got is None else got

    ask.click(answer, asked, reply, js=ASK_JS, **quiet).then(None, reply, None, js=FILL_JS,
                                                             **quiet)


def declare(panel: Panel, tab_id: str, own: dict | None = None) -> StepBar:
    """The step bar of the view ``tab_id``: call first inside its ``gr.Tab``. ``own``: the
    view's own controls a step may set (name -> component; a step's ``own`` values)."""
    with gr.Column(visible=False, elem_id=f"step-{tab_id}", elem_classes="ae-step-bar"
                   ) as box:
        text = gr.HTML("", elem_id=f"step-{tab_id}-text", elem_classes="ae-step-text",
                       js_on_load=None, padding=False)
        with gr.Row(elem_classes="ae-step-buttons"):
            nxt = gr.Button("Next step →", variant="primary", min_width=130,
                            elem_id=f"step-{tab_id}-next")
            done = gr.Button("All steps", min_width=130,
                             elem_id=f"step-{tab_id}-all")
    bar = StepBar(tab_id, box, text, nxt, done, dict(own or {}))
    panel.step_bars[tab_id] = bar
    return bar


def where(step: Step, titles: dict[str, str], stamp: str) -> str:
    """What static/steps.js needs to open the step's view: JSON."""
    return json.dumps({"title": titles.get(step.tab, ""), "tab": step.tab, "stamp": stamp})


def wire(panel: Panel, path: list[Step], titles: dict[str, str], radio: gr.Radio,
         setup: gr.Button, start_title: str) -> None:
    """Wire Start here's "Set up this step" (``setup``, for the step ``radio`` names) and
    every bar's buttons; call once every view is built."""
    bars = list(panel.step_bars.values())
    names = [s.title for s in path]
    current = gr.State(None)  # index of the step shown in a view, or None
    opened = gr.Textbox(visible=False)  # where(): the view to open, as JSON
    fields = [getattr(panel, f) for f in FIELDS]
    bar_outputs = [c for b in bars for c in (b.box, b.text, b.next, *b.own.values())]

    def bars_for(n: int | None, stamp: str) -> list:
        out = []
        for b in bars:
            mine = n is not None and path[n].tab == b.tab_id
            # a step set up (n given) puts back what it does not set itself; "All steps" none
            back = b.resets if n is not None else {}
            if not mine:
                out += [gr.Column(visible=False), gr.skip(), gr.skip(),
                        *(back.get(k, gr.skip()) for k in b.own)]
                continue
            s = path[n]
            out += [gr.Column(visible=True), render(s, n, len(path), stamp),
                    gr.Button(visible=n + 1 < len(path)),
                    *(s.own[k] if k in s.own else back.get(k, gr.skip()) for k in b.own)]
        return out

    def show(n: int) -> list:
        s = path[n]
        stamp = str(time.monotonic_ns())
        values = s.controls()
        return [*(values[f] for f in FIELDS), where(s, titles, stamp), n, names[n],
                *bars_for(n, stamp)]

    def set_up(title):
        return show(names.index(title) if title in names else 0)

    def next_step(n):
        return show(min((n if isinstance(n, int) else -1) + 1, len(path) - 1))

    outputs = [*fields, opened, current, radio, *bar_outputs]
    quiet = dict(queue=False, show_progress="hidden", api_name=False)
    setup.click(set_up, radio, outputs, **quiet).then(None, opened, None, js=OPEN_JS,
                                                      **quiet)
    done_js = bridge.js("steps.back", json.dumps({"title": start_title}))
    for b in bars:
        b.next.click(next_step, current, outputs, **quiet).then(None, opened, None,
                                                                js=OPEN_JS, **quiet)
        b.done.click(lambda: [None, *bars_for(None, "")], None, [current, *bar_outputs],
                     **quiet).then(None, None, None, js=done_js, **quiet)
    wire_answer(path)
