"""The sentence box and the knobs, shared by every tab, and the one live wiring of the page.

Every tab reads the same controls, so flipping a knob changes what every view shows;
only the tab that is open recomputes, the others when they are opened.

How a keystroke reaches the open tab (:func:`wire_live`, :func:`finish_live`): Gradio
6.31's front end runs the listeners of one trigger one after another, each awaited to the
end, and ``trigger_mode="always_last"`` collapses repeats only per listener, so with one
server listener per tab on the sentence box every keystroke ran every tab's update (seen:
a 4 s wait for the grid, ~100 queued calls for one typed sentence). Instead each trigger
(the sentence box, each knob, a tab's own controls) has exactly ONE listener: a js-only
function that finishes at once and clicks the hidden button of the open tab (the page
keeps which tab is open in ``window.__aeTab``). Each button has one server event, the
tab's update, with ``always_last``: while an update runs, further keystrokes collapse
into one more. So a keystroke costs one server event chain, for the open tab only; a tab's
slower figures can wait for a pause in typing (``wire_live(settled=...)``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import gradio as gr
from gradio.context import get_blocks_context

from explorer.analysis.run import MAX_CHARS
from explorer.views.controls import (
    HEADS,
    MASK_CHOICES,
    OBJECTIVES,
    POSITIONAL,
    SCALE_CHOICES,
    TEMPERATURE_RANGE,
)
from explorer.views.share import HEAD_MAX

EXAMPLES = [
    "Once there was a girl named Mia. Mia had a red ball. One day Mia gave the ball to",
    # every head the default model is named for at once: the previous-word diagonal, the
    # copying stripe on the repeat, and the guess continuing the list (explorer.views.guided)
    "spoon lamp sock bread egg coat fork shoe. spoon lamp sock bread egg",
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

    @property
    def inputs(self) -> list:
        """The values every view is a function of, in ``parse_controls`` order after text."""
        return [self.text, self.objective, self.heads, self.pos, self.mask, self.scaling,
                self.temperature, self.layer, self.head, self.theme]

    @property
    def named(self) -> dict[str, gr.components.Component]:
        """``inputs`` by name (the names ``wire_live(watch=...)`` takes)."""
        return dict(zip(KNOB_NAMES, self.inputs, strict=True))


KNOB_NAMES = ("text", "objective", "heads", "pos", "mask", "scaling", "temperature", "layer",
              "head", "theme")


@dataclass
class LiveView:
    """One tab's live update, recorded by :func:`wire_live`, wired by :func:`finish_live`."""

    tab_id: str
    event: dict  # kwargs of the update's event (fn, inputs, outputs, ...)
    settled: dict | None  # kwargs of the event that follows once typing pauses, or None
    extra: tuple  # the tab's own triggers (e.g. its radio's .change)
    watch: tuple[str, ...] | None  # panel controls it depends on (None: all)
    own_typing: bool = False  # the tab's own page script follows typing (not its button)


def build_sentence() -> gr.Textbox:
    text = gr.Textbox(label="Your sentence", lines=2, max_length=MAX_CHARS, value=EXAMPLES[0],
                      elem_id="sentence", info="Updates as you type.")
    with gr.Accordion("Examples that show something", open=False, elem_id="examples"):
        examples = gr.Examples(EXAMPLES, inputs=text, label=None)
    # Filling the box from an example fires no ``.input`` (that is typing only), so once the
    # example is in, ask the open tab for its update as a radio click would.
    examples.load_input_event.then(None, None, None, js=EXAMPLE_JS, api_name=False,
                                   show_progress="hidden")
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


