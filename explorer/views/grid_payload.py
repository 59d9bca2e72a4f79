"""The Explore grid as plain data for the page's own canvas (``static/live_grid.js``).

Why not a Plotly figure on every keystroke: measured in Chromium on the 2-core box, Gradio's
plot component spent ~90 ms per update in ``Plotly.react`` plus a resize, and each update
went through Gradio's queue (join, server-sent events, the page's component tree); together
~225 ms from key to grid. This payload is what a canvas needs and nothing more, fetched by
the page through ``gr.HTML(server_functions=...)``: one plain POST answered with JSON.

:func:`grid_payload` returns::

    {"ok": True, "text": str, "controls": {knob name: value as parsed} (Controls.named()),
     "tokens": [T labels, every character visible, NOT escaped: drawn as canvas text],
     "layers": L, "heads": H, "n": T,
     "z": base64 of uint8 [L*T, H*T] whole percent (explorer.figures.live_grid.mosaic),
     "selected": [layer, head], "colors": {...},
     "guesses": [[label, probability], ...] (top 3 for the next word / the [mask]),
     "caption": plain text}

(the browser's engine, static/engine/payload.js, adds ``"off": [[layer, head], ...]`` when
heads are switched off: static/live_grid.js draws them dimmed and marked "off"; this
server's payload never switches heads off)

or ``{"ok": False, "text": ..., "controls": ..., "caption": message}``. The request it answers
is :class:`Keystroke`, read once from the page's JSON by :func:`read_request`. Labels and messages
are plain text: the page puts them on a canvas or into ``textContent``, never into HTML,
so nothing here needs escaping (:mod:`explorer.figures.labels` escapes for Plotly instead).
"""

from __future__ import annotations

import base64
import logging
import re
from dataclasses import dataclass
from typing import Any

from explorer.analysis.run import MAX_CHARS, Analysis, analyse_batch, plural
from explorer.figures.attention import GRID_LABEL_CHARS
from explorer.figures.labels import ELLIPSIS, display_token
from explorer.figures.live_grid import mosaic
from explorer.figures.themes import COLORSCALE, get_theme
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import Zoo
from explorer.views.controls import BadControl, Controls, read_controls
from explorer.views.explore import run_request

log = logging.getLogger("attention_explorer")
GUESSES = 3
FAILED = "Something went wrong with this request. Please try again."
# The caption's joints (also the browser's, through explorer/views/engine_texts.py)
CAPTION_EXPERIMENT, CAPTION_JOIN, CAPTION_NOTICE = " · 🧪 experiment: ", "; ", " · ⚠️ "


def plain_label(token: str, max_chars: int = GRID_LABEL_CHARS) -> str:
    """A token as the student sees it (spaces as ␣, invisible characters shown), cut with
    … past ``max_chars``. Plain text: for a canvas or ``textContent`` only."""
    shown = display_token(token)
    return shown if len(shown) <= max_chars else shown[: max_chars - 1] + ELLIPSIS


def plain_status(markdown: str) -> str:
    """A status message of :mod:`explorer.views.explore` (Markdown we wrote, no user text) as one
    plain line: emphasis and code marks dropped, paragraphs joined."""
    return re.sub(r"\s*\n+\s*", " ", re.sub(r"[*`]", "", markdown)).strip()


@dataclass(frozen=True)
class Keystroke:
    """One grid request, read: the sentence (cut to MAX_CHARS + 1) and its knobs."""

    text: str
    controls: Controls

    def refused(self, message: str) -> dict:
        """The answer that says ``message`` instead of a grid (the request echoed back)."""
        return {"ok": False, "text": self.text, "controls": self.controls.named(),
                "caption": f"⚠️ {message}"}


def read_request(request: Any) -> Keystroke:
    """``{"text": str, "controls": {knob name: value}}`` as the page sends it
    (static/live_grid.js ``AttentionExplorer.grid.request``) -> :class:`Keystroke`, the one
    read of it. Anything else (a hand-made request, the old nine values by position) raises
    :class:`BadControl` with a message that echoes nothing back. Over-long text is cut
    later with a notice, as on every path."""
    if not isinstance(request, dict) or set(request) != {"text", "controls"} \
            or not isinstance(request["text"], str):
        raise BadControl("The request could not be read.")
    # a cut well past MAX_CHARS before any work; analyse() cuts at MAX_CHARS with a notice
    return Keystroke(request["text"][: MAX_CHARS + 1], read_controls(request["controls"]))


