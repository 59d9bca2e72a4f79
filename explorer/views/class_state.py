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
* **The teacher holds the pace and the answer** (issue 49 item 2). What a follower gets is
  :func:`follower_view`: the lead's keys (never an answer: a lead has none, and a step's
  answer opens on a follower's page only when ``revealed``), whether the teacher has let
  the class explore (``released``, :meth:`~Classrooms.pace`) and how many times votes
  were reset (``resets``, :meth:`~Classrooms.reset`: a student's page then offers its
  choices afresh); never the counts. The teacher may hide the counts until the reveal
  (``hide_counts``: :meth:`~Classrooms.answers` then gives how many answered and who, not
  what). Each of these actions costs O(1), whatever the class's size.

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

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from explorer.views.class_checks import (  # noqa: F401 (re-exported: the registry's words)
    ALPHABET,
    CHOICE_CHARS,
    CODE,
    CODE_LENGTH,
    MALFORMED,
    NICKNAME_CHARS,
    STATE_KEYS,
    STEPS,
    ClassEnded,
    ClassError,
    Forbidden,
    Full,
    UnknownClass,
    check_state,
    check_step,
    default_state,
    normal_code,
    plain,
)
from explorer.views.start_here_choices import CHOICES, UNSURE

MAX_CLASSES = 200
MAX_STUDENTS = 500
IDLE_S = 30 * 60.0  # no request from the teacher's page for this long: the class expires
# A full server also drops classes never led and never joined once this old (a script that
# opens classes and does nothing with them cannot keep a real teacher out)
UNUSED_S = 120.0
ENDED = "This class has ended."
# An unknown code is a mistyped one, one never opened, or one this server no longer holds
# (it restarted, or dropped the class long after it ended): the server cannot tell which.
UNKNOWN = ("No class has this code on this server. Check the code with your teacher (a "
           "class also ends when the server restarts).")


def lesson_choices(step: int) -> tuple[str, ...]:
    """What a student may answer to Start here's step ``step`` (1-based, as the page sends
    it): its choices and "Not sure" (a step without choices: only that)."""
    return (*CHOICES.get(step, ()), UNSURE)


@dataclass
class _Class:
    """One class. ``answers``: step -> student id -> choice (the latest wins)."""

    teacher: str
    touched: float  # the teacher's page's last request
    opened: float = 0.0
    version: int = 0
    state: dict = field(default_factory=lambda: default_state())
    students: dict[str, str] = field(default_factory=dict)  # id -> nickname ("" if none)
    numbers: dict[str, int] = field(default_factory=dict)  # id -> n of "student n"
    joined: int = 0  # joins so far: the next student is "student joined + 1"
    released: bool = False  # the teacher let the class explore (Next step, All steps)
    hide_counts: bool = False  # the counts stay hidden until the step's answer is revealed
    resets: int = 0  # how many times the teacher reset a step's votes
    shown: dict = field(default_factory=lambda: follower_view(default_state(), False, 0))
    answers: dict[int, dict[str, str]] = field(default_factory=dict)
    runs: dict[str, int] = field(default_factory=dict)  # student id -> their newest Lab run
    ended: float | None = None  # when it ended (by the teacher or idle), None while open


def follower_view(state: dict, released: bool, resets: int) -> dict:
    """What a follower's page is sent: the lead's own keys only (whatever a lead may hold
    besides, never an answer or a count), the class's pace and its resets. A new dict."""
    return {**{k: state[k] for k in STATE_KEYS}, "released": released, "resets": resets}


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
            room.students, room.numbers, room.answers, room.runs = {}, {}, {}, {}
            room.state = default_state()
            room.shown = follower_view(room.state, False, 0)
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
            room.joined += 1
            room.numbers[student] = room.joined
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
            version = self._publish(room)
            key = normal_code(code)
        self._notify([key])
        return version

    @staticmethod
    def _publish(room: _Class) -> int:
        """(under the lock) The followers' new view of ``room``; its new version."""
        room.shown = follower_view(room.state, room.released, room.resets)
        room.version += 1
        return room.version

    def pace(self, code, token, released=None, hide_counts=None) -> dict:
        """(teacher only) Let the class explore (``released`` true: a follower's page offers
        Next step and All steps) or hold it again, and hide the counts until the reveal or
        show them; None leaves a flag as it is. ``{released, hide_counts}``, as they are now.
        O(1): a change of ``released`` is one new version for every follower."""
        for flag in (released, hide_counts):
            if flag is not None and not isinstance(flag, bool):
                raise ClassError("'released' and 'hide_counts' are true or false.")
        with self._lock:
            room = self._teacher(code, token, self.clock())
            if hide_counts is not None:
                room.hide_counts = hide_counts
            changed = released is not None and released != room.released
            if changed:
                room.released = released
                self._publish(room)
            now = {"released": room.released, "hide_counts": room.hide_counts}
            key = normal_code(code)
        if changed:
            self._notify([key])
        return now

    def reset(self, code, token, step) -> None:
        """(teacher only) Forget every answer to ``step``: the class votes again (each
        follower's page is told, so it offers the choices afresh). O(1) work here."""
        step = check_step(step)
        with self._lock:
            room = self._teacher(code, token, self.clock())
            room.answers.pop(step, None)
            room.resets += 1
            self._publish(room)
            key = normal_code(code)
        self._notify([key])

    def snapshot(self, code) -> tuple[int, dict]:
        """(version, state) of class ``code``: what its followers show (:func:`follower_view`:
        no answer, no counts). The state dict is never changed afterwards; do not change it
        either."""
        with self._lock:
            room = self._get(code, self.clock())
            return room.version, room.shown

    def answer(self, code, student, step, choice) -> None:
        """Student ``student``'s prediction for ``step`` (their latest one counts)."""
        step = check_step(step)
        choice = plain(choice, CHOICE_CHARS)
        if not choice:
            raise ClassError("An answer is a short non-empty text.")
        with self._lock:
            room = self._student(code, student, self.clock())
            if self.choices is not None and choice not in self.choices(step):
                raise ClassError("That is not one of this step's choices.")
            if room.state["step"] == step and room.state["revealed"]:
                raise ClassError("This step's answer has been revealed: too late to predict.")
            room.answers.setdefault(step, {})[student] = choice

    def answers(self, code, token, step) -> dict:
        """The class's answers to ``step`` (teacher only): ``{"answered": n, "students": m,
        "counts": {choice: n}, "who": [name], "hidden", "released", "hide_counts"}``:
        counts most frequent first; ``who``, those who answered in the order they joined
        (their nickname, else "student 7": plain text); ``hidden`` when the teacher hides
        the counts and ``step``'s answer is not revealed: ``counts`` is then empty."""
        step = check_step(step)
        with self._lock:
            room = self._teacher(code, token, self.clock())
            mine = room.answers.get(step, {})
            given = list(mine.values())
            who = sorted((room.numbers.get(s, 0), room.students.get(s, "")) for s in mine)
            students = len(room.students)
            shown = room.state["step"] == step and room.state["revealed"]
            hidden = room.hide_counts and not shown
            flags = {"released": room.released, "hide_counts": room.hide_counts}
        counts: dict[str, int] = {}
        for choice in [] if hidden else given:
            counts[choice] = counts.get(choice, 0) + 1
        ordered = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        names = [name or f"student {n}" for n, name in who]
        return {"answered": len(given), "students": students, "counts": ordered,
                "who": names, "hidden": hidden, **flags}

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
