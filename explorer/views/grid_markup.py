"""The grid's box and its CSS: the one source for every place ``static/live_grid.js`` draws.

The page's Explore grid (``explorer/ui/explore_tab.py``), a notebook's view
(:mod:`explorer.views.notebook_view`) and the static edition (``explorer/site/config.py``)
all take their markup from :func:`grid_markup` and their CSS from :func:`grid_css`. The
markup is what ``AttentionExplorer.grid.mount`` looks for inside its element: a caption
and a guesses line (plain text, set with ``textContent``), the canvas, and the hover tip.
Our own constant markup: no user text is ever put in it (``caption`` is escaped).
"""

from __future__ import annotations

import html

# selector -> declarations; a scope (the grid's box, e.g. "#grid") goes before each
# selector. The tip is dark on every paper: it floats over the heatmap's own colours.
GRID_RULES = (
    (".ae-grid", "position: relative;"),
    (".ae-grid-caption, .ae-grid-guesses", "font-size: 0.85rem; min-height: 1.2em;"),
    (".ae-grid-guesses", "font-weight: 600;"),
    ("canvas", "display: block;"),
    ("canvas:focus-visible",
     "outline: 2px solid var(--color-accent, #e66100); outline-offset: 2px;"),
    (".ae-grid-tip", "position: absolute; pointer-events: none; z-index: 5; "
                     "white-space: nowrap; background: rgba(31, 35, 40, 0.92); color: #fff; "
                     "font-size: 12px; padding: 3px 7px; border-radius: 4px;"),
    ("[hidden]", "display: none !important;"),
)


def grid_markup(view: str, caption: str = "") -> str:
    """The box ``live_grid.js`` draws in; ``view`` names it (``data-view``: the live loop's
    view id), ``caption`` (plain text, escaped here) shows until the first drawing."""
    return (f'<div class="ae-grid" data-view="{html.escape(view)}">'
            f'<div class="ae-grid-caption" aria-live="polite">{html.escape(caption)}</div>'
            '<div class="ae-grid-guesses"></div>'
            '<canvas role="img" aria-label="Attention of every head"></canvas>'
            '<div class="ae-grid-tip" hidden></div></div>')


def grid_css(scope: str = "") -> str:
    """The grid's CSS, every selector under ``scope`` (a notebook view's id; "" where the
    host scopes it itself, as Gradio does a ``gr.HTML``'s ``css_template``)."""
    def scoped(selectors: str) -> str:
        return ", ".join(f"{scope} {s.strip()}".strip() for s in selectors.split(","))
    return "\n".join(f"{scoped(sel)} {{ {rules} }}" for sel, rules in GRID_RULES)
