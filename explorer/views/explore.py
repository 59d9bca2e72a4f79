"""What the explorer page shows for one request: control values in, figures and text out.

The UI (``explorer/ui/explore_tab.py``) only declares components and wires their events to
:func:`run_request` + :func:`live_rest` (the figures shown once typing pauses, as plain
dicts) and :func:`explore` (the ``/explore`` API, as ``go.Figure``); the grid that follows
each keystroke is :mod:`explorer.views.grid_payload`. This module turns the control values into
a checkpoint choice and :class:`~explorer.models.settings.AttentionSettings`, runs
:func:`~explorer.analysis.run.analyse` and builds the figures. No gradio here, and no user
text ever goes into Markdown: tokens reach the student only through Plotly labels,
escaped by :mod:`explorer.figures.labels`, or as plain text on the grid's canvas.
"""

from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from explorer.analysis.clear_heads import clear_heads, copying_models, parse_label, summary
from explorer.analysis.head_labels import (
    CHECK_NATS,
    CHECKED,
    KINDS,
    NO_PATTERN,
    PLAIN,
    HeadLabels,
    label_heads,
)
from explorer.analysis.head_stats import EXPLANATIONS, HeadStats, classify
from explorer.analysis.losses import LossSpec, loss_spec, spec_loss
from explorer.analysis.run import Analysis, analyse, plural
from explorer.figures.attention import attention_grid, head_heatmap, head_heatmap_spec
from explorer.figures.head_view import head_view, head_view_spec
from explorer.figures.plotly_json import plot_value
from explorer.figures.predictions import predictions_bar, predictions_bar_spec
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import Zoo
from explorer.training.zoo_plan import on_recipe, recipe_words, span_pool
from explorer.views.ablate import quoted_token
from explorer.views.controls import EMPTY_STATE, LAB_OBJECTIVE, Controls


@dataclass
class ExploreResult:
    grid: go.Figure | None
    head: go.Figure | None
    lines: go.Figure | None
    predictions: go.Figure | None
    status: str  # Markdown, no user text
    head_table: str  # Markdown, no user text


WHY = {  # why heads of each named kind exist, for the table's last line
    "induction": "Looks at the word that followed an earlier copy of the current word, so "
                 "the model can guess that what came next last time comes next again: the "
                 "trick behind repeating names and lists (an induction head). It needs a "
                 "previous-token head in an earlier layer.",
    "previous-token": EXPLANATIONS["previous-token"],
    "next-token": "Looks at the word just after: a masked-word model sees both sides, and "
                  "the next word often gives away the hidden one.",
    "first-token/sink": EXPLANATIONS["first-token"],
    "self": EXPLANATIONS["self"],
    NO_PATTERN: "No single rule on this sentence: switch it off in Ablate, or open it large "
                "to see which words it picks. Most heads of a small model look like this on "
                "most sentences.",
}


# The words of the table a student was never told, said once under it (#30).
UNITS = ("*Entropy* is how spread out a head's attention is, in bits: 0 = all on one token, "
         "1 = split evenly between two, 2 = evenly over four. *Loss* is how badly the model "
         "guesses the words it has to guess (lower is better): the average of −ln(the "
         "probability it gave the right word), in *nats*, the unit of the natural log. "
         "\"off: +… nats\" is how much the loss rises on your sentence (or on it said twice, "
         "for copying) when that head alone is switched off.")


