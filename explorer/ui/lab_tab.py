"""The Lab tab: train a tiny transformer in the page and watch an induction head form.

The student predicts, picks a model (layers, heads, positions, MLP, LayerNorm, learning
rate, seed, steps) and presses **Train**. The run trains in a worker process of the app's
:class:`~explorer.views.lab.LabRunner` (low priority, one per spare core, a fair line
when there are more runs than workers, finished runs replayed from a cache); this tab's
Train event streams what the runner knows once a second: the status in words, the
losses and scores (sent only when there are new points), every head's pattern on a fixed
sequence said twice (a payload for the page's own canvas, ``static/live_grid.js`` mounted
by ``static/lab.js``, sent only when it changed) and the class's table of finished runs
(only when it changed). Why so sparing: a Plotly grid and chart redrawn every 0.4 s kept a
projector's page busy 93% of the time and showed "done" 18 s late (issue 42 item 2).
Stop cancels at once. The shared sentence and knobs do not apply.

**Open my model** (enabled once the session's run has finished, or was replayed) loads
the run's ``model.safetensors`` into the app's per-session registry
(``explorer/server/lab_session.py``) and offers "my Lab model" on this session's Model knob, chosen
at once, with the Lab's sequence said twice, in words, as the sentence: Explore, Inside one head,
Ablate, Compare and Take it home then show the student's own model.
"""

from __future__ import annotations

import asyncio
import logging

import gradio as gr
from gradio.components.plot import PlotData
from gradio.context import get_blocks_context

from explorer.server.lab_session import registry, session_of
from explorer.ui import bridge
from explorer.ui.controls import Panel
from explorer.ui.step_bar import declare as step_bar
from explorer.views.class_state import record_run
from explorer.views.controls import LAB_OBJECTIVE, OBJECTIVES, BadControl
from explorer.views.grid_markup import grid_css, grid_markup
from explorer.views.lab import (
    LAB_CHOICES,
    PROBE_SENTENCE,
    LabRunner,
    class_table,
    lab_view,
    open_message,
    read_settings,
    ready_chart,
)

log = logging.getLogger("attention_explorer")
TAB = "lab"
TITLE = "Lab"
UPDATE_S = 1.0  # the page gets a new status and grid at most this often while a run trains
# ... and new curves at most this often: a Plotly redraw (and static/fit.js's passes over a
# new figure) is the page's costliest update by far; the canvas grid costs a few ms
CHART_S = 5.0  # (3 s: 25-29% of a projector page's time in long tasks at load 19)
MAX_WATCH_S = 900.0  # a page stops watching after this long (the run itself is capped)
# The class's table on its own while the Lab is open (it stopped when a student's own run
# ended: issue 42 item 12): asked for this often, sent only when it changed, for at most
# TABLE_POLLS asks after the tab was opened (a page left open for a day asks nothing).
TABLE_S = 4.0
TABLE_POLLS = 450  # 30 minutes

INTRO = """**Train a transformer yourself.** The task: random tokens in which a random
block is said twice. Nothing can predict the first copy; the second copy can be predicted
by a head that finds where the current token was said before and copies what came next —
an **induction head**. Pick a model, **predict**, then press **Train** and watch the loss on
the second copy fall and the heads change (the grid: every head on one sequence said twice;
a copying head draws a stripe one place short of a block to the left: it looks at what
came after the earlier copy)."""
PREDICT = "Predict: will it grow an induction head?"
# Train's inputs as the page has them, the last (the class box) replaced by the page's class
# tag, "CODE student" (static/class.js; "" outside a class): static/lab.js labClassTag.
# The grid's box, as Explore's (explorer/views/grid_markup.py); static: Gradio re-renders a
# gr.HTML's template on a new value by a DOM diff, and an unchanged template leaves the canvas
# be. The renderer (static/live_grid.js) mounted by static/lab.js.
GRID_HTML = grid_markup("lab")
GRID_JS = bridge.on_load("lab.grid")


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel,
          runner: LabRunner | None = None) -> None:
    """Declare the tab (inside the caller's ``gr.Tab``) and wire Train and Stop. One runner
    per app; its workers start when the tab is first opened."""
    # its cache: $AE_LAB_CACHE, or a private temporary folder removed when the app exits
    runner = runner or LabRunner(device=zoo.device)
    demo.lab_runner = runner  # the app's, for a test or a clean shutdown
    bar = step_bar(panel, TAB)  # Start here's Lab step, at the top of this view
    gr.Markdown(INTRO, elem_classes="caption-text")
    with gr.Row(equal_height=False):
        knobs = _settings_column(bar)
        run = _run_column()
    gr.Markdown("#### The class's runs on this server (newest first)", elem_classes="caption")
    table = gr.Markdown(elem_id="lab-table")
    ran = gr.State(False)  # this page has shown a run: the chart is its, not the empty one
    # class mode (issue 43): a student's page in a class fills this as Train is pressed
    # (static/lab.js labClassTag), so that the run joins the class's chart on the projector
    klass = gr.Textbox("", visible=False, max_length=100)

    def halt(request: gr.Request):
        runner.stop(request.session_hash or "anonymous")

    def gone(request: gr.Request) -> None:  # the page was closed or reloaded
        runner.leave(request.session_hash or "anonymous")

    demo.unload(gone)
    inputs = [*(knobs[k] for k in SETTINGS), run["predict"], panel.theme]
    # Its own line of 64: a watching page mostly sleeps, and must not hold one of the
    # queue's 4 places that every other view's updates wait for.
    run["train"].click(_watcher(demo, runner), [*inputs, ran, klass],
                       [run["status"], run["chart"], run["grid"], table, knobs["open"], ran],
                       api_name=False, js=bridge.js("lab.class", {"n": len(inputs) + 2}),
                       concurrency_id="lab", concurrency_limit=64, show_progress="hidden",
                       **RAW)
    run["stop"].click(halt, None, None, api_name=False, queue=False, show_progress="hidden")
    # Sets the Model knob and the sentence: the live loop (static/live.js) follows them.
    knobs["open"].click(_opener(runner, registry(demo, zoo)), None,
                        [knobs["opened"], panel.objective, panel.text],
                        api_name=False, show_progress="hidden")
    _wire_tab(tab, panel, runner, table, run["chart"], knobs["steps"], ran)


