"""Attention in a notebook: the page's grid of every head, offline, from one call.

* :func:`head_view` draws the attention of any model: an array-like ``[layers, heads,
  query, key]``, or the tuple of per-layer ``[batch, heads, query, key]`` tensors a
  transformers model returns with ``output_attentions=True`` (nothing of transformers is
  imported; :mod:`explorer.views.notebook_input` reads it and says what is wrong with it).
* :func:`show` runs this project's own models with the page's knobs (heads, positional
  encoding, mask, scaling, temperature) and draws the same view with the model's guesses.

Both return an :class:`AttentionView`: Jupyter, JupyterLab, VS Code and Colab show it
through ``_repr_html_()``; ``.html`` is a whole self-contained page and ``.save(path)``
writes it. The drawing is the page's own canvas script, ``static/live_grid.js``, unchanged,
inside the small environment ``static/notebook.js`` gives it (see there): the grid, a click
on a head opens it large below, hovering shows the weight and its two tokens, light and dark.
Everything it needs is in the HTML (no CDN, no fonts, no request), and each view has its own
element ids and its own copy of the scripts, so several views in one notebook keep working.

    from explorer.notebook import head_view, show
    head_view(outputs.attentions, tokenizer.convert_ids_to_tokens(ids))
    show("The cat sat on the mat. The cat", heads=4, pos="rotary", mask="off")
"""

from __future__ import annotations

import base64
import functools
import html
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from explorer.figures.live_grid import mosaic
from explorer.models.device import resolve_device
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, Zoo, load_zoo
from explorer.views.controls import (
    MASK_CHOICES,
    OBJECTIVES,
    POSITIONAL,
    SCALE_CHOICES,
    BadControl,
    parse_controls,
)
from explorer.views.explore import run_request
from explorer.views.grid_payload import canvas_colors, grid_payload, plain_label
from explorer.views.notebook_input import AttentionInputError, read_attention

__all__ = ["AttentionInputError", "AttentionView", "head_view", "show"]

# Next to explorer/ in the checkout and in the installed package alike (pyproject.toml).
STATIC = Path(__file__).resolve().parents[1] / "static"
THEMES = ("auto", "light", "dark")
# show()'s friendly spellings -> the page's choices (explorer.views.controls)
OBJECTIVE_NAMES = {"next": "next word (causal)", "causal": "next word (causal)",
                   "masked": "masked word (bidirectional)",
                   "bidir": "masked word (bidirectional)"}
MASK_NAMES = {None: "as trained", True: "on", False: "off"}
SCALE_NAMES = {"d_head": "1/√d_head", "d_model": "1/√d_model"}
FALLBACK = ("Drawing the attention… If this line stays, the output's script did not run: "
            "in Jupyter, trust the notebook (File → Trust) or run the cell again.")
CSS = """
#{id} {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
  padding: 8px 10px; border-radius: 6px; max-width: 1000px; box-sizing: border-box; }}
#{id} .ae-grid {{ position: relative; }}
#{id} .ae-grid-caption, #{id} .ae-grid-guesses {{ font-size: 13px; min-height: 1.2em; }}
#{id} .ae-grid-guesses {{ font-weight: 600; }}
#{id} canvas {{ display: block; }}
#{id} .ae-grid-tip {{ position: absolute; pointer-events: none; z-index: 5;
  white-space: nowrap; background: rgba(31, 35, 40, 0.92); color: #fff; font-size: 12px;
  padding: 3px 7px; border-radius: 4px; }}
#{id} [hidden] {{ display: none !important; }}
#{id} .ae-nb-head {{ margin-top: 10px; max-width: 420px; }}
"""
BOX = ('<div class="{cls}"><div class="ae-grid" data-view="{view}">'
       '<div class="ae-grid-caption" aria-live="polite">{caption}</div>'
       '<div class="ae-grid-guesses"></div>'
       '<canvas role="img" aria-label="Attention of every head"></canvas>'
       '<div class="ae-grid-tip" hidden></div></div></div>')


@functools.cache
def _scripts() -> tuple[str, str]:
    """(static/live_grid.js, static/notebook.js), read once."""
    grid, shim = ((STATIC / name).read_text(encoding="utf-8")
                  for name in ("live_grid.js", "notebook.js"))
    for source in (grid, shim):  # inlined in a <script>: it must not close it
        assert "</script" not in source.lower()
    return grid, shim


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

    def fragment(self) -> str:
        """The view as an HTML fragment with a fresh element id (each call, so the same
        view shown twice in a notebook is two independent drawings)."""
        view_id = "ae-nb-" + uuid.uuid4().hex[:12]
        grid, shim = _scripts()
        data = {"theme": self.theme, "payload": self.payload,
                "colors": {name: canvas_colors(name) for name in ("light", "dark")}}
        return (f'<div id="{view_id}" class="ae-nb"><style>{CSS.format(id=view_id)}</style>'
                f'<script type="application/json" class="ae-nb-data">{script_json(data)}'
                "</script>"
                + BOX.format(cls="ae-nb-grid", view="grid", caption=html.escape(FALLBACK))
                + BOX.format(cls="ae-nb-head", view="head", caption="")
                + f"<script>(function () {{\nconst ROOT_ID = {json.dumps(view_id)};\n"
                  f"function mountGrid(element, server, window, document) {{\n{grid}\n}}\n"
                  f"{shim}\n}})();</script></div>")

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


