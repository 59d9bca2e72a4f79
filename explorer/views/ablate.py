"""Switch heads off and see what the model loses: numbers, then the Ablate view.

Ablating a head (``AttentionSettings(head_mask=((layer, head), ...))``) keeps its
attention pattern but zeroes its output ``hook_z``, so everything downstream (later
layers' attention, the predictions) changes while earlier layers do not.

**The loss on the student's sentence** (lower = the model finds the text more
predictable), under the panel's settings:

* next-word models: the mean cross-entropy of predicting each token from the ones
  before it, over the sentence's ``T - 1`` positions (one forward pass);
* masked-word models: there is no next word to score, so each word is hidden in turn
  (replaced by ``[mask]``, one copy of the sentence per hidden word, all in one
  batched forward pass) and the loss is the mean cross-entropy of guessing it -- how
  such models are trained. At most ``MAX_MASKED`` evenly spaced positions; the
  student's own ``[mask]`` tokens are not scored (their answer is unknown).

:func:`rank_heads` removes each head alone (``n_layers x n_heads`` forward passes of
a few milliseconds) and sorts the heads by how much the loss goes up.

No gradio here; no user text in any Markdown string (a guessed token, a piece of the
vocabulary, is quoted with its punctuation escaped: :func:`quoted_token`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go

from explorer.analysis.head_types import HeadTypes, head_types, why
from explorer.analysis.logit_lens import attribute
from explorer.analysis.losses import LossSpec, loss_spec, spec_loss
from explorer.analysis.run import plural
from explorer.figures import compare as compare_figures
from explorer.figures import patching as patching_figures
from explorer.figures.attention import attention_grid
from explorer.figures.labels import display_token
from explorer.figures.predictions import predictions_bar
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer
from explorer.models.zoo import Zoo
from explorer.views.compare import Run, moved_share, prediction_rows, run
from explorer.views.controls import EMPTY_STATE, Controls

LABEL = re.compile(r"^L(\d+) H(\d+)$")
Head = tuple[int, int]


def head_label(layer: int, head: int) -> str:
    return f"L{layer} H{head}"


def head_choices(n_layers: int, n_heads: int) -> list[str]:
    return [head_label(la, h) for la in range(n_layers) for h in range(n_heads)]


def parse_heads(labels: Iterable[str] | None, n_layers: int,
                n_heads: int) -> tuple[tuple[Head, ...], list[str]]:
    """"L1 H2" labels -> ((layer, head), ...) sorted, plus the labels that name no head of
    this model (left out). Never raises on what a request sends."""
    heads: set[Head] = set()
    dropped: list[str] = []
    for label in labels or ():
        m = LABEL.match(str(label).strip())
        if m and int(m[1]) < n_layers and int(m[2]) < n_heads:
            heads.add((int(m[1]), int(m[2])))
        else:
            dropped.append(str(label))
    return tuple(sorted(heads)), dropped


@dataclass(frozen=True)
class RankRow:
    layer: int
    head: int
    loss: float  # with this head alone switched off
    delta: float  # loss - base

    @property
    def label(self) -> str:
        return head_label(self.layer, self.head)


@dataclass(frozen=True)
class Ranking:
    base: float  # every head on
    rows: tuple[RankRow, ...]  # n_layers * n_heads, biggest loss increase first
    how: str


def rank_heads(model: Transformer, spec: LossSpec,
               settings: AttentionSettings | None = None) -> Ranking:
    """Remove each head alone; sort by how much the loss goes up (ties: layer, head)."""
    settings = settings or AttentionSettings()
    config = model.config
    base_settings = AttentionSettings(settings.causal, settings.scale, settings.temperature)
    base = spec_loss(model, spec, base_settings)
    rows = []
    for layer in range(config.n_layers):
        for head in range(config.n_heads):
            one = AttentionSettings(settings.causal, settings.scale, settings.temperature,
                                    head_mask=((layer, head),))
            loss = spec_loss(model, spec, one)
            rows.append(RankRow(layer, head, loss, loss - base))
    rows.sort(key=lambda r: (-r.delta, r.layer, r.head))
    return Ranking(base, tuple(rows), spec.how)


# --------------------------------------------------------------------------- one ablation


@dataclass
class Ablation:
    heads_off: tuple[Head, ...]
    on: Run  # every head on (the panel's settings)
    off: Run  # the same with heads_off switched off
    loss_on: float | None
    loss_off: float | None
    loss_how: str  # how the loss is measured, or why there is none
    spec: LossSpec | None

    @property
    def tokens(self) -> list[str]:
        return self.on.tokens

    @property
    def attention_change(self) -> np.ndarray:
        """``[layer, head]`` share of attention that moved (:func:`moved_share`): zero up to
        and including the first layer with a head off, which never see the change."""
        return moved_share(self.on.patterns, self.off.patterns)


def with_heads_off(settings: AttentionSettings, heads: Sequence[Head]) -> AttentionSettings:
    return AttentionSettings(settings.causal, settings.scale, settings.temperature,
                             head_mask=tuple(heads))


def ablate(model: Transformer, tok: Tokenizer, text: str, settings: AttentionSettings,
           heads_off: Sequence[Head], name: str = "") -> Ablation:
    on_settings = with_heads_off(settings, ())
    on = run(model, tok, text, on_settings, name)
    off = run(model, tok, text, with_heads_off(settings, heads_off), name) if heads_off else on
    spec = loss_spec(on.ids, model.config.causal, tok.mask_id) if on.ids else "No tokens."
    if isinstance(spec, str):
        return Ablation(tuple(heads_off), on, off, None, None, spec, None)
    loss_on = spec_loss(model, spec, on_settings)
    loss_off = spec_loss(model, spec, with_heads_off(settings, heads_off)) if heads_off \
        else loss_on
    return Ablation(tuple(heads_off), on, off, loss_on, loss_off, spec.how, spec)


# --------------------------------------------------------------------------- the view


@dataclass
class AblateView:
    grid: go.Figure | None
    predictions: go.Figure | None
    change: go.Figure | None
    table: list[list]  # RANK_HEADERS rows, [] when there is no ranking
    intro: str  # Markdown above the table: how the loss is measured
    legend: str  # Markdown below the table: what each pattern type means
    status: str  # Markdown, no user text
    ranking: Ranking | None = None
    ablation: Ablation | None = None
    types: HeadTypes | None = None
    attribution: go.Figure | None = None  # direct logit attribution of the guess shown
    extra: dict = field(default_factory=dict)


# The loss change (what the table is ranked by) next to the head, then what the head does:
# on a phone the numbers were the columns cut off at the screen's edge.
RANK_HEADERS = ["rank", "head", "loss change", "loss without it", "pattern here", "measured"]


def ranking_rows(ranking: Ranking, types: HeadTypes | None,
                 off: Iterable[Head] = ()) -> list[list]:
    """One row per head (``RANK_HEADERS``), in ranking order; heads now off are marked."""
    off = set(off)
    rows = []
    for rank, r in enumerate(ranking.rows, 1):
        kind = types.kind(r.layer, r.head) if types is not None else ""
        evidence = str(types.evidence[r.layer, r.head]) if types is not None else ""
        mark = " (off)" if (r.layer, r.head) in off else ""
        rows.append([rank, r.label + mark, round(r.delta, 3), round(r.loss, 3), kind, evidence])
    return rows


def ranking_intro(ranking: Ranking) -> str:
    return (f"#### Which heads matter for this sentence: each switched off alone\n"
            f"Loss = {ranking.how} (cross-entropy: how surprised the model is by the right "
            f"word, minus the log of the probability it gave it; lower is better); with "
            f"every head on it is **{ranking.base:.3f}**. A big rise when a head is removed "
            f"= the model needed that head here.")


def pattern_legend(types: HeadTypes) -> str:
    """What each pattern type that occurs means, and why such heads exist (Markdown)."""
    lines = ["**What the patterns mean** (measured on your sentence, all heads on):"]
    lines += [f"- **{kind}**: {why(kind)}" for kind in types.present()]
    if types.note:
        lines += ["", f"ℹ️ {types.note}"]
    return "\n".join(lines)


# CommonMark lets a backslash escape any ASCII punctuation: a token quoted in Markdown then
# shows its characters, never markup (a vocabulary piece can be "*", "<", "](", ...).
_MD_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")


def quoted_token(text: str) -> str:
    """A guessed token for a Markdown sentence: every character visible (␣ for a space),
    escaped, in quotes."""
    return "“" + _MD_PUNCT.sub(r"\\\1", display_token(text)) + "”"


def guess_change(tok: Tokenizer, on: np.ndarray, off: np.ndarray, heads: str) -> str:
    """What switching ``heads`` off did to the top guess, in words (Markdown): the old top
    guess's probability before and after and, if another token took its place, which."""
    before, after = int(np.argmax(on)), int(np.argmax(off))
    was = quoted_token(tok.decode([before]))
    if before == after:
        return (f"Top guess still {was}: {float(on[before]):.0%} → {float(off[before]):.0%} "
                f"with {heads} off.")
    return (f"Top guess {was}: {float(on[before]):.0%} → **{float(off[before]):.0%}** with "
            f"{heads} off; now {quoted_token(tok.decode([after]))} is the top guess, at "
            f"{float(off[after]):.0%}.")


