"""The Explore tab: every head at once, one head large, the head view, the guesses."""

from __future__ import annotations

import logging

import gradio as gr

from explorer.views import BadControl, explore, explore_live, parse_controls
from ui.controls import Panel, wire_live

log = logging.getLogger("attention_explorer")
TAB = "explore"
FAILED = "⚠️ Something went wrong with this request. Please try again."

# Clicking a small heatmap opens it large: Plotly's click event names the panel ("L2 H3");
# the hidden button then passes that (layer, head) to the sliders through its js function.
# A MutationObserver re-attaches the listener whenever Gradio redraws the grid.
LISTEN_FOR_CLICKS = """() => {
  const attach = () => {
    const gd = document.querySelector('#grid .js-plotly-plot');
    if (!gd || gd.__aeClick || !gd.on) return;
    gd.__aeClick = true;
    gd.on('plotly_click', (ev) => {
      const m = /L(\\d+) H(\\d+)/.exec((ev.points[0] || {}).data?.name || '');
      if (!m) return;
      window.__aeSelect = [parseInt(m[1]), parseInt(m[2])];
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
    gr.Markdown("#### Every head — rows are layers, columns are heads. In each square, row i "
                "is token i looking at the tokens (columns). Click a square to open it large.",
                elem_classes="caption")
    grid = gr.Plot(show_label=False, elem_id="grid")
    select = gr.Button("open the clicked head", elem_id="grid-select", elem_classes="ae-hidden")
    with gr.Row(equal_height=False):
        big = gr.Plot(show_label=False, elem_id="head-large")
        preds = gr.Plot(show_label=False, elem_id="predictions")
    lines = gr.Plot(show_label=False, elem_id="head-view")
    table = gr.Markdown(elem_id="head-table")
    outputs = [grid, big, lines, preds, status, table]

    def live(text, *controls) -> list:
        """The six outputs as the browser takes them (``postprocess=False``)."""
        try:
            r = explore_live(zoo, tok, text, parse_controls(*controls))
        except BadControl as exc:
            return [None, None, None, None, f"⚠️ {exc}", ""]
        except Exception:  # never show a student a stack trace; keep it in the server log
            log.exception("explore failed")
            return [None, None, None, None, FAILED, ""]
        return [r.grid, r.head, r.lines, r.predictions, r.status, r.head_table]

    # Per keystroke: the grid and the status come back first, so the browser draws the view
    # that follows the typing before the three slower figures, which come right after
    # from this user's own gr.State (benchmarks/run_all.py: keystroke -> grid drawn).
    rest = gr.State(None)  # the rest of this user's latest update, never shared

    def update_first(text, *controls):
        grid_v, big_v, lines_v, preds_v, status_md, table_md = live(text, *controls)
        return grid_v, status_md, (big_v, lines_v, preds_v, table_md)

    def update_rest(pending):
        return list(pending) if pending is not None else [gr.skip()] * 4

    raw = dict(preprocess=False, postprocess=False)  # values go out exactly as built
    wire_live(panel, TAB, dict(fn=update_first, inputs=panel.inputs,
                               outputs=[grid, status, rest], **raw),
              then=dict(fn=update_rest, inputs=rest, outputs=[big, lines, preds, table], **raw))

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
