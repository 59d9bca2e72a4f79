"""What the proposed speed fixes would buy, measured before anyone edits the project.

    python -m benchmarks.whatif            # compute + bytes, then both servers (~3 min)
    python -m benchmarks.whatif --quick    # fewer runs, no browser
    python -m benchmarks.whatif --serve    # (internal) the patched app, for the server part

Every fix is applied by monkeypatching in *this* process (or in the patched server
process); no project file changes. Each row adds one fix to the ones above it, so the
last row is all of them together; all rows come from the same run:

1. ``fast JSON``: figure builders return their plain dicts (``explorer.figures._figure``
   without ``go.Figure``), serialised by ``orjson`` with a ``default=`` hook that writes
   numpy arrays as Plotly typed arrays -- the same JSON as ``fig.to_json()`` (checked
   below), without plotly.py's deep copy and per-array narwhals/optional-import probing.
2. ``logits at one position``: ``W_U`` applied to the predicted position only (here: the
   last, the causal default) instead of all T rows.
3. ``grid z as uint8 percent``: 16 T^2 bytes instead of 64 T^2; hover ``%{z}%``.
4. ``head: customdata once``: the masked-cells trace of ``head_heatmap`` stops carrying a
   second copy of the [T, T, 2] float32 scores.
5. ``head view: top 3 keys per query`` (a design change: fewer lines at long T).

The server part starts three servers and alternates requests between them: the real
``python app.py``; (A) the same app with fixes 1-4 plus ``preprocess=False,
postprocess=False`` on every live event (Gradio then skips one worker-thread hop per
input and output component: 16 per update) and ``ticklabeloverflow="allow"``/no mode bar
in the figure JSON; (B) A plus the grid drawn as one mosaic heatmap trace, returned with
the status by the keystroke's own event while the other three figures come from a
chained ``.then()`` event (B's round trip is therefore the grid's). It measures the round
trip and (without ``--quick``) keystroke -> grid drawn in Chromium against each.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import sys
import time
from types import MappingProxyType

import numpy as np

from benchmarks.run_all import (
    KB,
    MODEL,
    AppServer,
    Sentences,
    bench_browser,
    log,
    pct,
    timed_interleaved,
)

SIZES = (8, 32, 64, 128)


# --------------------------------------------------------------------------- the fixes


def _typed(arr: np.ndarray):
    """A numpy array as Plotly's typed-array spec, exactly as plotly.py writes it."""
    if arr.size == 0:
        return arr.tolist()
    if arr.dtype == np.int64:
        arr = arr.astype(np.int32)
    elif arr.dtype == np.bool_:
        return arr.tolist()
    arr = np.ascontiguousarray(arr)
    spec = {"dtype": {"float32": "f4", "float64": "f8", "int8": "i1", "uint8": "u1",
                      "int16": "i2", "uint16": "u2", "int32": "i4", "uint32": "u4"}[
                          str(arr.dtype)],
            "bdata": base64.b64encode(arr).decode("ascii")}
    if arr.ndim > 1:
        spec["shape"] = str(arr.shape)[1:-1]
    return spec


def _default(obj):
    if isinstance(obj, np.ndarray):
        return _typed(obj)
    if isinstance(obj, MappingProxyType):
        return dict(obj)
    if isinstance(obj, np.generic):
        return obj.item()
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def fast_json(fig: dict) -> str:
    import orjson

    return orjson.dumps(fig, default=_default).decode()


def plot_payload(fig) -> dict | None:
    """What ``gr.Plot`` sends for a figure (``PlotData.model_dump()``), built directly."""
    if fig is None:
        return None
    return {"type": "plotly", "plot": fast_json(fig)}


def grid_u8(fig: dict) -> dict:
    data = []
    for t in fig["data"]:
        if t.get("type") == "heatmap":
            t = {**t, "z": np.rint(np.asarray(t["z"]) * 100).astype(np.uint8),
                 "hovertemplate": t["hovertemplate"].replace("%{z:.4f}", "%{z}%")}
        data.append(t)
    layout = dict(fig["layout"])
    layout["coloraxis"] = {**layout["coloraxis"], "cmax": 100.0}
    return {"data": data, "layout": layout}


