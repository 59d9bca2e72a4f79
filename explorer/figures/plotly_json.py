"""Plotly figures as plain dicts, written to JSON fast: the live path's serialiser.

A *figure spec* is ``{"data": [trace dicts], "layout": {...}}`` (optionally ``"config"``)
holding str, int, float, bool, None, lists, dicts (read-only ``MappingProxyType`` too) and
numpy arrays. :func:`to_json` writes it with ``orjson``; every numpy array becomes a
Plotly typed array ``{"dtype": "f4", "bdata": <base64>, "shape": "T, T"}`` exactly as
plotly.py (>= 6) writes it in ``go.Figure.to_json()`` -- same bytes decoded, checked in
tests/figures/test_live_figures.py -- without plotly.py's deep copy of the figure, its
per-property validation and its per-array module probing, which cost more than the
model's forward pass on the live path (benchmarks/run_all.py measures both).

:func:`plot_value` is what Gradio's ``gr.Plot`` sends to the browser for a figure
(``PlotData(type="plotly", plot=json).model_dump()``), built directly so an event can
run with ``postprocess=False``. No gradio import here: it is just the dict.
"""

from __future__ import annotations

import base64
from types import MappingProxyType
from typing import Any

import numpy as np
import orjson

# numpy dtype -> Plotly.js typed-array name (plotly.py's table; bool is sent as a list)
_SHORT = {"int8": "i1", "uint8": "u1", "int16": "i2", "uint16": "u2", "int32": "i4",
          "uint32": "u4", "float32": "f4", "float64": "f8"}


def typed_array(arr: np.ndarray) -> Any:
    """A numpy array as plotly.py writes it: int64 narrowed to the smallest signed type
    that holds it, a ``shape`` string for 2-D and up, a plain list when empty or bool."""
    if arr.size == 0 or arr.dtype == np.bool_:
        return arr.tolist()
    if arr.dtype == np.int64:
        low, high = int(arr.min()), int(arr.max())
        for small in (np.int8, np.int16, np.int32):
            info = np.iinfo(small)
            if info.min <= low and high <= info.max:
                arr = arr.astype(small)
                break
        else:
            return arr.tolist()
    name = _SHORT.get(str(arr.dtype))
    if name is None:
        return arr.tolist()
    spec = {"dtype": name, "bdata": base64.b64encode(np.ascontiguousarray(arr)).decode("ascii")}
    if arr.ndim > 1:
        spec["shape"] = str(arr.shape)[1:-1]
    return spec


def _default(obj: Any) -> Any:
    if isinstance(obj, np.ndarray):
        return typed_array(obj)
    if isinstance(obj, MappingProxyType):
        return dict(obj)
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, tuple):
        return list(obj)
    raise TypeError(f"cannot write {type(obj).__name__} as Plotly JSON")


def to_json(fig: dict) -> str:
    """The figure as Plotly JSON text (NaN floats outside arrays become null, as in
    plotly.py). Raises TypeError on a value that is not plain data."""
    return orjson.dumps(fig, default=_default).decode()


def plot_value(fig: dict | None) -> dict | None:
    """What ``gr.Plot`` sends for ``fig`` (None: an empty plot)."""
    return None if fig is None else {"type": "plotly", "plot": to_json(fig)}
