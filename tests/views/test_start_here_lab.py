"""Start here's Lab step says only what the Lab's own measured runs hold
(``checkpoints/eval/lab.json``, written by ``python -m explorer.training.lab_findings``), and
those runs were made with the Lab's defaults as they are now."""

from __future__ import annotations

import re
from dataclasses import asdict

from explorer.training.lab import LabSettings
from explorer.training.lab_findings import FINDINGS, STEPS, read_findings, summarise
from explorer.views.start_here import _lab_answer, steps


def test_the_findings_were_measured_with_the_labs_defaults_of_today():
    found = read_findings()
    assert found is not None, f"{FINDINGS} is missing: python -m explorer.training.lab_findings"
    now = asdict(LabSettings(max_steps=STEPS))
    for varied in ("layers", "seed", "seconds"):
        now.pop(varied)
    assert found["settings"] == now, "the Lab's defaults changed: measure the findings again"
    assert found["summary"] == summarise(found["runs"])


def test_the_lab_step_quotes_the_findings():
    found = read_findings()
    one, two = found["summary"]["1"], found["summary"]["2"]
    step = steps(None, None, found)[-1]
    assert step.tab == "lab" and step.own == {"layers": 1}
    answer = step.answer
    # what the measured runs say, and nothing they do not
    assert one["formed"] == 0 and "one layer never grew an induction head" in answer
    lo, hi = one["best_induction"]
    assert f"{lo:.2f}–{hi:.2f}" in answer
    assert two["formed"] == two["runs"] and "Two layers grew one every time" in answer
    # the runs' range widened to the tens around it ("at about step 350–410")
    start, end = two["first_step"] // 10 * 10, -(-two["last_step"] // 10) * 10
    assert start <= two["first_step"] <= two["last_step"] <= end and end - start < 100
    assert f"at about step {start}–{end}." in answer
    assert re.search(rf"seeds 0 to {one['runs'] - 1}\b", answer)
    # one layer's score is over even attention's, not "chance"; the 2-layer runs' previous-
    # token heads stay under Explore's 0.5 bar
    even = found["measures"]["uniform_induction"]
    assert 0.03 <= even <= 0.06 and lo >= 1.8 * even and hi < 0.3
    assert f"({even:.2f})" in answer and "chance" not in answer
    prev = [r["best_previous_token"] for r in found["runs"] if r["layers"] == 2]
    assert max(prev) < 0.5 and f"{min(prev):.2f}–{max(prev):.2f}" in answer


def test_without_findings_the_step_quotes_no_number():
    assert read_findings(FINDINGS.parent / "no-such-file.json") is None
    answer = _lab_answer(None)
    assert not re.search(r"\d", answer.split("Why:")[0])


def test_summarise_counts_per_layer():
    runs = [{"layers": 2, "formed": True, "formed_at_step": 400, "best_induction": 0.9},
            {"layers": 2, "formed": False, "formed_at_step": None, "best_induction": 0.2},
            {"layers": 1, "formed": False, "formed_at_step": None, "best_induction": 0.1}]
    got = summarise(runs)
    assert got["2"] == {"runs": 2, "formed": 1, "first_step": 400, "last_step": 400,
                        "best_induction": [0.2, 0.9]}
    assert got["1"]["formed"] == 0 and got["1"]["first_step"] is None
    assert "in 1 of 2 runs" in _lab_answer({"summary": {"1": got["1"], "2": got["2"]}})
