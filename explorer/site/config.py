"""The static page's configuration, read from the views (never retyped): the knobs' labels
and choices (explorer/views/controls.py), the canvas colours (grid_payload.canvas_colors),
the Start here steps (explorer/views/start_here.py, in the static edition's words), the
shuffle test's readings (explorer/analysis/positional_views.equivariance_gap), the
grid's markup and CSS (their one source, explorer/views/grid_markup.py, as the app's Explore
and the notebook use), Inside one head's words and colours (explorer/views/inside.py) and
the Lab's words for step 9 (explorer/views/lab.py's, through lab_words.py)."""

from __future__ import annotations

from types import SimpleNamespace

from explorer.analysis.positional_views import equivariance_gap
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import DEFAULT_NAME, Zoo, checkpoint_name
from explorer.site.lab_words import lab_words
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
from explorer.views.inside import INTRO, SECTIONS, stage_colors
from explorer.views.start_here import DEFAULTS, Step, default_path

# What the static page draws for a step, by the view the step opens (static/site/steps.js):
# Explore's large head over the grid; Ablate's guesses before -> after and ranking; the
# Positional encodings view's shuffle test; Compare's one head as trained and with the
# step's own scaling; Patch's heatmap; the Lab's run, trained in the browser (lab_words.py).
# Through training's slider over the default model's training snapshots, their heads and
# curves (static/site/fig_snapshots.js). "app" (the step's text, and a line with the link to
# the full app) is for a view the page does not have: none at present.
FIGURES = {"explore": "large", "ablate": "ablate", "positional": "shuffle",
           "compare": "compare", "patch": "patch", "training": "snapshots", "lab": "lab"}
# An Explore step that turns a knob away from training (step 4's mask) shows the loss as
# trained and now beside its large head, as the app's guesses legend does.
TRAINED_KNOBS = ("objective", "heads", "pos", "mask", "scaling", "temperature")
# The static edition's one line on a step whose view only the full app has (the link follows).
IN_THE_APP: dict[str, str] = {}
# A figure of the app's that the static page draws under another selector; the others a
# step hides (the shuffle test's and the Patch view's elem ids) are drawn under the app's.
SAME_AS = {# the guesses' legend; at step 4 it carries the losses, which this page lists
           "#predictions": "#head-large .ae-grid-guesses, #losses",
           # Through training's intro: the curves' story across every snapshot
           "#training-intro": "#snapshots-summary"}
# The knobs a step sets (explorer.views.controls.CONTROL_NAMES but the theme: the page's
# follows the system's).
CONTROL_ORDER = ("objective", "heads", "pos", "mask", "scaling", "temperature", "layer",
                 "head")


def _figure(step: Step) -> str:
    figure = FIGURES[step.tab]
    controls = step.controls()
    if figure == "large" and any(controls[k] != DEFAULTS[k] for k in TRAINED_KNOBS):
        return "losses"
    return figure


def _step(step: Step) -> dict:
    controls = step.controls()
    return {
        "title": step.title, "tab": step.tab, "figure": _figure(step),
        "look": to_html(step.look), "question": to_html(step.question),
        "answer": to_html(step.answer),
        "elsewhere": IN_THE_APP.get(step.tab, ""),
        "text": controls.get("text", ""),
        "controls": {k: controls[k] for k in CONTROL_ORDER},
        # the view's own controls: Compare's scaling, Patch's corrupted sentence, the Lab's
        # layers
        "own": {k: v for k, v in step.own.items() if k in ("scaling", "corrupt", "layers")},
        # what gives the answer away, covered until Reveal (CSS selectors of our own markup)
        "hidden": [SAME_AS.get(s, s) for s in step.hidden],
    }


# a difference no reading of equivariance_gap's rounds to (found and replaced by {diff})
_PROBE = 987.654


