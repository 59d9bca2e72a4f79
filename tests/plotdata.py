"""Read what a gr.Plot output really holds: Plotly JSON with base64 typed arrays."""

import base64
import json

import numpy as np


def figure_json(output) -> dict:
    """gradio_client's value for a gr.Plot -> the Plotly figure dict."""
    assert output is not None, "the plot is empty"
    return json.loads(output["plot"]) if isinstance(output, dict) else json.loads(output)


def decode_array(value) -> np.ndarray:
    """A Plotly typed array ({dtype, bdata, shape}) or a plain list -> numpy."""
    if isinstance(value, dict) and "bdata" in value:
        arr = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        if "shape" in value:
            shape = value["shape"]
            shape = [int(s) for s in shape.split(",")] if isinstance(shape, str) else shape
            arr = arr.reshape(shape)
        return arr
    return np.asarray(value, dtype=np.float64)


def heatmaps(fig: dict) -> list[np.ndarray]:
    return [decode_array(t["z"]) for t in fig["data"] if t.get("type") == "heatmap"]
