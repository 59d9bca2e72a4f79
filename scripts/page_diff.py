"""Compare two results of the same view "up to rounding": what the GPU check calls equal.

:func:`differences` walks two results side by side (dataclasses, dicts, lists, numpy
arrays, Plotly figures, the page's JSON strings) and returns every place where they
differ by more than rounding, plus the largest numeric difference it saw:

* floats (scalars and arrays): ``|a - b| <= atol + rtol * |b|`` (NaN equals NaN, inf
  equals inf of the same sign); float32 on two devices differs in the last bits only;
* whole percents (``uint8`` arrays: the Explore grid's mosaic) may differ by one, a weight
  that sits on the edge of a percent; other integers and booleans must be equal;
* text must be equal once its numbers are taken out; a number with decimals or a ``%``
  may differ by one unit of its last printed digit (``0.45`` vs ``0.46``, ``45%`` vs
  ``46%``) or, printed in full (an export's float), as much as a float may; other whole
  numbers (counts, layers, heads) must be equal; a number with an exponent (``2e-07``: a
  reading of rounding noise itself) may differ by ``atol``;
* a string that is JSON (``gr.Plot``'s value, a share link's payload) is compared as its
  parsed value, and Plotly's base64 typed arrays (``{"dtype", "bdata"}``) as arrays.

Used by :mod:`scripts.gpu_check`; no torch here, no model.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

ATOL = 1e-4
RTOL = 1e-4
# a number as the page prints it: sign (ASCII or the typographic minus), thousands commas,
# decimals, exponent
NUMBER = re.compile(r"[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_DTYPES = {"i1": np.int8, "u1": np.uint8, "i2": np.int16, "u2": np.uint16, "i4": np.int32,
           "u4": np.uint32, "f4": np.float32, "f8": np.float64}


@dataclass
class Diff:
    """What one comparison found."""

    max_abs: float = 0.0  # largest |a - b| over every float compared
    problems: list[str] = field(default_factory=list)  # "path: what differs"

    @property
    def ok(self) -> bool:
        return not self.problems


def differences(a: Any, b: Any, atol: float = ATOL, rtol: float = RTOL,
                limit: int = 20) -> Diff:
    """Every difference beyond rounding between ``a`` and ``b`` (at most ``limit`` named)."""
    diff = Diff()
    _walk(normalise(a), normalise(b), "", diff, atol, rtol, limit)
    return diff


def normalise(obj: Any, depth: int = 0) -> Any:
    """Plain data: dicts, lists, str, numbers, numpy arrays; figures as their JSON dict."""
    if depth > 40:
        return repr(obj)
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj
    if isinstance(obj, bytes):
        return np.frombuffer(obj, dtype=np.uint8)
    if hasattr(obj, "to_plotly_json"):  # a plotly.graph_objects.Figure
        return normalise(obj.to_plotly_json(), depth + 1)
    if isinstance(obj, dict):
        if "bdata" in obj and "dtype" in obj:  # a Plotly typed array
            return _typed(obj)
        return {str(k): normalise(v, depth + 1) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [normalise(v, depth + 1) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted((normalise(v, depth + 1) for v in obj), key=repr)
    if dataclasses.is_dataclass(obj):
        return {f.name: normalise(getattr(obj, f.name), depth + 1)
                for f in dataclasses.fields(obj)}
    if hasattr(obj, "cpu") and hasattr(obj, "numpy"):  # a torch tensor
        return obj.detach().cpu().numpy()
    if hasattr(obj, "__dict__") and not callable(obj):
        return {k: normalise(v, depth + 1) for k, v in vars(obj).items()
                if not k.startswith("_")}
    return repr(obj)


def _typed(spec: dict) -> np.ndarray:
    arr = np.frombuffer(base64.b64decode(spec["bdata"]), dtype=_DTYPES[spec["dtype"]])
    shape = spec.get("shape")
    if shape:
        arr = arr.reshape([int(s) for s in str(shape).split(",")])
    return arr


def _json(text: str) -> Any:
    """The parsed value of a string that holds a JSON object or list, else None."""
    if len(text) < 2 or text[0] not in "{[" or text[-1] not in "}]":
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _note(diff: Diff, limit: int, path: str, what: str) -> None:
    if len(diff.problems) < limit:
        diff.problems.append(f"{path or '.'}: {what}")
    elif len(diff.problems) == limit:
        diff.problems.append("... (more)")


def _floats_close(a: float, b: float, diff: Diff, atol: float, rtol: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    gap = abs(a - b)
    diff.max_abs = max(diff.max_abs, gap)
    return gap <= atol + rtol * abs(b)


def _walk(a, b, path, diff, atol, rtol, limit) -> None:
    if isinstance(a, str) and isinstance(b, str):
        ja, jb = _json(a), _json(b)
        if ja is not None and jb is not None:
            _walk(normalise(ja), normalise(jb), path + "<json>", diff, atol, rtol, limit)
        else:
            _text(a, b, path, diff, atol, limit)
        return
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _arrays(np.asarray(a), np.asarray(b), path, diff, atol, rtol, limit)
        return
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            _note(diff, limit, path, f"keys differ: {sorted(set(a) ^ set(b))[:5]}")
        for key in sorted(set(a) & set(b)):
            _walk(a[key], b[key], f"{path}.{key}", diff, atol, rtol, limit)
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            _note(diff, limit, path, f"length {len(a)} vs {len(b)}")
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _walk(x, y, f"{path}[{i}]", diff, atol, rtol, limit)
        return
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) \
                and not isinstance(a, bool) and not isinstance(b, bool):
            if not _floats_close(float(a), float(b), diff, atol, rtol):
                _note(diff, limit, path, f"{a!r} vs {b!r}")
            return
    if type(a) is not type(b) or a != b:
        _note(diff, limit, path, f"{_short(a)} vs {_short(b)}")


def _arrays(a: np.ndarray, b: np.ndarray, path, diff, atol, rtol, limit) -> None:
    if a.shape != b.shape:
        _note(diff, limit, path, f"shape {a.shape} vs {b.shape}")
        return
    if a.size == 0:
        return
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        x, y = a.astype(np.float64), b.astype(np.float64)
        both_nan = np.isnan(x) & np.isnan(y)
        same_inf = np.isinf(x) & (x == y)
        finite = np.isfinite(x) & np.isfinite(y)
        with np.errstate(invalid="ignore", over="ignore"):  # inf - inf: handled above
            gap = np.where(finite, np.abs(x - y), 0.0)
        if finite.any():
            diff.max_abs = max(diff.max_abs, float(gap.max()))
        bad = ~(both_nan | same_inf | (finite & (gap <= atol + rtol * np.abs(y))))
    elif a.dtype == np.uint8 and b.dtype == np.uint8:  # whole percents: one either way
        bad = np.abs(a.astype(np.int16) - b.astype(np.int16)) > 1
    elif a.dtype.kind in "biu" and b.dtype.kind in "biu":
        bad = a != b
    else:  # object arrays (labels): element by element
        for i, (x, y) in enumerate(zip(a.ravel().tolist(), b.ravel().tolist(), strict=True)):
            _walk(normalise(x), normalise(y), f"{path}[{i}]", diff, atol, rtol, limit)
        return
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        _note(diff, limit, path, f"{int(bad.sum())} of {a.size} values differ, first at "
                                 f"{where}: {a[where]!r} vs {b[where]!r}")


def _number(text: str) -> tuple[float, float, bool]:
    """(value, one unit of its last printed digit, has an exponent)."""
    clean = text.replace("−", "-").replace(",", "")
    mantissa = re.split(r"[eE]", clean)[0]
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return float(clean), 10.0 ** -decimals, bool(re.search(r"[eE]", clean))


def _text(a: str, b: str, path, diff, atol, limit) -> None:
    if a == b:
        return
    if NUMBER.sub("#", a) != NUMBER.sub("#", b):
        _note(diff, limit, path, f"text differs: {_short(a)} vs {_short(b)}")
        return
    for ma, mb in zip(NUMBER.finditer(a), NUMBER.finditer(b), strict=True):
        x, y = ma.group(), mb.group()
        if x == y:
            continue
        (va, unit, exp_a), (vb, _, exp_b) = _number(x), _number(y)
        if exp_a or exp_b:
            allowed = atol  # "2e-07": a reading of rounding noise itself
        elif unit < 1 or a[ma.end():ma.end() + 1] == "%":
            # one unit of the last printed digit; a number printed in full (an export's
            # repr of a float) as close as an unprinted one
            allowed = max(unit * 1.000001, atol + RTOL * abs(vb))
        else:
            allowed = 0.0  # a whole number that is not a percent: a count, a layer, a head
        if abs(va - vb) > allowed:
            _note(diff, limit, path, f"number {x} vs {y} in {_short(a)}")
            return


def _short(value, n: int = 90) -> str:
    text = repr(value)
    return text if len(text) <= n else text[: n - 1] + "…"