def head_once(fig: dict) -> dict:
    data = [dict(t) for t in fig["data"]]
    for t in data[1:]:  # the masked-cells trace
        if "customdata" in t:
            del t["customdata"]
            t["hovertemplate"] = t["hovertemplate"].split("<br>raw score")[0] + "<extra></extra>"
    return {"data": data, "layout": fig["layout"]}


def browser_cheap(fig: dict) -> dict:
    """No tick-label overflow measuring (most of the head heatmap's draw time), no mode bar."""
    layout = dict(fig["layout"])
    for key, value in list(layout.items()):
        if key.startswith(("xaxis", "yaxis")) and isinstance(value, dict):
            layout[key] = {**value, "ticklabeloverflow": "allow"}
    return {"data": fig["data"], "layout": layout, "config": {"displayModeBar": False}}


def mosaic_grid(grid: dict) -> dict:
    """The 16-panel grid as ONE heatmap trace (panels side by side, uint8 percent, gaps
    painted over by shapes) on one hidden axis pair: one image and 2 axes for Plotly.js to
    lay out instead of 16 images and 32 axes. Hover keeps query/key token and weight
    (tick text of the hidden axes), not the position number or the L/H name."""
    layout = grid["layout"]
    traces = [t for t in grid["data"] if t.get("type") == "heatmap"]
    rows, cols = layout["grid"]["rows"], layout["grid"]["columns"]
    n = np.asarray(traces[0]["z"]).shape[0]
    gap = max(1, round(n * 0.2))
    step = n + gap
    z = np.zeros((rows * step - gap, cols * step - gap), np.uint8)
    for i, t in enumerate(traces):
        r, c = divmod(i, cols)
        z[r * step:r * step + n, c * step:c * step + n] = np.rint(np.asarray(t["z"]) * 100)
    labels = layout["template"]["layout"]["xaxis"]["ticktext"]
    pos_x = [c * step + k for c in range(cols) for k in range(n)]
    pos_y = [r * step + k for r in range(rows) for k in range(n)]
    axis = {"showticklabels": False, "showgrid": False, "zeroline": False, "ticks": "",
            "tickmode": "array", "ticklabeloverflow": "allow", "fixedrange": True}
    out = {k: v for k, v in layout.items()
           if not k.startswith(("xaxis", "yaxis", "grid", "annotations", "shapes", "template"))}
    out["coloraxis"] = {**layout["coloraxis"], "cmax": 100.0}
    out["template"] = {}
    out["meta"] = {"tokens": n}  # for benchmarks/run_all.py's browser probe
    out["xaxis"] = {**axis, "tickvals": pos_x, "ticktext": labels * cols,
                    "range": [-0.5, cols * step - gap - 0.5]}
    out["yaxis"] = {**axis, "tickvals": pos_y, "ticktext": labels * rows,
                    "range": [rows * step - gap - 0.5, -0.5]}
    bg = layout.get("plot_bgcolor") or layout.get("paper_bgcolor") or "white"
    shapes = [{"type": "rect", "xref": "x", "yref": "y", "layer": "above", "line": {"width": 0},
               "fillcolor": bg, "x0": c * step - gap - 0.5, "x1": c * step - 0.5,
               "y0": -0.5, "y1": rows * step - gap - 0.5} for c in range(1, cols)]
    shapes += [{"type": "rect", "xref": "x", "yref": "y", "layer": "above", "line": {"width": 0},
                "fillcolor": bg, "y0": r * step - gap - 0.5, "y1": r * step - 0.5,
                "x0": -0.5, "x1": cols * step - gap - 0.5} for r in range(1, rows)]
    out["shapes"] = shapes
    out["annotations"] = [{"text": a["text"], "xref": "x", "yref": "y", "x": c * step + n / 2,
                           "y": r * step - 0.5, "yanchor": "bottom", "showarrow": False,
                           "font": a.get("font", {"size": 11})}
                          for i, a in enumerate(layout["annotations"])
                          for r, c in [divmod(i, cols)]]
    hover = "query %{y}<br>key %{x}<br>weight %{z}%<extra></extra>"
    return {"data": [{"type": "heatmap", "z": z, "coloraxis": "coloraxis",
                      "hovertemplate": hover}], "layout": out}


