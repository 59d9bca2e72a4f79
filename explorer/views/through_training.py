"""The "Through training" view: the default model's attention at one saved snapshot.

:func:`training_view` picks a snapshot of the set loaded once per process
(:func:`explorer.analysis.snapshots.cached_snapshots`) and returns the loss chart with the
previous-token and induction trends across snapshots, every head at that snapshot, and the
selected head large. Snapshots exist for the default model only, so the model knobs do not
apply; the status says so when they point elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from explorer.analysis.run import plural
from explorer.analysis.snapshots import (
    COPY_PROBE,
    SnapshotSet,
    cached_snapshots,
    copy_control,
    even_spread,
    induction_trend,
    previous_token_trend,
    snapshot_view,
)
from explorer.figures.attention import attention_grid, head_heatmap
from explorer.figures.layers_and_training import training_chart
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.views.controls import EMPTY_STATE, Controls

NO_SNAPSHOTS = ("⚠️ No training snapshots are installed for this model, so there is nothing "
                "to slide through. (The trainer saves them under `checkpoints/snapshots/`.)")


__all__ = ["NO_SNAPSHOTS", "SnapshotSet", "TrainingView", "load_snapshots", "snapshot_words",
           "training_view"]


def load_snapshots(tok: Tokenizer, device: str = "cpu") -> SnapshotSet:
    """The installed snapshots on ``device`` (the zoo's: ``zoo.device``), loaded once per
    process and device (read-only, shared by everyone)."""
    return cached_snapshots(CHECKPOINT_DIR, vocab_size=tok.vocab_size, device=device)


@dataclass(frozen=True)
class TrainingView:
    status: str
    chart: go.Figure | None = None  # loss and head trends against tokens seen
    grid: go.Figure | None = None  # every head at this snapshot
    head: go.Figure | None = None  # the selected head, large

    def as_tuple(self) -> tuple:
        return self.status, self.chart, self.grid, self.head


def snapshot_words(index: int, n: int) -> str:
    """"Snapshot 3 (0 = first, 9 = last)": the number the slider shows, counted from 0 as
    layers, heads and positions are here ("Snapshot 1 of 10" beside a slider at 0 read as
    two different snapshots: #30)."""
    return f"Snapshot {index} (0 = first, {n - 1} = last)" if n > 1 else f"Snapshot {index}"


def copy_check(control: tuple[float, float] | None) -> str:
    """Whether the best copying head copies, from :func:`copy_control`'s two weights: an
    early bump on the list can be a head that looks a fixed distance back (the default
    model's step 262: 33 % on the copy target, 31 % on the same places without a copy)."""
    if control is None:
        return ""
    copy, same_places = control
    if same_places >= copy / 2:
        return (f" Not copying yet: with the list's second half in another order it still "
                f"puts {same_places:.0%} on the same places, so it looks a fixed distance "
                "back, whatever the words.")
    return (f" It copies: with the list's second half in another order it puts only "
            f"{same_places:.0%} there.")


def training_view(snaps: SnapshotSet, tok: Tokenizer, text: str, c: Controls,
                  index) -> TrainingView:
    if not len(snaps):
        return TrainingView(NO_SNAPSHOTS)
    if not (text or "").strip():
        return TrainingView(EMPTY_STATE)
    settings = c.settings()
    r = snapshot_view(snaps, tok, text, index, settings)
    if r.empty:
        return TrainingView(EMPTY_STATE)
    snap, config = r.snapshot, r.snapshot.model.config
    layer, head = config.clamp(c.layer, c.head)
    n = len(r.tokens)
    baseline = even_spread(n, r.resolved.causal)
    copies = induction_trend(snaps, tok, text, settings)
    probe = induction_trend(snaps, tok, COPY_PROBE, settings)
    chart = training_chart(snaps.history,
                           [(s.step, s.tokens, s.train_loss) for s in snaps.snapshots],
                           r.index, trend=previous_token_trend(snaps, tok, text, settings),
                           baseline=baseline, theme=c.theme, induction=copies,
                           induction_probe=probe)
    grid = attention_grid(r.patterns, r.tokens, theme=c.theme, selected=(layer, head))
    big = head_heatmap(r.patterns[layer, head], r.tokens, theme=c.theme,
                       title=f"Step {snap.step}: layer {layer}, head {head}")
    total = f" of {snaps.total_steps}" if snaps.total_steps else ""
    loss = f" · training loss **{snap.train_loss:.2f}**" if snap.train_loss is not None else ""
    lines = [f"**{snapshot_words(r.index, len(snaps))}** of {snaps.name}: step "
             f"{snap.step}{total} · **{snap.tokens:,}** training tokens seen{loss} · "
             f"{plural(n, 'token')}"]
    la, h = divmod(int(r.prev_share.argmax()), config.n_heads)
    lines.append(f"Most previous-token-like head now: **L{la} H{h}**, "
                 f"{r.prev_share[la, h]:.0%} of its attention on the word just before "
                 f"(spreading evenly would give {baseline:.0%}).")
    if probe is not None:
        yours = (f"; on your sentence said twice, {copies[r.index]:.0%}"
                 if copies is not None else "")
        lines.append(f"Copying now: on a list of words said twice, the best head puts "
                     f"{probe[r.index]:.0%} of its attention on the word that came next last "
                     f"time{yours}." + copy_check(copy_control(snaps, tok, r.index,
                                                               settings=settings)))
    if c.checkpoint() != snaps.name:
        lines.append(f"ℹ️ Snapshots exist for **{snaps.name}** only: this tab shows it, "
                     "whatever the Model / Heads / Positional knobs say.")
    if r.resolved.interventions:
        lines.append("🧪 **Experiment on the trained model:** "
                     + "; ".join(r.resolved.interventions) + ".")
    lines += [f"⚠️ {note}" for note in r.notices]
    return TrainingView("\n\n".join(lines), chart, grid, big)