def _theme(theme: str) -> str:
    if theme not in THEMES:
        raise ValueError(f"theme={theme!r}: use one of {', '.join(THEMES)}.")
    return theme


def head_view(attention: Any, tokens: Sequence[str], *, layer: int = 0, head: int = 0,
              batch_index: int = 0, theme: str = "auto",
              title: str = "Attention") -> AttentionView:
    """Every head of ``attention`` as the page's grid, head (``layer``, ``head``) large.

    ``attention``: ``[layers, heads, query, key]`` array-like, or a tuple of per-layer
    ``[batch, heads, query, key]`` (or ``[heads, query, key]``) tensors; ``tokens``: one
    string per position. ``batch_index`` picks the sequence of a batch. Bad input raises
    :class:`AttentionInputError` saying why; a cut or odd input is drawn with a notice."""
    patterns, tokens, notices = read_attention(attention, tokens, batch_index)
    n_layers, n_heads, n = patterns.shape[:3]
    if not (0 <= layer < n_layers and 0 <= head < n_heads):
        raise AttentionInputError(f"There is no head L{layer} H{head} here: layers 0-"
                                  f"{n_layers - 1}, heads 0-{n_heads - 1}.")
    caption = f"{n} tokens · {n_layers} layers × {n_heads} heads · click a head to open it, " \
              "hover for the weight"
    payload = {"ok": True, "tokens": [plain_label(t) for t in tokens],
               "layers": n_layers, "heads": n_heads, "n": n,
               "z": base64.b64encode(mosaic(patterns).tobytes()).decode("ascii"),
               "selected": [layer, head], "colors": canvas_colors("light"), "guesses": [],
               "where": "", "caption": " · ⚠️ ".join([caption, *notices])}
    return AttentionView(payload, _theme(theme), title, patterns, tokens, notices)


@functools.cache
def _resources(device: str) -> tuple[Tokenizer, Zoo]:
    """The tokenizer and the zoo, loaded once per process and device (as app.py does)."""
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    return tok, load_zoo(CHECKPOINT_DIR, vocab_size=tok.vocab_size).to(device)


def _choice(name: str, value: Any, spellings: dict, offered: Sequence) -> str:
    value = spellings.get(value, value)
    if value not in offered:
        friendly = [str(s) for s in spellings if s is not None and not isinstance(s, bool)]
        raise ValueError(f"{name}={value!r}: use one of {', '.join(friendly or map(str, offered))}"
                         f" (or the page's: {', '.join(map(str, offered))}).")
    return value


def show(text: str, heads: int = 4, pos: str = "rotary", *, objective: str = "next",
         mask: str | bool | None = None, scaling: str = "d_head", temperature: float = 1.0,
         layer: int = 0, head: int = 0, theme: str = "auto",
         device: str | None = None) -> AttentionView:
    """This project's model for ``heads`` (1, 2, 4, 8) and ``pos`` (none, sinusoidal,
    learned, rotary, alibi) on ``text``, with the page's knobs: ``objective`` "next" or
    "masked" (write ``[mask]`` in the text), ``mask`` None (as trained), True/"on" or
    False/"off", ``scaling`` "d_head", "d_model" or "none", ``temperature`` 0.1-5.
    The view shows every head, head (``layer``, ``head``) large, and the top guesses
    (also in ``.guesses``). ``device``: as the app's ``--device`` (default: auto)."""
    try:
        controls = parse_controls(
            _choice("objective", objective, OBJECTIVE_NAMES, list(OBJECTIVES)), heads,
            _choice("pos", pos, {p: p for p in POSITIONAL}, POSITIONAL),
            _choice("mask", mask, MASK_NAMES, list(MASK_CHOICES)),
            _choice("scaling", scaling, SCALE_NAMES | {"none": "none"}, list(SCALE_CHOICES)),
            temperature, layer, head, "light")
    except BadControl as exc:
        raise ValueError(f"{exc} heads: 1, 2, 4 or 8; temperature: a number.") from None
    tok, zoo = _resources(resolve_device(device))
    run = run_request(zoo, tok, text, controls, detail=False)
    analysed = None if isinstance(run, tuple) else run.result
    payload = grid_payload(zoo, tok, text, controls, analysed=analysed)
    if analysed is None:  # no such model, or no text: the view says so in its caption
        return AttentionView(payload, _theme(theme), "Attention Explorer")
    guesses = [(t, float(p)) for t, p in analysed.predictions[:3]]
    return AttentionView(payload, _theme(theme), f"Attention Explorer: {controls.checkpoint()}",
                         analysed.patterns, list(analysed.tokens), list(analysed.notices),
                         guesses)
