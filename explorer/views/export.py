"""Take it home: the current capture as files a student or teacher can keep.

:func:`export_capture` runs one forward pass of the chosen model on the sentence
(the same bounds and settings as the live views) and keeps the attention patterns
and raw scores of every layer and head. The writers turn it into:

* ``attention-L{l}H{h}.csv`` -- one head as a matrix: the header row is
  ``query \\ key`` then one label per key token, each row a query token then its
  weights;
* ``attention-all-heads.csv`` -- every head in long form: ``layer, head, query,
  key, weight``;
* ``attention-capture.npz`` -- ``patterns`` and ``scores`` ``[layer, head, q, k]``
  float32, ``ids`` int64, ``tokens`` (unicode; numpy drops trailing NUL characters,
  so the exact tokens are also in ``meta``) and ``meta`` (a JSON string with the
  settings and tokens); readable with ``np.load(path, allow_pickle=False)``;
* ``attention-capture.json`` -- the same content as JSON.

Token labels in CSV files are ``"{position}:{token}"`` (``"3: cat"``): positions
keep repeated words apart, and a label can never start with ``=``, ``+``, ``-``
or ``@``, so a spreadsheet never takes a token for a formula. CSV files are
UTF-8 with a byte-order mark (``utf-8-sig``) so spreadsheets read any script.
Weights are written exactly: ``repr`` of the float32 value as a Python float,
which reads back to the same float32 bit for bit; JSON does the same.

:func:`stamp` writes under a figure what it shows (the app, the model, "as trained" or
the experiment, and the sentence), so a picture saved for slides still says it.

Files are written per request into a fresh directory under :data:`EXPORT_ROOT`
(``tempfile.mkdtemp``: unique, mode 0700), never to a shared name; directories
older than :data:`MAX_AGE_S` are removed whenever a new one is made. No gradio.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import shutil
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from explorer.analysis.run import prepare
from explorer.figures.labels import ELLIPSIS, safe_text
from explorer.models.capture import run_with_cache
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer

log = logging.getLogger(__name__)

FORMAT = "attention-explorer-capture"
VERSION = 1
EXPORT_ROOT = Path(tempfile.gettempdir()) / "attention-explorer-exports"
PREFIX = "export-"
CSV_ENCODING = "utf-8-sig"  # the BOM makes spreadsheet programs read UTF-8 as UTF-8
MAX_AGE_S = 5 * 60  # Gradio copies a returned file into its own cache at once


@dataclass
class Capture:
    model: str  # checkpoint name
    tokens: list[str]  # each token as typed
    ids: list[int]
    patterns: np.ndarray  # [layer, head, q, k] float32, rows sum to 1
    scores: np.ndarray  # [layer, head, q, k] float32, raw q·kᵀ before scaling and mask
    settings: dict = field(default_factory=dict)  # JSON-safe description of the knobs
    joiner: str = ""  # what joins the tokens into the text ("" for the zoo's, which carry
    # their spaces; " " for a Lab model's words: explorer/models/lab_tokenizer.py)

    @property
    def empty(self) -> bool:
        return not self.tokens

    @property
    def text(self) -> str:
        return self.joiner.join(self.tokens)


def export_capture(model: Transformer, tok: Tokenizer, text: str, name: str,
                   settings: AttentionSettings | None = None,
                   describe: dict | None = None) -> Capture:
    """Patterns and raw scores of every layer and head for the sentence.

    ``describe`` is merged into ``settings`` (e.g. the UI's control values); the
    resolved numbers (causal, scale name, temperature, interventions) are always
    recorded.
    """
    config = model.config
    prep = prepare(tok, text, config.n_ctx, masked_word=not config.causal)
    settings = settings or AttentionSettings()
    resolved = settings.resolve(config)
    info = {**(describe or {}), "causal": resolved.causal, "scale": resolved.scale_name,
            "temperature": resolved.temperature, "interventions": list(resolved.interventions),
            "notices": list(prep.notices), "config": config.to_dict()}
    n_l, n_h = config.n_layers, config.n_heads
    if not prep.ids:
        empty = np.zeros((n_l, n_h, 0, 0), np.float32)
        return Capture(name, [], [], empty, empty.copy(), info)
    _, cache = run_with_cache(model, torch.tensor([prep.ids]), settings,
                              names=["*hook_pattern", "*hook_scores"])
    patterns = cache.stack("attn.hook_pattern")[:, 0].numpy().astype(np.float32)
    scores = cache.stack("attn.hook_scores")[:, 0].numpy().astype(np.float32)
    return Capture(name, list(prep.pieces), list(prep.ids), patterns, scores, info,
                   getattr(tok, "joiner", ""))


# --------------------------------------------------------------------------- formats


def token_labels(tokens: list[str]) -> list[str]:
    """``"{position}:{token}"`` for each token (see the module docstring)."""
    return [f"{i}:{t}" for i, t in enumerate(tokens)]


def _exact(value) -> str:
    return repr(float(value))  # float32 -> float64 is exact; repr round-trips float64


def head_csv(capture: Capture, layer: int, head: int) -> str:
    """One head's weights as a CSV matrix (query rows, key columns)."""
    p = capture.patterns[layer, head]
    labels = token_labels(capture.tokens)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["query \\ key", *labels])
    for label, row in zip(labels, p, strict=True):
        w.writerow([label, *map(_exact, row)])
    return out.getvalue()


