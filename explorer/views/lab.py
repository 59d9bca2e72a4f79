"""The Lab view: train a tiny transformer and watch its heads form, as the page shows it.

:func:`read_settings` checks the page's choices (a hand-made request gets a message, no
echo); :func:`lab_view` turns what the runner knows of one run
(:meth:`explorer.training.lab_runner.LabRunner.view`) into the status in words, the
chart of losses and scores (:mod:`explorer.figures.lab`), every head's pattern on the
probe sequence (a payload for the page's own canvas, :func:`explorer.views.grid_payload.
grid_fields`, drawn by ``static/live_grid.js`` as in Explore: a Plotly grid redrawn twice a
second kept a projector's page busy 93% of the time) and the class's table. Plain values,
no gradio.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.figures.lab import lab_chart_spec
from explorer.figures.plotly_json import plot_value
from explorer.models.lab_tokenizer import LAB_WORDS, START_LABEL, LabTokenizer
from explorer.training.head_scores import best_head
from explorer.training.lab import FORMED, LabSettings
from explorer.training.lab_runner import LabRunner
from explorer.training.lab_task import RepeatTask, probe
from explorer.views.controls import BadControl
from explorer.views.grid_payload import grid_fields

__all__ = ["LAB_CHOICES", "PROBE_SENTENCE", "LabRunner", "LabSettings", "LabView", "lab_view",
           "ready_chart", "open_message", "read_settings", "class_table"]

# What the page offers (anything else is refused): label -> value.
LAB_CHOICES = {
    "layers": (1, 2, 3), "heads": (1, 2, 4),
    "pos": ("none", "sinusoidal", "learned", "rotary", "alibi"),
    "lr": {"0.001 (slow)": 1e-3, "0.003": 3e-3, "0.01 (fast, may wobble)": 1e-2},
    "steps": (20, 3000),
}
# The probe's tokens as the Lab's words (explorer/models/lab_tokenizer.py): the trainer
# stays numerical, the page names token i by its word.
PROBE_IDS = [int(t) for t in probe(RepeatTask())[0]]
PROBE_TOKENS = [START_LABEL] + LabTokenizer().decode(PROBE_IDS[1:]).split()
PROBE_SENTENCE = LabTokenizer().sentence(PROBE_IDS)  # typed into the box by Open my model


def read_settings(layers, heads, pos, mlp, norm, lr, seed, steps) -> LabSettings:
    """The page's choices as :class:`LabSettings`, or :class:`BadControl`."""
    try:
        layers, heads, seed, steps = int(layers), int(heads), int(seed), int(steps)
    except (TypeError, ValueError):
        raise BadControl("The Lab's settings could not be read.") from None
    low, high = LAB_CHOICES["steps"]
    if (layers not in LAB_CHOICES["layers"] or heads not in LAB_CHOICES["heads"]
            or pos not in LAB_CHOICES["pos"] or lr not in LAB_CHOICES["lr"]
            or not low <= steps <= high or not 0 <= seed <= 9999
            or not isinstance(mlp, bool) or not isinstance(norm, bool)):
        raise BadControl("One of the Lab's settings is not one the page offers.")
    return LabSettings(layers=layers, heads=heads, pos=pos, mlp=mlp, norm=norm,
                       lr=LAB_CHOICES["lr"][lr], seed=seed, max_steps=steps)


@dataclass(frozen=True)
class LabView:
    status: str  # Markdown we wrote (no user text)
    chart: dict | None
    grid: dict | None  # the canvas's payload (grid_payload's format), None: no pattern yet
    final: bool  # nothing more will change


def _where(grid: list[list[float]]) -> tuple[int, int, float]:
    """(layer, head, score) of the best head of an event's [layer][head] scores."""
    best = best_head(np.asarray(grid))
    return best["layer"], best["head"], best["score"]


