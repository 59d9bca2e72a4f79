"""examples/attention_in_a_notebook.ipynb runs top to bottom in a real Jupyter kernel
(nbclient, ipykernel; no network: the kernel talks to this process over localhost) from
examples/, as a student who opened it there would, and each of its three views is drawn
as self-contained HTML: on an array, on a transformers-style tuple, and show() with the
causal mask off."""

import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="pip install -r requirements-dev.txt")
nbclient = pytest.importorskip("nbclient", reason="pip install -r requirements-dev.txt")
pytest.importorskip("ipykernel", reason="pip install -r requirements-dev.txt")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def html_outputs(cell) -> list[str]:
    return [out["data"]["text/html"] for out in cell.get("outputs", [])
            if "text/html" in out.get("data", {})]


def test_the_example_notebook_runs_and_draws_three_views():
    nb = nbformat.read(EXAMPLES / "attention_in_a_notebook.ipynb", as_version=4)
    client = nbclient.NotebookClient(nb, timeout=180, kernel_name="python3",
                                     resources={"metadata": {"path": str(EXAMPLES)}})
    client.execute()  # raises CellExecutionError, with the traceback, if a cell fails
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    views = [html for cell in code for html in html_outputs(cell)]
    assert len(views) == 3
    for html in views:
        assert re.search(r'<div id="ae-nb-[0-9a-f]+" class="ae-nb">', html)
        # the renderer and its mount, inlined as their bundle (static/build/notebook.js)
        assert "// static/live_grid.js" in html and "// static/notebook.js" in html
        assert not re.search(r"https?://|\bsrc=|\bhref=", html)  # nothing to fetch
    ids = {re.search(r'id="(ae-nb-[0-9a-f]+)"', html).group(1) for html in views}
    assert len(ids) == 3  # each view its own elements
    assert '"layers": 1, "heads": 3' in views[0]
    assert '"layers": 3, "heads": 4' in views[1] and '"selected": [2, 3]' in views[1]
    assert "causal mask off" in views[2] and '"guesses": [["' in views[2]
    printed = "".join(out.get("text", "") for cell in code for out in cell.outputs)
    assert "(1, 3, 7, 7)" in printed and "3 (2, 4, 7, 7)" in printed