def grid_csv(capture: Capture) -> str:
    """Every head in long form: ``layer, head, query, key, weight`` (one row per cell)."""
    labels = token_labels(capture.tokens)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["layer", "head", "query", "key", "weight"])
    n_l, n_h, n_q, n_k = capture.patterns.shape
    for layer in range(n_l):
        for h in range(n_h):
            p = capture.patterns[layer, h]
            for q in range(n_q):
                for k in range(n_k):
                    w.writerow([layer, h, labels[q], labels[k], _exact(p[q, k])])
    return out.getvalue()


def meta(capture: Capture) -> dict:
    n_l, n_h, n_q, _ = capture.patterns.shape
    return {"format": FORMAT, "version": VERSION, "model": capture.model,
            "text": capture.text, "settings": capture.settings,
            "shape": {"layers": n_l, "heads": n_h, "tokens": n_q},
            "arrays": {"patterns": "[layer, head, query, key] softmax weights, rows sum to 1",
                       "scores": "[layer, head, query, key] raw q·k before scaling and mask"}}


def to_json(capture: Capture) -> str:
    doc = {**meta(capture), "tokens": list(capture.tokens), "ids": list(capture.ids),
           "patterns": capture.patterns.astype(np.float64).tolist(),
           "scores": capture.scores.astype(np.float64).tolist()}
    return json.dumps(doc, ensure_ascii=False, allow_nan=False)


def write_npz(capture: Capture, path: Path) -> None:
    np.savez_compressed(
        path, patterns=capture.patterns.astype(np.float32),
        scores=capture.scores.astype(np.float32),
        ids=np.asarray(capture.ids, dtype=np.int64),
        tokens=np.asarray(capture.tokens, dtype=str) if capture.tokens else np.zeros(0, "<U1"),
        meta=np.asarray(json.dumps({**meta(capture), "tokens": list(capture.tokens)},
                                   ensure_ascii=False)))


def read_npz(path: Path) -> dict:
    """The NPZ back as plain numpy arrays plus ``meta`` as a dict (no pickles).
    ``tokens`` comes back as the exact list from ``meta`` (numpy's fixed-width strings
    drop a token's trailing NUL characters, JSON keeps them)."""
    with np.load(path, allow_pickle=False) as f:
        out = {k: f[k] for k in f.files}
    out["meta"] = json.loads(str(out["meta"]))
    out["tokens"] = list(out["meta"]["tokens"])
    return out


# --------------------------------------------------------------------------- pictures

CAPTION_CHARS = 100  # characters per caption line: fits a laptop-wide figure at 11 px
CAPTION_SENTENCE_LINES = 3
CAPTION_LINE_PX = 16
TITLE_PX = 34  # room kept for a figure's own title under the caption