def _status(view: dict, prediction: str | None) -> str:
    state, last, summary = view["state"], view["last"], view["summary"]
    s: LabSettings = view["settings"]
    model = (f"{s.layers} layer{'s' * (s.layers > 1)} × {s.heads} head{'s' * (s.heads > 1)}, "
             f"{s.pos} positions")
    shared = view.get("watchers", 0) - 1  # others who pressed Train with these settings
    also = (f" {shared} other student{'s' * (shared > 1)} asked for this same run: you "
            "all watch one training." if shared > 0 else "")
    if state == "waiting":
        # no "about N s": an estimate from the mean of past runs was 2-4x off and never
        # counted down (issue 42 item 12); the place in line is a fact
        return (f"⏳ **Your place in line: {view['place']}** ({model}). Other students' runs "
                "are training now; yours starts as soon as a worker is free." + also)
    if state in ("failed", "refused"):  # the runner's message (we wrote it), or ours
        return view.get("message") or "⚠️ This run failed on the server. Please press Train again."
    stopped = view.get("message") or "⏹️ **Stopped.**"
    if last is None:  # nothing trained yet
        return stopped if state == "stopped" else f"⏳ Starting a worker for your run ({model})…"
    layer, head, score = _where(last["induction"])
    p_layer, p_head, p_score = _where(last["previous_token"])
    text = (f"**Step {last['step']}** ({last['seconds']:.1f} s of training, {model}). "
            f"Loss on the second copy **{last['loss_copy']:.2f}**, on fresh tokens "
            f"{last['loss_fresh']:.2f} (a blind guess among the {s.vocab - 1} words scores "
            f"{math.log(s.vocab - 1):.2f}; lower is better. Fresh tokens end a little "
            "above it once the model bets on repeats; one layer lowers the copy loss a "
            "little with no induction head). Best induction head "
            f"**L{layer} H{head}: {score:.0%}** on the copy target; best previous-token "
            f"head L{p_layer} H{p_head}: {p_score:.0%}.")
    formed = last.get("formed_at_step")
    if formed is not None:
        text = (f"🎉 **An induction head formed at step {formed}** (its score passed "
                f"{FORMED:.0%}). " + text)
    if state == "running":
        text += also
    if state == "stopped":
        # at once: the press is stopped before its worker's last report (the summary)
        # arrives, and this is the last status the page gets
        text = stopped + " " + text
    elif state == "done" and summary is not None:
        if view["from_cache"]:
            text = "♻️ **This exact run was trained before on this server: replayed.** " + text
        if not summary["formed"]:
            text += (f" **No induction head formed** in {summary['steps']} steps"
                     + (": with one layer it cannot — a token's key is built from that token "
                        "and its position only, so it cannot say which token came before "
                        "it, and finding \"the token after the earlier one\" needs a "
                        "previous-token head in an earlier layer." if s.layers == 1 else ".")
                     )
        if prediction in ("yes", "no"):
            right = (prediction == "yes") == summary["formed"]
            text += (f"\n\nYou predicted **{prediction}**: "
                     + ("right." if right else "not this time: why not?"))
    return text


def ready_chart(theme: str = "light", steps: int | None = None) -> dict:
    """The chart before a run: axes, chance and the bar for "formed" (never an empty box)."""
    s = LabSettings()
    return plot_value(lab_chart_spec([], chance=math.log(s.vocab - 1),
                                     until=steps or s.max_steps, theme=theme))


def lab_view(view: dict | None, prediction: str | None = None,
             theme: str = "light") -> LabView:
    """What the page shows of one run (``view``: :meth:`LabRunner.view`, None: no run)."""
    if view is None:
        return LabView("Choose a model and press **Train**.", ready_chart(theme), None, True)
    events, last = view["events"], view["last"]
    s: LabSettings = view["settings"]
    grid = None
    formed = last.get("formed_at_step") if last else None
    chart = plot_value(lab_chart_spec(events, chance=math.log(s.vocab - 1), formed_at=formed,
                                      until=s.max_steps, theme=theme))
    if last is not None and "probe" in last:
        patterns = np.asarray(last["probe"], dtype=np.float32) / 100.0  # [layer, head, q, k]
        layer, head = _where(last["induction"])[:2]
        grid = {"ok": True, **grid_fields(patterns, PROBE_TOKENS, (layer, head), theme),
                "guesses": [], "where": "",
                "caption": f"Step {last['step']}: every head on the sequence said twice; "
                           f"outlined, the best induction head (L{layer} H{head})."}
    final = view["state"] in ("done", "stopped", "failed", "refused")
    return LabView(_status(view, prediction), chart, grid, final)


def open_message(about: str | None) -> str:
    """What "Open my model" says (Markdown we wrote): ``about`` describes the opened model
    (:meth:`explorer.views.lab_models.OpenedModel.describe`); None: nothing to open."""
    if about is None:
        return ("⚠️ There is no finished run of yours to open: press **Train** and let it "
                "finish (a stopped run is not kept).")
    return (f"✅ **Your model is open** ({about}). The Model knob now says *my Lab model* and "
            "the sentence is the Lab's sequence said twice, in words. Open **Explore**, "
            "**Inside one head**, **Ablate**, **Compare** or **Take it home** to look inside "
            "it; it stays open while this page is open.\n\nEach of its 63 tokens has a word, "
            "and it reads only these, separated by spaces: " + ", ".join(LAB_WORDS) + ".")


def class_table(rows: list[dict]) -> str:
    """The class's finished runs as a Markdown table (numbers and choices only)."""
    if not rows:
        return "No run has finished on this server yet."
    # (a non-breaking hyphen: a projector's narrow column broke "previous-|token")
    head = ("| layers × heads | positions | MLP | LayerNorm | lr | seed | steps | induction "
            "head? | best induction | best previous\u2011token |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n")
    body = "".join(
        f"| {r['layers']} × {r['heads']} | {r['pos']} | {'yes' if r['mlp'] else 'no'} | "
        f"{'yes' if r['norm'] else 'no'} | {r['lr']:g} | {r['seed']} | {r['steps']} | "
        + (f"**yes, step {r['formed_at_step']}**" if r["formed"] else "no")
        + f" | {r['best_induction']:.0%} | {r['best_previous_token']:.0%} |\n"
        for r in reversed(rows[-50:]))
    return head + body
