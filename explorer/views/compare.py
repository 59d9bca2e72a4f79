"""Two configurations side by side on the same sentence: numbers, then the Compare view.

A *configuration* is a checkpoint plus runtime settings (mask, scaling,
temperature): :class:`explorer.views.explore.Controls`. :func:`run` does one forward pass
of one configuration and keeps what the comparison needs (every head's pattern
and the whole next-token distribution); :func:`compare_runs` takes two runs and
computes

* ``diff = right − left`` per head, ``[layer, head, T, T]``, and per head the share of
  attention that moved (:func:`moved_share`, 0..1). When the two models have different head
  counts there is no head-to-head pairing: both are averaged over their heads and
  compared per layer (``[layer, 1, ...]``, ``per_layer=True``), and a note says so;
* the change in predictions: the union of both top-k lists, each token with its
  probability under *both* models (from the full distributions, not just the
  lists), most likely first.

:func:`compare_view` builds everything the Compare tab shows. No gradio here, and
no user text in any Markdown string: tokens only reach Plotly labels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go
import torch

from explorer.analysis.run import TOP_K, plural, prepare
from explorer.figures import compare as compare_figures
from explorer.figures.attention import head_heatmap
from explorer.models.capture import run_with_cache
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer
from explorer.models.zoo import Zoo
from explorer.views.controls import EMPTY_STATE, Controls


@dataclass(frozen=True)
class Run:
    """One configuration on one sentence."""

    name: str  # checkpoint name
    causal_model: bool  # trained as a next-word model
    tokens: list[str]
    ids: list[int]
    patterns: np.ndarray  # [layer, head, T, T] float32
    blocked: np.ndarray  # [T, T] bool: True where the mask removed the key
    probs: np.ndarray | None  # [vocab] float32 at predict_at, None when nothing to predict
    predict_at: int | None
    interventions: tuple[str, ...]
    notices: tuple[str, ...]

    @property
    def n_layers(self) -> int:
        return self.patterns.shape[0]

    @property
    def n_heads(self) -> int:
        return self.patterns.shape[1]


def run(model: Transformer, tok: Tokenizer, text: str,
        settings: AttentionSettings | None = None, name: str = "") -> Run:
    """One forward pass capturing every head's pattern and the prediction distribution."""
    config = model.config
    masked_word = not config.causal
    prep = prepare(tok, text, config.n_ctx, masked_word)
    settings = settings or AttentionSettings()
    resolved = settings.resolve(config)
    notices = list(prep.notices)
    n = len(prep.ids)
    if not n:
        return Run(name, config.causal, [], [],
                   np.zeros((config.n_layers, config.n_heads, 0, 0), np.float32),
                   np.zeros((0, 0), bool), None, None, resolved.interventions, tuple(notices))
    logits, cache = run_with_cache(model, torch.tensor([prep.ids]), settings,
                                   names="*hook_pattern")
    patterns = cache.stack("attn.hook_pattern")[:, 0].numpy().astype(np.float32, copy=False)
    if masked_word:
        at = prep.ids.index(tok.mask_id) if tok.mask_id in prep.ids else None
        if at is None:
            notices.append("Write [mask] (or ___) where you want the masked-word model to "
                           "guess a word.")
    else:
        at = n - 1
    probs = None if at is None else torch.softmax(logits[0, at].float(), -1).numpy()
    blocked = np.triu(np.ones((n, n), bool), 1) if resolved.causal else np.zeros((n, n), bool)
    return Run(name, config.causal, prep.pieces, prep.ids, patterns, blocked, probs, at,
               resolved.interventions, tuple(notices))


