"""The house's size rules, as a ratchet: no module of ``explorer/`` over ~450 lines and no
function over 80 (the guide's ~60, with room for a long signature and its docstring).

The one exception is a list of texts, not logic: the nine steps of Start here
(``explorer/views/start_here.py`` ``steps``). A function that grows past the bar is split into
named parts, as the tabs' ``build`` functions were (163 lines at most before)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "explorer"
MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 80
TEXTS_AS_DATA = {("views/start_here.py", "steps")}


def _modules():
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_is_over_the_bar():
    long = {str(p.relative_to(PACKAGE)): n for p in _modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, long


def test_no_function_is_over_the_bar():
    long = {}
    for path in _modules():
        rel = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES and (rel, node.name) not in TEXTS_AS_DATA:
                    long[f"{rel}:{node.name}"] = lines
    assert not long, long


def test_the_bar_reads_real_code():
    """The walk finds the package and measures its functions (a wrong path passes both
    tests above with nothing read)."""
    assert len(_modules()) > 100
    steps = ast.parse((PACKAGE / "views/start_here.py").read_text(encoding="utf-8"))
    found = [n for n in ast.walk(steps) if isinstance(n, ast.FunctionDef) and n.name == "steps"]
    assert found and found[0].end_lineno - found[0].lineno + 1 > MAX_FUNCTION_LINES
