"""Our own Markdown (the steps' texts, explorer/views/start_here.py) as safe HTML: everything is
escaped first, then only **bold**, *italic* and `code` become tags. The texts hold no user
text; escaping anyway keeps a stray < from ever becoming markup."""

from __future__ import annotations

import html
import re

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_CODE = re.compile(r"`([^`]+)`")


def to_html(markdown: str) -> str:
    """One paragraph of our Markdown -> HTML (escaped; strong, em, code only)."""
    out = html.escape(markdown, quote=True)
    out = _CODE.sub(r"<code>\1</code>", out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    return _ITALIC.sub(r"<em>\1</em>", out)
