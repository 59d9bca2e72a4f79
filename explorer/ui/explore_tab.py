"""The Explore tab: every head at once, one head large, the head view, the guesses.

The grid of every head is the page's own canvas (``static/live_grid.js``, data from
:mod:`explorer.views.grid_payload`), not a Plotly figure: the live loop (``static/live.js``)
asks it for every change, and it asks the server directly (``gr.HTML(server_functions=...)``), so a
keystroke skips Gradio's queue and Plotly's redraw, the two slow parts. On the server the
keystrokes of a whole class wait in one fair line and run through the model together
(``explorer/server/keystroke_queue.py``), those of one model only (a student's own Lab model,
``explorer/server/lab_session.py``, runs apart). The large head, the head view, the guesses chart,
the table and the status follow once typing pauses (the view's settled event, ``wire_live``).
"""

from __future__ import annotations

import gradio as gr

from explorer.server.client_guard import REQUEST_SESSION
from explorer.server.keystroke_queue import KeystrokeQueue
from explorer.server.lab_session import registry, sources
from explorer.ui import bridge
from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.ui.model_knobs import wire as wire_model_knobs
from explorer.ui.step_bar import declare as step_bar
from explorer.views.controls import TOKENS_HELP, BadControl, parse_controls
from explorer.views.explore import clear_heads_view, explore, open_clear_head, settled_update
from explorer.views.grid_markup import grid_css, grid_markup
from explorer.views.grid_payload import canvas_colors, read_request
from explorer.views.lab_models import grid_payloads_by_model, route_keystroke

TAB = "explore"
# The grid's box and CSS from their one source (the notebook's and the static edition's
# too); the renderer, static/live_grid.js, mounted by Explore's wiring, static/explore_grid.js.
GRID_HTML = grid_markup(TAB)
GRID_JS = bridge.on_load("explore.grid")
# A click on a head of the grid: the hidden button's js-only event returns the clicked head
# as the Layer and Head sliders' values (static/head_pick.js): no server round trip.
READ_CLICK = bridge.js("explore.pick")
# What the grid is, its colour key and a newcomer's way to Start here, above the grid (issue
# 42 item 11: a student alone saw 15 tabs, no key). The key's gradient is the canvas's own
# scale (grid_payload.canvas_colors, which live_grid.js builds its palette from): one
# scale, never a copy. The button opens the Start here tab (explorer/ui/start_here_tab.py)
# and sits on the heading's line, where a phone's screen had room to spare. Our words only:
# no user text.
NEWCOMER_HTML = (
    '<div class="ae-newcomer"><div class="ae-newcomer-head"><h4>Every head</h4>'
    '<button type="button" class="ae-start-link">New? Start here</button></div>'
    '<p>Rows are layers (L0, L1…), columns heads (H0, H1…). In a square, row <i>i</i> is '
    'token <i>i</i> looking at the tokens; brighter is more attention '
    '<span class="ae-key" role="img" aria-label="Colour key: dark is little attention, '
    'bright is much attention"><span>(little</span>'
    '<span class="ae-key-bar" style="background: {gradient}"></span>'
    '<span>much)</span></span>. <span class="ae-newcomer-tap">Click a square to open it '
    'large.</span></p></div>')
NEWCOMER_JS = bridge.on_load("explore.newcomer")  # its button opens Start here
NEWCOMER_CSS = """.ae-newcomer-head { display: flex; flex-wrap: wrap; align-items: center;
  justify-content: space-between; gap: 0.25rem 0.75rem; margin-top: 0.1rem; }
.ae-newcomer h4 { margin: 0; font-weight: 600; font-size: 0.95rem; }
.ae-newcomer p { margin: 0.15rem 0 0; font-size: 0.9rem; }
.ae-start-link { font: inherit; font-size: 0.85rem; font-weight: 600; min-height: 1.75rem;
  padding: 0.1rem 0.7rem; border-radius: 999px; cursor: pointer;
  border: 1px solid var(--button-primary-background-fill, #c05000);
  background: var(--background-fill-secondary); color: var(--body-text-color); }
@media (max-width: 720px) {  /* a phone: one line less, it knows to tap */
  .ae-newcomer-tap { display: none; } .ae-newcomer p { font-size: 0.85rem; } }
.ae-key { display: inline-flex; align-items: center; gap: 0.3rem; white-space: nowrap; }
.ae-key-bar { display: inline-block; width: 4.5rem; height: 0.75rem; border-radius: 2px;
  border: 1px solid var(--border-color-primary); }"""


