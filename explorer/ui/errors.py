"""How a view's update fails: the student reads one short message, the server log the rest.

``@guarded("what", fallback)`` wraps an event function of a tab. ``fallback(message)`` is
the update's outputs with ``message`` where the view shows its status (and its figures
empty). A :class:`~explorer.views.controls.BadControl` (a knob or a sentence the server
refuses) says what was wrong, after ⚠️; any other exception is logged with its stack trace
as "<what> failed" and the student reads :data:`FAILED`, never a trace. The wrapper keeps
the function's signature (``functools.wraps``), so Gradio still passes ``gr.Request``.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from explorer.views.controls import BadControl

log = logging.getLogger("attention_explorer")
FAILED = "⚠️ Something went wrong with this request. Please try again."


def guarded(what: str, fallback: Callable[[str], Any]) -> Callable:
    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def run(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except BadControl as exc:
                return fallback(f"⚠️ {exc}")
            except Exception:  # never a stack trace to a student; the log keeps it
                log.exception("%s failed", what)
                return fallback(FAILED)
        return run
    return wrap