def shuffle_words() -> dict:
    """equivariance_gap's three readings of the shuffle test, for the page to fill in: one
    word ("none"), the same attention ("same", under ``bar``), changed ("changed", with
    {diff} where the largest difference goes, 3 decimals)."""
    def said(perm, diff):
        return equivariance_gap(SimpleNamespace(perm=perm, max_diff_all=diff))

    bar, same, changed = 1e-4, said([1, 0], 0.0), said([1, 0], _PROBE)
    # the bar is equivariance_gap's own: just under it the same reading, at it not
    assert said([1, 0], bar * 0.999) == same != said([1, 0], bar)
    assert f"{_PROBE:.3f}" in changed
    return {"none": said(None, 0.0), "same": same, "bar": bar,
            "changed": changed.replace(f"{_PROBE:.3f}", "{diff}")}


def lesson_models(steps: list[Step], models: list[str]) -> list[str]:
    """The models the nine steps' knobs name, among ``models`` (those the site has), in the
    order first used: what the service worker saves for offline use (build.py)."""
    names = []
    for step in steps:
        c = step.controls()
        names.append(checkpoint_name(OBJECTIVES[c["objective"]], c["heads"], c["pos"]))
    return [n for n in dict.fromkeys([DEFAULT_NAME, *names]) if n in models]


def site_config(zoo: Zoo, tok: Tokenizer, models: list[str], app_url: str,
                hashes: dict[str, str], snapshots: list[dict] | None = None) -> dict:
    """Everything site.js reads (one JSON object, inlined into index.html). ``hashes``: file
    name under models/ -> sha256, for the engine to check each file against (build.py);
    ``snapshots``: the default model's training snapshots copied, [{step, tokens,
    train_loss, file}] by step (under models/snapshots/<model>/)."""
    steps = default_path(zoo, tok, edition="static")
    examples = list(dict.fromkeys(s.controls().get("text", "") for s in steps))
    # what the caption says for a combination of knobs that has no trained model
    offered = [checkpoint_name(o, h, p) for o in OBJECTIVES.values() for h in HEADS
               for p in POSITIONAL]
    missing = {name: "⚠️ " + plain_status(zoo.why_missing(name))
               for name in offered if name not in models}
    return {
        "defaultModel": DEFAULT_NAME, "models": models, "appUrl": app_url, "hashes": hashes,
        "lessonModels": lesson_models(steps, models),
        "objectives": OBJECTIVES, "heads": list(HEADS), "positional": list(POSITIONAL),
        "mask": list(MASK_CHOICES), "scaling": list(SCALE_CHOICES),
        "temperature": list(TEMPERATURE_RANGE),
        "defaults": {k: DEFAULTS[k] for k in CONTROL_ORDER},
        "colors": {"light": canvas_colors("light"), "dark": canvas_colors("dark")},
        "examples": [e for e in examples if e],
        "steps": [_step(s) for s in steps],
        "shuffleWords": shuffle_words(),
        "gridHtml": {view: grid_markup(view) for view in ("explore", "head")},
        # the grid's CSS where it is drawn: every head, the head large, a step's panels
        "gridCss": "\n".join(grid_css(f"#{box}") for box in ("grid", "head-large",
                                                              "step-figure")),
        "missing": missing,
        "engineTexts": engine_texts(),  # static/engine/payload.js's words, set, not fetched
        "inside": inside_words(),
        # step 7's training snapshots (static/site/fig_snapshots.js)
        "snapshots": {"model": DEFAULT_NAME, "list": list(snapshots or [])},
        "lab": lab_words(),  # step 9's run, trained in the browser (static/site/fig_lab.js)
    }


def inside_words() -> dict:
    """Inside one head's words and colours (static/site/inside.js), the app's view's
    (explorer/views/inside.py): its introduction as safe HTML, the headings of its groups
    of stages with their keys, and the heatmaps' colours in each theme."""
    return {"intro": to_html(INTRO),
            "sections": [{"heading": h, "keys": list(keys)} for h, keys in SECTIONS],
            "colors": {"light": stage_colors("light"), "dark": stage_colors("dark")}}
