"""A class's join link as a QR code, drawn once per class and never on the event loop.

The link is the class's own, fixed when the class opens: the address of the page that
opened it (the ``Referer`` of its ``open`` request: the teacher's page, as the browser
sees it, behind any proxy), else this server's own (``Host``), with ``?class=CODE``. A
request for the QR code names no link, so the route is no general QR service, and one
class costs one drawing (a few ms; 0.6 s of CPU for a 2,000-character link): the first
request draws it in a worker thread, requests meanwhile wait for that one drawing, later
ones get the stored SVG. Both tables hold at most ``max_classes`` entries (the oldest
class out first), as many as the class registry holds.

A link to this machine's loopback address (the teacher opened the page on the laptop that
serves it: ``127.0.0.1``, ``localhost``) reaches no student. When the server listens on every
interface (``python app.py --host 0.0.0.0``: :func:`set_listening`), the link names this
machine's network address instead, and a note says so; when it listens on loopback only,
the link stays and the note says how to open the class to the room.

    qrs = JoinQRs(max_classes)
    qrs.remember(code, scope) -> link      at open (None: no usable address)
    qrs.link(code) -> str | None           qrs.note(code) -> str | None
    await qrs.svg(code) -> str | None      None: no link known or too long to draw
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

from explorer.views.share import qr_svg

MAX_LINK = 2000  # characters of a join link to draw as a QR code
ALL_INTERFACES = ("0.0.0.0", "::")
_listening = {"host": "127.0.0.1"}  # the address the server listens on (set_listening)
NO_ROOM = ("Students cannot open {host}: it is this computer. Start the app with "
           "python app.py --host 0.0.0.0 and open it by this computer's network address.")
LAN_NOTE = ("The link uses this computer's network address ({lan}): students on the same "
            "network can open it.")
NO_LAN = ("Students cannot open {host}: it is this computer, and no network address was "
          "found. Open the page by this computer's network address.")


def set_listening(host: str) -> None:
    """The address the server listens on (app.main): on every interface, a loopback join
    link is given this machine's network address."""
    _listening["host"] = host


def lan_address() -> str | None:
    """This machine's address on its network (the interface a packet to the outside would
    leave by; nothing is sent), or None when it has none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 1))
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def reachable(link: str) -> tuple[str, str | None]:
    """``link`` as students can open it, and a note for the teacher (None: nothing to say)."""
    parts = urlsplit(link)
    host = parts.hostname or ""
    if not _loopback(host):
        return link, None
    if _listening["host"] not in ALL_INTERFACES:
        return link, NO_ROOM.format(host=host)
    lan = lan_address()
    if lan is None:
        return link, NO_LAN.format(host=host)
    netloc = lan + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc)), LAN_NOTE.format(lan=lan)


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
        self._notes: dict[str, str | None] = {}
        self._drawn: dict[str, asyncio.Future] = {}

    def remember(self, code: str, scope) -> str | None:
        link = join_link(scope, code)
        if link is not None:
            link, self._notes[code] = reachable(link)
            self._links[code] = link
            while len(self._links) > self.max_classes:
                oldest = next(iter(self._links))
                self._links.pop(oldest)
                self._notes.pop(oldest, None)
                self._drawn.pop(oldest, None)
        return link

    def link(self, code: str) -> str | None:
        return self._links.get(code)

    def note(self, code: str) -> str | None:
        return self._notes.get(code)

    async def svg(self, code: str) -> str | None:
        link = self._links.get(code)
        if link is None:
            return None
        drawing = self._drawn.get(code)
        if drawing is None:
            drawing = asyncio.ensure_future(asyncio.to_thread(qr_svg, link))
            self._drawn[code] = drawing
        return await asyncio.shield(drawing)
