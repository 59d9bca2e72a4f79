"""The Patch tab: copy one head's output (or one place of the residual stream) from the
clean sentence's run into a corrupted copy's, and see how much of the guess comes back.

The shared sentence box is the clean sentence; the tab's own box the corrupted copy. A
click on a cell of either heatmap patches that cell alone and shows the guesses change
(a hidden textbox holds the clicked cell, "head L H" or "pos L P"); a click on the logit
lens lists that cell's top five guesses beneath it. Everything shown comes from
:mod:`explorer.views.patch`.
"""

from __future__ import annotations

import gradio as gr

from explorer.ui import bridge
from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.ui.step_bar import declare as step_bar
from explorer.views.controls import BOX_CHARS, parse_controls
from explorer.views.patch import (
    EXAMPLES,
    PAIR_HEADERS,
    corrupted_copy,
    lens_detail,
    patch_view,
)

TAB = "patch"
# Patching runs the model ~3 times per update: its own line of Gradio's queue, two at work,
# so a class flooding Patch does not hold the other views' four places (app.QUEUE).
PATCH_LINE = dict(concurrency_id="patch", concurrency_limit=2)

INTRO = """Two sentences that differ in one word: the **clean** one (the sentence box) and a
**corrupted copy** (below). The model guesses differently for them. Copy one head's output
from the clean run into the corrupted run: if the clean guess comes back, that head carries
the information. **Click a cell** of a heatmap to patch it and see the guesses change."""
LENS_HINT = "*Click a cell of the logit lens to read its top five guesses here.*"
COPY_FAILED = ("ℹ️ No one-word change with the same number of tokens was found: edit the "
               "copy by hand.")

# Clicking a heatmap cell names it ("head L H" / "pos L P" / "lens L P", from the cell's
# customdata) and clicks the hidden button, whose js-only event puts the name in the hidden
# cell box, in the browser (static/plot_clicks.js); the box's change does the rest.
LISTEN_FOR_CLICKS = bridge.js("plots.listen")
PICK = bridge.js("patch.pick")
LENS_PICK = bridge.js("patch.lens")


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update."""
    bar = step_bar(panel, TAB)  # a Start-here step that opened this view, at its top
    gr.Markdown(INTRO, elem_classes="caption-text")
    corrupt = gr.Textbox(label="Corrupted copy (the same number of tokens)", lines=2,
                         max_length=BOX_CHARS, elem_id="patch-corrupt")
    bar.own["corrupt"] = corrupt  # a step sets the copy too (step 8: the example's)
    panel.link_fields["corrupt"] = corrupt  # and a share link (Take it home)
    with gr.Row():
        make = gr.Button("Make a corrupted copy", size="sm", elem_id="patch-make")
        examples = [gr.Button(label, size="sm", elem_id=f"patch-example-{i}")
                    for i, (label, _, _) in enumerate(EXAMPLES)]
    outputs, lens_detail_box = _outputs()
    status = outputs[0]
    cell = gr.Textbox("", elem_id="patch-cell", elem_classes="ae-hidden", show_label=False)
    pick = gr.Button("patch the clicked cell", elem_id="patch-pick", elem_classes="ae-hidden")
    lens_cell = gr.Textbox("", elem_id="patch-lens-cell", elem_classes="ae-hidden",
                           show_label=False)
    lens_pick = gr.Button("read the clicked lens cell", elem_id="patch-lens-pick",
                          elem_classes="ae-hidden")
    api = gr.Button("patch", visible=False)  # the API endpoint: no open-tab check

    inputs = [*panel.inputs, corrupt, cell]

    @guarded("patch", lambda message: [message, [], "", None, None, None, None, None])
    def compute(text, *values):
        *controls, corrupt_text, clicked = values
        v = patch_view(zoo, tok, text, corrupt_text, parse_controls(*controls), clicked)
        return [v.status, v.pair, v.reading, v.heads, v.guesses, v.positions, v.lens,
                v.attribution]

    wire_live(panel, TAB, dict(fn=compute, inputs=inputs, outputs=outputs, **PATCH_LINE),
              extra=(corrupt.change, cell.change))
    api.click(compute, inputs, outputs, api_name="patch", **PATCH_LINE)

    def make_copy(text):
        copy = corrupted_copy(tok, text, zoo.get(zoo.default_name).config.n_ctx)
        return (gr.skip(), COPY_FAILED) if copy is None else (copy, gr.skip())

    make.click(make_copy, panel.text, [corrupt, status], api_name=False,
               show_progress="hidden")
    for button, (_, clean, corrupted) in zip(examples, EXAMPLES, strict=True):
        button.click(lambda c=clean, x=corrupted: (c, x, ""), None,
                     [panel.text, corrupt, cell], api_name=False, show_progress="hidden")
    demo.load(None, None, None, js=LISTEN_FOR_CLICKS)
    pick.click(None, cell, cell, js=PICK, api_name=False, show_progress="hidden")

    _wire_lens(zoo, tok, panel, lens_cell, lens_pick, lens_detail_box)


def _outputs():
    """[status, pair, reading, heads, guesses, positions, lens, attribution], and the
    box that reads one lens cell."""
    status = gr.Markdown(elem_id="patch-status")
    pair = gr.Dataframe(headers=PAIR_HEADERS,
                        datatype=["str", "number", "str", "number", "str", "str"],
                        interactive=False, wrap=False, show_label=False, elem_id="patch-pair")
    reading = gr.Markdown(elem_id="patch-reading")
    with gr.Row(equal_height=False):
        heads = gr.Plot(show_label=False, elem_id="patch-heads", min_width=300, scale=3)
        guesses = gr.Plot(show_label=False, elem_id="patch-guesses", min_width=280, scale=2)
    positions = gr.Plot(show_label=False, elem_id="patch-positions")
    lens = gr.Plot(show_label=False, elem_id="patch-lens")
    lens_detail_box = gr.Markdown(LENS_HINT, elem_id="patch-lens-detail")
    attribution = gr.Plot(show_label=False, elem_id="patch-attribution")
    return [status, pair, reading, heads, guesses, positions, lens, attribution], \
        lens_detail_box


def _wire_lens(zoo, tok, panel: Panel, lens_cell, lens_pick, lens_detail_box) -> None:
    """A lens cell clicked is read in the box under the lens (its top five)."""
    @guarded("lens detail", lambda message: message)
    def read_lens(text, *values):
        *controls, clicked = values
        return lens_detail(zoo, tok, text, parse_controls(*controls), clicked) or LENS_HINT

    # a click sets the cell box; reading it is one forward pass, not the whole patching
    lens_pick.click(None, lens_cell, lens_cell, js=LENS_PICK, api_name=False,
                    show_progress="hidden")
    lens_cell.change(read_lens, [*panel.inputs, lens_cell], lens_detail_box, api_name=False,
                     show_progress="hidden")
    # a new sentence empties the lens box in the browser alone (a server event here was a
    # queue join on every keystroke of every student)
    panel.text.change(None, None, [lens_cell, lens_detail_box],
                      js=bridge.js("page.constant", ["", LENS_HINT]), queue=False, api_name=False,
                      show_progress="hidden")
