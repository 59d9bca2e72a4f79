"""The sentence box and the knobs, shared by every view, and the one live wiring of the page.

Every view reads the same controls, so flipping a knob changes what every view shows;
only the view that is open recomputes, the others when they are opened (and only if
something they watch changed meanwhile).

How a change reaches the open view is the job of one client-side loop,
``static/live.js`` (read its header first): Gradio's ``.change`` of the sentence box and
of every knob has ONE js-only listener that hands all their values to the loop
(:data:`CONTROLS_JS`; ``.change`` fires for typing, paste, cut, Backspace, Delete,
clearing, examples and share links alike); opening a tab tells the loop which view is
open. The loop runs the open view's update, one at a time, collapsing changes made
meanwhile into one more (always last), and its slower figures once typing pauses. Gradio
runs a trigger's listeners one after another, so one server listener per view on the box
would run every view's update per keystroke; here a keystroke costs one server round, for
the open view only. Each view's update is an event of its own hidden ``gr.HTML`` anchor
(:func:`wire_live`), which the loop starts with ``trigger``; the anchor's new value says
the event has finished. Python writes no logic in js strings: the loop's configuration is
JSON data (:func:`live_config`), the listeners only call the loop's named interface,
through the bridge (:mod:`explorer.ui.bridge`).
"""

from __future__ import annotations

import functools
import html
import json
import time
from dataclasses import dataclass, field

import gradio as gr
from gradio.context import get_blocks_context

from explorer.ui import bridge
from explorer.views.controls import (
    BOX_CHARS,
    CONTROL_NAMES,
    HEADS,
    LAB_OBJECTIVE,
    MASK_CHOICES,
    OBJECTIVES,
    POSITIONAL,
    SCALE_CHOICES,
    TEMPERATURE_RANGE,
)
from explorer.views.share import HEAD_MAX
from explorer.views.start_here import REPEAT

EXAMPLES = [
    "Once there was a girl named Mia. Mia had a red ball. One day Mia gave the ball to",
    # every head the default model is named for at once: the previous-word diagonal, the
    # copying stripe on the repeat, and the guess continuing the list (explorer.views.start_here)
    REPEAT,
    "The dog that the boys liked was happy. The dogs that the boy liked",
    "The animal didn't cross the street because it was too tired.",
    "The animal didn't cross the street because it was too wide.",
    "The animal didn't cross the street because [mask] was too tired.",
    "Lily and Ben went to the park. They played on the swings and ate ice cream. "
    "When the sun went down, Lily said to Ben that it was time to go home, and",
]



HELP = {
    "objective": "Next word: a decoder trained to predict the next token (GPT-style). "
                 "Masked word: an encoder trained to fill in a [mask] (BERT-style).",
    "heads": "Each choice is a separate model trained with that many heads (same size).",
    "pos": "How the model knows word order. Each is a separate trained model.",
    "mask": "Causal mask: a word may only look at earlier words. 'Off' lets it see the future.",
    "scaling": "Scores are divided by √d_head so the softmax doesn't saturate as d grows.",
    "temperature": "Divides the scores: >1 flattens attention, <1 sharpens it.",
}


@dataclass
class Panel:
    text: gr.Textbox
    objective: gr.Radio
    heads: gr.Radio
    pos: gr.Radio
    mask: gr.Radio
    scaling: gr.Radio
    temperature: gr.Slider
    layer: gr.Slider
    head: gr.Slider
    theme: gr.Radio
    live: list[LiveView] = field(default_factory=list)  # filled by wire_live
    # Start here's step bars, one per view a step opens (explorer/ui/step_bar.py declare): tab id ->
    # bar; and wiring that needs every view built (the bars'), run by finish_live in order
    step_bars: dict = field(default_factory=dict)
    after_tabs: list = field(default_factory=list)
    # a view's own inputs that a share link carries, {query parameter: component}
    # (Patch's corrupted copy: explorer/views/share.py PARAMS)
    link_fields: dict = field(default_factory=dict)

    @property
    def inputs(self) -> list:
        """The values every view is a function of, in ``parse_controls`` order after text."""
        return [self.text, self.objective, self.heads, self.pos, self.mask, self.scaling,
                self.temperature, self.layer, self.head, self.theme]

    @property
    def named(self) -> dict[str, gr.components.Component]:
        """``inputs`` by name (the names ``wire_live(watch=...)`` takes)."""
        return dict(zip(KNOB_NAMES, self.inputs, strict=True))


# The sentence box, then the knobs as views.controls names them (Controls' fields): the
# live loop's names, so a keystroke's request carries them by name (static/live_grid.js).
KNOB_NAMES = ("text", *CONTROL_NAMES)


