"""What class mode accepts from a page (issue 43): a class code, a step, plain one-line
text, the state a teacher's lead sends (every part bounded), and the errors a refused
request raises (each with the HTTP status the route answers). The registry that uses them:
explorer/views/class_state.py.
"""

from __future__ import annotations

import math
import re

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read off a projector
CODE_LENGTH = 6
CODE = re.compile(f"^[{ALPHABET}]{{{CODE_LENGTH}}}$")
STEPS = 21  # a step is 0..20
NICKNAME_CHARS = 24
CHOICE_CHARS = 80
TEXT_CHARS = 10_000
MAX_KNOBS = 20
KNOB_CHARS = 200  # a knob's string value
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")  # a view's or a knob's name
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
STATE_KEYS = ("step", "view", "text", "knobs", "revealed")
MALFORMED = (f"That is not a class code: a code is {CODE_LENGTH} letters and digits, "
             "like K7PX2M.")


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


def default_state() -> dict:
    """What a follower sees before the teacher's first lead."""
    return {"step": None, "view": "start", "text": "", "knobs": {}, "revealed": False}


def plain(value, limit: int) -> str:
    """``value`` as plain one-line text: control and direction characters out, spaces at
    the ends stripped, at most ``limit`` characters. Not a string: refused."""
    if not isinstance(value, str):
        raise ClassError("Expected text.")
    return CONTROL.sub("", value).strip()[:limit]


def check_step(value, allow_none: bool = False) -> int | None:
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
    out["step"] = check_step(out["step"], allow_none=True)
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