def key_gradient() -> str:
    """The grid's colour scale as a CSS ``linear-gradient`` (dark, little attention, at
    the left): the stops of the scale the canvas interpolates between, at the same places."""
    scale = canvas_colors("light")["scale"]  # the scale is the same in both themes
    stops = ", ".join(f"{colour} {100 * float(at):g}%" for at, colour in scale)
    return f"linear-gradient(to right, {stops})"


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update."""
    step_bar(panel, TAB)  # a Start-here step that opened this view, at its top
    status = gr.Markdown(elem_id="status")
    # A short heading and plain text under it: the whole explanation as a heading took six
    # bold lines of a phone's screen above the grid.
    gr.HTML(NEWCOMER_HTML.format(gradient=key_gradient()), js_on_load=NEWCOMER_JS,
            css_template=NEWCOMER_CSS, elem_id="newcomer", elem_classes="caption",
            padding=False)
    # A request runs on the shared (zoo, tokenizer) or the session's own Lab model.
    models = registry(demo, zoo)
    gr.HTML(None, html_template=GRID_HTML, js_on_load=GRID_JS, css_template=grid_css(),
            server_functions=[_grid_route(models, zoo, tok)], elem_id="grid")
    select = gr.Button("open the clicked head", elem_id="grid-select", elem_classes="ae-hidden")
    clear_text, clear, big, preds, lines, table = _figures()
    # /explore (the API) answers with a Plotly grid: its own hidden output, not the canvas
    api_grid = gr.Plot(visible=False)
    outputs = [api_grid, big, lines, preds, status, table]

    # Every change: the canvas asks grid_data itself (the live loop calls it, live_grid.js).
    # Once typing pauses (controls.SETTLE_MS; at once after a knob) the other figures, the
    # table and the status, from the sentence and knobs as they are then: drawing those
    # takes the browser longer than the grid, and while it draws, the next grid waits.
    @guarded("explore (figures after a pause)", lambda message: (None, None, None, "", message))
    def update_rest(request: gr.Request, text, *controls):
        c = parse_controls(*controls)
        return settled_update(*sources(models, request, zoo, tok, c, text), text, c)

    raw = dict(preprocess=False, postprocess=False)  # values go out exactly as built
    wire_live(panel, TAB, None, settled=dict(fn=update_rest, inputs=panel.inputs,
                                             outputs=[big, lines, preds, table, status], **raw))

    @guarded("explore (api)", lambda message: (None, None, None, None, message, ""))
    def api(request: gr.Request, text, *controls):
        """The ``/explore`` endpoint: the same view as ``go.Figure`` objects, the
        straightforward way (the reference the live path is tested against)."""
        c = parse_controls(*controls)
        r = explore(*sources(models, request, zoo, tok, c, text), text, c)
        return r.grid, r.head, r.lines, r.predictions, r.status, r.head_table

    endpoint = gr.Button("explore api", visible=False)
    endpoint.click(api, panel.inputs, outputs, api_name="explore", show_progress="hidden")
    _wire_heads(demo, zoo, panel, models, clear_text, clear, select)


def _grid_route(models, zoo, tok):
    """The canvas's server function, ``grid_data``: the class's keystrokes wait in one fair
    line (one place per session) and the ones waiting together run through the model
    together (explorer/server/keystroke_queue.py). A request waits with the (zoo,
    tokenizer) it runs on (the keystroke's body names its session:
    explorer/server/client_guard.py, which answers this name itself: DIRECT_FNS)."""
    keystrokes = KeystrokeQueue(grid_payloads_by_model)

    async def grid_data(request):
        """One keystroke's grid, asked for by the page's canvas (static/live_grid.js). The
        request is read here, once (grid_payload.read_request), and travels as that."""
        try:
            keystroke = read_request(request)
        except BadControl as exc:  # a hand-made request: its message, nothing echoed
            return {"ok": False, "caption": f"⚠️ {exc}"}
        session = REQUEST_SESSION.get()
        routed = route_keystroke(models, session, zoo, tok, keystroke)
        if isinstance(routed, dict):  # an answer at once: no model to run
            return routed
        return await keystrokes.submit(session, (keystroke, routed))

    return grid_data


def _figures():
    """Under the grid: the clear heads, the large head and the guesses, the head view and
    the head table."""
    # Below the grid, so the heatmaps stay first on a small or projected screen.
    # (min widths, here and in static/css/: on a phone the two stack, not squeeze)
    with gr.Row(equal_height=False, elem_id="clear-heads-row"):
        clear_text = gr.Markdown(elem_id="clear-heads-text")
        clear = gr.Radio([], value=None, label="Clear heads in this model: open one large",
                         elem_id="clear-heads", min_width=300)
    # Side by side where both fit (a laptop); in a narrower views column (a window of
    # ~850 px) the row wraps, so the large head gets the column's width, not a third of it.
    with gr.Row(equal_height=False):
        big = gr.Plot(show_label=False, elem_id="head-large", min_width=440)
        preds = gr.Plot(show_label=False, elem_id="predictions", min_width=360)
    lines = gr.Plot(show_label=False, elem_id="head-view")
    gr.Markdown(TOKENS_HELP, elem_classes="caption-text", elem_id="tokens-help")
    table = gr.Markdown(elem_id="head-table")
    return clear_text, clear, big, preds, lines, table


def _wire_heads(demo, zoo, panel: Panel, models, clear_text, clear, select) -> None:
    """The model knobs (only trained models), the clear heads offered for the model, and
    opening a head (a clear head, or a square clicked in the grid)."""
    # The pointer follows the model; picking a head moves the Layer and Head sliders, whose
    # change events update the page as a slider drag would. Not queued: no model runs.
    def pointer(objective, heads, pos):
        text, labels = clear_heads_view(zoo, objective, heads, pos)
        return text, gr.Radio(choices=labels, value=None, visible=bool(labels))

    model_knobs = [panel.objective, panel.heads, panel.pos]
    wire_model_knobs(zoo, panel, models)  # only trained models: "[mask]" switches to its model
    gr.on([k.change for k in model_knobs] + [demo.load], pointer, model_knobs,
          [clear_text, clear], queue=False, show_progress="hidden", api_name=False)
    clear.input(open_clear_head, [clear, panel.layer, panel.head], [panel.layer, panel.head],
                queue=False, show_progress="hidden", api_name=False)
    # js only (fn None): the sliders take the clicked head in the browser
    select.click(None, [panel.layer, panel.head], [panel.layer, panel.head], js=READ_CLICK,
                 api_name=False, show_progress="hidden")
