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
  ~27 kB (explorer/server/sessions.py; a keystroke's own none), 1,000 at most are kept.

There is no fixed rate per address: a class behind one address sends as much as the
class does, and the server answers everyone while it keeps up. What it cannot keep up
with is shared out fairly by session, heaviest first: the keystroke grids wait in one
fair line with one place per session (explorer/server/keystroke_queue.py), and the other updates on
Gradio's queue, one at a time per page.

**Gradio's queue** (every view's update but Explore's grid) is one line for all. So a
session's joins have a bucket of their own, far below the keystroke path's
(``JOINS_PER_S``, bursts of ``JOIN_BURST``: a page joins one event at a time, a few a
second at most while its student clicks through views), and a session may have at most
``QUEUED_PER_SESSION`` events waiting in it (``waiting``, counted from Gradio's queue:
app.start_queue installs it). A flood from a few sessions, or from a hundred behind one
address, then holds two places each, and the class's own events still find room.

**Text is bounded here, once for every view**: a string longer than ``MAX_TEXT`` (a text
box's ``BOX_CHARS``) anywhere in a request's data is cut to that before any handler sees
it (which cuts again to what its model reads, and says so); a body over ``MAX_BODY`` is
refused with HTTP 413 and a message.

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
import inspect
import logging
import os
import re
import threading
import time
from collections import OrderedDict

import orjson

from explorer.server.sessions import TRANSIENT
from explorer.server.threads import name_thread
from explorer.views.controls import BOX_CHARS

log = logging.getLogger("attention_explorer")

# The session hash the request being handled names (None: none), for the keystroke
# queue's one place per session (explorer/server/keystroke_queue.py); set by ClientGuard.
REQUEST_SESSION: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "ae_request_session", default=None)

SESSION_REQUESTS_PER_S = 30.0  # per session: more than a page sends (see above)
SESSION_BURST = 150
NEW_SESSIONS_PER_S = 2.0  # per address, after the burst: a script's loop, reloads now and then
NEW_SESSION_BURST = 500  # per address: a lecture hall of 400 (and some reloads) at once
JOINS_PER_S = 10.0  # per session, Gradio queue joins: a third of the keystrokes
JOIN_BURST = 40
QUEUED_PER_SESSION = 2  # a session's events waiting in Gradio's queue (a page has one)
MAX_TEXT = BOX_CHARS  # characters of any one string in a request's data
MAX_CLIENTS = 4096
MAX_SESSIONS = 16384
# bytes read to find the session hash: a page sends < 10 kB (a full text box of BOX_CHARS
# characters < 60 kB); Patch's two pasted 1 MB sentences still get their cut, more is 413
MAX_BODY = 4 * 1024 * 1024
BUSY_MESSAGE = "The server is busy: too many requests from this page. Trying again in a moment."
# Gradio's compute entry points whose JSON body names the session (or that make one).
SESSION_PATH = re.compile(r"/gradio_api/(queue/join|component_server|run/|call/|api/)")
NEW_IF_UNNAMED = re.compile(r"/gradio_api/(run|call|api)/")  # Gradio makes a session
KEYSTROKE_PATH = re.compile(r"/gradio_api/component_server/?$")
HTTP_THREAD = "ae-http"  # the event loop's thread in the OS: it answers every request
JOIN_PATH = re.compile(r"/gradio_api/queue/join/?$")
# Server functions answered by the guard itself, not Gradio's component_server route: the
# keystroke's grid (explorer/ui/explore_tab.py). That route cost ~4 ms of a core per request (a
# pydantic body, the session's state, special arguments, FastAPI's JSON encoding of a
# 10-60 kB answer) around a ~0.6 ms forward pass; same body, same answer, same guard.
DIRECT_FNS = frozenset({"grid_data"})


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
                 max_sessions: int = MAX_SESSIONS, clock=time.monotonic,
                 joins_per_s: float = JOINS_PER_S, join_burst: int = JOIN_BURST,
                 queued_per_session: int = QUEUED_PER_SESSION) -> None:
        self.new_session_limit = (new_sessions_per_s, float(new_session_burst))
        self.session_limit = (session_requests_per_s, float(session_burst))
        self.join_limit = (joins_per_s, float(join_burst))
        self.queued_per_session = queued_per_session
        # session hash -> its events waiting in Gradio's queue, and the app whose
        # DIRECT_FNS are answered here (app.start_queue sets both)
        self.waiting = None
        self.blocks = None
        self.max_clients, self.max_sessions = max_clients, max_sessions
        self.clock = clock
        self._clients: OrderedDict[str, list[float]] = OrderedDict()  # address -> [tokens, t]
        self._sessions: OrderedDict[str, list[float]] = OrderedDict()  # hash -> [tokens, t]
        self._joins: OrderedDict[str, list[float]] = OrderedDict()  # hash -> [tokens, t]
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

    def admit_join(self, session: str | None, joining: int = 0) -> bool:
        """Whether ``session`` may join Gradio's queue now (after :meth:`admit`): a token
        of its join bucket, and fewer than ``queued_per_session`` events waiting, counting
        ``joining`` joins of it already admitted but not yet in the queue."""
        if session is None:
            return True  # Gradio refuses a join naming no session itself
        waiting = joining + (self.waiting(session) if self.waiting is not None else 0)
        if waiting >= self.queued_per_session:
            self.refused += 1
            return False
        rate, burst = self.join_limit
        now = self.clock()
        with self._lock:
            bucket = self._take(self._joins, session, lambda: [burst, now], self.max_sessions)
            _refill(bucket, rate, burst, now)
            if bucket[0] < 1:
                self.refused += 1
                return False
            bucket[0] -= 1
            return True

    def __len__(self) -> int:
        return len(self._clients)


