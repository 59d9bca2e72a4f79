"""One client cannot starve the class, and a class behind one address is not one client.

Every POST (a keystroke's grid, a queue event, an API call) first passes
:class:`ClientGuard`, an ASGI middleware, which asks a :class:`RateLimiter`. Two token
buckets (an average rate, and a burst that may be spent at once):

* **requests per session**: ``SESSION_REQUESTS_PER_S``, bursts of ``SESSION_BURST``. A
  page sends one grid request at a time (keys typed meanwhile collapse into one more) and
  its other figures only after a pause, a handful a second while its student types; a
  script looping on one session is held to this.
* **new sessions per address**: a request naming a session hash the guard has not seen
  (a page load, a reload, a script inventing a fresh hash each time), or an API call
  naming none (Gradio then makes one): ``NEW_SESSIONS_PER_S``, bursts of
  ``NEW_SESSION_BURST``. A school's students all come from the school's one public
  address: a lecture hall of 400 opening the page at once is let in at once, and a
  script making sessions in a loop gets two a second after that. A session costs the server
  ~11 kB at most (ui/sessions.py; a keystroke's own none), 1,000 at most are kept.

There is no fixed rate per address: a class behind one address sends as much as the
class does, and the server answers everyone while it keeps up. What it cannot keep up
with is shared out fairly by session, heaviest first: the keystroke grids wait in one
fair line with one place per session (ui/keystroke_queue.py), and the other updates on
Gradio's queue, one at a time per page.

A request with no token left is answered at once with HTTP 429 and a short "busy"
message (``Retry-After: 1``): it costs the server nothing, and other sessions have their
own buckets, so their answers do not wait behind it. The page tries again after a short
pause (static/live.js). The limiter keeps at most ``MAX_CLIENTS`` addresses and
``MAX_SESSIONS`` sessions (least recently used go first), under one lock.

**Which address.** The peer of the connection, as uvicorn gives it (uvicorn itself uses
``X-Forwarded-For`` only when the peer is this machine, e.g. a local reverse proxy). On a
Hugging Face Space (``SPACE_ID`` is set) every request comes from the Space's proxy, so
the client is read from ``X-Forwarded-For``: the entry ``PROXY_HOPS`` from its right end,
the one the proxy itself appended; entries further left are whatever the client sent and
are not trusted. ``AE_PROXY_HOPS`` overrides the number of proxies (0: do not trust the
header at all).
"""

from __future__ import annotations

import contextvars
import os
import re
import threading
import time
from collections import OrderedDict

import orjson

from ui.sessions import TRANSIENT

# The session hash the request being handled names (None: none), for the keystroke
# queue's one place per session (ui/keystroke_queue.py); set by ClientGuard.
REQUEST_SESSION: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "ae_request_session", default=None)

SESSION_REQUESTS_PER_S = 30.0  # per session: more than a page sends (see above)
SESSION_BURST = 150
NEW_SESSIONS_PER_S = 2.0  # per address, after the burst: a script's loop, reloads now and then
NEW_SESSION_BURST = 500  # per address: a lecture hall of 400 (and some reloads) at once
MAX_CLIENTS = 4096
MAX_SESSIONS = 16384
MAX_BODY = 4 * 1024 * 1024  # bytes read to find the session hash (a page sends < 10 kB)
BUSY_MESSAGE = "The server is busy: too many requests from this page. Trying again in a moment."
# Gradio's compute entry points whose JSON body names the session (or that make one).
SESSION_PATH = re.compile(r"/gradio_api/(queue/join|component_server|run/|call/|api/)")
NEW_IF_UNNAMED = re.compile(r"/gradio_api/(run|call|api)/")  # Gradio makes a session
KEYSTROKE_PATH = re.compile(r"/gradio_api/component_server/?$")


def _refill(bucket: list[float], rate: float, burst: float, now: float) -> None:
    """Tokens earned since ``bucket[1]`` (a bucket is [tokens, time of last refill])."""
    bucket[0] = min(burst, bucket[0] + max(0.0, now - bucket[1]) * rate)
    bucket[1] = now


