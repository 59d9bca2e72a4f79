"""The page on a GPU shows the same numbers as on the CPU (issue #29): one prepared check.

Usage, on a machine with CUDA (about a minute; from the repository root)::

    python -m scripts.gpu_check --device cuda

and anywhere, as a self-test of this script (the CPU against a second CPU copy)::

    python -m scripts.gpu_check --device cpu

Every model the page serves (the zoo, the classifier, the encoder-decoder, the training
snapshots) is loaded twice, on the CPU and on ``--device``. For several sentences and knob
settings it calls, on both, the page's keystroke function
(:func:`explorer.views.grid_payload.grid_payload`) and every view update the
``explorer/ui/*_tab.py``
files call, and compares the two results with :mod:`scripts.page_diff` (equal up to
rounding). Then a timing row: the keystroke's median on each device for a 25-token
sentence, and one forward pass of 32 such sentences. The CPU runs one torch thread, as
the server does (``app.main``).

Prints a table (view, calls, pass/fail, largest difference, first problem) and writes it to
``--report``, else ``$OUT/gpu_check.txt`` when ``OUT`` is set. Exit status: 0 all equal,
1 a view differs or failed, 3 the device asked for is not available here (said plainly).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import torch

from explorer.analysis import run as run_module
from explorer.analysis.snapshots import SnapshotSet, load_snapshots
from explorer.models.device import DeviceError, describe, resolve_device
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, Zoo, load_zoo
from explorer.views import grid_payload as keystroke
from explorer.views.ablate import ablate_view, head_label
from explorer.views.classify import LoadedClassifier, classify_view, load_classifier
from explorer.views.compare import compare_view
from explorer.views.controls import Controls
from explorer.views.explore import clear_heads_view, explore, settled_update
from explorer.views.export import read_npz
from explorer.views.grid_payload import grid_payload
from explorer.views.inside import inside_view
from explorer.views.layers import METHOD_NAMES, layers_view
from explorer.views.lessons import lesson6
from explorer.views.positional import positional_view
from explorer.views.seq2seq import Loaded, load_seq2seq, seq2seq_view
from explorer.views.shapes import shapes_view
from explorer.views.start_here import REPEAT
from explorer.views.take_home import prepare_files, take_home_view
from explorer.views.through_training import training_view
from scripts.page_diff import Diff, differences

NO_DEVICE = 3
BIDIR = "masked word (bidirectional)"
SENTENCES = {
    "story": "Once there was a girl named Mia. Mia had a red ball. One day Mia gave the ball to",
    "repeat": REPEAT,
    "mask": "The animal didn't cross the street because [mask] was too tired.",
}
# (label, sentence, knobs): the default model as it opens, an experiment on it, and the
# other kinds of model (masked-word, ALiBi with 8 heads, learned and sinusoidal tables)
CASES = [
    ("default", "story", Controls(layer=1, head=2)),
    ("experiment", "repeat", Controls(mask="off", scaling="1/√d_model", temperature=2.0,
                                      layer=3, head=1, theme="dark")),
    ("bidir", "mask", Controls(objective=BIDIR, layer=2, head=3)),
    ("alibi-h8", "repeat", Controls(heads=8, pos="alibi", layer=3, head=5)),
    ("learned-h2", "story", Controls(heads=2, pos="learned", mask="on", temperature=0.5)),
    ("sinusoidal-h1", "mask", Controls(heads=1, pos="sinusoidal", layer=1)),
]
CLASSIFY_TEXT = "The little dog was not happy because the rain was cold."
SEQ2SEQ = ("dog moon tree cake ball", "cat sun box")
TIMING_TEXT = ("Once upon a time there was a little dog named Max. Max liked to run in "
               "the park with his big red ball.")  # 25 tokens


@dataclass
class Resources:
    """What the page loads at start-up, on one device."""

    device: str
    tok: Tokenizer
    zoo: Zoo
    classifier: LoadedClassifier
    seq2seq: Loaded
    snapshots: SnapshotSet


def load(device: str, tok: Tokenizer) -> Resources:
    """Every model the page serves, on ``device`` (a fresh copy: nothing cached is shared)."""
    zoo = load_zoo(CHECKPOINT_DIR, vocab_size=tok.vocab_size, device=device)
    return Resources(device, tok, zoo, load_classifier(vocab_size=tok.vocab_size, device=device),
                     load_seq2seq(tok, device=device),
                     load_snapshots(CHECKPOINT_DIR, vocab_size=tok.vocab_size, device=device))


def _values(c: Controls) -> list:
    """The knobs as the page sends them (``parse_controls`` order)."""
    return [c.objective, c.heads, c.pos, c.mask, c.scaling, c.temperature, c.layer, c.head,
            c.theme]


def _files(paths) -> dict:
    """The contents of the prepared downloads (their names differ each time)."""
    if paths[0] is None:
        return {}
    head, grid, npz, doc = (Path(p) for p in paths)
    return {"head_csv": head.read_text(), "grid_csv": grid.read_text(), "npz": read_npz(npz),
            "json": doc.read_text()}


def page_calls(res: Resources, cases=CASES) -> list[tuple[str, str, Callable[[], object]]]:
    """(view, case, call) for every view update the page makes, on ``res``'s models."""
    tok, zoo = res.tok, res.zoo
    batched = getattr(keystroke, "grid_payloads", None)  # a class typing at once, if here
    calls = []
    for i, (label, key, c) in enumerate(cases):
        text = SENTENCES[key]
        other = replace(c, pos="alibi" if c.pos != "alibi" else "rotary")
        off = [head_label(0, 1), head_label(c.layer, c.head)]
        calls += [
            ("keystroke grid_payload", label, lambda t=text, c=c: grid_payload(zoo, tok, t, c)),
            ("explore", label, lambda t=text, c=c: explore(zoo, tok, t, c)),
            ("explore settled_update", label, lambda t=text, c=c: settled_update(zoo, tok, t, c)),
            ("explore clear_heads_view", label,
             lambda c=c: clear_heads_view(zoo, c.objective, c.heads, c.pos)),
            ("inside", label, lambda t=text, c=c: inside_view(zoo, tok, t, c)),
            ("shapes", label, lambda t=text, c=c: shapes_view(zoo, tok, t, c)),
            ("positional", label, lambda t=text, c=c: positional_view(zoo, tok, t, c, 1)),
            ("ablate", label, lambda t=text, c=c, o=off: ablate_view(zoo, tok, t, c, o)),
            ("compare", label, lambda t=text, c=c, o=other: compare_view(zoo, tok, t, c, o)),
            ("take_home", label, lambda t=text, c=c: take_home_view(
                zoo, tok, t, _values(c), "http://127.0.0.1:7860/", "explore")),
            ("take_home files", label,
             lambda t=text, c=c: _files(prepare_files(zoo, tok, t, _values(c)))),
            ("classify", label,
             lambda c=c: classify_view(res.classifier, tok, CLASSIFY_TEXT, c)),
            ("seq2seq", label, lambda c=c: seq2seq_view(
                res.seq2seq, *SEQ2SEQ, 2, c.settings(), c.theme, c.layer, c.head)),
            ("training", label,
             lambda t=text, c=c, i=i: training_view(res.snapshots, tok, t, c, 2 * i)),
        ]
        calls += [(f"layers {m}", label, lambda t=text, c=c, m=m: layers_view(
            zoo, tok, t, c, m, 3, False)) for m in METHOD_NAMES]
        if batched is not None:
            requests = [{"text": t, "controls": _values(c)}
                        for t in (*SENTENCES.values(), text[:12], text[:40], "", TIMING_TEXT)]
            calls.append(("keystroke grid_payloads", label,
                          lambda r=requests, f=batched: f(zoo, tok, r)))
    calls.append(("lessons lesson6", "default", lambda: lesson6("light", 24, zoo)))
    return calls


