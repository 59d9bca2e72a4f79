"""What every benchmark shares: targets, the default model and controls, sentences of an
exact token count, timing helpers. Run nothing here; see ``benchmarks/run_all.py``."""

from __future__ import annotations

import os
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SIZES = (8, 32, 64, 128)
MODEL = "causal-h4-rotary"
KB = 1000  # bytes; 1 KB = 1000 B (the stricter reading of the targets)
DEFAULT_CONTROLS = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0,
                    "light"]  # the 9 inputs after the sentence, as a Gradio event takes them
# the same knobs by name, as a keystroke's grid request carries them (explorer/views/
# controls.CONTROL_NAMES; static/live_grid.js AttentionExplorer.grid.request)
DEFAULT_KNOBS = dict(zip(("objective", "heads", "pos", "mask", "scaling", "temperature",
                          "layer", "head", "theme"), DEFAULT_CONTROLS, strict=True))
# Running text to cut sentences from (the app's own examples, kept here so a UI refactor
# cannot break the benchmark).
CORPUS = [
    "Once there was a girl named Mia. Mia had a red ball. One day Mia gave the ball to",
    "her friend Tom. Tom was happy and said thank you.",
    "red, cat, tree, box, sun. red, cat, tree, box, sun.",
    "The dog that the boys liked was happy. The dogs that the boy liked were sad.",
    "The animal didn't cross the street because it was too tired.",
    "The animal didn't cross the street because it was too wide.",
    "Lily and Ben went to the park. They played on the swings and ate ice cream. "
    "When the sun went down, Lily said to Ben that it was time to go home, and",
    "they walked back together, talking about the big slide and the little bird.",
]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]  # as tests/server.py

# Targets of the issue "Speed for a live classroom" (medians unless a percentile is named).
TARGETS = {
    "explore_ms": {32: 10.0, 128: 40.0},
    "bytes_kb": {32: 60.0, 128: 500.0},
    "roundtrip_p50_ms": 30.0,
    "key_p50_ms": 150.0,
    "key_p95_ms": 300.0,
    "load_p95_ms": 300.0,
    "startup_s": 10.0,
    "rss_mb": 800.0,
}


# --------------------------------------------------------------------------- helpers


def calibrate() -> float:
    """ms for a fixed pure-Python workload (median of 5): how much CPU this process is
    getting right now. Compare it between runs; it grows with the machine's load."""
    samples = []
    for _ in range(5):
        t0 = time.perf_counter()
        sum(i * i for i in range(200_000))
        samples.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(samples))


def load_avg() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def timed_interleaved(cases: dict[str, Callable[[], object]], runs: int,
                      max_s: float | None = None) -> dict[str, tuple[float, float]]:
    """{name: (median ms, p95 ms)}, one warm-up each, then the cases in turn, ``runs``
    rounds (fewer, but at least 5, once ``max_s`` seconds have passed): a burst of load
    from the rest of the machine hits every case alike, so ratios between them hold
    even when absolute times wobble."""
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for fn in cases.values():
        fn()
    start = time.perf_counter()
    rounds = 0
    while rounds < runs and (max_s is None or rounds < 5
                             or time.perf_counter() - start < max_s):
        for name, fn in cases.items():
            t0 = time.perf_counter()
            fn()
            samples[name].append((time.perf_counter() - t0) * 1e3)
        rounds += 1
    return {name: (float(np.median(v)), float(np.percentile(v, 95)))
            for name, v in samples.items()}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(samples: list[float], q: float) -> float:
    return float(np.percentile(samples, q)) if samples else float("nan")


def require_samples(samples: list[float], what: str) -> list[float]:
    """``samples``, or a loud error when there are none: a row that measured nothing
    (the page changed under the benchmark) must not print as a number (issue 31)."""
    if not samples:
        raise RuntimeError(f"{what}: measured nothing (no sample); the benchmark no longer "
                           "follows the page")
    return samples


def verdict(ok: bool | None) -> str:
    return "" if ok is None else ("PASS" if ok else "FAIL")


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Sentences:
    """Sentences of exactly n tokens (as the app counts them), several per length."""

    def __init__(self, tok) -> None:
        self.tok = tok
        text = " ".join(CORPUS) + " "
        self.corpus = (text * 12).strip()
        self.starts = [0] + [i + 1 for i, ch in enumerate(self.corpus[:len(text)]) if ch == " "]
        self._cache: dict[tuple[int, int], str] = {}

    def count(self, text: str) -> int:
        return len(self.tok.token_pieces(text))

    def get(self, n: int, variant: int = 0) -> str:
        key = (n, variant)
        if key not in self._cache:
            self._cache[key] = self._make(n, self.starts[variant % len(self.starts)])
        return self._cache[key]

    def _make(self, n: int, start: int) -> str:
        text = self.corpus[start:]
        pieces = self.tok.token_pieces(text)
        for d in (0, -1, 1, -2, 2, -3, 3):
            i = n - 1 + d
            if 0 <= i < len(pieces):
                candidate = text[:pieces[i][2][1]]
                if self.count(candidate) == n:
                    return candidate
        raise RuntimeError(f"no sentence of exactly {n} tokens")