def canvas_colors(theme: str) -> dict:
    """The colours the canvas draws with in the ``"light"`` or ``"dark"`` theme (also the
    notebook's, explorer/views/notebook_view.py, which sends both and lets the page pick)."""
    th = get_theme(theme)
    return {"paper": th.paper, "font": th.font, "muted": th.muted, "accent": th.accent,
            "scale": [list(s) for s in COLORSCALE]}


def grid_fields(patterns, tokens: list[str], selected: tuple[int, int], theme: str) -> dict:
    """What the canvas draws of ``patterns`` [L, H, n, n] (weights 0..1) and their
    ``tokens``, head ``selected`` outlined (the page's keystroke and the notebook's view)."""
    n_layers, n_heads, n = patterns.shape[:3]
    return {"tokens": [plain_label(t) for t in tokens],
            "layers": n_layers, "heads": n_heads, "n": n,
            "z": base64.b64encode(mosaic(patterns).tobytes()).decode("ascii"),
            "selected": list(selected), "colors": canvas_colors(theme)}


def grid_payload(zoo: Zoo, tok: Tokenizer, text: str, controls: Controls,
                 analysed: Analysis | None = None) -> dict:
    """Everything the canvas draws for one request (see the module docstring).
    ``analysed``: its patterns and guesses, already computed with others (grid_payloads)."""
    base = {"text": text, "controls": controls.named()}
    run = run_request(zoo, tok, text, controls, detail=False,  # patterns + guesses only
                      analysed=analysed)
    if isinstance(run, tuple):  # no model, or nothing typed: the message instead of a grid
        return {"ok": False, **base, "caption": plain_status(run[0])}
    r = run.result
    n = len(r.tokens)
    caption = plural(n, "token")
    if r.interventions:
        caption += CAPTION_EXPERIMENT + CAPTION_JOIN.join(r.interventions)
    for notice in r.notices:
        caption += CAPTION_NOTICE + plain_status(notice)
    return {
        "ok": True, **base,
        **grid_fields(r.patterns, r.tokens, (run.layer, run.head), run.theme),
        "guesses": [[plain_label(t, 24), round(float(p), 4)]
                    for t, p in r.predictions[:GUESSES]],
        "where": "next word" if run.causal else "[mask]",
        "caption": caption,
    }


def grid_payloads(zoo: Zoo, tok: Tokenizer, requests: list[Keystroke | Any]) -> list[dict]:
    """:func:`safe_grid_payload` of each request (a :class:`Keystroke` already read, or the
    page's JSON), the requests that share a model and its knobs run through the model
    together (:func:`~explorer.analysis.run.analyse_batch`): the keystrokes of a class
    typing at once. Never raises."""
    out: list[dict | None] = [None] * len(requests)
    groups: dict[tuple, list[tuple[int, str, Controls]]] = {}
    for i, request in enumerate(requests):
        try:
            key = request if isinstance(request, Keystroke) else read_request(request)
            text, controls = key.text, key.controls
            name = controls.checkpoint()
            if zoo.get(name) is None or not text.strip():  # a message, no model to run
                out[i] = grid_payload(zoo, tok, text, controls)
            else:
                groups.setdefault((name, controls.settings()), []).append((i, text, controls))
        except BadControl as exc:
            out[i] = {"ok": False, "caption": f"⚠️ {exc}"}
    for (name, settings), items in groups.items():
        try:
            results = analyse_batch(zoo.get(name), tok, [text for _, text, _ in items],
                                    settings)
            for (i, text, controls), result in zip(items, results, strict=True):
                out[i] = grid_payload(zoo, tok, text, controls, analysed=result)
        except Exception:  # never show a student a stack trace
            log.exception("grid payloads failed")
            for i, _, _ in items:
                out[i] = {"ok": False, "caption": f"⚠️ {FAILED}"}
    return out  # type: ignore[return-value]


def safe_grid_payload(zoo: Zoo, tok: Tokenizer, request: Any) -> dict:
    """:func:`grid_payload` of a raw request from the page; never raises: a bad request
    gets its message, anything unexpected a generic one (the details go to the log)."""
    try:
        key = read_request(request)
        return grid_payload(zoo, tok, key.text, key.controls)
    except BadControl as exc:
        return {"ok": False, "caption": f"⚠️ {exc}"}
    except Exception:  # never show a student a stack trace
        log.exception("grid payload failed")
        return {"ok": False, "caption": f"⚠️ {FAILED}"}
