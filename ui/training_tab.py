"""The "Through training" tab: the default model's attention at each saved training snapshot."""

from __future__ import annotations

import logging

import gradio as gr

from explorer.analysis.run import plural
from explorer.analysis.snapshots import (
    SnapshotSet,
    cached_snapshots,
    even_spread,
    induction_trend,
    previous_token_trend,
    snapshot_view,
)
from explorer.figures.attention import attention_grid, head_heatmap
from explorer.figures.layers_and_training import training_chart
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.views.controls import EMPTY_STATE, BadControl, parse_controls
from ui.controls import Panel, wire_live

log = logging.getLogger("attention_explorer")
TAB = "training"
FAILED = "⚠️ Something went wrong with this request. Please try again."

INTRO = """The same model, saved at several moments while it learned. Slide from the first
snapshot (almost untrained: every head spreads its attention evenly) to the last and watch
heads take on jobs — first some look at **the previous word**, then, suddenly, one learns to
**copy**: when your sentence is said twice, it looks at the word that came next last time
(an induction head). The chart shows the loss going down and, below it, how strongly the
most previous-token-like head attends to the word just before (solid; dashed: spreading
attention evenly) and the best head's weight on the copy target (dotted). Snapshots exist
for the default model only; the mask, scaling, temperature and *Layer*/*Head* knobs
apply."""
NO_SNAPSHOTS = ("⚠️ No training snapshots are installed for this model, so there is nothing "
                "to slide through. (The trainer saves them under `checkpoints/snapshots/`.)")


def compute(snaps: SnapshotSet, tok, text, controls: list, index):
    """(status, chart, grid, head) for one request."""
    try:
        c = parse_controls(*controls)
    except BadControl as exc:
        return f"⚠️ {exc}", None, None, None
    if not len(snaps):
        return NO_SNAPSHOTS, None, None, None
    if not (text or "").strip():
        return EMPTY_STATE, None, None, None
    settings = c.settings()
    r = snapshot_view(snaps, tok, text, index, settings)
    if r.empty:
        return EMPTY_STATE, None, None, None
    snap, config = r.snapshot, r.snapshot.model.config
    layer = min(max(int(c.layer), 0), config.n_layers - 1)
    head = min(max(int(c.head), 0), config.n_heads - 1)
    n = len(r.tokens)
    trend = previous_token_trend(snaps, tok, text, settings)
    baseline = even_spread(n, r.resolved.causal)
    copying = induction_trend(snaps, tok, text, settings)
    chart = training_chart(snaps.history,
                           [(s.step, s.tokens, s.train_loss) for s in snaps.snapshots],
                           r.index, trend=trend, baseline=baseline, theme=c.theme,
                           induction=copying)
    grid = attention_grid(r.patterns, r.tokens, theme=c.theme, selected=(layer, head))
    big = head_heatmap(r.patterns[layer, head], r.tokens, theme=c.theme,
                               title=f"Step {snap.step}: layer {layer}, head {head}")
    total = f" of {snaps.total_steps}" if snaps.total_steps else ""
    loss = f" · training loss **{snap.train_loss:.2f}**" if snap.train_loss is not None else ""
    lines = [f"**Snapshot {r.index + 1} of {len(snaps)}** of {snaps.name}: step "
             f"{snap.step}{total} · **{snap.tokens:,}** training tokens seen{loss} · "
             f"{plural(n, 'token')}"]
    la, h = divmod(int(r.prev_share.argmax()), config.n_heads)
    lines.append(f"Most previous-token-like head now: **L{la} H{h}**, "
                 f"{r.prev_share[la, h]:.0%} of its attention on the word just before "
                 f"(spreading evenly would give {baseline:.0%}).")
    if c.checkpoint() != snaps.name:
        lines.append(f"ℹ️ Snapshots exist for **{snaps.name}** only: this tab shows it, "
                     "whatever the Model / Heads / Positional knobs say.")
    if r.resolved.interventions:
        lines.append("🧪 **Experiment on the trained model:** "
                     + "; ".join(r.resolved.interventions) + ".")
    lines += [f"⚠️ {note}" for note in r.notices]
    return "\n\n".join(lines), chart, grid, big


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel,
          snapshots: SnapshotSet | None = None) -> None:
    """Declare the tab's outputs (inside the caller's ``gr.Tab``) and wire the live update.
    Snapshots load here, once per process (:func:`cached_snapshots`)."""
    snaps = snapshots if snapshots is not None else cached_snapshots(
        CHECKPOINT_DIR, vocab_size=tok.vocab_size)
    n = len(snaps)
    status = gr.Markdown(elem_id="training-status")
    gr.Markdown(INTRO, elem_classes="caption-text")
    labels = ", ".join(f"{i}: step {s.step}" for i, s in enumerate(snaps.snapshots))
    index = gr.Slider(0, max(n - 1, 1), value=max(n - 1, 0), step=1,
                      label="Training snapshot", info=labels or None,
                      interactive=n > 1, visible=n > 0, elem_id="training-snapshot")
    chart = gr.Plot(show_label=False, elem_id="training-chart")
    gr.Markdown("#### Every head at this snapshot (rows are layers, columns heads)",
                elem_classes="caption")
    grid = gr.Plot(show_label=False, elem_id="training-grid")
    big = gr.Plot(show_label=False, elem_id="training-head")
    outputs = [status, chart, grid, big]

    def update(text, *values):
        *controls, chosen = values
        try:
            return compute(snaps, tok, text, controls, chosen)
        except Exception:  # never show a student a stack trace; keep it in the server log
            log.exception("through training failed")
            return FAILED, None, None, None

    # Snapshots exist for the default model only: the model knobs do not apply here.
    wire_live(panel, TAB, dict(fn=update, inputs=[*panel.inputs, index], outputs=outputs),
              extra=(index.change,),
              watch=("text", "mask", "scaling", "temperature", "layer", "head", "theme"))

    def api(text, *values):  # the same view for given values, whichever tab is open
        *controls, chosen = values
        try:
            return compute(snaps, tok, text, controls, chosen)
        except Exception:
            log.exception("through training (api) failed")
            return FAILED, None, None, None

    hidden = gr.Button("training api", visible=False)
    hidden.click(api, [*panel.inputs, index], outputs, api_name="training",
                 show_progress="hidden")