def top_k_keys(patterns: np.ndarray, k: int = 3) -> np.ndarray:
    out = np.zeros_like(patterns)
    idx = np.argsort(-patterns, axis=-1)[..., :k]
    np.put_along_axis(out, idx, np.take_along_axis(patterns, idx, -1), -1)
    return out


class LastPositionLogits:
    """``model.W_U`` on the last position only (what a causal model's guesses need)."""

    def __init__(self, model) -> None:
        self.model, self.w_u = model, model.W_U

    def __enter__(self):
        import torch

        w_u = self.w_u

        class Last(torch.nn.Module):
            def forward(self, x):
                return w_u(x[:, -1:]).expand(x.shape[0], x.shape[1], -1)

        self.model.W_U = Last()
        return self

    def __exit__(self, *exc):
        self.model.W_U = self.w_u


@contextlib.contextmanager
def plain_dict_figures():
    from explorer import figures

    original = figures._figure
    figures._figure = lambda data, layout: {"data": data, "layout": layout}
    try:
        yield
    finally:
        figures._figure = original


@contextlib.contextmanager
def head_view_top_k(k: int = 3):
    from explorer import figures, views

    original = figures.head_view

    def patched(patterns_layer, tokens, **kw):
        return original(top_k_keys(np.asarray(patterns_layer), k), tokens, **kw)

    views.figures.head_view = patched
    try:
        yield
    finally:
        views.figures.head_view = original


# --------------------------------------------------------------------------- compute


def compute(tok, zoo, sentences: Sentences, runs: int, sizes) -> list[tuple[str, dict]]:
    import gradio as gr
    import orjson
    import torch

    from explorer.views import Controls, explore

    torch.set_num_threads(1)
    model = zoo.get(MODEL)
    plot = gr.Plot()
    controls = Controls()

    def gradio_update(text):
        r = explore(zoo, tok, text, controls)
        parts = [orjson.dumps(plot.postprocess(f).model_dump())
                 for f in (r.grid, r.head, r.lines, r.predictions)]
        return parts, r

    def fast_update(text, u8=False, once=False):
        r = explore(zoo, tok, text, controls)
        grid = grid_u8(r.grid) if u8 else r.grid
        head = head_once(r.head) if once else r.head
        parts = [orjson.dumps(plot_payload(f)) for f in (grid, head, r.lines, r.predictions)]
        return parts, r

    # Same JSON as Gradio's path (checked, not assumed).
    text = sentences.get(32)
    slow = [json.loads(json.loads(p)["plot"]) for p in gradio_update(text)[0]]
    with plain_dict_figures():
        fast = [json.loads(json.loads(p)["plot"]) for p in fast_update(text)[0]]
    assert slow == fast, "fast JSON differs from fig.to_json()"

    variants = [
        ("now: explore + gr.Plot postprocess", lambda t: gradio_update(t), []),
        ("1 fast JSON (no go.Figure, orjson)", lambda t: fast_update(t), ["dicts"]),
        ("2 + logits at one position", lambda t: fast_update(t), ["dicts", "last"]),
        ("3 + grid z as uint8 percent", lambda t: fast_update(t, u8=True), ["dicts", "last"]),
        ("4 + head: customdata once", lambda t: fast_update(t, True, True), ["dicts", "last"]),
        ("5 + head view: top 3 keys/query", lambda t: fast_update(t, True, True),
         ["dicts", "last", "topk"]),
    ]
    def case(fn, patches, text):
        def run():
            with contextlib.ExitStack() as stack:
                if "dicts" in patches:
                    stack.enter_context(plain_dict_figures())
                if "last" in patches:
                    stack.enter_context(LastPositionLogits(model))
                if "topk" in patches:
                    stack.enter_context(head_view_top_k(3))
                return fn(text)
        return run

    rows: list[tuple[str, dict]] = [(name, {}) for name, _, _ in variants]
    for n in sizes:
        text = sentences.get(n)
        cases = {name: case(fn, patches, text) for name, fn, patches in variants}
        times = timed_interleaved(cases, runs, 15)  # interleaved: the same load for every row
        for (name, cells), run in zip(rows, cases.values(), strict=True):
            parts, r = run()
            text_bytes = len(orjson.dumps([r.status, r.head_table]))
            cells[n] = (*times[name], (sum(map(len, parts)) + text_bytes) / KB,
                        [len(p) / KB for p in parts])
        log(f"whatif T={n}: " + ", ".join(f"{c[n][0]:.0f}" for _, c in rows) + " ms")
    return rows