def caption_lines(capture: Capture) -> list[str]:
    """What an exported picture says about itself, as plain text lines (not yet escaped):
    the model (and what it is), as trained or the experiment, then the sentence, cut to
    a few lines."""
    s = capture.settings
    kind = ", ".join(str(x) for x in (s.get("objective"), s.get("heads") and
                                      f"{s['heads']} heads/layer", s.get("pos")) if x)
    model = f"Attention Explorer · model {capture.model}" + (f" ({kind})" if kind else "")
    experiment = s.get("interventions") or []
    how = ("🧪 experiment on the trained model: " + "; ".join(experiment) if experiment
           else "as trained")
    words = " ".join(capture.text.split())  # newlines and tabs as spaces: one paragraph
    lines = textwrap.wrap(f"Sentence: \u201c{words}\u201d", CAPTION_CHARS)
    if len(lines) > CAPTION_SENTENCE_LINES:
        lines = lines[:CAPTION_SENTENCE_LINES]
        lines[-1] = lines[-1][: CAPTION_CHARS - 1] + ELLIPSIS
    return [model, how, *lines]


def stamp(fig, capture: Capture):
    """Write :func:`caption_lines` above ``fig`` (a plotly ``go.Figure``): above its titles,
    in a top margin grown by the caption's height (below, it would meet the rotated token
    labels, whose height Plotly decides). Escaped for Plotly: the sentence is the student's."""
    lines = caption_lines(capture)
    extra = CAPTION_LINE_PX * len(lines) + 8
    margin = fig.layout.margin
    # A figure's own titles sit in its top margin; some (the grid's panel titles) take
    # more than the margin gives them, so the caption starts TITLE_PX up at least.
    top = max(margin.t if margin and margin.t is not None else 0, TITLE_PX)
    height = fig.layout.height
    fig.update_layout(margin={"t": top + extra}, **({"height": height + extra} if height else {}))
    fig.add_annotation(text="<br>".join(safe_text(line) for line in lines), xref="paper",
                       yref="paper", x=0, y=1, xanchor="left", yanchor="bottom", align="left",
                       yshift=top, showarrow=False, font={"size": 11})
    return fig


# --------------------------------------------------------------------------- files


def clean_old(root: Path = EXPORT_ROOT, max_age_s: float = MAX_AGE_S,
              now: float | None = None) -> int:
    """Remove export directories older than ``max_age_s``; returns how many went."""
    now = time.time() if now is None else now
    removed = 0
    try:
        entries = list(root.iterdir())
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.startswith(PREFIX) or entry.is_symlink() or not entry.is_dir():
            continue
        try:
            if now - entry.stat().st_mtime > max_age_s:
                shutil.rmtree(entry)
                removed += 1
        except OSError:  # another request removed it first, or it vanished
            continue
    return removed


def fresh_dir(root: Path = EXPORT_ROOT) -> Path:
    """A new private directory for one request's files (old ones are cleaned first)."""
    root.mkdir(parents=True, exist_ok=True)
    clean_old(root)
    return Path(tempfile.mkdtemp(prefix=PREFIX, dir=root))


@dataclass(frozen=True)
class ExportFiles:
    head_csv: Path
    grid_csv: Path
    npz: Path
    json: Path


def write_files(capture: Capture, layer: int, head: int,
                root: Path = EXPORT_ROOT) -> ExportFiles:
    """All four files of one request, in a fresh directory."""
    n_l, n_h = capture.patterns.shape[:2]
    layer, head = min(max(int(layer), 0), n_l - 1), min(max(int(head), 0), n_h - 1)
    where = fresh_dir(root)
    files = ExportFiles(where / f"attention-L{layer}H{head}.csv",
                        where / "attention-all-heads.csv",
                        where / "attention-capture.npz", where / "attention-capture.json")
    files.head_csv.write_text(head_csv(capture, layer, head), encoding=CSV_ENCODING)
    files.grid_csv.write_text(grid_csv(capture), encoding=CSV_ENCODING)
    write_npz(capture, files.npz)
    files.json.write_text(to_json(capture), encoding="utf-8")
    return files



def describe(controls) -> dict:
    """The UI's control values, JSON-safe, for an export's ``settings``."""
    return {"objective": controls.objective, "heads": int(controls.heads), "pos": controls.pos,
            "mask": controls.mask, "scaling": controls.scaling,
            "temperature_control": float(controls.temperature),
            "layer": int(controls.layer), "head": int(controls.head)}