def build_knobs(text: gr.Textbox) -> Panel:
    """The knobs column; ``text`` is the sentence box they share with every view."""
    with gr.Accordion("Knobs", open=True):
        objective = gr.Radio(list(OBJECTIVES), value=next(iter(OBJECTIVES)), label="Model",
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
            layer = gr.Slider(0, 3, value=0, step=1, label="Layer", elem_id="layer")
            # Declared for the largest model, which is what the server checks an API
            # call's head against; the page narrows it to the chosen model's heads.
            head = gr.Slider(0, HEAD_MAX, value=0, step=1, label="Head", elem_id="head")
        theme = gr.Radio(["light", "dark"], value="light", label="Figure colours",
                         elem_id="theme")
    # The Head slider offers the heads the chosen model has (0-1 for two heads), so no head
    # that does not exist can be picked; on page load too (export_tab.wire_share_link).
    # Not queued: it computes nothing.
    heads.change(head_slider, [heads, head], head, queue=False, show_progress="hidden",
                 api_name=False)
    return Panel(text, objective, heads, pos, mask, scaling, temperature, layer, head, theme)


LIVE_DEFAULTS = dict(show_progress="hidden", trigger_mode="always_last", api_name=False)
# How long nothing new must happen before a tab's slower figures follow, by what changed
# last: typing comes in bursts (a student types a key every 150-400 ms), a slider drag
# too; a radio button or opening a tab is one event (ms).
SETTLE_MS = {"text": 500, "slider": 150, "other": 0}


def wire_live(panel: Panel, tab_id: str, live: dict, *, settled: dict | None = None,
              extra=(), watch: tuple[str, ...] | None = None,
              own_typing: bool = False) -> None:
    """Make ``live`` (event kwargs: ``fn``, ``inputs``, ``outputs``, optionally
    ``preprocess``/``postprocess``...) the update of the tab with id ``tab_id``: it runs when
    it opens and, while it is open, on typing, on every knob named in ``watch`` (default:
    all of ``Panel.inputs``) and on ``extra`` triggers (event methods such as
    ``radio.change``). ``fn`` never runs for a closed tab, so it needs no check of which
    tab is open. ``settled``: kwargs of a second event for the figures that need not
    follow every keystroke; it runs after an update once nothing newer was typed or
    clicked for a moment (``SETTLE_MS``: drawing a figure costs the browser more than
    computing it costs the server, and every figure drawn delays the next keystroke's
    grid). ``own_typing``: typing does not click the tab's button, because a script of
    the tab's own follows the sentence box (the Explore grid, ``static/live_grid.js``);
    it then also asks for the settled event itself. Wired by :func:`finish_live`, called
    once after every tab is built (``app.py`` does)."""
    if any(v.tab_id == tab_id for v in panel.live):
        raise ValueError(f"tab {tab_id!r} already has a live update")
    unknown = set(watch or ()) - set(KNOB_NAMES)
    if unknown:
        raise ValueError(f"watch names unknown controls: {sorted(unknown)}")
    panel.live.append(LiveView(tab_id, dict(live), settled, tuple(extra),
                               None if watch is None else tuple(watch), own_typing))


# Click the element with this id; at page load it may not be on the page yet: retry. Every
# routed trigger counts in window.__aeTicks (a pause: the count did not change) and says in
# window.__aeSettle how long that pause must be.
_CLICK = ("const click = (id, n = 50) => { const b = document.getElementById(id); "
          "if (b) b.click(); else if (n > 0) setTimeout(() => click(id, n - 1), 100); }; "
          "const tick = (ms) => { window.__aeTicks = (window.__aeTicks || 0) + 1; "
          "window.__aeSettle = ms; };")


# After an example fills the sentence box: the open tab's update, if it has one.
EXAMPLE_JS = ("() => { const b = document.getElementById('ae-live-' + window.__aeTab); "
              "if (b) { window.__aeTicks = (window.__aeTicks || 0) + 1; "
              f"window.__aeSettle = {SETTLE_MS['other']}; b.click(); }} }}")


def live_js(*tab_ids: str, settle: str = "other") -> str:
    """js for a trigger's single listener: run the open tab's update when the open tab is
    one of ``tab_ids`` (``settle``: a key of ``SETTLE_MS``). The ids are our own
    constants, written into the js as JSON."""
    return ("() => { " + _CLICK + " const t = window.__aeTab; if ("
            + json.dumps(list(tab_ids)) + ".includes(t)) { "
            f"tick({SETTLE_MS[settle]}); click('ae-live-' + t); }} }}")


def _opened_js(tab_id: str) -> str:
    """js of a tab's select event (and of the page load for the first tab): remember the
    open tab and run its update unless it was open already (Gradio also selects the
    first tab while the page mounts), then refit figures drawn while it was hidden (a
    Plotly figure keeps a stale width until a resize event)."""
    t = json.dumps(tab_id)
    return ("() => { " + _CLICK + f" if (window.__aeTab !== {t}) {{ window.__aeTab = {t}; "
            f"tick({SETTLE_MS['other']}); click('ae-live-' + {t}); "
            "setTimeout(() => window.dispatchEvent(new Event('resize')), 150); } }")


def _settle_js(tab_id: str) -> str:
    """js chained after a tab's update: once nothing newer was routed for as long as the
    last trigger asks (and the tab is still open), run the tab's settled event."""
    t = json.dumps(tab_id)
    return ("() => { " + _CLICK + " const k = window.__aeTicks; setTimeout(() => { "
            f"if (window.__aeTicks === k && window.__aeTab === {t}) click('ae-rest-' + {t}); "
            "}, window.__aeSettle || 0); }")


def finish_live(panel: Panel, tabs: dict[str, gr.Tab] | None = None) -> None:
    """Wire every recorded live update. Call once, inside ``gr.Blocks``, after all tabs are
    built. ``tabs``: id -> ``gr.Tab`` of every tab in page order, the first open at load
    (default: every ``gr.Tab`` with an ``id`` in this ``gr.Blocks``, in the order they were
    made); a tab without a live update is there too, so that typing while it is open
    updates nothing. Adds one hidden button per live tab, below the rest of the page, and
    runs the first tab's update when the page loads."""
    context = get_blocks_context()
    views = {v.tab_id: v for v in panel.live}
    if tabs is None:
        tabs = {b.id: b for b in context.blocks.values()
                if isinstance(b, gr.Tab) and b.id is not None}
    missing = set(views) - set(tabs)
    if missing:
        raise ValueError(f"live updates for tabs that are not on the page: {sorted(missing)}")
    with gr.Row(elem_classes="ae-hidden"):
        buttons = {tab_id: gr.Button(f"update {tab_id}", elem_id=f"ae-live-{tab_id}")
                   for tab_id in views}
        rests = {tab_id: gr.Button(f"settled {tab_id}", elem_id=f"ae-rest-{tab_id}")
                 for tab_id, view in views.items() if view.settled is not None}
    for tab_id, view in views.items():
        event = buttons[tab_id].click(**{**LIVE_DEFAULTS, **view.event})
        if view.settled is not None:
            event.then(None, None, None, js=_settle_js(tab_id), api_name=False,
                       show_progress="hidden")
            rests[tab_id].click(**{**LIVE_DEFAULTS, **view.settled})
        if view.extra:
            gr.on(list(view.extra), None, None, None, js=live_js(tab_id), api_name=False,
                  show_progress="hidden")
    for tab_id, tab in tabs.items():  # js only: opening a tab sends its update, nothing more
        tab.select(None, None, None, js=_opened_js(tab_id), api_name=False,
                   show_progress="hidden")
    if tabs:
        context.root_block.load(None, None, None, js=_opened_js(next(iter(tabs))),
                                api_name=False, show_progress="hidden")
    for name, control in panel.named.items():
        ids = [t for t, v in views.items() if (v.watch is None or name in v.watch)
               and not (name == "text" and v.own_typing)]
        trigger = control.input if name == "text" else control.change  # typing, not loads
        settle = ("text" if name == "text" else
                  "slider" if isinstance(control, gr.Slider) else "other")
        trigger(None, None, None, js=live_js(*ids, settle=settle), api_name=False,
                show_progress="hidden")