def guess_attribution(model: Transformer, tok: Tokenizer, shown: Run,
                      settings: AttentionSettings, theme: str) -> go.Figure | None:
    """Each head's direct push toward the guess shown (``shown``: the run as drawn, heads
    off included, which push nothing) over the runner-up, as a layer × head heatmap; None
    when there is no guess or the model normalises after every block."""
    if shown.probs is None or shown.predict_at is None or len(shown.probs) < 2:
        return None
    runner_up, answer = (int(i) for i in np.argsort(shown.probs)[-2:])
    dla = attribute(model, shown.ids, answer, runner_up, shown.predict_at, settings)
    if dla is None:
        return None
    return patching_figures.head_attribution_grid(
        dla.heads, theme=theme,
        title=f"Which heads push “{display_token(tok.decode([answer]))}” over "
              f"“{display_token(tok.decode([runner_up]))}”",
        subtitle="Direct logit attribution: each head's output alone, through W_O and the "
                 f"unembedding (the final norm's scale frozen). Heads {dla.heads.sum():+.1f}, "
                 f"the rest {dla.total - dla.heads.sum():+.1f}: the gap between the two "
                 f"guesses, {dla.total:+.1f}. A head switched off pushes 0.")


def ranking_key(name: str, text: str, controls: Controls) -> tuple:
    """What a ranking depends on (the heads switched off do not count)."""
    s = controls.settings()
    return (name, text, s.causal, s.scale, s.temperature)