@dataclass
class Row:
    view: str
    calls: int = 0
    failed: int = 0  # calls that differ beyond rounding or raised
    max_abs: float = 0.0
    first: str = ""


def compare_all(cpu: Resources, dev: Resources) -> list[Row]:
    """Every page call on both, compared; one row per view."""
    rows: dict[str, Row] = {}
    for (view, label, on_cpu), (_, _, on_dev) in zip(page_calls(cpu), page_calls(dev),
                                                      strict=True):
        row = rows.setdefault(view, Row(view))
        row.calls += 1
        try:
            diff = differences(on_cpu(), on_dev())
        except Exception as exc:  # a crash on one device is a failure to report, not to stop
            diff = Diff(problems=[f"raised {type(exc).__name__}: {exc}"])
            traceback.print_exc()
        row.max_abs = max(row.max_abs, diff.max_abs)
        if not diff.ok:
            row.failed += 1
            row.first = row.first or f"[{label}] " + "; ".join(diff.problems[:3])
    return list(rows.values())


def batched_rows(dev: Resources) -> list[Row]:
    """On the device alone: the keystroke's batched path (``analyse_batch``, where this
    version has it) against one sentence at a time, as the page would show both. Shown for
    information, not counted in the result: CPU against GPU is what this check decides."""
    batch = getattr(run_module, "analyse_batch", None)
    if batch is None:
        return []
    model, tok = dev.zoo.get(dev.zoo.default_name), dev.tok
    texts = [TIMING_TEXT[:k] for k in range(5, len(TIMING_TEXT), 9)] + list(SENTENCES.values())
    row = Row("analyse_batch vs alone (device)", calls=len(texts))
    together = batch(model, tok, texts)
    for text, got in zip(texts, together, strict=True):
        alone = run_module.analyse(model, tok, text, detail=False)
        diff = differences(got, alone)
        row.max_abs = max(row.max_abs, diff.max_abs)
        if not diff.ok:
            row.failed += 1
            row.first = row.first or "; ".join(diff.problems[:3])
    return [row]


