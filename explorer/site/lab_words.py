"""The Lab's words and choices for the static page's step 9 (static/site/fig_lab*.js), read
from the app's Lab view (explorer/views/lab.py), never retyped: its status in words, cut
into the pieces the page puts together (the status of a step, "formed", "stopped", "no
induction head"), with ``{name}`` where the page writes a number; the caption of the
heads' patterns; the class table's headings and its "yes, step N". Each piece is found by
asking the view with numbers no reading of its own could make (``_SENTINELS``), and
replaced by its placeholder; an assertion fails the build if the view's words change so
that a number is no longer there.

Shape (``lab_words()``)::

    {"where": str, "choices": {...}, "ready": html, "status": {"1": html, "2": html},
     "formed": html, "stopped": html, "noHead": {"1": html, "2": html}, "caption": str,
     "table": {"headings": [str], "yes": str, "no": str, "empty": str},
     "formedBar": 0.3, "chance": float, "colors": {theme: {...}}}
"""

from __future__ import annotations

import math

import numpy as np

from explorer.figures.themes import get_theme
from explorer.site.markdown import to_html
from explorer.views.lab import (
    FORMED,
    LAB_CHOICES,
    PROBE_TOKENS,
    LabSettings,
    class_table,
    lab_view,
)

# The one line that says where a run trains (the static page has no other place).
WHERE = ("💻 Trains in your browser, on this device: nothing leaves it, and it works "
         "offline. A run is fixed by its settings and seed; a slower device takes longer, "
         "with the same steps.")
EMPTY_TABLE = "No run has finished in this browser yet."
# the layers the step offers (one, then two: step 9's question), the app's steps range
LAYERS = (1, 2)
DEFAULT_STEPS = 1000  # the app's Training steps slider (explorer/ui/lab_tab.py)

# numbers no reading of the view makes, each replaced by its placeholder
_STEP, _SECONDS, _COPY, _FRESH, _FORMED_AT, _STEPS = 98765, 543.2, 987.65, 876.54, 87654, 76543
_SCORE, _PREV = 0.61, 0.37
_SENTINELS = {"L0 H0: 61%": "L{layer} H{head}: {score}",
              "L0 H0: 37%": "L{pLayer} H{pHead}: {pScore}",
              str(_STEP): "{step}", f"{_SECONDS:.1f}": "{seconds}",
              f"{_COPY:.2f}": "{lossCopy}", f"{_FRESH:.2f}": "{lossFresh}",
              str(_FORMED_AT): "{formed}", str(_STEPS): "{steps}"}


def _fill(text: str) -> str:
    for number, name in _SENTINELS.items():
        text = text.replace(number, name)
    assert not any(str(n) in text for n in (_STEP, _FORMED_AT, _STEPS, "61%", "37%")), text
    return text


def _status(layers: int, state: str, formed: bool = False, done_steps: int | None = None):
    """The view's status of one run (Markdown) at a made-up point of it."""
    last = {"step": _STEP, "seconds": _SECONDS, "loss_copy": _COPY, "loss_fresh": _FRESH,
            "induction": [[_SCORE]], "previous_token": [[_PREV]],
            "formed_at_step": _FORMED_AT if formed else None}
    summary = {"formed": formed, "steps": done_steps} if done_steps else None
    view = {"state": state, "last": last, "summary": summary, "events": [],
            "settings": LabSettings(layers=layers), "watchers": 1, "from_cache": False}
    return lab_view(view).status


def _pieces(layers: int) -> dict:
    """The status while it trains, and what "formed", "stopped" and "done, no head" add."""
    running = _status(layers, "running")
    formed = _status(layers, "running", formed=True)
    stopped = _status(layers, "stopped")
    done = _status(layers, "done", done_steps=_STEPS)
    assert formed.endswith(running) and stopped.endswith(running) and done.startswith(running)
    return {"status": running, "formed": formed[: -len(running)],
            "stopped": stopped[: -len(running)], "noHead": done[len(running):]}


def _caption() -> str:
    n = len(PROBE_TOKENS)
    view = {"state": "running", "settings": LabSettings(layers=1, heads=1),
            "last": {"step": _STEP, "seconds": _SECONDS, "loss_copy": _COPY,
                     "loss_fresh": _FRESH, "induction": [[_SCORE]],
                     "previous_token": [[_PREV]], "formed_at_step": None,
                     "probe": np.zeros((1, 1, n, n), dtype=np.uint8).tolist()},
            "events": [], "summary": None, "watchers": 1, "from_cache": False}
    caption = lab_view(view).grid["caption"]
    assert str(_STEP) in caption and "(L0 H0)" in caption, caption
    return caption.replace(str(_STEP), "{step}").replace("(L0 H0)", "(L{layer} H{head})")


def _table() -> dict:
    row = {"layers": 1, "heads": 2, "pos": "learned", "mlp": False, "norm": False, "lr": 3e-3,
           "seed": 0, "steps": 1000, "best_induction": _SCORE, "best_previous_token": _PREV}
    yes = class_table([{**row, "formed": True, "formed_at_step": _FORMED_AT}]).splitlines()
    no = class_table([{**row, "formed": False, "formed_at_step": None}]).splitlines()
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in (yes[0], yes[2], no[2])]
    headings, yes_row, no_row = cells
    column = headings.index("induction head?")
    assert str(_FORMED_AT) in yes_row[column], yes_row
    return {"headings": headings,
            "yes": yes_row[column].strip("*").replace(str(_FORMED_AT), "{step}"),
            "no": no_row[column], "empty": EMPTY_TABLE}


def _colors(theme: str) -> dict:
    th = get_theme(theme)
    return {"paper": th.paper, "font": th.font, "muted": th.muted, "accent": th.accent,
            "grid": th.grid, "heads": list(th.heads)}


def lab_words() -> dict:
    """Everything step 9's figure reads (one entry of the site's configuration)."""
    pieces = {layers: _pieces(layers) for layers in LAYERS}
    low, high = LAB_CHOICES["steps"]
    return {
        "where": WHERE,
        "choices": {"layers": list(LAYERS), "steps": [low, high], "defaultSteps": DEFAULT_STEPS,
                    "seed": [0, 9999]},
        "ready": to_html(lab_view(None).status),
        "status": {str(n): to_html(_fill(p["status"])) for n, p in pieces.items()},
        "formed": to_html(_fill(pieces[2]["formed"])),
        "stopped": to_html(_fill(pieces[2]["stopped"])),
        "noHead": {str(n): to_html(_fill(p["noHead"])) for n, p in pieces.items()},
        "caption": _caption(),
        "table": _table(),
        "formedBar": FORMED,
        "chance": math.log(LabSettings().vocab - 1),
        "colors": {"light": _colors("light"), "dark": _colors("dark")},
    }
