"""Numbers as a student reads them: never in e-notation.

Python's ``g`` and ``e`` formats write a tiny difference as ``6e-08``, which a student
was never taught to read. :func:`plain_number` says it in words ("less than 0.0001"),
and writes every other size as an ordinary decimal. Figures and views use it wherever a
measured size (a difference, a weight, a rounding error) is printed into text.
"""

from __future__ import annotations

import math

TINY = 1e-4  # below this a size is "less than 0.0001": rounding, for every view here
TINY_WORDS = "less than 0.0001"


def plain_number(value: float, digits: int = 2) -> str:
    """A size (a magnitude, not a signed value) in ordinary decimals: ``0`` when it is
    exactly zero, :data:`TINY_WORDS` when it is smaller than :data:`TINY`, otherwise
    ``digits`` significant digits (``g`` never switches to e-notation from 0.0001 up to
    10 ** digits; larger numbers are written whole)."""
    value = abs(float(value))
    if value == 0.0:
        return "0"
    if not math.isfinite(value):
        return "∞" if math.isinf(value) else "not a number"
    if value < TINY:
        return TINY_WORDS
    if value >= 10 ** digits:
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"
