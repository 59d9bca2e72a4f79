"""The Lab, together (class mode, issue 43): the class's runs as one chart for the projector.

The teacher's page asks ``GET /ae-class/<code>/lab`` (explorer/server/class_route.py) about
once a second; the route takes each student's newest run from the class
(:meth:`explorer.views.class_state.Classrooms.runs`) and its curve from the Lab's runner
(:meth:`explorer.training.lab_runner.LabRunner.curves`), and :func:`class_lab` makes what
static/class.js draws on its canvas: one curve per set of settings, with how many students
ran it. Identical settings share one training in the Lab (or replay it from its cache), so
several students have the same curve: it is drawn once, with its count, not once each.

"Formed" is the Lab's own: the step at which a run's best induction score first reached
:data:`explorer.training.lab.FORMED` (the evaluation's bar), as the run itself reported it
(``formed_at_step``), never recomputed here.

Shape: ``{"threshold": 0.3, "students": n, "runs": [{"label", "students", "state",
"formed_at_step", "steps", "points": [[step, score], ...]}, ...]}``, most students first;
every string is ours (numbers and the page's own choices), and the page shows them as text.
"""

from __future__ import annotations

from explorer.training.lab import FORMED, LabSettings

# a group's state is the liveliest of its presses' (one student left, another still watches)
ORDER = ("running", "waiting", "done", "stopped", "failed", "refused")


def label(s: LabSettings) -> str:
    """The settings in a few words, as the Lab's controls name them."""
    return (f"{s.layers} layer{'s' * (s.layers > 1)} × {s.heads} head{'s' * (s.heads > 1)}, "
            f"{s.pos}{', MLP' * s.mlp}{', LayerNorm' * s.norm}, lr {s.lr:g}, seed {s.seed}, "
            f"{s.max_steps} steps")


def class_lab(curves: list[dict]) -> dict:
    """The chart's data from the runner's ``curves`` (one per student's run)."""
    groups: dict[str, dict] = {}
    for c in curves:
        g = groups.get(c["key"])
        if g is None:
            s = c["settings"]
            g = groups[c["key"]] = {"label": label(s), "students": 0, "state": c["state"],
                                    "formed_at_step": c["formed_at_step"],
                                    "steps": s.max_steps,
                                    "points": [[int(x), round(float(y), 3)]
                                               for x, y in c["points"]]}
        g["students"] += 1
        if ORDER.index(c["state"]) < ORDER.index(g["state"]):
            g["state"] = c["state"]
    runs = sorted(groups.values(), key=lambda g: (-g["students"], g["label"]))
    return {"threshold": FORMED, "students": len(curves), "runs": runs}
