"""Class mode's part of the page's head (issue 43): static/class.css, and what the page's
class mode (static/class.js, in the page's bundle) needs to know of this page, as JSON data
in ``<meta name="ae-class-config">``: the views' titles by id (a lead names a view by id;
the tab bar shows titles), each Start-here step's choices
(explorer/views/start_here_choices.py) and where the routes are
(explorer/server/class_route.py).

The script does nothing unless the address asks for class mode (``?teach=1`` or
``?class=CODE``), so the page of a student on their own is unchanged.
"""

from __future__ import annotations

import html
import json

from explorer.paths import STATIC as STATIC_DIR
from explorer.views.start_here_choices import every_steps_choices

STATIC = STATIC_DIR


def head(views: dict[str, str]) -> str:
    """``views``: tab id -> the title its button shows."""
    config = {"views": views, "base": "ae-class/",
              "steps": [{"choices": list(c)} for c in every_steps_choices()]}
    data = html.escape(json.dumps(config, ensure_ascii=False), quote=True)
    style = (STATIC / "class.css").read_text(encoding="utf-8")
    return (f"<style>\n{style}\n</style>\n"
            f'<meta name="ae-class-config" content="{data}">')
