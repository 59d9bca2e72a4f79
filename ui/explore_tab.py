"""The Explore tab: every head at once, one head large, the head view, the guesses."""

from __future__ import annotations

import logging

import gradio as gr

from explorer.views import BadControl, explore, parse_controls
from ui.controls import Panel

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

    def update(text, *values):
        *controls, active = values
        if active != TAB:  # another tab is open: nothing of ours is on screen
            return [gr.skip()] * len(outputs)
        try:
            r = explore(zoo, tok, text, parse_controls(*controls))
        except BadControl as exc:
            return None, None, None, None, f"⚠️ {exc}", ""
        except Exception:  # never show a student a stack trace; keep it in the server log
            log.exception("explore failed")
            return None, None, None, None, FAILED, ""
        return r.grid, r.head, r.lines, r.predictions, r.status, r.head_table

    # Live path: the grid and the status come back first, so the browser draws the view that
    # follows the typing before the three slower figures (which come right after, from this
    # user's own gr.State). benchmarks/whatif.py measured the browser's drawing as the bulk of
    # keystroke-to-screen time.
    rest = gr.State(None)  # the rest of this user's latest update, never shared

    def update_first(text, *values):
        result = update(text, *values)
        if isinstance(result, list):  # skipped: another tab is open
            return [gr.skip()] * 3
        grid_fig, big_fig, lines_fig, preds_fig, status_md, table_md = result
        return grid_fig, status_md, (big_fig, lines_fig, preds_fig, table_md)

    def update_rest(pending):
        return list(pending) if pending is not None else [gr.skip()] * 4

    inputs = [*panel.inputs, panel.active_tab]
    quiet = dict(show_progress="hidden", api_name=False)
    live = dict(fn=update_first, inputs=inputs, outputs=[grid, status, rest],
                trigger_mode="always_last", **quiet)
    follow = dict(fn=update_rest, inputs=rest, outputs=[big, lines, preds, table], **quiet)
    panel.text.input(**live).then(**follow)
    for control in panel.inputs[1:]:
        control.change(**live).then(**follow)
    tab.select(lambda: TAB, None, panel.active_tab, api_name=False).then(**live).then(**follow)
    live = dict(fn=update, inputs=inputs, outputs=outputs, **quiet)  # the whole update at once
    demo.load(**{**live, "api_name": "explore"})
    demo.load(None, None, None, js=LISTEN_FOR_CLICKS)
    select.click(lambda layer, head: (layer, head), [panel.layer, panel.head],
                 [panel.layer, panel.head], js=READ_CLICK, api_name=False,
                 show_progress="hidden")