@dataclass
class Comparison:
    left: Run
    right: Run
    per_layer: bool  # head counts differ: compared as per-layer averages
    n_layers: int  # layers compared (the smaller model's count)
    diff: np.ndarray | None  # [layer, head or 1, T, T] right - left; None if tokens differ
    moved: np.ndarray | None  # [layer, head or 1] share of attention that moved, 0..1
    predictions: list[tuple[str, float, float]]  # (token, p_left, p_right), likeliest first
    notes: list[str] = field(default_factory=list)  # plain text for the student, no user text

    @property
    def same_tokens(self) -> bool:
        return self.left.ids == self.right.ids

    def pair(self, layer: int, head: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``[T, T]`` left and right patterns the difference view shows for the selected
        (layer, head): that head in both, or both layers' head averages when per_layer."""
        if self.per_layer:
            return self.left.patterns[layer].mean(0), self.right.patterns[layer].mean(0)
        return self.left.patterns[layer, head], self.right.patterns[layer, head]


def prediction_rows(tok: Tokenizer, left: np.ndarray | None, right: np.ndarray | None,
                    k: int = TOP_K) -> list[tuple[str, float, float]]:
    """The union of both top-k (by token id), each with both probabilities, sorted by the
    larger of the two. A side without a distribution gets 0 everywhere."""
    sides = [p for p in (left, right) if p is not None]
    if not sides:
        return []
    ids: list[int] = []
    for p in sides:
        for i in np.argsort(-p, kind="stable")[:k]:
            if int(i) not in ids:
                ids.append(int(i))

    def prob(p: np.ndarray | None, i: int) -> float:
        return 0.0 if p is None else float(p[i])

    rows = [(tok.decode([i]), prob(left, i), prob(right, i)) for i in ids]
    return sorted(rows, key=lambda r: -max(r[1], r[2]))


def _by_word(tok: Tokenizer, probs: np.ndarray) -> dict[str, float]:
    """A distribution over ``tok``'s tokens as one over words: each token decoded, spaces
    stripped, lower case (" Cat" and "cat" are one word), their probabilities summed."""
    out: dict[str, float] = {}
    for i, p in enumerate(probs.tolist()):
        word = tok.decode([i]).strip().lower()
        out[word] = out.get(word, 0.0) + p
    return out


def word_rows(left_tok, left: np.ndarray | None, right_tok, right: np.ndarray | None,
              k: int = TOP_K) -> list[tuple[str, float, float]]:
    """:func:`prediction_rows` for two models with different vocabularies (a student's Lab
    model beside a zoo model): the union of both top-k words (:func:`_by_word`), each with
    its probability under both."""
    sides = [{} if p is None else _by_word(t, p) for t, p in ((left_tok, left),
                                                             (right_tok, right))]
    words: list[str] = []
    for side in sides:
        for word in sorted(side, key=lambda w, side=side: -side[w])[:k]:
            if word not in words:
                words.append(word)
    rows = [(w, sides[0].get(w, 0.0), sides[1].get(w, 0.0)) for w in words]
    return sorted(rows, key=lambda r: -max(r[1], r[2]))


# What "differ by 32% of their probability" measures (total variation, a name a student
# was never told: #30).
TV_WORDS = "the share that would have to move to turn the left guesses into the right ones"


def moved_share(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """``[..., T, T]`` patterns -> ``[...]``: the share of each token's attention that moved
    (half the L1 distance between the two rows, i.e. total variation, 0..1), averaged over
    the tokens. Unlike a mean over all T x T cells it does not shrink as the sentence
    grows, nor count the cells a mask keeps at 0 in both."""
    d = np.abs(np.asarray(after, np.float64) - np.asarray(before, np.float64))
    return 0.5 * d.sum(-1).mean(-1)


def compare_runs(left: Run, right: Run, tok: Tokenizer, k: int = TOP_K,
                 right_tok=None) -> Comparison:
    """``right_tok``: the right model's tokenizer when it is not ``tok`` (a Lab model's
    words beside the zoo's pieces): the guesses are then compared word by word."""
    notes: list[str] = []
    two_vocabularies = right_tok is not None and right_tok is not tok
    per_layer = left.n_heads != right.n_heads
    n_layers = min(left.n_layers, right.n_layers)
    if per_layer and not two_vocabularies:  # (two vocabularies: nothing is subtracted)
        notes.append(f"The two models have different head counts ({left.n_heads} vs "
                     f"{right.n_heads}), so heads cannot be paired: the difference compares "
                     f"each layer's average over its heads.")
    if left.n_layers != right.n_layers and not two_vocabularies:
        notes.append(f"The models have {left.n_layers} and {right.n_layers} layers; only the "
                     f"first {n_layers} are compared.")
    diff = moved = None
    if left.ids == right.ids and left.ids:
        a = left.patterns[:n_layers].astype(np.float64)
        b = right.patterns[:n_layers].astype(np.float64)
        if per_layer:
            a, b = a.mean(1, keepdims=True), b.mean(1, keepdims=True)
        diff = (b - a).astype(np.float32)
        moved = moved_share(a, b).astype(np.float32)
    elif left.ids and right.ids and two_vocabularies:
        notes.append("Your Lab model reads a start token and one token per word, the zoo's "
                     "model its own pieces of words, so their patterns cannot be subtracted "
                     "cell by cell; the guesses are set side by side word by word.")
    elif left.ids and right.ids:
        notes.append("The two models read this sentence as different tokens (the "
                     "masked-word model reads [mask] as one token), so their patterns "
                     "cannot be subtracted cell by cell.")
    if left.causal_model != right.causal_model and left.probs is not None \
            and right.probs is not None:
        notes.append("One model guesses the next word, the other the [mask]: the two sets "
                     "of guesses answer different questions.")
    rows = (word_rows(tok, left.probs, right_tok, right.probs, k) if two_vocabularies
            else prediction_rows(tok, left.probs, right.probs, k))
    return Comparison(left, right, per_layer, n_layers, diff, moved, rows, notes)


# --------------------------------------------------------------------------- the view


@dataclass
class CompareView:
    left_head: go.Figure | None
    right_head: go.Figure | None
    difference: go.Figure | None
    per_head: go.Figure | None
    predictions: go.Figure | None
    status: str  # Markdown, no user text
    comparison: Comparison | None = None


def _difference_figures(c: Comparison, a: Run, b: Run, layer: int, head: int, theme: str,
                        lines: list[str]):
    """Right − left at the selected head (or layer average) and the attention that moved
    per head, with a line for ``lines`` saying how much moved and where most; (None,
    None) when the two models' heads cannot be paired."""
    if c.diff is None:
        return None, None
    pa, pb = c.pair(layer, head)
    what = f"layer {layer} (head average)" if c.per_layer else f"layer {layer}, head {head}"
    diff_fig = compare_figures.difference_heatmap(
        pa, pb, a.tokens, blocked=a.blocked & b.blocked, theme=theme,
        title=f"Right − left, {what}")
    columns = ["layer average"] if c.per_layer else None
    per_head = compare_figures.head_difference_grid(
        c.moved, columns=columns, theme=theme, number_format=".0%", colorbar="moved",
        selected=(layer, 0 if c.per_layer else head),
        title="Attention that moved, per " + ("layer" if c.per_layer else "head"))
    overall = float(c.moved.mean())
    if overall == 0.0:
        lines.append("The two configurations attend **identically** on this sentence "
                     "(every difference is 0).")
    else:
        la, h = np.unravel_index(int(np.argmax(c.moved)), c.moved.shape)
        where = f"layer {la}" if c.per_layer else f"L{la} H{h}"
        lines.append(f"On average **{overall:.0%}** of each token's attention moved; the "
                     f"most in **{where}** ({float(c.moved[la, h]):.0%}).")
    return diff_fig, per_head


def _guess_change(c: Comparison, a: Run, b: Run, l_tok: Tokenizer, r_tok: Tokenizer,
                  theme: str, lines: list[str]):
    """Either side's top guesses as a chart (None without guesses), with a line for
    ``lines`` saying by how much of their probability the guesses differ."""
    if not c.predictions:
        return None
    preds = compare_figures.prediction_change_bar(
        c.predictions, names=("left", "right"), theme=theme,
        title="Top guesses of either side")
    if a.probs is None or b.probs is None:
        return preds
    if r_tok is not l_tok:  # two vocabularies (a Lab model's words, a zoo model's pieces)
        pa, pb = _by_word(l_tok, a.probs), _by_word(r_tok, b.probs)
        tv = 0.5 * sum(abs(pa.get(w, 0.0) - pb.get(w, 0.0)) for w in {*pa, *pb})
        same = max(pa, key=pa.get) == max(pb, key=pb.get)
        lines.append(f"The guesses differ by {tv:.0%} of their probability, word by word "
                     f"({TV_WORDS}); top guess {'the same' if same else '**different**'}.")
    else:
        tv = 0.5 * float(np.abs(a.probs.astype(np.float64) - b.probs).sum())
        same = int(np.argmax(a.probs)) == int(np.argmax(b.probs))
        lines.append(f"The guesses differ by {tv:.0%} of their probability ({TV_WORDS}); "
                     f"top guess {'the same' if same else '**different**'}.")
    return preds


def _describe(run_: Run) -> str:
    how = "; ".join(run_.interventions) if run_.interventions else "as trained"
    return f"**{run_.name}** ({how})"


def _head_figure(run_: Run, layer: int, head: int, side: str, theme: str) -> go.Figure:
    layer = min(layer, run_.n_layers - 1)
    head = min(head, run_.n_heads - 1)
    return head_heatmap(run_.patterns[layer, head], run_.tokens, mask=run_.blocked,
                                theme=theme, title=f"{side}: layer {layer}, head {head}")


def compare_view(zoo: Zoo, tok: Tokenizer, text: str, left: Controls,
                 right: Controls, sources: tuple | None = None) -> CompareView:
    """Everything the Compare tab shows. ``left.layer/head/theme`` are used for both.
    ``sources``: ((zoo, tokenizer) of the left, of the right) when a side is not the
    shared zoo's (a student's Lab model: explorer/views/lab_models.py)."""
    sources = sources or ((zoo, tok), (zoo, tok))
    missing = []
    models = []
    for (side, controls), (side_zoo, _) in zip((("left", left), ("right", right)), sources,
                                               strict=True):
        name = controls.checkpoint()
        model = side_zoo.get(name)
        if model is None:
            missing.append(f"⚠️ {side.capitalize()}: {side_zoo.why_missing(name)}")
        models.append((name, model))
    if missing:
        return CompareView(None, None, None, None, None, "\n\n".join(missing))
    if not (text or "").strip():
        return CompareView(None, None, None, None, None, EMPTY_STATE)
    (l_name, l_model), (r_name, r_model) = models
    (_, l_tok), (_, r_tok) = sources
    a = run(l_model, l_tok, text, left.settings(), l_name)
    b = run(r_model, r_tok, text, right.settings(), r_name)
    if not a.tokens or not b.tokens:
        return CompareView(None, None, None, None, None, EMPTY_STATE)
    c = compare_runs(a, b, l_tok, right_tok=r_tok)
    theme = left.theme
    layer = min(max(left.layer, 0), c.n_layers - 1)
    head = min(max(left.head, 0), a.n_heads - 1)
    notes = list(c.notes)
    for side, r in (("left", a), ("right", b)):
        if left.head >= r.n_heads:
            notes.append(f"The {side} model has {r.n_heads} head{'s' * (r.n_heads > 1)} per "
                         f"layer; it shows head {r.n_heads - 1}.")

    left_fig = _head_figure(a, layer, max(left.head, 0), "Left", theme)
    right_fig = _head_figure(b, layer, max(left.head, 0), "Right", theme)
    lines = [f"Left: {_describe(a)} · Right: {_describe(b)} · {plural(len(a.tokens), 'token')}"]
    diff_fig, per_head = _difference_figures(c, a, b, layer, head, theme, lines)
    preds = _guess_change(c, a, b, l_tok, r_tok, theme, lines)
    lines += [f"ℹ️ {n}" for n in notes]
    lines += [f"⚠️ {n}" for n in dict.fromkeys(a.notices + b.notices)]
    return CompareView(left_fig, right_fig, diff_fig, per_head, preds, "\n\n".join(lines), c)