def queued_counter(blocks):
    """``waiting`` for a :class:`RateLimiter`: how many events a session has waiting (not
    yet at work) in ``blocks``' Gradio queue, read when asked (the queue is made by
    ``blocks.queue()``). The lines hold at most ``max_size`` events together; those at
    work are bounded by the concurrency limits. (Counting those at work too refused a
    page's own second event: Take it home's one click starts two.)"""
    def waiting(session: str) -> int:
        queue = getattr(blocks, "_queue", None)
        lines = getattr(queue, "event_queue_per_concurrency_id", None) or {}
        return sum(1 for line in list(lines.values()) for event in list(line.queue)
                   if event.session_hash == session)
    return waiting


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


def read_json(body: bytes):
    """The JSON a request body holds, or None (never raises)."""
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return None


def session_of(body: bytes | object) -> str | None:
    """The ``session_hash`` a JSON request body (bytes, or already read) names, if any
    (never raises)."""
    data = read_json(body) if isinstance(body, bytes) else body
    value = data.get("session_hash") if isinstance(data, dict) else None
    return value if isinstance(value, str) and 0 < len(value) <= 256 else None


def cut_texts(value, depth: int = 0):
    """(``value`` with every string over ``MAX_TEXT`` characters cut to ``MAX_TEXT``, whether
    any was). ``value``: a JSON body's ``data`` (a list of component values; a keystroke's
    {text, controls}), looked at 4 levels deep."""
    if isinstance(value, str):
        return (value[:MAX_TEXT], True) if len(value) > MAX_TEXT else (value, False)
    if depth >= 4 or not isinstance(value, (dict, list)):
        return value, False
    items = value.items() if isinstance(value, dict) else enumerate(value)
    cut = [(k, *cut_texts(v, depth + 1)) for k, v in items]
    if not any(c for _, _, c in cut):
        return value, False
    if isinstance(value, dict):
        return {k: v for k, v, _ in cut}, True
    return [v for _, v, _ in cut], True


def _bounded(scope: dict, body: bytes, data) -> tuple[dict, bytes]:
    """(scope, body) with the body's over-long strings cut (``cut_texts``): the handlers
    then cut again to what a model reads and say so, as for any long text."""
    if not isinstance(data, dict):
        return scope, body
    texts, cut = cut_texts(data.get("data"))
    if not cut:
        return scope, body
    body = orjson.dumps({**data, "data": texts})
    headers = [(k, v) for k, v in scope.get("headers", ()) if k != b"content-length"]
    return {**scope, "headers": [*headers, (b"content-length", str(len(body)).encode())]}, body


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
    requests are marked :data:`explorer.server.sessions.TRANSIENT` (they need no session state)."""

    def __init__(self, app, limiter: RateLimiter, hops: int | None = None) -> None:
        self.app = app
        self.limiter = limiter
        self.hops = proxy_hops() if hops is None else hops
        # session -> its joins admitted and not yet answered (pushed into the queue): many
        # sent at once all pass a count of the queue alone. Touched on the event loop only.
        self._joining: dict[str, int] = {}
        self._named = False  # the event loop's thread, named once (explorer/server/threads.py)

    async def __call__(self, scope, receive, send) -> None:
        if not self._named:
            self._named = True
            name_thread(HTTP_THREAD)
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        session, replay, data = None, receive, None
        if SESSION_PATH.search(path):
            body, whole = await _read_body(receive)
            if not whole:
                await _answer(send, 413, "This request is too large.")
                return
            data = read_json(body)
            scope, body = _bounded(scope, body, data)
            session = session_of(data)
            replay = _replay(body, receive)
        client = client_address(scope, self.hops)
        joining = session if session and JOIN_PATH.search(path) else None
        if not self.limiter.admit(client, session, new_if_none=bool(NEW_IF_UNNAMED.search(path))) \
                or (joining and not self.limiter.admit_join(joining,
                                                            self._joining.get(joining, 0))):
            await _answer(send, 429, BUSY_MESSAGE)
            return
        if joining:
            self._joining[joining] = self._joining.get(joining, 0) + 1
        keystroke = bool(KEYSTROKE_PATH.search(path))
        direct = direct_fn(self.limiter.blocks, data) if keystroke else None
        token = TRANSIENT.set(keystroke)
        named = REQUEST_SESSION.set(session)
        try:
            if direct is not None:
                await _direct(send, direct, data)
            else:
                await self.app(scope, replay, send)
        finally:
            REQUEST_SESSION.reset(named)
            TRANSIENT.reset(token)
            if joining:
                left = self._joining.pop(joining) - 1
                if left:
                    self._joining[joining] = left


def direct_fn(blocks, data):
    """The server function a keystroke's body names, when it is one of ``DIRECT_FNS`` on a
    component of ``blocks`` (an async function of one argument), else None."""
    if blocks is None or not isinstance(data, dict) or data.get("fn_name") not in DIRECT_FNS:
        return None
    block = getattr(blocks, "blocks", {}).get(data.get("component_id"))
    fn = getattr(block, data["fn_name"], None)
    ok = getattr(fn, "_is_server_fn", False) and inspect.iscoroutinefunction(fn)
    return fn if ok else None


async def _direct(send, fn, data) -> None:
    """``fn(data["data"])`` answered as Gradio's component_server route answers it (its
    JSON), without that route: no pydantic body, session state, special arguments or
    FastAPI encoding; the answer is a plain dict (explorer.views.grid_payload)."""
    try:
        body = orjson.dumps(await fn(data.get("data")))
        status = 200
    except Exception:  # never a stack trace to a student; the details go to the log
        log.exception("a direct server function failed")
        body, status = orjson.dumps({"detail": "Something went wrong."}), 500
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


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
