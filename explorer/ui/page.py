"""The page's frame, around the views: skip links, the "Big screen" switch, the section
names of the tab bar, and the page's one script, the bundle of ``static/`` (``static/app.js``
built into ``static/build/app.js`` by ``npm run build``), which runs them.

Declarations only: the layouts themselves (laptop, projector, phone) are CSS in
``static/css/``; ``static/page.js`` switches projector mode (``?projector=1`` or the
button), turns the knobs into a drawer on phones and moves focus for the skip links;
``static/figures.js`` names the figures for screen readers and lets a student tap a word in
the head view; ``static/fit.js`` sizes the figures for the screen they are on;
``static/steps.js`` shows a Start-here step in the view it opened (``static/stale.js`` dims
its figures until they show its data); ``static/keys.js`` gives the tab lists and radio
groups their arrow keys; ``static/live.js`` carries every change to the open view.
Gradio's events reach the bundle through ``explorer/ui/bridge.py``.
"""

from __future__ import annotations

import json

import gradio as gr

from explorer.paths import STATIC as STATIC_DIR

STATIC = STATIC_DIR
# The page's bundle, built from static/app.js and checked in (npm run check-build): the one
# way the page's JavaScript reaches it, inlined in the <head> so that it runs before Gradio
# mounts the app (the live loop must see Gradio's first requests).
APP_JS = (STATIC / "build" / "app.js").read_text(encoding="utf-8")

# First on the page, so the first Tab press reaches the skip links (WCAG 2.4.1). The links
# point at real ids, so they work without the script too (the script also moves focus).
TOP_HTML = """<nav class="ae-top" aria-label="Skip links and display">
<a class="ae-skip" href="#tabs" data-ae-skip="views">Skip to the views</a>
<a class="ae-skip" href="#controls" data-ae-skip="knobs">Skip to the knobs</a>
<button type="button" class="ae-projector-switch" aria-pressed="false"
 title="Heatmaps first and large, for a projector or a big screen (link: ?projector=1)"
>Big screen</button>
</nav>"""


def build_top() -> gr.HTML:
    """The skip links and the projector switch; call first inside the page's Blocks."""
    return gr.HTML(TOP_HTML, elem_id="ae-top", padding=False)


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal (JSON's escaping is valid CSS for these names)."""
    return json.dumps(text)


# Phones (static/page.js sets .ae-drawer on <html> there): the 15 tabs wrapped into 7 rows
# (300 px) and pushed the grid to y = 880 on first load. Instead they are one row that
# scrolls sideways, each section's name above its first tab, each tab a 44 px touch target;
# the row fades at an edge where more tabs are (static/page.js sets data-ae-more and keeps
# the open tab in the row's view). (Gradio's wrapped bar draws a rule every 32 px as its
# background: none here.)
PHONE_TABS_CSS = """.ae-drawer #tabs .tab-container.wrap {
  display: flex !important; flex-wrap: nowrap !important; align-items: stretch;
  overflow-x: auto; overflow-y: hidden; overscroll-behavior-x: contain;
  scroll-snap-type: x proximity; scrollbar-width: none; background: none !important;
  border-bottom: 1px solid var(--border-color-primary);
}
.ae-drawer #tabs .tab-container.wrap::-webkit-scrollbar { display: none; }
.ae-drawer #tabs .tab-container.wrap[data-ae-more="right"] {
  mask-image: linear-gradient(to left, transparent, #000 2.5rem);
}
.ae-drawer #tabs .tab-container.wrap[data-ae-more="left"] {
  mask-image: linear-gradient(to right, transparent, #000 2.5rem);
}
.ae-drawer #tabs .tab-container.wrap[data-ae-more="both"] {
  mask-image: linear-gradient(to right, transparent, #000 2.5rem,
                              #000 calc(100% - 2.5rem), transparent);
}
.ae-drawer #tabs .tab-container.wrap > button[role="tab"] {
  flex: 0 0 auto; min-height: 2.75rem; height: auto !important; white-space: nowrap;
  text-align: left; line-height: 1.2; padding: 0.3rem 0.55rem;
  flex-direction: column; align-items: flex-start; justify-content: flex-end;
  overflow: visible; scroll-snap-align: start;
}
.ae-drawer #tabs button[role="tab"][data-tab-id]::before {
  display: block; margin: 0 0 0.1rem; letter-spacing: 0.01em;
}"""


def section_css(sections: list[tuple[str, list[str]]]) -> str:
    """CSS that writes each section's name before its first tab in the tab bar. The name is
    decoration for sighted users (``content: "..." / ""`` keeps it out of the tab's
    accessible name); every tab keeps its own label. On a phone the bar is one row that
    scrolls sideways (``PHONE_TABS_CSS``)."""
    rules = [PHONE_TABS_CSS]
    for i, (name, tab_ids) in enumerate(sections):
        if not tab_ids:
            continue
        sel = f'#tabs button[role="tab"][data-tab-id={_css_string(tab_ids[0])}]'
        rules.append(f"{sel}::before {{ content: {_css_string(name)} / \"\"; }}")
        if i:  # a gap and a rule between sections
            rules.append(f"{sel} {{ margin-left: 0.6rem; border-left: 1px solid "
                         "var(--border-color-primary); }")
    return "\n".join(rules)


def scripts_head() -> str:
    """The page's bundle as ``launch(head=...)`` takes it (a page built of some tabs only, in
    the tests, uses it alone)."""
    if "</script" in APP_JS:  # esbuild writes "<\/script" inside strings: never the end
        raise ValueError("static/build/app.js holds '</script': it would end its tag")
    return f"<script>\n{APP_JS}\n</script>\n"


def head(sections: list[tuple[str, list[str]]]) -> str:
    """HTML for ``launch(head=...)``: the section names as CSS and the page's bundle."""
    return f"<style>\n{section_css(sections)}\n</style>\n" + scripts_head()
