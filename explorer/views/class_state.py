"""Class mode's state (issue 43): the classes a server holds, who may lead them, what the students
follow and what they predicted. Pure Python; the HTTP side is ``explorer/server/class_route.py``.

One :class:`Classrooms` per served app (nothing at module level), every method under one
lock, so the route layer may call it from the event loop or from worker threads alike.

* :meth:`Classrooms.open` gives a short class code (students type it or scan it) and a
  secret teacher token (only the teacher's page holds it); only that token can
  :meth:`~Classrooms.lead`, read the class's :meth:`~Classrooms.answers` or
  :meth:`~Classrooms.end` it.
* A lead replaces the class's one *state* (step, view, sentence, knobs, revealed) and bumps
  its *version*; a follower asks :meth:`~Classrooms.snapshot` for ``(version, state)`` and
  shows the state when the version is newer than the one it has.

**Waiting for the next lead (push).** This module owns no thread, condition or event loop:
waiting is the route layer's business (asyncio there, no thread per waiter). The registry
only says when to wake: ``on_change(code)`` (settable after construction) is called after
every accepted lead and when a class ends or is dropped, outside the lock. The route
layer's hook wakes every waiter of that class at once; each then reads the snapshot. A
state is never mutated after it is stored (a lead stores a new dict), so a snapshot can be
handed out without copying and serialized once per version.

* A student may give a nickname (:meth:`~Classrooms.rename`; plain text, cut at
  ``NICKNAME_CHARS``); the teacher's :meth:`~Classrooms.roster` lists them. A student's
  Lab run joins the class (:func:`record_run`, from the Lab's Train); the teacher's
  :meth:`~Classrooms.runs` gives each student's newest one (explorer/views/class_lab.py
  draws them).

**Bounds** (memory per class is bounded; see the constants): at most ``max_classes`` classes
(ended and expired ones are dropped first to make room), ``max_students`` a class, one answer per
student per step (``STEPS`` steps), one Lab run per student, and every string cut or refused at its
bound. A class whose teacher's page has asked nothing for ``idle_s`` expires (the teacher's page
asks several times a second while it is open, about once a minute in a background tab;
students' joins and answers do not keep a class alive, so a script that joins cannot); an ended
or expired class
answers :class:`ClassEnded` ("This class has ended") until it is dropped; a code the server does
not know (a restart loses every class) answers :class:`UnknownClass`, which says the same so that a
page can tell its student.
"""

from __future__ import annotations

import math
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from explorer.views.start_here_choices import CHOICES, UNSURE

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read off a projector
CODE_LENGTH = 6
CODE = re.compile(f"^[{ALPHABET}]{{{CODE_LENGTH}}}$")
MAX_CLASSES = 200
MAX_STUDENTS = 500
IDLE_S = 30 * 60.0  # no request from the teacher's page for this long: the class expires
# A full server also drops classes never led and never joined once this old (a script that
# opens classes and does nothing with them cannot keep a real teacher out)
UNUSED_S = 120.0
STEPS = 21  # a step is 0..20
NICKNAME_CHARS = 24
CHOICE_CHARS = 80
TEXT_CHARS = 10_000
MAX_KNOBS = 20
KNOB_CHARS = 200  # a knob's string value
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")  # a view's or a knob's name
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
STATE_KEYS = ("step", "view", "text", "knobs", "revealed")
ENDED = "This class has ended."
# An unknown code is a mistyped one, one never opened, or one this server no longer holds
# (it restarted, or dropped the class long after it ended): the server cannot tell which.
UNKNOWN = ("No class has this code on this server. Check the code with your teacher (a "
           "class also ends when the server restarts).")
MALFORMED = (f"That is not a class code: a code is {CODE_LENGTH} letters and digits, "
             "like K7PX2M.")


def lesson_choices(step: int) -> tuple[str, ...]:
    """What a student may answer to Start here's step ``step`` (1-based, as the page sends
    it): its choices and "Not sure" (a step without choices: only that)."""
    return (*CHOICES.get(step, ()), UNSURE)


class ClassError(Exception):
    """A refused request: ``status`` is the HTTP status the route answers, the message
    is for the person (plain text)."""

    status = 400


class Forbidden(ClassError):
    status = 403


class UnknownClass(ClassError):
    status = 404


class ClassEnded(ClassError):
    status = 410


class Full(ClassError):
    status = 429


@dataclass
class _Class:
    """One class. ``answers``: step -> student id -> choice (the latest wins)."""

    teacher: str
    touched: float  # the teacher's page's last request
    opened: float = 0.0
    version: int = 0
    state: dict = field(default_factory=lambda: default_state())
    students: dict[str, str] = field(default_factory=dict)  # id -> nickname ("" if none)
    answers: dict[int, dict[str, str]] = field(default_factory=dict)
    runs: dict[str, int] = field(default_factory=dict)  # student id -> their newest Lab run
    ended: float | None = None  # when it ended (by the teacher or idle), None while open


def default_state() -> dict:
    """What a follower sees before the teacher's first lead."""
    return {"step": None, "view": "start", "text": "", "knobs": {}, "revealed": False}


