"""Take it home's notebook offer (issue 34): the cell that draws the view again with
explorer.notebook.show, and the view as one self-contained HTML file; running the cell gives
the drawing the file holds."""

import re

import numpy as np

from explorer.views.controls import parse_controls
from explorer.views.take_home import notebook_cell, notebook_code, notebook_file

TEXT = 'The cat sat on the mat. The cat said "hi"'
DEFAULT = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0, "light"]
EXPERIMENT = ["masked word (bidirectional)", 4, "rotary", "off", "1/√d_model", 2.5, 9, 1,
              "dark"]


def embedded_z(html: str) -> str:
    return re.search(r'"z": "([^"]+)"', html).group(1)


def test_the_cell_names_only_the_knobs_that_differ_from_shows_defaults():
    assert notebook_code(TEXT, parse_controls(*DEFAULT), 0, 0) == (
        "from explorer.notebook import show\n\n"
        "show('The cat sat on the mat. The cat said \"hi\"', heads=4, pos='rotary', "
        "layer=0, head=0)\n")
    cell = notebook_code("x", parse_controls(*EXPERIMENT), 3, 1)
    assert cell.endswith("show('x', heads=4, pos='rotary', objective=\"masked\", mask='off', "
                         "scaling='d_model', temperature=2.5, layer=3, head=1)\n")


def test_the_cell_draws_what_the_html_file_holds(resources):
    tok, zoo = resources
    controls = ["next word (causal)", 2, "rotary", "off", "1/√d_head", 1.0, 1, 1, "light"]
    path, cell = notebook_file(zoo, tok, TEXT, controls)
    assert cell == notebook_cell(zoo, TEXT, controls)
    html = open(path, encoding="utf-8").read()
    assert html.startswith("<!DOCTYPE html>") and "// static/live_grid.js" in html
    assert not re.search(r"https?://|\bsrc=|\bhref=", html)
    scope: dict = {}
    exec(cell.replace("show(", "view = show(", 1), scope)  # the cell, as a notebook runs it
    view = scope["view"]
    assert embedded_z(view.html) == embedded_z(html)
    assert view.payload["selected"] == [1, 1] and '"selected": [1, 1]' in html
    assert not np.allclose(np.triu(view.attention, 1), 0)  # the mask is off in both


def test_nothing_to_draw_gives_no_file_but_still_the_cell(resources):
    tok, zoo = resources
    path, cell = notebook_file(zoo, tok, "   ", DEFAULT)
    assert path is None and "show('   '" in cell
    assert notebook_cell(zoo, TEXT, ["a knob the page never offers", *DEFAULT[1:]]) == ""


def test_the_saved_page_names_its_model_knobs_and_sentence(resources):
    """Opened weeks later from a download folder, the file says what it shows (issue 42
    item 13): the model, the experiment, the sentence, escaped as text."""
    tok, zoo = resources
    controls = ["next word (causal)", 2, "rotary", "off", "1/√d_head", 1.0, 1, 1, "light"]
    path, _ = notebook_file(zoo, tok, "The cat <b>sat</b> on the mat.", controls)
    lines = re.findall(r'<p class="ae-nb-line">(.*?)</p>', open(path, encoding="utf-8").read())
    assert len(lines) == 2
    assert "causal-h2-rotary" in lines[0] and "causal mask off" in lines[0]
    assert lines[1] == "Sentence: “The cat &lt;b&gt;sat&lt;/b&gt; on the mat.”"
    long_path, _ = notebook_file(zoo, tok, "word " * 200, DEFAULT)
    long_line = re.findall(r'<p class="ae-nb-line">(.*?)</p>',
                           open(long_path, encoding="utf-8").read())[1]
    assert len(long_line) < 320 and long_line.endswith("…”") and "as trained" in \
        open(long_path, encoding="utf-8").read()
