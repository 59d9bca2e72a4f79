"""Class mode over HTTP (issue 43): the routes under ``/ae-class/`` that a teacher's page and
its students' pages talk to; the state itself is explorer/views/class_state.py.

One ASGI middleware, :class:`ClassRoutes`, answers every request under :data:`PREFIX` and
passes all others on (as explorer/server/engine_route.py does). It owns the app's one
:class:`~explorer.views.class_state.Classrooms` (``.rooms``). Every answer is JSON with
``Cache-Control: no-store``; a refusal is ``{"ok": false, "message"}`` with its status
(400 bad input, 403 not the teacher / not a student of it, 404 unknown class, 405, 410
ended, 413 body over 64 kB, 429 full or too many opens), plus ``"ended": true`` when the
class is gone (404: the server restarted or the class was dropped; 410: it ended).

========================================  =========================================
``POST /ae-class/open``                   ``{code, teacher, join: "?class=CODE", link, note}``
``POST /ae-class/<code>/join``            body ``{nickname?}`` -> ``{student}``
``GET  /ae-class/<code>/follow?since=V``  ``{version, state}`` / ``{version}`` (timeout)
``POST /ae-class/<code>/lead``            body ``{state, teacher?}`` -> ``{version}``
``POST /ae-class/<code>/answer``          body ``{student, step, choice}`` -> ``{ok}``
``GET  /ae-class/<code>/answers?step=N``  ``{answered, students, counts, who, hidden,
                                          released, hide_counts}`` (teacher)
``POST /ae-class/<code>/pace``            body ``{released?, hide_counts?}`` -> both
                                          (teacher: let the class explore, hide counts)
``POST /ae-class/<code>/reset``           body ``{step}`` -> ``{ok}`` (teacher: the step's
                                          votes forgotten)
``POST /ae-class/<code>/end``             ``{ok}``
``GET  /ae-class/<code>/qr``               ``{svg, link, note}``: the class's join link as a QR code
``POST /ae-class/<code>/nickname``        body ``{student, nickname}`` -> ``{nickname}``
``GET  /ae-class/<code>/roster``          ``{students, nicknames}`` (teacher)
``GET  /ae-class/<code>/lab``             the class's Lab runs as one chart (teacher;
                                          explorer/views/class_lab.py)
========================================  =========================================

The teacher's token goes in the ``X-AE-Teacher`` header (or ``teacher`` in a POST body),
never in a URL. **Following is a long poll**: ``follow`` answers at once when the class's
version is not ``since`` (a newer lead, or a page that lost count), else it waits up to
``wait_s`` (25 s) for the next lead on one ``asyncio.Event`` per class: no thread and no
task per waiter, one lead wakes them all (the registry's ``on_change`` hook sets the
event), and the ``{version, state}`` JSON is built once per version and sent to each.
A timeout answers ``{version: since}``; the page asks again. The ``state`` a follower gets is
the registry's follower view (the lead's keys, ``released``, ``resets``): never a step's
answer, never the counts (only the teacher's token reads ``answers``).

Opening classes is limited per client address (``OPENS_PER_S`` after ``OPEN_BURST``, by the
client guard's token buckets and address rule); the client guard in front of this
middleware (explorer/server/client_guard.py) lets these POSTs through: they name no Gradio
session, so a class of 500 behind one address is never refused there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from urllib.parse import parse_qs

import orjson

from explorer.server.class_qr import JoinQRs
from explorer.server.client_guard import RateLimiter, client_address, proxy_hops
from explorer.views.class_lab import class_lab
from explorer.views.class_state import (
    ClassEnded,
    ClassError,
    Classrooms,
    Full,
    UnknownClass,
    normal_code,
)

log = logging.getLogger("attention_explorer")

PREFIX = "/ae-class/"
MAX_BODY = 64 * 1024
WAIT_S = 25.0  # under the 30-60 s after which proxies and browsers give up on a request
MAX_WAITERS = 1000  # per class: its 500 students, their reloads and the teacher
OPEN_BURST = 20  # classes one address may open at once (a school's teachers)
OPENS_PER_S = 1 / 30  # and then one every 30 s
HEADERS = [(b"content-type", b"application/json"), (b"cache-control", b"no-store")]
ACTIONS = {"join": "POST", "follow": "GET", "lead": "POST", "answer": "POST",
           "answers": "GET", "end": "POST", "qr": "GET", "nickname": "POST",
           "roster": "GET", "lab": "GET", "pace": "POST", "reset": "POST"}


class _Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def _body(scope, receive) -> dict:
    """The request's JSON object ({} when empty); 413 past :data:`MAX_BODY`, 400 if not
    a JSON object."""
    declared = dict(scope.get("headers") or []).get(b"content-length", b"0")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise _Refused(413, "This request is too large.")
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > MAX_BODY:
            raise _Refused(413, "This request is too large.")
        if not message.get("more_body", False):
            break
    raw = b"".join(chunks)
    try:
        data = orjson.loads(raw) if raw.strip() else {}
    except orjson.JSONDecodeError:
        data = None
    if not isinstance(data, dict):
        raise _Refused(400, "The request's body is not a JSON object.")
    return data


def _query_int(scope, name: str, default: int | None = None) -> int:
    """The whole number ``?name=`` of the URL (``default`` when absent); else 400."""
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(name)
    if not values and default is not None:
        return default
    raw = values[0].strip() if values else ""
    if not raw.removeprefix("-").isdigit() or len(raw) > 18:
        raise _Refused(400, f"'{name}' is a whole number.")
    return int(raw)


class ClassRoutes:
    """ASGI middleware: class mode's routes under :data:`PREFIX` (see the module
    docstring), all else passed on. ``classrooms``: the registry (default: a new one);
    ``wait_s``: how long a follow waits; ``hops``: as the client guard's; ``lab``: gives
    the app's Lab runner (None: no Lab, an empty chart)."""

    def __init__(self, app, classrooms: Classrooms | None = None, wait_s: float = WAIT_S,
                 hops: int | None = None, lab: Callable[[], object] | None = None) -> None:
        self.app = app
        self.lab = lab or (lambda: None)
        # (not `classrooms or ...`: a registry with no class yet has len 0, so is falsy)
        self.rooms = classrooms if classrooms is not None else Classrooms()
        self.rooms.on_change = self._changed
        self.wait_s = wait_s
        self.hops = proxy_hops() if hops is None else hops
        self._opens = RateLimiter(new_sessions_per_s=OPENS_PER_S, new_session_burst=OPEN_BURST)
        self._qrs = JoinQRs(self.rooms.max_classes)  # each class's link, its QR drawn once
        self._loop: asyncio.AbstractEventLoop | None = None
        # per class: the event its followers wait on (replaced after each wake), how many
        # wait, and the JSON of its latest {version, state}. Touched on the loop only.
        self._events: dict[str, asyncio.Event] = {}
        self._waiting: dict[str, int] = {}
        self._bodies: dict[str, tuple[int, bytes]] = {}

    def _changed(self, code: str) -> None:
        """The registry's hook (any thread): wake class ``code``'s followers on the loop."""
        loop = self._loop
        if loop is None:
            return  # nobody has followed yet: nobody waits
        try:
            here = asyncio.get_running_loop() is loop
        except RuntimeError:
            here = False
        if here:
            self._wake(code)
        elif not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, code)

    def _wake(self, code: str) -> None:
        self._bodies.pop(code, None)
        event = self._events.pop(code, None)
        if event is not None:
            event.set()

    async def __call__(self, scope, receive, send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith(PREFIX):
            return await self.app(scope, receive, send)
        self._loop = self._loop or asyncio.get_running_loop()
        try:
            status, answer = await self._route(scope, receive, path[len(PREFIX):])
        except (ClassEnded, UnknownClass) as err:
            status, answer = err.status, {"ok": False, "ended": True, "message": str(err)}
        except ClassError as err:
            status, answer = err.status, {"ok": False, "message": str(err)}
        except _Refused as err:
            status, answer = err.status, {"ok": False, "message": str(err)}
        except Exception:  # never a stack trace to a page; the details go to the log
            log.exception("a class request failed")
            status, answer = 500, {"ok": False, "message": "Something went wrong."}
        body = answer if isinstance(answer, bytes) else orjson.dumps(answer)
        await send({"type": "http.response.start", "status": status, "headers": [
            *HEADERS, (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    async def _route(self, scope, receive, rest: str) -> tuple[int, dict | bytes]:
        method = scope.get("method")
        if rest == "open":
            if method != "POST":
                raise _Refused(405, "Open a class with POST.")
            return 200, self._open(scope)
        code, _, action = rest.partition("/")
        if action not in ACTIONS:
            raise _Refused(404, "No such class request.")
        if method != ACTIONS[action]:
            raise _Refused(405, f"Use {ACTIONS[action]} for '{action}'.")
        if action == "follow":
            return 200, await self._follow(code, _query_int(scope, "since", 0))
        if action == "qr":
            return 200, await self._qr(code)
        headers = dict(scope.get("headers") or [])
        teacher = headers.get(b"x-ae-teacher", b"").decode("latin-1") or None
        if action == "answers":
            return 200, self.rooms.answers(code, teacher, _query_int(scope, "step"))
        if action == "roster":
            return 200, self.rooms.roster(code, teacher)
        if action == "lab":
            return 200, self._lab(code, teacher)
        data = await _body(scope, receive)
        teacher = teacher or data.get("teacher")
        if action == "join":
            return 200, {"student": self.rooms.join(code, data.get("nickname"))}
        if action == "lead":
            return 200, {"version": self.rooms.lead(code, teacher, data.get("state"))}
        if action == "nickname":
            return 200, {"nickname": self.rooms.rename(code, data.get("student"),
                                                       data.get("nickname"))}
        if action == "pace":
            return 200, self.rooms.pace(code, teacher, data.get("released"),
                                        data.get("hide_counts"))
        if action == "reset":
            self.rooms.reset(code, teacher, data.get("step"))
            return 200, {"ok": True}
        if action == "answer":
            self.rooms.answer(code, data.get("student"), data.get("step"), data.get("choice"))
            return 200, {"ok": True}
        self.rooms.end(code, teacher)
        return 200, {"ok": True}

    async def _qr(self, code: str) -> dict:
        """The class's own join link (fixed at open: explorer/server/class_qr.py) as a QR
        code for the projector, drawn once, off the event loop."""
        self.rooms.snapshot(code)  # an unknown or ended class: its message
        key = normal_code(code)
        svg = await self._qrs.svg(key)
        if svg is None:
            raise _Refused(404, "No join link is known for this class.")
        return {"svg": svg, "link": self._qrs.link(key), "note": self._qrs.note(key)}

    def _lab(self, code: str, teacher) -> dict:
        """The class's Lab chart: its students' newest runs, one curve per settings."""
        run_ids = self.rooms.runs(code, teacher)  # the teacher's only
        runner = self.lab()
        return class_lab(runner.curves(run_ids) if runner is not None and run_ids else [])

    def _open(self, scope) -> dict:
        if not self._opens.admit(client_address(scope, self.hops), None, new_if_none=True):
            raise Full("Too many classes opened from this address; try again in a minute.")
        code, teacher = self.rooms.open()
        link = self._qrs.remember(code, scope)
        return {"code": code, "teacher": teacher, "join": f"?class={code}", "link": link,
                "note": self._qrs.note(code)}

    async def _follow(self, code: str, since: int) -> dict | bytes:
        """The class's ``{version, state}`` once its version is not ``since`` (at once, or
        at the next lead), or ``{version: since}`` after ``wait_s``."""
        version, state = self.rooms.snapshot(code)
        key = normal_code(code)  # the registry accepted it: its stored form
        if version == since:
            if self._waiting.get(key, 0) >= MAX_WAITERS:
                raise Full("Too many pages follow this class.")
            event = self._events.get(key) or self._events.setdefault(key, asyncio.Event())
            self._waiting[key] = self._waiting.get(key, 0) + 1
            try:
                async with asyncio.timeout(self.wait_s):
                    await event.wait()
            except TimeoutError:
                pass
            finally:
                self._waiting[key] -= 1
                if not self._waiting[key]:
                    del self._waiting[key]
                    if self._events.get(key) is event:
                        del self._events[key]  # nobody waits on it any more
            version, state = self.rooms.snapshot(code)  # ended meanwhile: raises
            if version == since:
                return {"version": since}
        cached = self._bodies.get(key)
        if cached is None or cached[0] != version:
            cached = self._bodies[key] = (version, orjson.dumps({"version": version,
                                                                 "state": state}))
        return cached[1]