@dataclass
class LiveView:
    """One view's live update, recorded by :func:`wire_live`, wired by :func:`finish_live`."""

    tab_id: str
    event: dict | None  # kwargs of the update's event (fn, inputs, outputs, ...); None: the
    # view's own page script fetches its data (Explore's canvas)
    settled: dict | None  # kwargs of the event that follows once typing pauses, or None
    extra: tuple  # the view's own triggers (e.g. its radio's .change)
    watch: tuple[str, ...] | None  # panel controls it depends on (None: all)
    anchor: gr.HTML  # hidden; its events are the view's, its value says one has finished
    note: str | None = None  # the knob note while it is open (None: which knobs apply)


def model_knob(*args, **kwargs) -> gr.Radio:
    """The Model knob. "my Lab model" is one of its choices only in a session that opened a
    Lab model (explorer/ui/lab_tab.py adds it to that session's copy of the knob). When that session
    expires (2 hours unused) while its page stays open, the page still sends "my Lab model",
    and a plain Radio refused it with Gradio's own "not in the list of choices" error; this
    one lets that value through, and the views answer it in words (a session with no Lab
    model open is told how to open one: explorer/views/lab_models.NOT_OPEN). Other values
    are checked as before. (Set on the instance: a subclass of a Gradio component makes
    Gradio write a .pyi stub next to this file at import.)"""
    radio = gr.Radio(*args, **kwargs)
    check = radio.preprocess

    def preprocess(payload):
        return payload if payload == LAB_OBJECTIVE else check(payload)

    radio.preprocess = preprocess
    return radio


def build_sentence() -> gr.Textbox:
    text = gr.Textbox(label="Your sentence", lines=2, max_length=BOX_CHARS, value=EXAMPLES[0],
                      elem_id="sentence", info="Updates as you type.")
    with gr.Accordion("Examples that show something", open=False, elem_id="examples"):
        # an example changes the box's value: the live loop follows it (.change)
        gr.Examples(EXAMPLES, inputs=text, label=None)
    # "Updating …" while the open view's update is on its way (static/live.js writes it).
    gr.HTML('<div id="ae-live-status" class="ae-live-status" role="status" aria-live="polite" '
            'aria-busy="false"></div>', elem_id="live-status", js_on_load=None, padding=False)
    return text


DEFAULT_HEADS = 4


def head_slider(n_heads, head=0, set_value: bool = False) -> gr.Slider:
    """The Head slider for a model with ``n_heads`` heads per layer: 0 .. n_heads-1. Its
    value is sent when ``set_value`` or when ``head`` does not exist there (then the last
    head); otherwise not, so that a value set at the same moment (a share link sets both)
    is not overwritten by the one this event read. With one head there is nothing to pick
    (a slider needs two stops, so it shows 0-1, fixed)."""
    n = n_heads if n_heads in HEADS else DEFAULT_HEADS
    try:
        h = int(head)
    except (TypeError, ValueError, OverflowError):
        h = 0
    if 0 <= h < n and not set_value:
        return gr.Slider(maximum=max(n - 1, 1), interactive=n > 1)
    return gr.Slider(maximum=max(n - 1, 1), value=min(max(h, 0), n - 1), interactive=n > 1)


def build_knobs(text: gr.Textbox, first: tuple[int, int] = (0, 0)) -> Panel:
    """The knobs column; ``text`` is the sentence box they share with every view, ``first``
    the (layer, head) drawn large when the page opens."""
    with gr.Accordion("Knobs", open=True):
        # Which knobs apply to the open view (static/live.js writes it; empty: all do).
        gr.HTML('<div class="ae-knob-note" aria-live="polite" hidden></div>',
                elem_id="knob-note", js_on_load=None, padding=False)
        objective = model_knob(list(OBJECTIVES), value=next(iter(OBJECTIVES)), label="Model",
                               info=HELP["objective"], elem_id="objective")
        heads = gr.Radio(list(HEADS), value=DEFAULT_HEADS, label="Heads per layer",
                         info=HELP["heads"], elem_id="heads")
        pos = gr.Radio(list(POSITIONAL), value="rotary", label="Positional encoding",
                       info=HELP["pos"], elem_id="pos")
        mask = gr.Radio(list(MASK_CHOICES), value="as trained", label="Causal mask",
                        info=HELP["mask"], elem_id="mask")
        scaling = gr.Radio(list(SCALE_CHOICES), value="1/√d_head", label="Scaling",
                           info=HELP["scaling"], elem_id="scaling")
        temperature = gr.Slider(*TEMPERATURE_RANGE, value=1.0, step=0.05, label="Temperature",
                                info=HELP["temperature"], elem_id="temperature")
        with gr.Row():
            layer = gr.Slider(0, 3, value=first[0], step=1, label="Layer", elem_id="layer")
            # Declared for the largest model, which is what the server checks an API
            # call's head against; the page narrows it to the chosen model's heads.
            head = gr.Slider(0, HEAD_MAX, value=first[1], step=1, label="Head", elem_id="head")
        theme = gr.Radio(["light", "dark"], value="light", label="Figure colours",
                         elem_id="theme")
    # The Head slider offers the heads the chosen model has (0-1 for two heads), so no head
    # that does not exist can be picked; on page load too (take_home_tab.wire_share_link).
    # Not queued: it computes nothing.
    heads.change(head_slider, [heads, head], head, queue=False, show_progress="hidden",
                 api_name=False)
    return Panel(text, objective, heads, pos, mask, scaling, temperature, layer, head, theme)