def head_table(stats: HeadStats, layer: int, selected: int,
               baseline: HeadStats | None = None, labels: HeadLabels | None = None) -> str:
    """Per-head numbers of one layer as a Markdown table, then what the selected head's
    type means. With ``labels`` (:mod:`explorer.analysis.head_labels`) a head is named only when it
    passed the threshold and, for the kinds in ``CHECKED``, the switch-off check; without,
    the rough pattern type."""
    kind_of = ((lambda h: labels.kind(layer, h)) if labels is not None
               else (lambda h: classify(stats, layer, h)))
    # Few, narrow columns: the table must fit a phone and a projector at 150 %.
    lines = [f"| L{layer} | named | the numbers | entropy (bits) |", "|---:|---|---|---:|"]
    for h in range(stats.entropy.shape[1]):
        entropy = f"{stats.entropy[layer, h]:.2f}"
        if baseline is not None:
            entropy = f"{baseline.entropy[layer, h]:.2f} → {entropy}"
        mark = " ◀" if h == selected else ""
        why = (labels.evidence(layer, h) if labels is not None else
               f"{stats.prev_share[layer, h]:.2f} on previous, "
               f"{stats.first_share[layer, h]:.2f} on first")
        lines.append(f"| H{h}{mark} | {kind_of(h)} | {why} | {entropy} |")
    lines += ["", UNITS]
    kind = kind_of(selected)
    lines += ["", f"**L{layer} H{selected} — {kind}.** {WHY.get(kind, EXPLANATIONS.get(kind))}"]
    if labels is not None:
        lines += ["", named_line(labels)]
    return "\n".join(lines)


def named_line(labels: HeadLabels) -> str:
    """One line naming every head with a name on this sentence, in all layers."""
    named = labels.named()
    # Sink and self heads pass no switch-off check (head_labels.CHECKED): the line says so
    # rather than let a class think every name was tested the same way.
    unchecked = [k for k in KINDS if k not in CHECKED and k != NO_PATTERN]
    how = (f"{_either(CHECKED).capitalize()} heads are named only when the pattern is clear "
           "on this sentence *and* switching off the heads of that kind together makes what "
           f"they predict worse (≥ {CHECK_NATS:.2f} nats; two heads can share one job, so "
           f"one alone may change little); {_either(unchecked)} heads on the pattern alone "
           "(switching one off predicts no loss to check).")
    if not labels.repeated and labels.scores.get("previous-token") is not None:
        how += " Induction was not measured: the sentence said twice would not fit."
    if not named:
        return f"**Named heads on this sentence:** none. {how}"
    items = " · ".join(f"L{la} H{h} {kind} ({PLAIN[kind].split(',')[0]})"
                       for la, h, kind in named)
    return f"**Named heads on this sentence:** {items}. {how}"


def _either(kinds) -> str:
    """'induction, previous-token and next-token'."""
    kinds = list(kinds)
    return ", ".join(kinds[:-1]) + " and " + kinds[-1] if len(kinds) > 1 else "".join(kinds)


def status_text(result: Analysis, name: str, zoo: Zoo) -> str:
    parts = []
    card = zoo.cards.get(name, {})
    if zoo.untrained:
        parts.append("⚠️ **No trained checkpoint is installed: this is a random, untrained "
                     "model.** Train one with `python -m explorer.training.zoo_build`.")
    elif card.get("lab"):  # a student's own Lab model (explorer/views/lab_models.py)
        parts.append(f"**Your Lab model** ({card.get('about', '')})")
    else:
        loss = card.get("val_loss")
        parts.append(f"Model **{name}**" + (f" (validation loss {loss:.2f})" if loss else ""))
    parts.append(plural(len(result.tokens), "token"))
    text = " · ".join(parts)
    if result.interventions:
        text += ("\n\n🧪 **Experiment on the trained model:** " + "; ".join(result.interventions)
                 + ". The model was not trained this way.")
        if result.baseline_stats is not None and result.stats is not None:
            before = float(result.baseline_stats.entropy.mean())
            after = float(result.stats.entropy.mean())
            text += f" Mean attention entropy {before:.2f} → {after:.2f} bits."
        if (loss := result.extra.get("loss")) is not None:
            text += (f" Loss on this sentence (lower = easier to guess): as trained "
                     f"**{loss[0]:.2f}** → now **{loss[1]:.2f}**.")
        if result.baseline_predictions and result.predictions:
            b_tok, b_p = result.baseline_predictions[0]
            a_tok, a_p = result.predictions[0]
            # which token, not only how sure: "63% → 62%" alone read as if nothing changed
            if a_tok == b_tok:
                text += f" Top guess still {quoted_token(b_tok)}: {b_p:.0%} → {a_p:.0%}."
            else:
                text += (f" Top guess {quoted_token(b_tok)} ({b_p:.0%}) is now "
                         f"{quoted_token(a_tok)} ({a_p:.0%}).")
    for notice in result.notices:
        text += f"\n\n⚠️ {notice}"
    return text


