"""The one form in which JavaScript reaches Gradio from Python: a call into the page's bundle.

Gradio takes JavaScript as a string per event (``js=``) and per ``gr.HTML`` (``js_on_load=``).
Every such string in this app is written here, in one form, naming a function the page's
modules register under that name (``static/handlers.js``: the one table; ``static/bridge.js``
runs it). The bodies live in ``static/``, as modules, linted and tested there; Python only
names them and binds JSON data (a tab id, labels), never code.

    js("live.open", "explore")
      -> (...args) => window.AttentionExplorer.handle("live.open", "explore", ...args)
    on_load("live.anchor", events=("update", "settle"))
      -> window.AttentionExplorer.mount("live.anchor", {element, trigger, props, server,
         upload, watch}, {"events": ["update", "settle"]});

``events``: the custom events the mounted module triggers (``trigger("update")``); Gradio
finds a gr.HTML's custom events by their quoted names in its js_on_load, so they are
written into the data. ``tests/ui/test_bridge.py`` checks the app's whole config against
this form and the table.
"""

from __future__ import annotations

import json
import re

# What the page's bundle exposes (static/app.js): the one global.
GLOBAL = "window.AttentionExplorer"
SCOPE = "{element, trigger, props, server, upload, watch}"


def _data(data) -> str:
    # "</" cannot end a <script> the string may be copied into; JSON stays JSON
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def js(name: str, data=None) -> str:
    """A Gradio event's ``js=``: run the handler ``name`` with the event's values (and
    ``data``, JSON); what it returns goes to the event's outputs (js-only with ``fn=None``,
    or as the inputs of the event's Python function)."""
    return f"(...args) => {GLOBAL}.handle({json.dumps(name)}, {_data(data)}, ...args)"


def on_load(name: str, data=None, events: tuple[str, ...] = ()) -> str:
    """A ``gr.HTML``'s ``js_on_load=``: mount the module ``name`` on the component."""
    if events:
        data = {**(data or {}), "events": list(events)}
    return f"{GLOBAL}.mount({json.dumps(name)}, {SCOPE}, {_data(data)});"


# Both forms, for the test that walks the app's config: (name, data as JSON text).
JS_FORM = re.compile(r'^\(\.\.\.args\) => window\.AttentionExplorer\.handle\(("[\w.]+"), '
                     r"(.*), \.\.\.args\)$", re.S)
ON_LOAD_FORM = re.compile(r'^window\.AttentionExplorer\.mount\(("[\w.]+"), '
                          + re.escape(SCOPE) + r", (.*)\);$", re.S)