LIVE_DEFAULTS = dict(show_progress="hidden", trigger_mode="always_last", api_name=False)
# How long nothing new must happen before a view's slower figures follow, by what changed
# last: typing comes in bursts (a student types a key every 150-400 ms), a slider drag
# too; a radio button or opening a tab is one event (ms). Read by static/live.js.
SETTLE_MS = {"text": 500, "slider": 150, "other": 0}
# Which page elements each shared control is (made inert where a view does not watch it).
KNOB_ELEMENTS = {"text": ["sentence", "examples"], **{n: [n] for n in KNOB_NAMES[1:]}}
KNOB_LABELS = {"text": "Your sentence", "objective": "Model", "heads": "Heads per layer",
               "pos": "Positional encoding", "mask": "Causal mask", "scaling": "Scaling",
               "temperature": "Temperature", "layer": "Layer", "head": "Head",
               "theme": "Figure colours"}
# The calls into the live loop (static/live.js) that Gradio's listeners make, through the
# bridge (explorer/ui/bridge.py): every shared value, in KNOB_NAMES' order.
CONTROLS_JS = bridge.js("live.controls")
START_JS = bridge.js("live.start")
# A view's hidden anchor (wire_live): tells the loop how to start the view's events.
ANCHOR_JS = bridge.on_load("live.anchor", events=("update", "settle"))


def open_js(tab_id: str) -> str:
    """js of a tab's select event: tell the live loop this view is open."""
    return bridge.js("live.open", tab_id)


def refresh_js(tab_id: str) -> str:
    """js for a view's own controls (and anything else that changes only that view): update
    the view ``tab_id`` if it is open."""
    return bridge.js("live.refresh", tab_id)


def wire_live(panel: Panel, tab_id: str, live: dict | None, *, settled: dict | None = None,
              extra=(), watch: tuple[str, ...] | None = None, note: str | None = None) -> None:
    """Make ``live`` (event kwargs: ``fn``, ``inputs``, ``outputs``, optionally
    ``preprocess``/``postprocess``...) the update of the view with id ``tab_id``; call it
    inside that view's ``gr.Tab``. The live loop (``static/live.js``) runs it when the view
    opens and, while it is open, after every change of a shared control named in ``watch``
    (default: all of ``Panel.inputs``; the others are switched off while the view is open)
    and of ``extra`` triggers (event methods such as ``radio.change``). ``fn`` never runs
    for a closed view, so it needs no check of which view is open. ``settled``: kwargs of
    a second event for the figures that need not follow every keystroke; it runs once
    nothing newer changed for a moment (``SETTLE_MS``). ``live`` None: the view fetches its
    own data and registers with the loop itself (Explore's canvas). ``note``: what the knob
    note says while this view is open (default: which knobs apply). Wired by
    :func:`finish_live`, called once after every tab is built (``app.py`` does)."""
    if any(v.tab_id == tab_id for v in panel.live):
        raise ValueError(f"tab {tab_id!r} already has a live update")
    unknown = set(watch or ()) - set(KNOB_NAMES)
    if unknown:
        raise ValueError(f"watch names unknown controls: {sorted(unknown)}")
    template = (f'<div class="ae-live-anchor" data-view="{html.escape(tab_id)}" '
                f'data-update="{int(live is not None)}" data-settle="{int(settled is not None)}">'
                '</div>')
    anchor = gr.HTML("", html_template=template, js_on_load=ANCHOR_JS,
                     elem_classes="ae-hidden", elem_id=f"ae-live-{tab_id}")
    panel.live.append(LiveView(tab_id, None if live is None else dict(live), settled,
                               tuple(extra), None if watch is None else tuple(watch), anchor,
                               note))


