"""One attention view as self-contained HTML: the page's grid of every head, drawn by the
page's own canvas renderer (``static/live_grid.js``), which ``static/notebook.js`` mounts
twice (the grid, and the head opened large), both inlined as their one bundle
(``static/build/notebook.js``, ``npm run build``); the boxes and their CSS come from the
grid's one source, :mod:`explorer.views.grid_markup`.

:class:`AttentionView` holds one grid payload (the format of
:mod:`explorer.views.grid_payload`) and writes it as an HTML fragment for a notebook
(``_repr_html_``), a whole page (``.html``) or a file (``.save``). Everything is inlined:
no CDN, no fonts, no request; each fragment has fresh element ids, its data as JSON and its
own copy of the bundle, which draws every view not drawn yet, so several views on one page
never share state. :func:`attention_payload` makes
the payload of any attention array. Used by :mod:`explorer.notebook` and by the Take it
home view (:mod:`explorer.views.take_home`).
"""

from __future__ import annotations

import functools
import html
import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from explorer.paths import STATIC as STATIC_DIR
from explorer.views.grid_markup import grid_css, grid_markup
from explorer.views.grid_payload import canvas_colors, grid_fields

# Next to explorer/ in the checkout and in the installed package alike (pyproject.toml).
STATIC = STATIC_DIR
FALLBACK = ("Drawing the attention… If this line stays, the output's script did not run: "
            "in Jupyter, trust the notebook (File → Trust) or run the cell again.")
# The view's own frame; the grid's rules come from grid_markup.grid_css, under the view's id.
CSS = """
#{id} {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
  padding: 8px 10px; border-radius: 6px; max-width: 1000px; box-sizing: border-box; }}
#{id} .ae-nb-head {{ margin-top: 10px; max-width: 420px; }}
#{id} .ae-nb-line {{ margin: 0 0 4px; font-size: 14px; overflow-wrap: anywhere; }}
"""


def _box(cls: str, view: str, caption: str = "") -> str:
    return f'<div class="{cls}">{grid_markup(view, caption)}</div>'


BUNDLE = STATIC / "build" / "notebook.js"  # scripts/build_js.mjs writes it


@functools.cache
def _bundle() -> str:
    """static/build/notebook.js, read once."""
    source = BUNDLE.read_text(encoding="utf-8")
    assert "</script" not in source.lower()  # inlined in a <script>: it must not close it
    return source


def script_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: a token "</script>" stays text."""
    return (json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026"))


@dataclass
class AttentionView:
    """One drawing: ``_repr_html_()`` for notebooks, ``.html`` (a whole page), ``.save()``.
    ``attention`` [layers, heads, n, n] and ``tokens`` are what was drawn (after any cut);
    ``notices`` what was cut or odd; ``guesses`` the model's top guesses (show() only)."""

    payload: dict
    theme: str = "auto"
    title: str = "Attention"
    attention: np.ndarray | None = None
    tokens: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    guesses: list[tuple[str, float]] = field(default_factory=list)
    heading: tuple[str, ...] = ()  # plain text lines above the grid (a saved file's: what)

    def fragment(self) -> str:
        """The view as an HTML fragment with a fresh element id (each call, so the same
        view shown twice in a notebook is two independent drawings)."""
        view_id = "ae-nb-" + uuid.uuid4().hex[:12]
        data = {"theme": self.theme, "payload": self.payload,
                "colors": {name: canvas_colors(name) for name in ("light", "dark")}}
        css = CSS.format(id=view_id) + grid_css(f"#{view_id}")
        return (f'<div id="{view_id}" class="ae-nb"><style>{css}</style>'
                f'<script type="application/json" class="ae-nb-data">{script_json(data)}'
                "</script>"
                + "".join(f'<p class="ae-nb-line">{html.escape(line)}</p>'
                          for line in self.heading)
                + _box("ae-nb-grid", "grid", FALLBACK) + _box("ae-nb-head", "head")
                + f"<script>\n{_bundle()}</script></div>")

    def _repr_html_(self) -> str:
        return self.fragment()

    @property
    def html(self) -> str:
        """A whole self-contained HTML page of the view."""
        return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
                '<meta name="viewport" content="width=device-width, initial-scale=1">'
                f"<title>{html.escape(self.title)}</title></head>"
                f'<body style="margin: 12px">{self.fragment()}</body></html>\n')

    def save(self, path: str | Path) -> Path:
        """Write :attr:`html` to ``path`` (UTF-8); returns the path."""
        path = Path(path)
        path.write_text(self.html, encoding="utf-8")
        return path


def attention_payload(patterns: np.ndarray, tokens: list[str], selected: tuple[int, int],
                      caption: str) -> dict:
    """The grid payload of ``patterns`` [L, H, n, n] (weights 0..1) and their ``tokens``,
    head ``selected`` outlined and drawn large; no guesses."""
    return {"ok": True, **grid_fields(patterns, tokens, selected, "light"), "guesses": [],
            "where": "", "caption": caption}
