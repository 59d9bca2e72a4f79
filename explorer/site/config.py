"""The static page's configuration, read from the views (never retyped): the knobs' labels
and choices (explorer/views/controls.py), the canvas colours (grid_payload.canvas_colors),
the Start here steps (explorer/views/start_here.py) and the grid's markup and CSS (their one
source, explorer/views/grid_markup.py, as the app's Explore and the notebook use)."""

from __future__ import annotations

from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import DEFAULT_NAME, Zoo, checkpoint_name
from explorer.site.markdown import to_html
from explorer.views.controls import (
    HEADS,
    MASK_CHOICES,
    OBJECTIVES,
    POSITIONAL,
    SCALE_CHOICES,
    TEMPERATURE_RANGE,
)
from explorer.views.engine_texts import engine_texts
from explorer.views.grid_markup import grid_css, grid_markup
from explorer.views.grid_payload import canvas_colors, plain_status
from explorer.views.start_here import DEFAULTS, Step, default_path

# The views a static page can draw with the browser's engine: Explore's grid and large head,
# and Ablate's question (the guesses with heads switched off, ticked under the knobs).
LIVE_TABS = ("explore", "ablate")
# The knobs a step sets (explorer.views.controls.CONTROL_NAMES but the theme: the page's
# follows the system's).
CONTROL_ORDER = ("objective", "heads", "pos", "mask", "scaling", "temperature", "layer",
                 "head")


def _step(step: Step) -> dict:
    live = step.tab in LIVE_TABS
    controls = step.controls()
    return {
        "title": step.title, "tab": step.tab, "live": live,
        "look": to_html(step.look), "question": to_html(step.question),
        "answer": to_html(step.answer),
        "text": controls.get("text", ""),
        "controls": {k: controls[k] for k in CONTROL_ORDER},
        # what gives the answer away in a live step: the guesses (step 2)
        "hideGuesses": any("guesses" in s or "predictions" in s for s in step.hidden),
    }


def site_config(zoo: Zoo, tok: Tokenizer, models: list[str], app_url: str,
                hashes: dict[str, str]) -> dict:
    """Everything site.js reads (one JSON object, inlined into index.html). ``hashes``: file
    name under models/ -> sha256, for the engine to check each file against (build.py)."""
    steps = default_path(zoo, tok)
    examples = list(dict.fromkeys(s.controls().get("text", "") for s in steps))
    # what the caption says for a combination of knobs that has no trained model
    offered = [checkpoint_name(o, h, p) for o in OBJECTIVES.values() for h in HEADS
               for p in POSITIONAL]
    missing = {name: "⚠️ " + plain_status(zoo.why_missing(name))
               for name in offered if name not in models}
    return {
        "defaultModel": DEFAULT_NAME, "models": models, "appUrl": app_url, "hashes": hashes,
        "objectives": OBJECTIVES, "heads": list(HEADS), "positional": list(POSITIONAL),
        "mask": list(MASK_CHOICES), "scaling": list(SCALE_CHOICES),
        "temperature": list(TEMPERATURE_RANGE),
        "defaults": {k: DEFAULTS[k] for k in CONTROL_ORDER},
        "colors": {"light": canvas_colors("light"), "dark": canvas_colors("dark")},
        "examples": [e for e in examples if e],
        "steps": [_step(s) for s in steps],
        "gridHtml": {view: grid_markup(view) for view in ("explore", "head")},
        "gridCss": grid_css("#grid") + "\n" + grid_css("#head-large"),
        "missing": missing,
        "engineTexts": engine_texts(),  # static/engine/payload.js's words, set, not fetched
    }
