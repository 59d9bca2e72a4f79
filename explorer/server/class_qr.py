"""A class's join link as a QR code, drawn once per class and never on the event loop.

The link is the class's own, fixed when the class opens: the address of the page that
opened it (the ``Referer`` of its ``open`` request: the teacher's page, as the browser
sees it, behind any proxy), else this server's own (``Host``), with ``?class=CODE``. A
request for the QR code names no link, so the route is no general QR service, and one
class costs one drawing (a few ms; 0.6 s of CPU for a 2,000-character link): the first
request draws it in a worker thread, requests meanwhile wait for that one drawing, later
ones get the stored SVG. Both tables hold at most ``max_classes`` entries (the oldest
class out first), as many as the class registry holds.

    qrs = JoinQRs(max_classes)
    qrs.remember(code, scope) -> link      at open (None: no usable address)
    qrs.link(code) -> str | None
    await qrs.svg(code) -> str | None      None: no link known or too long to draw
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from explorer.views.share import qr_svg

MAX_LINK = 2000  # characters of a join link to draw as a QR code


def join_link(scope, code: str) -> str | None:
    """The page's address (scheme, host, path; no query) + ``?class=CODE``, from the
    request's ``Referer``, else its ``Host``; None when neither gives an http(s) link of
    at most :data:`MAX_LINK` characters."""
    headers = dict(scope.get("headers") or [])
    referer = headers.get(b"referer", b"").decode("latin-1")
    parts = urlsplit(referer) if referer else None
    if parts is not None and parts.scheme in ("http", "https") and parts.netloc:
        base = f"{parts.scheme}://{parts.netloc}{parts.path or '/'}"
    else:
        host = headers.get(b"host", b"").decode("latin-1")
        scheme = scope.get("scheme", "http")
        if not host or scheme not in ("http", "https") or any(c in host for c in "/?# "):
            return None
        base = f"{scheme}://{host}/"
    link = f"{base}?class={code}"
    return link if len(link) <= MAX_LINK and link.isprintable() else None


class JoinQRs:
    """The join links of the classes opened here and their QR codes (see the module
    docstring). Used on the event loop only."""

    def __init__(self, max_classes: int) -> None:
        self.max_classes = max_classes
        self._links: dict[str, str] = {}
        self._drawn: dict[str, asyncio.Future] = {}

    def remember(self, code: str, scope) -> str | None:
        link = join_link(scope, code)
        if link is not None:
            self._links[code] = link
            while len(self._links) > self.max_classes:
                oldest = next(iter(self._links))
                self._links.pop(oldest)
                self._drawn.pop(oldest, None)
        return link

    def link(self, code: str) -> str | None:
        return self._links.get(code)

    async def svg(self, code: str) -> str | None:
        link = self._links.get(code)
        if link is None:
            return None
        drawing = self._drawn.get(code)
        if drawing is None:
            drawing = asyncio.ensure_future(asyncio.to_thread(qr_svg, link))
            self._drawn[code] = drawing
        return await asyncio.shield(drawing)