# The Lab's settings, in the order a run reads them (read_settings).
SETTINGS = ("layers", "heads", "pos", "mlp", "norm", "lr", "seed", "steps")
RAW = dict(preprocess=True, postprocess=False)  # the figures go out as built


def _settings_column(bar) -> dict:
    """The run's settings and Open my model, by name (:data:`SETTINGS`, "open", "opened")."""
    with gr.Column(scale=1, min_width=260):
        layers = gr.Radio(list(LAB_CHOICES["layers"]), value=2, label="Layers",
                          elem_id="lab-layers")
        bar.own["layers"] = layers  # the step sets it (one layer first)
        heads = gr.Radio(list(LAB_CHOICES["heads"]), value=2, label="Heads per layer",
                         elem_id="lab-heads")
        pos = gr.Dropdown(list(LAB_CHOICES["pos"]), value="learned",
                          label="Positional encoding", elem_id="lab-pos")
        with gr.Row():
            mlp = gr.Checkbox(False, label="MLP in each block", elem_id="lab-mlp")
            norm = gr.Checkbox(False, label="LayerNorm", elem_id="lab-norm")
        lr = gr.Dropdown(list(LAB_CHOICES["lr"]), value="0.003", label="Learning rate",
                         elem_id="lab-lr")
        with gr.Row():
            seed = gr.Number(0, precision=0, minimum=0, maximum=9999, label="Seed",
                             elem_id="lab-seed")
            low, high = LAB_CHOICES["steps"]
            steps = gr.Slider(low, high, value=1000, step=10, label="Training steps",
                              elem_id="lab-steps")
        # Loads the finished run's model for this session's views
        # (explorer/server/lab_session.py)
        open_model = gr.Button("Open my model in the other views", interactive=False,
                               elem_id="lab-open")
        opened_note = gr.Markdown(elem_id="lab-open-status")
    return {"layers": layers, "heads": heads, "pos": pos, "mlp": mlp, "norm": norm, "lr": lr,
            "seed": seed, "steps": steps, "open": open_model, "opened": opened_note}


def _run_column() -> dict:
    """The prediction, Train and Stop, and what the run does (status, chart, grid)."""
    # in one column: during Start here's step it comes first where the row wraps (a
    # phone, a projector; static/css/)
    with gr.Column(scale=2, min_width=320, elem_id="lab-run"):
        predict = gr.Radio(["yes", "no"], value=None, label=PREDICT,
                           elem_id="lab-predict")
        with gr.Row():
            # side by side even on a phone (the step's chart must fit under them)
            train = gr.Button("Train", variant="primary", min_width=80, elem_id="lab-train")
            stop = gr.Button("Stop", min_width=80, elem_id="lab-stop")
        status = gr.Markdown("", elem_id="lab-status")  # the chart says what comes
        # drawn before a run (axes, chance, the bar): never an empty box
        chart = gr.Plot(PlotData(**ready_chart(steps=1000)), show_label=False,
                        elem_id="lab-chart")
        gr.Markdown("#### Every head on one sequence said twice (rows: layers)",
                    elem_classes="caption")
        grid = gr.HTML(None, html_template=GRID_HTML, js_on_load=GRID_JS,
                       css_template=grid_css(), elem_id="lab-grid")
    return {"predict": predict, "train": train, "stop": stop, "status": status,
            "chart": chart, "grid": grid}