# --------------------------------------------------------------------------- patched server


def serve(split: bool = False) -> None:
    """The real app with fixes 1-4, preprocess/postprocess off and cheap-to-draw JSON.
    ``split``: also the grid as one mosaic trace, sent (with the status) by the key's own
    event, and the other figures by a ``.then()`` event, so the browser draws and paints
    the grid before it starts on the rest."""
    import logging

    import torch

    import app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    torch.set_num_threads(1)
    from explorer import figures

    figures._figure = lambda data, layout: {"data": data, "layout": layout}
    tok, zoo = app.load_resources()
    for model in zoo.models.values():
        if model.config.causal:
            LastPositionLogits(model).__enter__()
    demo = app.build_app(tok, zoo)
    grid_ids = None
    for block_fn in demo.fns.values():
        outs = [getattr(b, "elem_id", None) for b in block_fn.outputs]
        if "grid" not in outs or block_fn.fn is None:
            continue
        grid_ids = outs
        original = block_fn.fn

        def patched(*args, _original=original, _outs=tuple(outs)):
            values = list(_original(*args))
            for i, (elem, value) in enumerate(zip(_outs, values, strict=True)):
                if isinstance(value, dict) and "data" in value and "layout" in value:
                    if elem == "grid":
                        value = grid_u8(value)
                    elif elem == "head-large":
                        value = head_once(value)
                    values[i] = plot_payload(browser_cheap(value))
            return values

        block_fn.fn = patched
        block_fn.preprocess = False
        block_fn.postprocess = False
    if grid_ids is None:
        raise SystemExit("no event of the app outputs #grid")
    if split:
        _split_events(demo, tok, zoo)
    demo.queue(**app.QUEUE)
    demo.launch(server_name="127.0.0.1", server_port=int(os.environ["GRADIO_SERVER_PORT"]),
                **app.LAUNCH)


def _split_events(demo, tok, zoo) -> None:
    import gradio as gr

    from explorer.views import explore, parse_controls

    by_elem = {getattr(b, "elem_id", None): b for b in demo.blocks.values()}
    box = by_elem["sentence"]
    live = next(bf for bf in demo.fns.values()
                if any(tuple(t)[:2] == (box._id, "input") for t in bf.targets))
    live.targets = []  # the original keystroke event: never triggered any more
    grid, big, lines, preds, status, table = (
        by_elem[e] for e in ("grid", "head-large", "head-view", "predictions", "status",
                             "head-table"))

    def first(text, *values):
        *controls, _active = values
        r = explore(zoo, tok, text, parse_controls(*controls))
        if r.grid is None:
            return None, r.status, r
        return plot_payload(mosaic_grid(r.grid)), r.status, r

    def rest(r):
        if r is None or r.head is None:
            return None, None, None, "" if r is None else r.head_table
        return (plot_payload(browser_cheap(head_once(r.head))),
                plot_payload(browser_cheap(r.lines)),
                plot_payload(browser_cheap(r.predictions)), r.head_table)

    with demo:
        cache = gr.State()
        event = box.input(first, live.inputs, [grid, status, cache], show_progress="hidden",
                          trigger_mode="always_last", preprocess=False, postprocess=False,
                          api_name=False)
        event.then(rest, cache, [big, lines, preds, table], show_progress="hidden",
                   preprocess=False, postprocess=False, api_name=False)


