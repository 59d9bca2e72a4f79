"""The Ablate tab: switch heads off and watch the guesses, the later layers and the loss.

Tick heads (or click their square in the grid) to zero their output; the grid shows the model with
those heads off, the guesses before → after, how far every later head's attention moved, and a
table ranking each head by how much removing it alone raises the loss on this sentence, with its
pattern type in plain words, and beside it each head's direct logit attribution: how far its output
alone pushes the guess shown over the runner-up. "my Lab model" (explorer/server/lab_session.py)
switches heads of the session's own model.
"""

from __future__ import annotations

import gradio as gr

from explorer.server.lab_session import registry, session_of, sources
from explorer.ui import bridge
from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.ui.plots import plot_row
from explorer.ui.step_bar import declare as step_bar
from explorer.views.ablate import RANK_HEADERS, ablate_view, head_choices, ranking_key
from explorer.views.controls import LAB_OBJECTIVE, TOKENS_HELP, BadControl, parse_controls
from explorer.views.lab_models import model_key

TAB = "ablate"

INTRO = """Switching a head **off** keeps its attention pattern but removes what it writes
into the model, so later layers and the guesses change while earlier layers cannot.
Tick heads below, or **click a square** in the grid, to switch them off or on again."""

# Clicking a panel of the grid toggles that head, in the browser (static/plot_clicks.js):
# Plotly's click names the panel ("L2 H3"), the hidden button's js-only event flips it in
# the list of ticked heads, whose change updates the view.
LISTEN_FOR_CLICKS = bridge.js("plots.listen")
TOGGLE = bridge.js("ablate.toggle")


def _choices_for(zoo, objective, heads, pos, mine=None):
    """The heads of the model the knobs pick (``mine``: the session's Lab model, if any)."""
    if objective == LAB_OBJECTIVE:
        config = None if mine is None else mine.model.config
        return None if config is None else head_choices(config.n_layers, config.n_heads)
    try:
        controls = parse_controls(objective, heads, pos, "as trained", "1/√d_head", 1.0, 0, 0,
                                  "light")
    except BadControl:
        return None
    model = zoo.get(controls.checkpoint())
    return None if model is None else head_choices(model.config.n_layers, model.config.n_heads)


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update."""
    bar = step_bar(panel, TAB)  # a Start-here step that opened this view, at its top
    gr.Markdown(INTRO, elem_classes="caption-text")
    default = zoo.get(zoo.default_name).config
    off = gr.CheckboxGroup(head_choices(default.n_layers, default.n_heads), value=[],
                           label="Heads switched off", elem_id="ablate-heads")
    clear = gr.Button("All heads on", size="sm", elem_id="ablate-clear")
    # a step set up starts with every head on (no step switches one off itself: step 3 asks
    # the student to), so heads switched off in step 3 do not stay off after it
    bar.own["heads_off"] = off
    bar.resets["heads_off"] = []
    outputs = _outputs()
    toggle = gr.Button("toggle the clicked head", elem_id="ablate-toggle",
                       elem_classes="ae-hidden")
    api = gr.Button("ablate", visible=False)  # the API endpoint: no open-tab check
    last_ranking = gr.State(None)  # (key, Ranking) of this user's last sentence + knobs
    inputs = [*panel.inputs, off]
    models = registry(demo, zoo)  # "my Lab model": the session's own
    compute = _computer(models, zoo, tok)

    def update(request: gr.Request, *values):
        *values, cached = values
        shown, remember = compute(request, *values, cached=cached)
        shown[3] = gr.Plot(value=shown[3], visible=shown[3] is not None)
        return [*shown, remember]

    wire_live(panel, TAB, dict(fn=update, inputs=[*inputs, last_ranking],
                               outputs=[*outputs, last_ranking]), extra=(off.change,))
    def api_view(request: gr.Request, *values):
        return compute(request, *values)[0]

    api.click(api_view, inputs, outputs, api_name="ablate")
    _wire_heads(demo, zoo, panel, models, default, off, clear, toggle)


def _outputs() -> list:
    """[status, grid, predictions, change, table intro, table, legend, attribution]."""
    status = gr.Markdown(elem_id="ablate-status")
    grid, predictions = plot_row("ablate-grid", "ablate-predictions", min_width=(320, 280),
                                 scale=(3, 2))
    gr.Markdown(TOKENS_HELP, elem_classes="tokens-help")
    # Only shown with a head off: with every head on there is no change to draw, and an
    # empty plot would sit there as a blank placeholder.
    change = gr.Plot(show_label=False, elem_id="ablate-change", visible=False)
    intro = gr.Markdown(elem_id="ablate-table-intro")
    with gr.Row(equal_height=False):
        # Shares of the width, words wrapped: the six columns fit a phone's screen (with
        # widths measured from the text, the ranking's own column was off a 390 px screen).
        table = gr.Dataframe(headers=RANK_HEADERS,
                             datatype=["number", "str", "number", "number", "str", "str"],
                             interactive=False, wrap=True, show_label=False, max_height=640,
                             column_widths=["10%", "13%", "15%", "15%", "23.5%", "23.5%"],
                             elem_id="ablate-table", min_width=320, scale=3)
        # beside the ranking: which heads push the guess shown, read off the weights
        attribution = gr.Plot(show_label=False, elem_id="ablate-attribution", min_width=300,
                              scale=2)
    legend = gr.Markdown(elem_id="ablate-legend")
    return [status, grid, predictions, change, intro, table, legend, attribution]


def _computer(models, zoo, tok):
    """``compute(request, text, *knobs, heads_off, cached=None)``: (the shown outputs, the
    ranking to remember); a ranking ``cached`` for the same sentence and knobs is reused."""
    # (shown outputs, remembered ranking): a failed request shows its message, remembers none
    @guarded("ablate", lambda message: ([message, None, None, None, "", [], "", None], None))
    def compute(request, text, *values, cached=None):
        *controls, labels = values
        c = parse_controls(*controls)
        z, t = sources(models, request, zoo, tok, c, text)
        key = ranking_key(model_key(z, c.checkpoint()), text or "", c)
        ranking = cached[1] if cached and cached[0] == key else None
        v = ablate_view(z, t, text, c, labels, ranking=ranking)
        remember = (key, v.ranking) if v.ranking is not None else None
        shown = [v.status, v.grid, v.predictions, v.change, v.intro, v.table, v.legend,
                 v.attribution]
        return shown, remember

    return compute


def _wire_heads(demo, zoo, panel: Panel, models, default, off, clear, toggle) -> None:
    """The heads offered follow the model; All heads on; a square clicked in the grid
    toggles its head."""
    offered = gr.State(head_choices(default.n_layers, default.n_heads))

    def new_model(objective, heads, pos, ticked, current, request: gr.Request):
        """Another model has other heads: offer its heads, keep the ticks that still exist."""
        choices = _choices_for(zoo, objective, heads, pos, models.get(session_of(request)))
        if choices is None or choices == current:
            return gr.skip(), gr.skip()
        kept = [h for h in ticked or [] if h in choices]
        return gr.CheckboxGroup(choices=choices, value=kept), choices

    gr.on([panel.objective.change, panel.heads.change, panel.pos.change], new_model,
          [panel.objective, panel.heads, panel.pos, off, offered], [off, offered],
          api_name=False, show_progress="hidden")
    clear.click(lambda: [], None, off, api_name=False, show_progress="hidden")
    demo.load(None, None, None, js=LISTEN_FOR_CLICKS)
    toggle.click(None, off, off, js=TOGGLE, api_name=False, show_progress="hidden")
