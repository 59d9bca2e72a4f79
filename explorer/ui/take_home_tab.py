"""The "Take it home" tab: figures as PNG/SVG, numbers as CSV/NPZ/JSON, the view as one
HTML file with the notebook cell that draws it again, a share link and its QR code.

The figures carry a caption (model, as trained or the experiment, the sentence) so a saved
picture says what it shows. The link opens the view the student had open before this tab
(``&tab=...``): the page remembers the last view opened (``static/share.js``).

Also :func:`wire_share_link`, which ``app.py`` calls once so that opening a share
link (``/?text=...&heads=4&mask=off&tab=layers...``) sets the sentence and the knobs and
opens the view.
"""

from __future__ import annotations

import json
import logging

import gradio as gr
from gradio.context import get_blocks_context

from explorer.server.lab_session import registry, sources
from explorer.ui import bridge
from explorer.ui.controls import DEFAULT_HEADS, Panel, head_slider, wire_live
from explorer.ui.errors import guarded
from explorer.views.controls import EMPTY_STATE, TOKENS_HELP, parse_controls
from explorer.views.share import HEAD_MAX, TAB_ALIASES, parse_query
from explorer.views.take_home import (
    lab_model_file,
    notebook_cell,
    notebook_file,
    prepare_files,
    take_home_view,
)

log = logging.getLogger("attention_explorer")
TAB = "take_home"

INTRO = """Keep what you see. **Pictures:** the buttons save a figure as PNG (for slides)
or SVG (sharp at any size). **Numbers:** *Prepare the files* writes the weights of the head
you picked and of every head as CSV (open them in a spreadsheet), and the whole capture —
attention weights and raw scores of every layer and head, with the tokens and settings — as
NPZ (NumPy) and JSON. **Link:** opens the app with this sentence and these knobs, on the
view you had open before this one; its QR code lets a class open it with a phone."""

# Client-side picture download through Plotly.js (static/share.js downloadPicture): the
# figure's box and format are constants, the file name is built from the layer and head
# numbers only. The picture is at least EXPORT_WIDTH px wide, its height scaled alike: drawn
# at a phone's width, the caption (model, experiment, sentence) was cut at the edge and the
# squares were small.
EXPORT_WIDTH = 960
# This page's own address (the share link's base), and which view the link opens: the last
# one opened before this tab (static/share.js; a link's &tab= opens its view on load).
PAGE_ADDRESS = bridge.js("share.address")
OPEN_VIEW = bridge.js("share.linked_view")
NOTEBOOK = """The cell below draws this view again in a notebook (Jupyter, VS Code, Colab) once
this project is installed (`pip install` its folder): every head, click one to open it, hover
for the weight. **View as HTML** is the same drawing as one file that opens in any browser,
offline."""
FIELDS = ("text", "objective", "heads", "pos", "mask", "scaling", "temperature", "layer",
          "head")


def _panel_fields(panel: Panel) -> list:
    return [getattr(panel, name) for name in FIELDS]


def _bound(slider: gr.Slider, default: int) -> int:
    try:
        return int(slider.maximum)
    except (TypeError, ValueError, AttributeError):
        return default