def _stamped(fn, n_outputs: int):
    """``fn`` with one more output: a new stamp for the view's anchor, which tells the live
    loop the event has finished (static/live.js, ``mount``)."""
    @functools.wraps(fn)
    def run(*args):
        out = fn(*args)
        out = [out] if n_outputs == 1 else list(out)
        return [*out, f"{time.monotonic_ns()}"]
    return run


def _event(view: LiveView, kwargs: dict) -> dict:
    outputs = list(kwargs.get("outputs") or [])
    return {**LIVE_DEFAULTS, **kwargs, "fn": _stamped(kwargs["fn"], len(outputs)),
            "outputs": [*outputs, view.anchor]}


def live_config(panel: Panel, tabs: dict[str, gr.Tab]) -> dict:
    """What static/live.js needs to know, as JSON data: the shared controls in the order
    ``CONTROLS_JS`` passes them, the sliders among them, the pauses, and each view's title
    and watched controls (None: all; a tab without a live update watches none)."""
    views = {v.tab_id: v for v in panel.live}
    return {
        "knobs": list(KNOB_NAMES),
        "sliders": [n for n, c in panel.named.items() if isinstance(c, gr.Slider)],
        "settle": SETTLE_MS,
        "labels": KNOB_LABELS,
        "elements": KNOB_ELEMENTS,
        "first": next(iter(tabs), None),
        "views": {tab_id: {"title": str(tab.label or tab_id),
                           "watch": (list(views[tab_id].watch)
                                     if tab_id in views and views[tab_id].watch is not None
                                     else None if tab_id in views else []),
                           "note": views[tab_id].note if tab_id in views else NO_VIEW_NOTE}
                  for tab_id, tab in tabs.items()},
    }


NO_VIEW_NOTE = "The knobs act on the views; this tab does not use them."


def finish_live(panel: Panel, tabs: dict[str, gr.Tab] | None = None) -> None:
    """Wire every recorded live update. Call once, inside ``gr.Blocks``, after all tabs are
    built. ``tabs``: id -> ``gr.Tab`` of every tab in page order, the first open at load
    (default: every ``gr.Tab`` with an ``id`` in this ``gr.Blocks``, in the order they were
    made); a tab without a live update is there too, so that typing while it is open
    updates nothing. Adds the loop's configuration (hidden, below the rest of the page)
    and the page's few listeners that report to the loop: one for all shared controls,
    one per tab's select, one per view's own controls, and the page load; and runs
    ``panel.after_tabs``, the wiring that needs every view built (Start here's step bars,
    explorer/ui/step_bar.py). The page must load the loop itself: the page's bundle in
    ``launch(head=...)`` (``explorer/ui/page.scripts_head``; ``app.LAUNCH`` has it)."""
    context = get_blocks_context()
    views = {v.tab_id: v for v in panel.live}
    if tabs is None:
        tabs = {b.id: b for b in context.blocks.values()
                if isinstance(b, gr.Tab) and b.id is not None}
    missing = set(views) - set(tabs)
    if missing:
        raise ValueError(f"live updates for tabs that are not on the page: {sorted(missing)}")
    config = html.escape(json.dumps(live_config(panel, tabs)), quote=True)
    gr.HTML(f'<div data-config="{config}"></div>', elem_id="ae-live-config",
            elem_classes="ae-hidden", js_on_load=None)
    for wire in panel.after_tabs:  # (Start here's step bars: explorer/ui/step_bar.py)
        wire()
    for view in views.values():
        if view.event is not None:
            view.anchor.update(**_event(view, view.event))
        if view.settled is not None:
            view.anchor.settle(**_event(view, view.settled))
        if view.extra:
            gr.on(list(view.extra), None, None, None, js=refresh_js(view.tab_id),
                  api_name=False, show_progress="hidden")
    for tab_id, tab in tabs.items():  # js only: opening a tab tells the loop, nothing more
        tab.select(None, None, None, js=open_js(tab_id), api_name=False,
                   show_progress="hidden")
    # One listener for every shared control: .change fires for every edit of the box
    # (typing, paste, cut, Backspace, Delete, clearing) and for values the server sets (an
    # example, a share link); the loop works out what changed.
    gr.on([c.change for c in panel.inputs], None, panel.inputs, None, js=CONTROLS_JS,
          api_name=False, show_progress="hidden", queue=False)
    context.root_block.load(None, panel.inputs, None, js=START_JS, api_name=False,
                            show_progress="hidden")