def _watcher(demo: gr.Blocks, runner: LabRunner):
    """Train's handler: ask for a run and stream what it does until it ends (or the page
    goes), each output sent only when it changed."""

    async def watch(layers_, heads_, pos_, mlp_, norm_, lr_, seed_, steps_, prediction, theme,
                    ran_, class_tag, request: gr.Request):
        session = request.session_hash or "anonymous"
        address = getattr(getattr(request, "client", None), "host", None) or ""
        closed = gr.Button(interactive=False)
        try:
            settings = read_settings(layers_, heads_, pos_, mlp_, norm_, lr_, seed_, steps_)
        except BadControl as exc:
            yield f"⚠️ {exc}", gr.skip(), None, class_table(runner.table()), closed, ran_
            return
        run_id = None
        try:
            # off the event loop: it may check a cache entry or start the workers
            run_id = await asyncio.to_thread(runner.ask, session, settings, address)
            record_run(getattr(demo, "classrooms", None), class_tag, run_id)
            waited, sent = 0.0, {}  # sent: what the page has now, per output
            while waited < MAX_WATCH_S:
                view = runner.view(run_id)
                shown = lab_view(view, prediction, theme)
                done = shown.final and view is not None and view["state"] == "done"
                points = len(view["events"]) if view else 0
                # the curves' points as of the last whole CHART_S (all of them at the end)
                now = {"chart": (int(waited // CHART_S) if points else -1, shown.final),
                       "grid": shown.grid and shown.grid["caption"],
                       "table": class_table(runner.table()), "open": done}
                new = {k: v != sent.get(k, ...) for k, v in now.items()}
                sent = now
                yield (shown.status, shown.chart if new["chart"] else gr.skip(),
                       shown.grid if new["grid"] else gr.skip(),
                       now["table"] if new["table"] else gr.skip(),
                       gr.Button(interactive=done) if new["open"] else gr.skip(), True)
                if shown.final:
                    return
                await asyncio.sleep(UPDATE_S)
                waited += UPDATE_S
        except Exception:  # never show a student a stack trace
            log.exception("lab run failed")
            yield ("⚠️ Something went wrong with this run. Please try again.", gr.skip(),
                   None, class_table(runner.table()), closed, True)
        finally:  # the page went (Gradio closes the stream) or stopped watching: leave
            if run_id is not None:
                runner.leave(session, run_id)

    return watch


def _opener(runner: LabRunner, models):
    """Open my model's handler: this session's finished run, opened for its views (never
    another's: the runner answers only this session's newest run)."""

    def open_mine(request: gr.Request):
        session = session_of(request)
        run_id = runner.latest(session) if session else None
        view = runner.view(run_id) if run_id is not None else None
        path = runner.model_path(run_id) if view and view["state"] == "done" else None
        if path is None:
            return (open_message(None), gr.skip(), gr.skip())
        try:
            opened = models.open(session, path, view["summary"])
        except BadControl as exc:
            return f"⚠️ {exc}", gr.skip(), gr.skip()
        return (open_message(opened.describe()),
                gr.Radio(choices=[*OBJECTIVES, LAB_OBJECTIVE], value=LAB_OBJECTIVE),
                PROBE_SENTENCE)

    return open_mine


def _wire_tab(tab: gr.Tab, panel: Panel, runner: LabRunner, table: gr.Markdown,
              chart: gr.Plot, steps: gr.Slider, ran: gr.State) -> None:
    """Opening the tab starts the workers, redraws the empty chart in the page's colours
    and starts the class table's poll; leaving it for any other tab stops the poll."""

    def opened(theme, planned, ran_):
        runner.warm()
        try:
            chart_now = gr.skip() if ran_ else ready_chart(
                "dark" if theme == "dark" else "light", int(planned))
        except (TypeError, ValueError):
            chart_now = gr.skip()
        return class_table(runner.table()), chart_now

    poll = wire_table_poll(runner, table)
    tab.select(opened, [panel.theme, steps, ran], [table, chart], api_name=False, queue=False,
               show_progress="hidden", **RAW)
    tab.select(lambda: (gr.Timer(active=True), (0, None)), None, poll, api_name=False,
               queue=False, show_progress="hidden")
    # leaving the Lab (any other tab) stops the asking
    panel.after_tabs.append(lambda: [
        other.select(lambda: gr.Timer(active=False), None, poll[0], api_name=False,
                     queue=False, show_progress="hidden")
        for other in get_blocks_context().blocks.values()
        if isinstance(other, gr.Tab) and other is not tab])

def wire_table_poll(runner: LabRunner, table: gr.Markdown) -> list:
    """A timer that sends the class's table when it changed, bounded (``TABLE_POLLS``);
    returns [the timer, its state: (asks so far, the table last sent)]."""
    timer = gr.Timer(TABLE_S, active=False)
    polled = gr.State((0, None))

    def ask(state):
        asks, last = state if isinstance(state, tuple | list) else (0, None)
        now = class_table(runner.table())
        more = asks + 1 < TABLE_POLLS
        return (now if now != last else gr.skip(), (asks + 1, now),
                gr.skip() if more else gr.Timer(active=False))

    timer.tick(ask, polled, [table, polled, timer], api_name=False, queue=False,
               show_progress="hidden")
    return [timer, polled]