def _median_ms(fn: Callable[[], object], device: str, reps: int) -> float:
    fn()  # warm: first-call set-up (CUDA kernels, caches) is not the steady state
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        if device.startswith("cuda"):
            torch.cuda.synchronize(device)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def timing(res: Resources, reps: int) -> dict[str, float]:
    """Median ms of one keystroke (25 tokens) and of one forward pass of 32 such sentences."""
    model, tok = res.zoo.get(res.zoo.default_name), res.tok
    ids = tok.encode(TIMING_TEXT)
    tokens = torch.tensor([ids] * 32, device=res.device)

    def forward():
        with torch.inference_mode():
            model(tokens)

    return {"tokens": len(ids),
            "keystroke": _median_ms(lambda: grid_payload(res.zoo, tok, TIMING_TEXT, Controls()),
                                    res.device, reps),
            "batch32": _median_ms(forward, res.device, reps)}


def report(rows: list[Row], times: dict[str, dict[str, float]], header: list[str]) -> str:
    width = max(len(r.view) for r in rows)
    lines = [*header, "", f"{'view':<{width}}  calls  result  max |diff|  first problem"]
    for r in rows:
        result = "PASS" if not r.failed else f"FAIL {r.failed}"
        lines.append(f"{r.view:<{width}}  {r.calls:>5}  {result:<6}  {r.max_abs:>10.2e}  "
                     f"{r.first[:160]}")
    lines.append("")
    for name, t in times.items():
        lines.append(f"timing {name:<12} keystroke grid_payload ({t['tokens']} tokens): "
                     f"{t['keystroke']:7.2f} ms median; forward of 32 x {t['tokens']} tokens: "
                     f"{t['batch32']:7.2f} ms median")
    failed = sum(r.failed for r in rows if not r.view.endswith("(device)"))
    lines += ["", "RESULT: " + ("PASS: every view shows the same numbers up to rounding"
                                if not failed else f"FAIL: {failed} call(s) differ")]
    return "\n".join(lines) + "\n"


def write(text: str, path: str | None) -> None:
    print(text, end="")
    out = path or (str(Path(os.environ["OUT"]) / "gpu_check.txt") if os.environ.get("OUT")
                   else None)
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text)
        print(f"report written to {out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda",
                        help="device to check against the CPU: cuda, cuda:N, cpu (self-test) "
                             "or auto (default: cuda)")
    parser.add_argument("--reps", type=int, default=30, help="timed repetitions (default 30)")
    parser.add_argument("--report", help="where to write the report (default $OUT/gpu_check.txt)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # the CPU as the server runs it
    header = [f"gpu_check: torch {torch.__version__}, CUDA available: "
              f"{torch.cuda.is_available()}, CUDA runtime {torch.version.cuda}, float32 "
              f"matmul precision {torch.get_float32_matmul_precision()!r} (TF32 "
              f"{'on' if torch.backends.cuda.matmul.allow_tf32 else 'off'})"]
    try:
        device = resolve_device(args.device, env={})
    except DeviceError as exc:
        write("\n".join([*header, f"NO DEVICE: {exc} Nothing was checked."]) + "\n",
              args.report)
        return NO_DEVICE
    header.append(f"checking {describe(device)} against cpu (1 torch thread)")
    start = time.perf_counter()
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    cpu, dev = load("cpu", tok), load(device, tok)
    header.append(f"models: {len(dev.zoo.models)} in the zoo (unavailable: "
                  f"{sorted(dev.zoo.unavailable) or 'none'}), classifier "
                  f"{'yes' if dev.classifier.model else 'NO'}, encoder-decoder "
                  f"{'yes' if dev.seq2seq.model else 'NO'}, {len(dev.snapshots)} snapshots")
    rows = compare_all(cpu, dev) + batched_rows(dev)
    times = {"cpu": timing(cpu, args.reps)}
    if device != "cpu":
        times[device] = timing(dev, args.reps)
    text = report(rows, times, header) + f"took {time.perf_counter() - start:.0f} s\n"
    write(text, args.report)
    return 0 if "RESULT: PASS" in text else 1


if __name__ == "__main__":
    sys.exit(main())