def roundtrips(servers: list[AppServer], sentences: Sentences,
               runs: int) -> list[dict[int, list[float]]]:
    """Raw queue round trips, alternating between the servers request by request so that
    both see the same background load."""
    import uuid

    import httpx

    from benchmarks.run_all import queue_update

    deps = [s.sentence_dependency() for s in servers]
    out: list[dict[int, list[float]]] = [{32: [], 128: []} for _ in servers]
    clients = [httpx.Client(base_url=s.url, timeout=30) for s in servers]
    sessions = [uuid.uuid4().hex[:11] for _ in servers]
    try:
        for n in (32, 128):
            for i in range(runs + 2):
                for k, (c, (fn_index, trigger, make_data)) in enumerate(
                        zip(clients, deps, strict=True)):
                    t0 = time.perf_counter()
                    ok, _ = queue_update(c, fn_index, trigger, sessions[k],
                                         make_data(sentences.get(n, i % 5)))
                    if not ok:
                        raise RuntimeError("update failed")
                    if i >= 2:
                        out[k][n].append((time.perf_counter() - t0) * 1e3)
    finally:
        for c in clients:
            c.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--split", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int)
    parser.add_argument("--keys", type=int, default=10, help="keys typed per server")
    args = parser.parse_args()
    if args.serve:
        serve(split=args.split)
        return
    runs = args.runs or (10 if args.quick else 30)
    command = "python -m benchmarks.whatif" + "".join(" " + a for a in sys.argv[1:])
    log(f"{command}  (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")

    from app import load_resources

    tok, zoo = load_resources()
    sentences = Sentences(tok)
    rows = compute(tok, zoo, sentences, runs, SIZES)

    names = ["now: python app.py", "A: fixes 1-4, pre/postprocess off, cheap axes",
             "B: A + mosaic grid sent first, rest in .then()"]
    patched = [sys.executable, "-m", "benchmarks.whatif", "--serve"]
    servers = [AppServer(), AppServer(patched), AppServer([*patched, "--split"])]
    system = [[name] for name in names]
    try:
        for server in servers:
            log(f"starting {' '.join(server.cmd[1:])} ...")
            server.start()
        rts = roundtrips(servers, sentences, 15 if args.quick else 40)
        for line, rt in zip(system, rts, strict=True):
            line += [f"{pct(rt[32], 50):.1f} / {pct(rt[32], 95):.1f}",
                     f"{pct(rt[128], 50):.1f} / {pct(rt[128], 95):.1f}"]
        if not args.quick:
            for line, server in zip(system, servers, strict=True):
                log(f"Chromium against {line[0]} ...")
                lat = bench_browser(server, sentences, args.keys, 60).get("latency", [])
                line.append(f"{pct(lat, 50):.0f} / {pct(lat, 95):.0f} ({len(lat)} keys)")
    finally:
        for server in servers:
            server.stop()

    print(f"$ {command}")
    print(f"# load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"compute cells: median ms / p95 ms / KB per update; each row adds one fix")
    w = max(len(r[0]) for r in rows) + 1
    print(f"{'':<{w}}" + "".join(f"{'T=' + str(n):>26}" for n in SIZES))
    for name, cells in rows:
        print(f"{name:<{w}}" + "".join(
            f"{f'{c[0]:.1f} / {c[1]:.1f} / {c[2]:.0f} KB':>26}" for c in cells.values()))
        print(f"{'   KB grid/head/view/preds':<{w}}" + "".join(
            f"{'/'.join(f'{b:.0f}' for b in c[3]):>26}" for c in cells.values()))
    print()
    sw = max(len(s[0]) for s in system) + 1
    head = ["round trip T=32 p50/p95 ms", "T=128 p50/p95 ms"]
    if not args.quick:
        head.append("key -> grid drawn p50/p95 ms")
    print(f"{'':<{sw}}" + "".join(f"{h:>32}" for h in head))
    for s in system:
        print(f"{s[0]:<{sw}}" + "".join(f"{c:>32}" for c in s[1:]))


if __name__ == "__main__":
    main()
