"""``python -m benchmarks.run_all --quick --smoke`` runs every row of the speed table once,
against a real ``python app.py``, and each row measured something: a benchmark that no
longer follows the page (static/live.js) fails here instead of rotting silently (issue
31: the tab discovery once took the loop's config element for a tab and crashed, and the
"whole update" rows timed an empty chain of events). Targets are not checked: on a
loaded 2-core box the numbers mean nothing, only that there are numbers."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.common import require_samples
from benchmarks.compute import Row
from benchmarks.run_all import nothing_measured

ROOT = Path(__file__).resolve().parents[2]


def test_a_row_without_samples_fails_loudly():
    with pytest.raises(RuntimeError, match="measured nothing"):
        require_samples([], "raw whole update, T=32")
    assert require_samples([1.0], "x") == [1.0]
    rows = [Row("forward", {8: "2.9 / 3.1"}), Row("whole live update", {8: "nan / nan"})]
    system = [("round trip", "p50 12.7 / p95 13.3 ms", "", ""),
              ("  ... + the other figures", "p50 nan / p95 nan ms, 0.0 KB", "", ""),
              ("start-up", "6.8 s (models: ['causal-h4-none', 'finance'])", "", "")]
    assert nothing_measured(rows, system) == ["whole live update", "... + the other figures"]


def test_run_all_smoke_measures_every_row(tmp_path):
    out = tmp_path / "raw.json"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.run_all", "--quick", "--smoke", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    raw = json.loads(out.read_text())["app"]
    rt = raw["roundtrip"]
    for n in (32, 128):  # the keystroke's grid, then the settle event the page sends
        assert rt[f"raw {n}"] and rt[f"raw whole {n}"] and rt[f"client {n}"]
        assert min(rt[f"raw whole {n}"]) > 0
    tabs = raw["tabs"]
    assert {"explore", "inside", "classify", "seq2seq"} <= set(tabs)
    assert not {"config", "status"} & set(tabs)  # the loop's own elements are not views
    assert all(t["ms"] and t["bytes"] > 0 and not t["failed"] for t in tabs.values()), tabs
    assert raw["load"]["latency"] and not raw["load"]["errors"]
    settled = raw["load settled"]
    assert settled["rest_latency"] and not settled["errors"]  # the settled figures came
    assert "browser" in raw and (raw["browser"].get("error") or raw["browser"]["latency"])
    assert "measured nothing" not in proc.stderr