def ablate_view(zoo: Zoo, tok: Tokenizer, text: str, controls: Controls,
                labels: Iterable[str] | None, ranking: Ranking | None = None) -> AblateView:
    """Everything the Ablate tab shows. ``ranking``: a ranking already computed for the
    same :func:`ranking_key` (the live tab keeps the last one), else it is computed."""
    name = controls.checkpoint()
    model = zoo.get(name)
    if model is None:
        return AblateView(None, None, None, [], "", "", "⚠️ " + zoo.why_missing(name))
    if not (text or "").strip():
        return AblateView(None, None, None, [], "", "", EMPTY_STATE)
    config = model.config
    heads_off, dropped = parse_heads(labels, config.n_layers, config.n_heads)
    settings = controls.settings()
    a = ablate(model, tok, text, settings, heads_off, name)
    if not a.tokens:
        return AblateView(None, None, None, [], "", "", EMPTY_STATE)
    theme = controls.theme
    types = head_types(a.on.patterns, a.on.ids)
    if ranking is None and a.spec is not None:
        ranking = rank_heads(model, a.spec, settings)

    grid = attention_grid(a.off.patterns, a.off.tokens, theme=theme)
    compare_figures.mark_heads_off(grid, config.n_heads, heads_off, theme)
    preds = _guesses_figure(tok, a, bool(heads_off), theme)
    change = None
    if heads_off:
        change = compare_figures.head_difference_grid(
            a.attention_change, off=heads_off, theme=theme, number_format=".0%",
            colorbar="moved",
            title="How far each head's attention moved")
    lines = _status_lines(zoo, tok, name, config, settings, a, heads_off, dropped)
    table = ranking_rows(ranking, types, heads_off) if ranking is not None else []
    intro = ranking_intro(ranking) if ranking is not None else ""
    attribution = guess_attribution(model, tok, a.off, with_heads_off(settings, heads_off),
                                    theme)
    return AblateView(grid, preds, change, table, intro, pattern_legend(types),
                      "\n\n".join(lines), ranking, a, types, attribution)