class RateLimiter:
    """Token buckets per client address (new sessions) and per session (requests), each
    table bounded (least recently used out first) and thread-safe. ``clock`` is
    injectable for tests."""

    def __init__(self, session_requests_per_s: float = SESSION_REQUESTS_PER_S,
                 session_burst: int = SESSION_BURST,
                 new_sessions_per_s: float = NEW_SESSIONS_PER_S,
                 new_session_burst: int = NEW_SESSION_BURST, max_clients: int = MAX_CLIENTS,
                 max_sessions: int = MAX_SESSIONS, clock=time.monotonic) -> None:
        self.new_session_limit = (new_sessions_per_s, float(new_session_burst))
        self.session_limit = (session_requests_per_s, float(session_burst))
        self.max_clients, self.max_sessions = max_clients, max_sessions
        self.clock = clock
        self._clients: OrderedDict[str, list[float]] = OrderedDict()  # address -> [tokens, t]
        self._sessions: OrderedDict[str, list[float]] = OrderedDict()  # hash -> [tokens, t]
        self._lock = threading.Lock()
        self.refused = 0

    @staticmethod
    def _take(table: OrderedDict, key: str, make, limit: int):
        """``table[key]`` (made by ``make()`` if absent) as its most recent entry."""
        value = table.pop(key, None)
        table[key] = value = make() if value is None else value
        if len(table) > limit:
            table.popitem(last=False)
        return value

    def admit(self, client: str, session: str | None, new_if_none: bool = False) -> bool:
        """Whether ``client`` may make this request now (and if so, count it).
        ``session``: the session hash it names; one not seen before costs a new-session
        token of the address, as does none at all when ``new_if_none``."""
        now = self.clock()
        new_rate, new_burst = self.new_session_limit
        s_rate, s_burst = self.session_limit
        with self._lock:
            own = self._sessions.get(session) if session else None
            new = own is None if session else new_if_none
            if own is not None:
                _refill(own, s_rate, s_burst, now)
                if own[0] < 1:
                    self.refused += 1
                    return False
            if new:
                sessions = self._take(self._clients, client, lambda: [new_burst, now],
                                      self.max_clients)
                _refill(sessions, new_rate, new_burst, now)
                if sessions[0] < 1:
                    self.refused += 1
                    return False
                sessions[0] -= 1
            if session:
                own = self._take(self._sessions, session, lambda: [s_burst, now],
                                 self.max_sessions)
                own[0] -= 1
            return True

    def __len__(self) -> int:
        return len(self._clients)


def proxy_hops() -> int:
    """How many proxies in front of the app append to ``X-Forwarded-For`` and are trusted:
    ``AE_PROXY_HOPS``, else 1 on a Hugging Face Space, else 0."""
    value = os.environ.get("AE_PROXY_HOPS")
    if value is not None:
        try:
            return max(0, int(value))
        except ValueError:
            return 0
    return 1 if os.environ.get("SPACE_ID") else 0


def client_address(scope: dict, hops: int) -> str:
    """The client's address for rate limiting (see the module docstring)."""
    peer = (scope.get("client") or ("unknown", 0))[0]
    if hops <= 0:
        return peer
    forwarded = [v.decode("latin-1") for k, v in scope.get("headers", ())
                 if k == b"x-forwarded-for"]
    entries = [e.strip() for e in ",".join(forwarded).split(",") if e.strip()]
    if not entries:
        return peer
    return entries[-min(hops, len(entries))]


def session_of(body: bytes) -> str | None:
    """The ``session_hash`` a JSON request body names, if any (never raises)."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    value = data.get("session_hash") if isinstance(data, dict) else None
    return value if isinstance(value, str) and 0 < len(value) <= 256 else None


async def _read_body(receive) -> tuple[bytes, bool]:
    """The whole request body, or (first part, False) once it passes ``MAX_BODY``."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), True
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_BODY:
            return b"".join(chunks), False
        if not message.get("more_body", False):
            return b"".join(chunks), True


async def _answer(send, status: int, message: str) -> None:
    body = orjson.dumps({"detail": message, "ok": False, "caption": "⚠️ " + message})
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", b"1")]})
    await send({"type": "http.response.body", "body": body})


class ClientGuard:
    """ASGI middleware: every POST passes ``limiter`` first (429 when refused); keystroke
    requests are marked :data:`ui.sessions.TRANSIENT` (they need no session state)."""

    def __init__(self, app, limiter: RateLimiter, hops: int | None = None) -> None:
        self.app = app
        self.limiter = limiter
        self.hops = proxy_hops() if hops is None else hops

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        session, replay = None, receive
        if SESSION_PATH.search(path):
            body, whole = await _read_body(receive)
            if not whole:
                await _answer(send, 413, "This request is too large.")
                return
            session = session_of(body)
            replay = _replay(body, receive)
        client = client_address(scope, self.hops)
        if not self.limiter.admit(client, session, new_if_none=bool(NEW_IF_UNNAMED.search(path))):
            await _answer(send, 429, BUSY_MESSAGE)
            return
        token = TRANSIENT.set(bool(KEYSTROKE_PATH.search(path)))
        named = REQUEST_SESSION.set(session)
        try:
            await self.app(scope, replay, send)
        finally:
            REQUEST_SESSION.reset(named)
            TRANSIENT.reset(token)


def _replay(body: bytes, receive):
    """A ``receive`` that gives the app the body already read, then the real stream."""
    sent = False

    async def again():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return again