def wire_share_link(demo: gr.Blocks, panel: Panel) -> None:
    """Apply a share link's query parameters to the sentence box and knobs on page load
    (and, with or without a link, narrow the Head slider to the shown model's heads).

    Call once from ``app.py`` inside ``gr.Blocks``, after the knobs are built. Invalid or
    missing parameters leave their control unchanged (:func:`explorer.views.share.parse_query`).
    """
    layer_max = _bound(panel.layer, 3)
    first_head = panel.head.value  # the page's own first head, where a link names none

    def apply_share_link(request: gr.Request):
        try:
            values = parse_query(request.query_params, layer_max, HEAD_MAX)
        except Exception:  # a malformed request must never break the page
            log.exception("share link could not be read")
            values = {}
        # The Head slider's range for the model shown, with the link's head if it has one.
        values["head"] = head_slider(values.get("heads", DEFAULT_HEADS),
                                     values.get("head", first_head), set_value="head" in values)
        return [values.get(name, gr.skip()) for name in (*FIELDS, *extra)]

    # The values it sets change the controls: the live loop (static/live.js) follows.
    extra = list(panel.link_fields)  # a view's own fields (Patch's corrupted copy)
    demo.load(apply_share_link, None, [*_panel_fields(panel), *panel.link_fields.values()],
              api_name=False, show_progress="hidden")
    views = {b.id: b.label for b in get_blocks_context().blocks.values()
             if isinstance(b, gr.Tab) and isinstance(b.id, str) and b.label}
    # old links' ids of views since renamed open the view they became
    aliases = {old: new for old, new in TAB_ALIASES.items() if new in views}
    demo.load(None, None, None, js=bridge.js("share.track_views", {"views": views, "self": TAB,
                                                                   "aliases": aliases}),
              api_name=False)


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update."""
    status = gr.Markdown(elem_id="export-status")
    gr.Markdown(INTRO, elem_classes="caption-text")
    big, grid, pictures = _figures()
    prepare, downloads, lab_file = _files()
    code, make_html, html_file, link, qr = _notebook_and_link()
    base = gr.Textbox(visible=False, elem_id="export-base")  # this page's own address
    open_view = gr.Textbox(visible=False, elem_id="export-open-view")  # the link's view
    demo.load(None, None, base, js=PAGE_ADDRESS, api_name=False)
    # Before this tab's update (listeners of one trigger run in order): the view to link.
    tab.select(None, None, open_view, js=OPEN_VIEW, api_name=False, show_progress="hidden")
    # What the prepared files were made from: an update that arrives later for the same
    # sentence and knobs (a busy server answers late) keeps them; any change hides them.
    # The same for the HTML file.
    prepared = gr.State(None)
    html_made = gr.State(None)
    # "my Lab model": the session's own (explorer/server/lab_session.py)
    serving = _server(registry(demo, zoo), zoo, tok)
    # Patch's corrupted copy, for a link that opens Patch (built before this tab)
    copies = [panel.link_fields["corrupt"]] if "corrupt" in panel.link_fields else []
    outputs = [status, big, grid, link, qr, code, html_file, *downloads, lab_file]
    wire_live(panel, TAB, dict(fn=_updater(serving, bool(copies)),
                               inputs=[*panel.inputs, base, open_view, prepared, html_made,
                                       *copies], outputs=outputs))
    _wire_files(panel, serving, status, (prepare, prepared, downloads, lab_file),
                (make_html, html_made, code, html_file))
    _wire_pictures(panel, pictures)

    @guarded("take it home (api)", lambda message: (message, None, None, ""))
    def api(request: gr.Request, text, *values):  # the same view, whichever tab is open
        *controls, page = values
        return take_home_view(*serving(request, text, controls), text, controls, page)[:4]

    hidden = gr.Button("export api", visible=False)
    hidden.click(api, [*panel.inputs, base], [status, big, grid, link], api_name="export_view",
                 show_progress="hidden")


# Prepare's files (prepare_files writes them in this order): (button label, elem id)
PREPARED = (("Head as CSV", "export-head-csv"), ("Every head as CSV", "export-grid-csv"),
            ("Capture as NPZ", "export-npz"), ("Capture as JSON", "export-json"))
N_DOWNLOADS = len(PREPARED) + 1  # and the Lab model's


def _no_file():  # a hidden download; built per call: a component made here would render
    return gr.DownloadButton(value=None, visible=False)


def _hidden_downloads() -> list:
    return [_no_file() for _ in range(N_DOWNLOADS)]


def _made_from(text, controls) -> str:
    """What a prepared file was made from, to compare with a later update's."""
    return json.dumps([text, *controls], ensure_ascii=False, default=str)


def _server(models, zoo, tok):
    """``serving(request, text, controls)``: (zoo, tokenizer) of this request (the shared
    zoo, or the session's Lab model); BadControl says why there is none."""
    def serving(request, text, controls) -> tuple:
        return sources(models, request, zoo, tok, parse_controls(*controls), text)
    return serving


def _figures():
    """The head and the grid, and their four picture buttons (button, figure, format,
    file name)."""
    gr.Markdown("#### The head you picked", elem_classes="caption")
    big = gr.Plot(show_label=False, elem_id="export-head")
    with gr.Row():
        head_png = gr.Button("Head as PNG", size="sm", min_width=120, elem_id="export-head-png")
        head_svg = gr.Button("Head as SVG", size="sm", min_width=120, elem_id="export-head-svg")
    gr.Markdown("#### Every head", elem_classes="caption")
    grid = gr.Plot(show_label=False, elem_id="export-grid")
    with gr.Row():
        grid_png = gr.Button("Grid as PNG", size="sm", min_width=120, elem_id="export-grid-png")
        grid_svg = gr.Button("Grid as SVG", size="sm", min_width=120, elem_id="export-grid-svg")
    return big, grid, ((head_png, "export-head", "png", "head"),
                       (head_svg, "export-head", "svg", "head"),
                       (grid_png, "export-grid", "png", "grid"),
                       (grid_svg, "export-grid", "svg", "grid"))


def _files():
    """Prepare, the four prepared files' downloads and the Lab model's."""
    gr.Markdown("#### The numbers", elem_classes="caption")
    prepare = gr.Button("Prepare the files for this sentence", variant="primary", size="md",
                        elem_id="export-prepare")
    with gr.Row():
        downloads = [gr.DownloadButton(label, visible=False, size="sm", min_width=140,
                                       elem_id=elem_id) for label, elem_id in PREPARED]
        # only while "my Lab model" is chosen: the student's own trained weights
        lab_file = gr.DownloadButton("Your Lab model as safetensors", visible=False, size="sm",
                                     min_width=140, elem_id="export-lab-model")
    return prepare, downloads, lab_file