LAB_CLEAR_HEADS = ("Your Lab model was not evaluated on held-out stories as the zoo's models "
                   "were: its heads' previous-token and induction scores on the Lab's task are "
                   "in the Lab tab, and the table below names heads on your sentence.")

HEAD_VIEW_ALL_KEYS_UP_TO = 16  # tokens; longer sentences draw each query's strongest keys
HEAD_VIEW_TOP_K = 3


@dataclass
class Run:
    """One analysed request, shared by the two ways of drawing it."""

    result: Analysis
    name: str
    causal: bool
    layer: int
    head: int
    theme: str

    @property
    def top_k(self) -> int | None:
        return None if len(self.result.tokens) <= HEAD_VIEW_ALL_KEYS_UP_TO else HEAD_VIEW_TOP_K


def run_request(zoo: Zoo, tok: Tokenizer, text, controls: Controls,
                detail: bool = True, analysed: Analysis | None = None) -> Run | tuple[str, str]:
    """The analysis of one request, or (status, head table) when there is nothing to draw.
    ``detail``: as :func:`~explorer.analysis.run.analyse` (False: patterns and guesses only).
    ``analysed``: that analysis, already computed (a batch of keystrokes: grid_payload)."""
    name = controls.checkpoint()
    model = zoo.get(name)
    if model is None:
        return "⚠️ " + zoo.why_missing(name), ""
    text = "" if text is None else str(text)  # a hand-made request may send anything
    if not text.strip():
        return EMPTY_STATE, ""
    config = model.config
    layer, head = config.clamp(controls.layer, controls.head)
    result = analysed or analyse(model, tok, text, controls.settings(), layer=layer,
                                 detail=detail)
    if detail and result.ids:
        result.extra["labels"] = label_heads(model, result.ids, result.patterns,
                                             controls.settings(), tok.mask_id, result.stats)
        if result.interventions:  # an experiment: is the sentence easier or harder now?
            spec = loss_spec(result.ids, config.causal, tok.mask_id)
            if isinstance(spec, LossSpec):
                result.extra["loss"] = (spec_loss(model, spec),
                                        spec_loss(model, spec, controls.settings()))
    return Run(result, name, config.causal, layer, head, controls.theme)


def _loss_names(loss: tuple[float, float] | None) -> dict:
    """The guesses' legend with the sentence's loss as trained and now (an experiment: the
    top guess can get worse while the sentence as a whole gets easier, step 4)."""
    if loss is None:
        return {}
    return {"compare_name": f"as trained · loss {loss[0]:.2f}",
            "name": f"now · loss {loss[1]:.2f}"}


def _figure_args(run: Run) -> dict:
    """Keyword arguments of the four builders, the same for both ways of drawing."""
    r, layer, head, theme = run.result, run.layer, run.head, run.theme
    where = "next word" if run.causal else "the [mask]"
    return {
        "grid": dict(patterns=r.patterns, tokens=r.tokens, theme=theme, selected=(layer, head)),
        "head": dict(pattern=r.patterns[layer, head], tokens=r.tokens, scores=r.scores[head],
                     scaled=r.scaled[head], mask=r.blocked[head], theme=theme,
                     title=f"Layer {layer}, head {head}"),
        "lines": dict(patterns_layer=r.patterns[layer], tokens=r.tokens, theme=theme,
                      title=f"Layer {layer}: who looks at whom", top_k=run.top_k),
        "predictions": dict(preds=r.predictions, theme=theme,
                            title=f"Model's guesses for {where}",
                            compare=r.baseline_predictions,
                            **_loss_names(r.extra.get("loss"))) if r.predictions else None,
    }


def explore(zoo: Zoo, tok: Tokenizer, text: str, controls: Controls) -> ExploreResult:
    """The whole update as ``go.Figure`` objects, the straightforward way: the ``/explore``
    API and the reference the live path (:func:`live_rest`, the grid payload) is tested
    against."""
    run = run_request(zoo, tok, text, controls)
    if not isinstance(run, Run):
        return ExploreResult(None, None, None, None, *run)
    args = _figure_args(run)
    preds = args["predictions"]
    return ExploreResult(attention_grid(**args["grid"]),
                         head_heatmap(**args["head"]),
                         head_view(**args["lines"]),
                         None if preds is None else predictions_bar(**preds),
                         status_text(run.result, run.name, zoo),
                         head_table(run.result.stats, run.layer, run.head,
                                    run.result.baseline_stats, run.result.extra.get("labels")))