def _guesses_figure(tok: Tokenizer, a, heads_off: bool, theme: str):
    """The guesses before → after switching heads off, or as they are with none off;
    None without guesses."""
    # each guess in quotes: a bare "." or "," was a dot beside the bar, not a label
    rows = [(f"“{t}”", p, q) for t, p, q in prediction_rows(tok, a.on.probs, a.off.probs)]
    if not rows:
        return None
    if heads_off:
        return compare_figures.prediction_change_bar(
            rows, names=("all heads on", "heads off"), theme=theme,
            # two short lines that end at the bars' right end: at a projector the figure
            # is 150-200 px wide beside the grid, and one line (167 px) ran past its edge
            title=("Guesses:", "before → after"), title_side="right")
    return predictions_bar([(word, p) for word, p, _ in rows], theme=theme,
                           name="all heads on",
                           title=("Guesses,", "all heads on"),  # as above
                           title_side="right")  # not cut at a projector


def _status_lines(zoo: Zoo, tok: Tokenizer, name: str, config, settings, a, heads_off,
                  dropped) -> list[str]:
    """The status: the model, the loss and the guess before → after, what was ignored."""
    where = "next word" if config.causal else "the [mask]"
    lines = [f"{zoo.title(name)} · {plural(len(a.tokens), 'token')} · predictions for {where}"]
    if settings.resolve(config).interventions:
        lines.append("🧪 Also an experiment on the trained model: "
                     + "; ".join(settings.resolve(config).interventions) + ".")
    if heads_off:
        off_text = ", ".join(head_label(*h) for h in heads_off)
        if a.loss_on is not None:
            lines.append(f"Loss ({a.loss_how}): all heads on **{a.loss_on:.3f}** → with "
                         f"{off_text} off **{a.loss_off:.3f}** "
                         f"({a.loss_off - a.loss_on:+.3f}).")
        else:
            lines.append(f"Switched off: {off_text}. ⚠️ {a.loss_how}")
        if a.on.probs is not None and a.off.probs is not None:
            lines.append(guess_change(tok, a.on.probs, a.off.probs, off_text))
    else:
        lines.append("Tick heads below — or click a square in the grid — to switch them off.")
        if a.loss_on is None:
            lines.append(f"⚠️ {a.loss_how}")
    if dropped:
        lines.append(f"ℹ️ {plural(len(dropped), 'selected head')} "
                     f"{'does' if len(dropped) == 1 else 'do'} not exist in this model and "
                     f"{'was' if len(dropped) == 1 else 'were'} ignored.")
    return lines + [f"⚠️ {n}" for n in a.on.notices]
