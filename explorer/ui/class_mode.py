"""Class mode's part of the page (issue 43): static/class.js (with static/class_lab.js, the
teacher's chart of the class's Lab runs) and static/class.css in the
page's head, with what the script needs to know of this page: the views' titles by id (a
lead names a view by id; the tab bar shows titles), each Start-here step's choices
(explorer/views/start_here_choices.py) and where the routes are (explorer/server/class_route.py).

The script does nothing unless the address asks for class mode (``?teach=1`` or
``?class=CODE``), so the page of a student on their own is unchanged.
"""

from __future__ import annotations

import json

from explorer.paths import STATIC as STATIC_DIR
from explorer.views.start_here_choices import every_steps_choices

STATIC = STATIC_DIR


def head(views: dict[str, str]) -> str:
    """``views``: tab id -> the title its button shows."""
    config = {"views": views, "base": "ae-class/",
              "steps": [{"choices": list(c)} for c in every_steps_choices()]}
    # "</" cannot end the script early: every "<" in the JSON is escaped
    data = json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")
    # class_lab.js (the teacher's chart of the class's Lab runs) first: class.js uses it
    script = "\n".join((STATIC / name).read_text(encoding="utf-8")
                        for name in ("class_lab.js", "class.js"))
    style = (STATIC / "class.css").read_text(encoding="utf-8")
    return (f"<style>\n{style}\n</style>\n<script>(window.AttentionExplorer = "
            f"window.AttentionExplorer || {{}}).classConfig = {data};</script>\n"
            f"<script>\n{script}\n</script>")