def live_rest(pending: Run | None) -> tuple[dict | None, dict | None, dict | None, str]:
    """(head, head view, guesses, head table) of an analysed request (:func:`run_request`)
    as the values ``gr.Plot`` sends, drawn when typing pauses: the same figures as
    :func:`explore`, built as plain dicts and written by orjson."""
    if pending is None:
        return None, None, None, ""
    args = _figure_args(pending)
    preds = args["predictions"]
    r = pending.result
    return (plot_value(head_heatmap_spec(**args["head"])),
            plot_value(head_view_spec(**args["lines"])),
            None if preds is None else plot_value(predictions_bar_spec(**preds)),
            head_table(r.stats, pending.layer, pending.head, r.baseline_stats,
                       r.extra.get("labels")))


def settled_update(zoo: Zoo, tok: Tokenizer, text, controls: Controls) -> tuple:
    """What follows once typing pauses: (head, head view, guesses, head table, status), the
    figures as :func:`live_rest` builds them; with nothing to draw, None for each figure."""
    run = run_request(zoo, tok, text, controls)
    if not isinstance(run, Run):
        status, table = run
        return None, None, None, table, status
    return (*live_rest(run), status_text(run.result, run.name, zoo))


def clear_heads_view(zoo: Zoo, objective, heads, pos) -> tuple[str, list[str]]:
    """(sentence, choice labels) of the "clear heads in this model" pointer for the model
    these knobs pick; a combination the UI never offers gets a plain message."""
    if objective == LAB_OBJECTIVE:
        return LAB_CLEAR_HEADS, []
    try:
        name = Controls(objective=str(objective), heads=int(heads), pos=str(pos)).checkpoint()
    except (TypeError, ValueError, KeyError):
        return "That combination of controls is not offered.", []
    if zoo.get(name) is None:
        return "", []
    found = clear_heads(zoo.evals.get(name))
    text = summary(name, found, name in zoo.evals, zoo.evals.get(name),
                   copying_models(zoo.evals))
    card = zoo.cards.get(name, {})
    top = span_pool(card)
    if not card.get("training", {}).get("repeat_share"):
        text += (" ⚠️ This model is still from the first zoo (2M tokens of plain text), not yet "
                 "retrained with the recipe that grows named heads (`python -m "
                 "explorer.training.zoo_build`).")
    elif top is not None:
        # recipe A: its copying never learned the rarer words (checkpoints/study/)
        text += (" ⚠️ Trained with the earlier recipe, whose repeated spans used only the "
                 f"{top:,} most frequent tokens: it cannot copy "
                 "rarer words (sock, shoe, jacket), and comparing it with the default model "
                 "changes the recipe too. Not yet retrained (`python -m "
                 "explorer.training.zoo_build`).")
    elif not on_recipe(card):
        # recipe F: random spans only, so its copying head copies lists, not stories
        text += (f" ⚠️ Trained with an earlier recipe ({recipe_words(card['training'])}; "
                 f"now {recipe_words()}): comparing it with a model on the current recipe "
                 "changes the recipe too. Not yet retrained (`python -m "
                 "explorer.training.zoo_build`).")
    return text, [h.label for h in found]


def first_head(zoo: Zoo) -> tuple[int, int]:
    """(layer, head) drawn large when the page opens: the default model's previous-token
    head from its held-out evaluation (a diagonal a class can name at first sight, and named
    on the page's first example), else its first clear head, else L0 H0."""
    heads = clear_heads(zoo.evals.get(zoo.default_name))
    pick = next((h for h in heads if h.kind == "previous-token"), heads[0] if heads else None)
    return (pick.layer, pick.head) if pick else (0, 0)


def open_clear_head(label, layer, head) -> tuple[int, int]:
    """The (layer, head) a pointer choice names, or the sliders' values unchanged."""
    picked = parse_label(label)
    return picked if picked is not None else (layer, head)