def plain(value, limit: int) -> str:
    """``value`` as plain one-line text: control and direction characters out, spaces at
    the ends stripped, at most ``limit`` characters. Not a string: refused."""
    if not isinstance(value, str):
        raise ClassError("Expected text.")
    return CONTROL.sub("", value).strip()[:limit]


def _step(value, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < STEPS:
        raise ClassError(f"A step is a whole number from 0 to {STEPS - 1}.")
    return value


def _knob(name, value):
    if not isinstance(name, str) or not NAME.match(name):
        raise ClassError("A knob's name is a short identifier (letters, digits, _ or -).")
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ClassError(f"Knob {name}: not a finite number.")
        return value
    if isinstance(value, str) and len(value) <= KNOB_CHARS:
        return value
    raise ClassError(f"Knob {name}: a number, true/false or text of at most "
                     f"{KNOB_CHARS} characters.")


def check_state(state) -> dict:
    """The state a lead sends, validated and bounded into a new dict (missing keys take
    :func:`default_state`'s values); anything else is refused with a message."""
    if not isinstance(state, dict):
        raise ClassError("The teacher's state is a JSON object.")
    extra = sorted(set(state) - set(STATE_KEYS))
    if extra:
        raise ClassError(f"Unknown part of the state: {extra[0][:40]!r} "
                         f"(allowed: {', '.join(STATE_KEYS)}).")
    out = {**default_state(), **state}
    out["step"] = _step(out["step"], allow_none=True)
    if not isinstance(out["view"], str) or not NAME.match(out["view"]):
        raise ClassError("A view is a short name (letters, digits, _ or -).")
    if not isinstance(out["text"], str) or len(out["text"]) > TEXT_CHARS:
        raise ClassError(f"The sentence is text of at most {TEXT_CHARS:,} characters.")
    knobs = out["knobs"]
    if not isinstance(knobs, dict) or len(knobs) > MAX_KNOBS:
        raise ClassError(f"Knobs are an object of at most {MAX_KNOBS} name: value pairs.")
    out["knobs"] = {k: _knob(k, v) for k, v in knobs.items()}
    if not isinstance(out["revealed"], bool):
        raise ClassError("'revealed' is true or false.")
    return out


def normal_code(code) -> str:
    """A code as typed (any case, spaces around) in its stored form; unknown if malformed."""
    code = code.strip().upper() if isinstance(code, str) else ""
    if not CODE.match(code):
        raise UnknownClass(MALFORMED)
    return code


class Classrooms:
    """The classes one server holds (see the module docstring). ``clock``: seconds,
    injectable for tests; ``on_change(code)``: called after a lead, an end or a drop;
    ``choices(step)``: the answers a step accepts (anything else is refused, so a script
    cannot fill the teacher's counts with made-up ones; None: any short text)."""

    def __init__(self, max_classes: int = MAX_CLASSES, max_students: int = MAX_STUDENTS,
                 idle_s: float = IDLE_S, clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[str], None] | None = None,
                 choices: Callable[[int], tuple[str, ...]] | None = lesson_choices) -> None:
        self.max_classes, self.max_students, self.idle_s = max_classes, max_students, idle_s
        self.choices = choices
        self.clock = clock
        self.on_change = on_change
        self._classes: dict[str, _Class] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._classes)

    def _notify(self, codes) -> None:
        hook = self.on_change
        if hook is not None:
            for code in codes:
                hook(code)

    def _expire(self, room: _Class, now: float) -> bool:
        """Whether ``room`` has ended (ending it now if idle too long); an ended class
        keeps only what its "has ended" answer needs."""
        if room.ended is None and now - room.touched >= self.idle_s:
            room.ended = now
            room.students, room.answers, room.runs = {}, {}, {}
            room.state = default_state()
        return room.ended is not None

    def _get(self, code, now: float) -> _Class:
        room = self._classes.get(normal_code(code))
        if room is None:
            raise UnknownClass(UNKNOWN)
        if self._expire(room, now):
            raise ClassEnded(ENDED)
        return room

    def _teacher(self, code, token, now: float) -> _Class:
        """Class ``code`` if ``token`` is its teacher's; any teacher request keeps it open."""
        room = self._get(code, now)
        if not isinstance(token, str) or not secrets.compare_digest(
                token.encode(), room.teacher.encode()):
            raise Forbidden("Only the teacher's page can do this.")
        room.touched = now
        return room

    def _make_room(self, now: float) -> list[str]:
        """Drops ended (and now expired) classes, those that ended first first, then classes
        never led nor joined for ``UNUSED_S``, oldest first, until one more fits; the codes
        dropped."""
        ended = sorted((room.ended, code) for code, room in self._classes.items()
                       if self._expire(room, now))
        unused = sorted((room.opened, code) for code, room in self._classes.items()
                        if room.ended is None and room.version == 0 and not room.students
                        and now - room.opened >= UNUSED_S)
        dropped = []
        for _, code in ended + unused:
            if len(self._classes) < self.max_classes:
                break
            dropped.append(code)
            del self._classes[code]
        return dropped

    def open(self) -> tuple[str, str]:
        """A new class: (its code, its teacher's token)."""
        now = self.clock()
        with self._lock:
            dropped = self._make_room(now) if len(self._classes) >= self.max_classes else []
            if len(self._classes) >= self.max_classes:
                raise Full(f"This server already holds {self.max_classes} classes; "
                           "try again later.")
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
            while code in self._classes:
                code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
            token = secrets.token_urlsafe(24)
            self._classes[code] = _Class(teacher=token, touched=now, opened=now)
        self._notify(dropped)
        return code, token

    def join(self, code, nickname=None) -> str:
        """A new student of class ``code``: their id (a secret of their page's)."""
        name = "" if nickname is None else plain(nickname, NICKNAME_CHARS)
        with self._lock:
            room = self._get(code, self.clock())
            if len(room.students) >= self.max_students:
                raise Full(f"This class is full ({self.max_students} students).")
            student = secrets.token_urlsafe(12)
            room.students[student] = name
            return student

    def _student(self, code, student, now: float) -> _Class:
        room = self._get(code, now)
        if not isinstance(student, str) or student not in room.students:
            raise Forbidden("This page has not joined this class (join it again).")
        return room

    def rename(self, code, student, nickname) -> str:
        """Student ``student`` gives (or clears) their nickname; the cleaned one."""
        name = plain(nickname, NICKNAME_CHARS)
        with self._lock:
            self._student(code, student, self.clock()).students[student] = name
        return name

    def roster(self, code, token) -> dict:
        """(teacher only) ``{"students": n, "nicknames": [...]}``: how many joined and the
        nicknames given (sorted, plain text, each at most ``NICKNAME_CHARS``)."""
        with self._lock:
            room = self._teacher(code, token, self.clock())
            names = sorted(n for n in room.students.values() if n)
            return {"students": len(room.students), "nicknames": names}

    def add_run(self, code, student, run_id) -> None:
        """Student ``student`` pressed Train in the Lab: their run is ``run_id`` (their
        newest replaces an earlier one: one run a student, so at most ``max_students``)."""
        if isinstance(run_id, bool) or not isinstance(run_id, int):
            raise ClassError("A run is a whole number.")
        with self._lock:
            self._student(code, student, self.clock()).runs[student] = run_id

    def runs(self, code, token) -> list[int]:
        """(teacher only) The newest Lab run of each student who trained one."""
        with self._lock:
            return list(self._teacher(code, token, self.clock()).runs.values())

    def lead(self, code, token, state) -> int:
        """The teacher's new state for every follower; its version."""
        state = check_state(state)
        with self._lock:
            room = self._teacher(code, token, self.clock())
            room.state = state
            room.version += 1
            version, key = room.version, normal_code(code)
        self._notify([key])
        return version

    def snapshot(self, code) -> tuple[int, dict]:
        """(version, state) of class ``code``: what its followers show. The state dict is
        never changed afterwards; do not change it either."""
        with self._lock:
            room = self._get(code, self.clock())
            return room.version, room.state

    def answer(self, code, student, step, choice) -> None:
        """Student ``student``'s prediction for ``step`` (their latest one counts)."""
        step = _step(step)
        choice = plain(choice, CHOICE_CHARS)
        if not choice:
            raise ClassError("An answer is a short non-empty text.")
        with self._lock:
            room = self._student(code, student, self.clock())
            if self.choices is not None and choice not in self.choices(step):
                raise ClassError("That is not one of this step's choices.")
            room.answers.setdefault(step, {})[student] = choice

    def answers(self, code, token, step) -> dict:
        """The class's answers to ``step`` (teacher only): ``{"answered": n, "students": m,
        "counts": {choice: n}}``, counts most frequent first."""
        step = _step(step)
        with self._lock:
            room = self._teacher(code, token, self.clock())
            given = list(room.answers.get(step, {}).values())
            students = len(room.students)
        counts: dict[str, int] = {}
        for choice in given:
            counts[choice] = counts.get(choice, 0) + 1
        ordered = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        return {"answered": len(given), "students": students, "counts": ordered}

    def end(self, code, token) -> None:
        """The teacher ends the class: every follower is told so."""
        now = self.clock()
        with self._lock:
            room = self._teacher(code, token, now)
            room.touched = now - self.idle_s  # expires at once, by the one rule
            self._expire(room, now)
            key = normal_code(code)
        self._notify([key])


def record_run(rooms: Classrooms | None, tag, run_id: int) -> bool:
    """The Lab's side: a press of Train from a page in class mode sends its tag, ``"CODE
    student"`` (static/class.js); its run joins that class's chart. Anything else (no
    class, a bad or stale tag) leaves the run unrecorded: the student's own run goes on.
    True if recorded."""
    if rooms is None or not isinstance(tag, str) or len(tag) > 100:
        return False
    code, _, student = tag.strip().partition(" ")
    try:
        rooms.add_run(code, student, run_id)
    except ClassError:
        return False
    return True
