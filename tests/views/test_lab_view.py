"""The Lab view (explorer/views/lab.py): the page's choices checked, and what a student
reads of a run in each state, from hand-made runner views."""

import base64
import json

import pytest

from explorer.training.lab import LabSettings
from explorer.views.controls import BadControl
from explorer.views.lab import class_table, lab_view, read_settings

GOOD = (2, 2, "learned", False, False, "0.003", 0, 500)


def point(step, induction=0.1, formed=None):
    return {"kind": "update", "step": step, "seconds": step / 50, "loss_copy": 4.0 - step / 200,
            "loss_fresh": 4.2, "best_induction": induction, "best_previous_token": 0.2,
            "induction": [[0.05, 0.02], [induction, 0.03]],
            "previous_token": [[0.1, 0.2], [0.05, 0.04]], "formed_at_step": formed,
            "probe": [[[[100 if k == 0 else 0 for k in range(25)] for _ in range(25)]] * 2] * 2}


def view(state, settings=None, events=(), summary=None, **extra):
    events = list(events)
    return {"id": 1, "state": state, "place": extra.get("place"),
            "from_cache": extra.get("from_cache", False), "settings": settings or LabSettings(),
            "events": events, "last": events[-1] if events else None, "summary": summary}


def test_the_pages_choices_become_settings_and_anything_else_is_refused():
    s = read_settings(*GOOD)
    assert (s.layers, s.heads, s.pos, s.lr, s.max_steps) == (2, 2, "learned", 0.003, 500)
    assert s.seconds == 0  # bounded by its steps: a busy server makes it slower, not shorter
    for i, bad in [(0, 5), (1, 3), (2, "<b>x</b>"), (3, "yes"), (5, "0.5"), (6, -1), (7, 10**6),
                   (0, "two")]:
        args = list(GOOD)
        args[i] = bad
        with pytest.raises(BadControl) as exc:
            read_settings(*args)
        assert "<b>" not in str(exc.value)


def test_what_a_student_reads_in_each_state():
    waiting = lab_view(view("waiting", place=3))
    # the place in line, and no estimate in seconds: from past runs' mean it was 2-4x off
    # and never counted down (issue 42 item 12)
    assert "place in line: 3" in waiting.status and " s." not in waiting.status
    assert not waiting.final
    # before the first point the chart is drawn all the same: axes to the steps planned,
    # never an empty box (#30)
    empty = json.loads(waiting.chart["plot"])
    assert not any(t["x"] for t in empty["data"] if "score" in t["name"] or "loss on" in t["name"])
    assert "Curves appear" in str(empty["layout"]["annotations"])
    assert "Curves appear" in lab_view(None).chart["plot"]
    early = lab_view(view("running", events=[point(0), point(100)]))
    assert "Step 100" in early.status and "L1 H0: 10%" in early.status
    assert early.chart["type"] == "plotly"
    # the heads: a canvas payload (static/live_grid.js), the best induction head outlined
    g = early.grid
    assert g["ok"] and (g["layers"], g["heads"], g["n"]) == (2, 2, 25)
    assert g["selected"] == [1, 0] and "Step 100" in g["caption"] and "L1 H0" in g["caption"]
    assert len(base64.b64decode(g["z"])) == 2 * 2 * g["n"] ** 2
    formed = lab_view(view("running", events=[point(0), point(450, 0.6, formed=450)]))
    assert "formed at step 450" in formed.status and '"formed at step 450"' in formed.chart["plot"]
    one = LabSettings(layers=1)
    summary = {"formed": False, "steps": 700, "stopped": False}
    none = lab_view(view("done", one, [point(700)], summary), prediction="yes")
    assert none.final and "No induction head formed" in none.status
    assert "one layer it cannot" in none.status and "You predicted **yes**" in none.status


def test_a_stopped_run_says_so_before_its_worker_has_reported():
    """Stop marks the press stopped at once, and the page's watch ends on that status; the
    worker's summary comes later (under load, after it): the status says Stopped anyway,
    at any step and before the first one."""
    for events in ([point(0), point(40)], []):
        for summary in (None, {"steps": 40, "formed": False, "formed_at_step": None}):
            shown = lab_view(view("stopped", events=events, summary=summary), "yes")
            assert shown.final and "Stopped" in shown.status, (events, summary)
            assert "No induction head formed" not in shown.status  # it did not finish
            assert "You predicted" not in shown.status
    assert "Step 40" in lab_view(view("stopped", events=[point(0), point(40)])).status


def test_the_class_table_lists_the_newest_run_first():
    rows = [{"layers": n, "heads": 2, "pos": "learned", "mlp": False, "norm": False, "lr": 0.003,
             "seed": 0, "steps": 900, "formed": n == 2, "formed_at_step": 400 if n == 2 else None,
             "best_induction": 0.8 if n == 2 else 0.1, "best_previous_token": 0.4}
            for n in (1, 2)]
    table = class_table(rows).splitlines()
    assert table[2].startswith("| 2 × 2") and "yes, step 400" in table[2]
    assert table[3].startswith("| 1 × 2") and "| no |" in table[3]
    assert "No run" in class_table([])
