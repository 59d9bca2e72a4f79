"""Section 1 of ``benchmarks/run_all.py``: the server compute of one update, in process.

The bare forward pass, the captures, ``analyse``, the live path (per keystroke and whole)
and the straightforward path it replaced, at several sentence lengths, interleaved so a
burst of load hits every row alike; the stages of the live update; its bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from benchmarks.common import KB, MODEL, TARGETS, Sentences, log, timed_interleaved, verdict


@dataclass
class Row:
    name: str
    cells: dict[int, str] = field(default_factory=dict)
    target: str = ""
    result: str = ""
    indent: bool = False


def bench_compute(tok, zoo, sentences: Sentences, runs: int, sizes,
                  max_s: float = 10.0) -> tuple[list[Row], dict]:
    import gradio as gr
    import orjson
    import torch

    from explorer.analysis.run import analyse
    from explorer.figures.attention import head_heatmap_spec
    from explorer.figures.head_view import head_view_spec
    from explorer.figures.plotly_json import to_json
    from explorer.figures.predictions import predictions_bar_spec
    from explorer.models.capture import run_with_cache
    from explorer.views.controls import Controls
    from explorer.views.explore import (
        _figure_args,
        explore,
        head_table,
        run_request,
        settled_update,
        status_text,
    )
    from explorer.views.grid_payload import grid_payload

    torch.set_num_threads(1)
    model = zoo.get(MODEL)
    if model is None:
        raise SystemExit(f"{MODEL} is not in the zoo: {zoo.why_missing(MODEL)}")
    plot = gr.Plot()
    controls = Controls()
    key_name = "per keystroke: grid_payload + JSON (canvas)"
    live_name = "whole live update (+ figures after a pause)"
    before_name = "before: explore + gr.Plot postprocess"
    names = ["forward (bare, inference_mode)", "run_with_cache (all hooks)",
             "run_with_cache (patterns only)", "analyse", key_name, live_name, before_name]
    stage_names = ["analyse", "grid payload (canvas)", "head heatmap (spec)",
                   "head view (spec)", "predictions (spec)", "status + head_table",
                   "JSON grid payload", "JSON head", "JSON head view", "JSON predictions"]
    rows = {n: Row(n) for n in names}
    stages = {n: Row("  " + n, indent=True) for n in stage_names}
    size_rows = {k: Row(k) for k in ("bytes per keystroke (grid payload)",
                                     "bytes per whole update (live)", "  grid", "  head",
                                     "  head view", "  predictions", "  status + table",
                                     "  before: bytes per update")}
    raw: dict = {"compute": {}}

    def serialise(fig) -> bytes:  # what the queue sends for one gr.Plot output (old path)
        data = plot.postprocess(fig)
        return b"" if data is None else orjson.dumps(data.model_dump())

    def keystroke(text: str) -> bytes:
        """What the canvas receives per keystroke (ORJSONResponse writes it so)."""
        return orjson.dumps(grid_payload(zoo, tok, text, controls))

    def after_pause(text: str) -> tuple:
        """The settled event: the analysis again, the other figures, table and status."""
        return settled_update(zoo, tok, text, controls)

    def one_size(n: int) -> None:
        text = sentences.get(n)
        ids = torch.tensor([[p[0] for p in tok.token_pieces(text)]])
        assert ids.shape[1] == n

        def bare():
            with torch.inference_mode():
                model(ids)

        def before():
            r = explore(zoo, tok, text, controls)
            return [serialise(f) for f in (r.grid, r.head, r.lines, r.predictions)]

        cases: dict[str, Callable[[], object]] = {
            names[0]: bare,
            names[1]: lambda: run_with_cache(model, ids),
            names[2]: lambda: run_with_cache(model, ids, names="*hook_pattern"),
            names[3]: lambda: analyse(model, tok, text, controls.settings(), layer=0),
            names[4]: lambda: keystroke(text),
            names[5]: lambda: (keystroke(text), after_pause(text)),
            names[6]: before,
        }
        meds = timed_interleaved(cases, runs, max_s)
        base = meds[names[0]][0]
        for name, (med, p95) in meds.items():
            ratio = "" if name == names[0] else f" x{med / base:.1f}"
            rows[name].cells[n] = f"{med:.1f} / {p95:.1f}{ratio}"
        raw["compute"][n] = {k: {"median_ms": v[0], "p95_ms": v[1]} for k, v in meds.items()}

        # Stage breakdown of the live update (medians, ms): the calls a keystroke and the
        # settled event make.
        run = run_request(zoo, tok, text, controls)
        args = _figure_args(run)
        a = run.result
        payload = grid_payload(zoo, tok, text, controls)
        specs = {"head": head_heatmap_spec(**args["head"]),
                 "lines": head_view_spec(**args["lines"]),
                 "preds": predictions_bar_spec(**args["predictions"])}
        stage_fns = {
            "analyse": lambda: analyse(model, tok, text, controls.settings(), layer=0),
            "grid payload (canvas)": lambda: grid_payload(zoo, tok, text, controls),
            "head heatmap (spec)": lambda: head_heatmap_spec(**args["head"]),
            "head view (spec)": lambda: head_view_spec(**args["lines"]),
            "predictions (spec)": lambda: predictions_bar_spec(**args["predictions"]),
            "status + head_table": lambda: (status_text(a, MODEL, zoo),
                                            head_table(a.stats, 0, 0)),
            "JSON grid payload": lambda: orjson.dumps(payload),
            "JSON head": lambda: to_json(specs["head"]),
            "JSON head view": lambda: to_json(specs["lines"]),
            "JSON predictions": lambda: to_json(specs["preds"]),
        }
        for name, (med, _) in timed_interleaved(stage_fns, max(5, runs // 2),
                                                   max_s / 2).items():
            stages[name].cells[n] = f"{med:.1f}"
            raw["compute"][n]["stage " + name] = med

        # Bytes as the queue sends them: each output value as JSON (the figure JSON is a
        # string inside it, so its quotes are escaped once more), plus status and table.
        head, lines, preds, table, status = after_pause(text)
        key_bytes = len(keystroke(text))
        parts = [key_bytes] + [len(orjson.dumps(v)) for v in (head, lines, preds)]
        text_bytes = len(orjson.dumps([status, table]))
        total = sum(parts) + text_bytes
        old = sum(map(len, before())) + text_bytes
        size_rows["bytes per keystroke (grid payload)"].cells[n] = f"{key_bytes / KB:.1f} KB"
        size_rows["bytes per whole update (live)"].cells[n] = f"{total / KB:.1f} KB"
        for key, b in zip(("  grid", "  head", "  head view", "  predictions",
                           "  status + table"), parts + [text_bytes], strict=True):
            size_rows[key].cells[n] = f"{b / KB:.1f}"
        size_rows["  before: bytes per update"].cells[n] = f"{old / KB:.1f} KB"
        raw["compute"][n]["bytes"] = {"total": total, "keystroke": key_bytes,
                                      "parts": parts, "text": text_bytes,
                                      "before": old}
        log(f"compute T={n}: forward {base:.1f} ms, live {meds[live_name][0]:.1f} ms "
            f"(before {meds[before_name][0]:.1f} ms), {total / KB:.0f} KB (before "
            f"{old / KB:.0f} KB)")

    for n in sizes:
        one_size(n)

    for name, target in ((key_name, None), (live_name, "(same, stricter)")):
        checks = [(n, raw["compute"][n][name]["median_ms"], lim)
                  for n, lim in TARGETS["explore_ms"].items() if n in raw["compute"]]
        rows[name].target = target or ", ".join(f"<={lim:g} ms @{n}" for n, _, lim in checks)
        rows[name].result = " ".join(f"{verdict(v <= lim)}@{n}" for n, v, lim in checks)
    for name, key, target in (("bytes per keystroke (grid payload)", "keystroke", None),
                              ("bytes per whole update (live)", "total", "(same, stricter)")):
        bchecks = [(n, raw["compute"][n]["bytes"][key] / KB, lim)
                   for n, lim in TARGETS["bytes_kb"].items() if n in raw["compute"]]
        size_rows[name].target = target or ", ".join(f"<={lim:g} KB @{n}"
                                                     for n, _, lim in bchecks)
        size_rows[name].result = " ".join(f"{verdict(v <= lim)}@{n}" for n, v, lim in bchecks)

    ordered = ([rows[n] for n in names] + [Row("  stages of the whole live update (median ms):",
                                                indent=True)]
               + list(stages.values()) + list(size_rows.values()))
    return ordered, raw