def _notebook_and_link():
    """The notebook cell, the HTML file, the share link and its QR code."""
    gr.Markdown(TOKENS_HELP, elem_classes="tokens-help")
    gr.Markdown("#### In a notebook", elem_classes="caption")
    gr.Markdown(NOTEBOOK, elem_classes="caption-text")
    # A plain read-only box with a copy button: gr.Code's editor failed axe-core (its
    # syntax colours' contrast, and a scrolling region that takes no keyboard focus)
    code = gr.Textbox(label="The same view in a notebook", lines=4, interactive=False,
                      buttons=["copy"], elem_id="export-code")
    with gr.Row():
        make_html = gr.Button("Make this view as one HTML file", size="sm", min_width=140,
                              elem_id="export-make-html")
        html_file = gr.DownloadButton("View as HTML", visible=False, size="sm", min_width=140,
                                      elem_id="export-html")
    gr.Markdown("#### Share link", elem_classes="caption")
    link = gr.Textbox(label="Opens the app with this sentence and these knobs, on the view "
                      "you had open", lines=2, interactive=False, buttons=["copy"],
                      elem_id="export-link")
    qr = gr.Image(label="The link as a QR code: point a phone's camera at it",
                  interactive=False, buttons=["download", "fullscreen"], height=320,
                  alt_text="QR code of the share link",  # also names the button around it
                  elem_id="export-qr")
    return code, make_html, html_file, link, qr


def _updater(serving, with_copy: bool):
    """The live update: the view, the notebook cell, and the files kept only while they
    were made from this sentence and these knobs (``with_copy``: Patch's corrupted copy
    comes last)."""
    # a view that failed offers no file made for an earlier one
    @guarded("take it home", lambda message: [message, None, None, "", None, "", _no_file(),
                                              *_hidden_downloads()])
    def update(request: gr.Request, text, *values):
        values, corrupt = (values[:-1], values[-1]) if with_copy else (values, None)
        *controls, page, view_id, prepared_from, html_from = values
        keep = prepared_from is not None and prepared_from == _made_from(text, controls)
        files = [gr.skip() for _ in range(N_DOWNLOADS)] if keep else _hidden_downloads()
        html = gr.skip() if html_from is not None and html_from == _made_from(text, controls) \
            else _no_file()
        z, t = serving(request, text, controls)
        return [*take_home_view(z, t, text, controls, page, view_id, corrupt),
                notebook_cell(z, text, controls), html, *files]

    return update


def _wire_files(panel: Panel, serving, status, files: tuple, html: tuple) -> None:
    """Prepare (the four files, then the Lab model's) and Make this view as one HTML file.
    ``files``: (prepare, its state, the four downloads, the Lab model's); ``html``: (the
    button, its state, the notebook cell, the download)."""
    prepare, prepared, downloads, lab_file = files
    make_html, html_made, code, html_file = html

    @guarded("the HTML view", lambda message: [message, None, gr.skip(), _no_file()])
    def on_html(request: gr.Request, text, *controls):
        path, cell = notebook_file(*serving(request, text, controls), text, controls)
        if path is None:
            return [EMPTY_STATE, None, cell, _no_file()]
        return [gr.skip(), _made_from(text, controls), cell,
                gr.DownloadButton(value=path, visible=True)]

    make_html.click(on_html, panel.inputs, [status, html_made, code, html_file],
                    api_name=False, show_progress="minimal", concurrency_limit=2)

    @guarded("preparing the files", lambda message: [message, None, *_hidden_downloads()[:-1]])
    def on_prepare(request: gr.Request, text, *controls):
        paths = prepare_files(*serving(request, text, controls), text, controls)
        if paths[0] is None:
            return [EMPTY_STATE, None, *_hidden_downloads()[:-1]]
        return [gr.skip(), _made_from(text, controls),
                *(gr.DownloadButton(value=p, visible=True) for p in paths)]

    prepare.click(on_prepare, panel.inputs, [status, prepared, *downloads],
                  api_name="export_files",
                  show_progress="minimal", concurrency_limit=2)

    # on a failure hidden: the status says why already (on_prepare)
    @guarded("writing the Lab model's file", lambda message: _no_file())
    def on_lab_file(request: gr.Request, text, *controls):
        """The student's own Lab model as a file, when it is the Model (else hidden)."""
        path = lab_model_file(serving(request, text, controls)[0], controls)
        return gr.DownloadButton(value=path, visible=path is not None)

    # after on_prepare (one trigger's listeners run in order); not part of its API
    prepare.click(on_lab_file, panel.inputs, lab_file, api_name=False, show_progress="hidden",
                  concurrency_limit=2)


def _wire_pictures(panel: Panel, pictures) -> None:
    """Each picture button downloads its figure in the browser (Plotly.js), named by the
    layer and head."""
    for button, elem, fmt, name in pictures:
        picture = {"elem": elem, "fmt": fmt, "name": name, "scale": 2 if fmt == "png" else 1,
                   "width": EXPORT_WIDTH}
        button.click(None, [panel.layer, panel.head], None,
                     js=bridge.js("share.picture", picture), api_name=False)
