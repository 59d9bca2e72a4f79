"""The Explore tab: every head at once, one head large, the head view, the guesses."""

from __future__ import annotations

import logging

import gradio as gr

from explorer.views import BadControl, explore, live_grid, live_rest, parse_controls
from ui.controls import Panel, wire_live

log = logging.getLogger("attention_explorer")
TAB = "explore"
FAILED = "⚠️ Something went wrong with this request. Please try again."

# Clicking a small heatmap opens it large: the grid is one heatmap (explorer/live_figures.py)
# whose layout.meta gives the token count T, so the clicked cell's x, y name the panel
# (head = x // T, layer = y // T); the hidden button then passes that (layer, head) to the
# sliders through its js function. A MutationObserver re-attaches the listener whenever
# Gradio redraws the grid.
LISTEN_FOR_CLICKS = """() => {
  const attach = () => {
    const gd = document.querySelector('#grid .js-plotly-plot');
    if (!gd || gd.__aeClick || !gd.on) return;
    gd.__aeClick = true;
    gd.on('plotly_click', (ev) => {
      const pt = ev.points[0], n = gd.layout?.meta?.tokens;
      if (!pt || !n || pt.data.type !== 'heatmap') return;
      window.__aeSelect = [Math.floor(pt.y / n), Math.floor(pt.x / n)];
      document.querySelector('#grid-select')?.click();
    });
  };
  new MutationObserver(attach).observe(document.body, {childList: true, subtree: true});
  attach();
}"""
READ_CLICK = "(layer, head) => window.__aeSelect || [layer, head]"


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update."""
    status = gr.Markdown(elem_id="status")
    gr.Markdown("#### Every head — rows are layers (L0, L1…), columns are heads (H0, H1…). "
                "In each square, row i is token i looking at the tokens (columns); brighter "
                "means more attention. Click a square to open it large.",
                elem_classes="caption")
    grid = gr.Plot(show_label=False, elem_id="grid")
    select = gr.Button("open the clicked head", elem_id="grid-select", elem_classes="ae-hidden")
    with gr.Row(equal_height=False):
        big = gr.Plot(show_label=False, elem_id="head-large")
        preds = gr.Plot(show_label=False, elem_id="predictions")
    lines = gr.Plot(show_label=False, elem_id="head-view")
    table = gr.Markdown(elem_id="head-table")
    outputs = [grid, big, lines, preds, status, table]

    # Per keystroke: the analysis, the grid and the status. The analysis is kept in this
    # user's own gr.State; the other three figures are drawn from it once typing pauses
    # (controls.SETTLE_MS; at once after a click on a knob): drawing them takes the
    # browser longer than the grid, and while it draws, the next keystroke's grid waits
    # (benchmarks/run_all.py: keystroke -> grid drawn).
    pending = gr.State(None)  # this user's latest analysis, never shared

    def update_grid(text, *controls):
        try:
            g = live_grid(zoo, tok, text, parse_controls(*controls))
        except BadControl as exc:
            return None, f"⚠️ {exc}", None
        except Exception:  # never show a student a stack trace; keep it in the server log
            log.exception("explore failed")
            return None, FAILED, None
        return g.grid, g.status, g.pending

    def update_rest(latest):
        try:
            return list(live_rest(latest))
        except Exception:
            log.exception("explore (figures after a pause) failed")
            return None, None, None, ""

    raw = dict(preprocess=False, postprocess=False)  # values go out exactly as built
    wire_live(panel, TAB, dict(fn=update_grid, inputs=panel.inputs,
                               outputs=[grid, status, pending], **raw),
              settled=dict(fn=update_rest, inputs=pending, outputs=[big, lines, preds, table],
                           **raw))

    def api(text, *controls):
        """The ``/explore`` endpoint: the same view as ``go.Figure`` objects, the
        straightforward way (the reference the live path is tested against)."""
        try:
            r = explore(zoo, tok, text, parse_controls(*controls))
        except BadControl as exc:
            return None, None, None, None, f"⚠️ {exc}", ""
        except Exception:
            log.exception("explore (api) failed")
            return None, None, None, None, FAILED, ""
        return r.grid, r.head, r.lines, r.predictions, r.status, r.head_table

    endpoint = gr.Button("explore api", visible=False)
    endpoint.click(api, panel.inputs, outputs, api_name="explore", show_progress="hidden")
    demo.load(None, None, None, js=LISTEN_FOR_CLICKS)
    select.click(lambda layer, head: (layer, head), [panel.layer, panel.head],
                 [panel.layer, panel.head], js=READ_CLICK, api_name=False,
                 show_progress="hidden")
