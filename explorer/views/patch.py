"""The Patch view: two sentences, which head carries the difference, and how the guess forms.

The shared sentence box is the **clean** sentence; the view's own box the **corrupted**
copy (same number of tokens, a word changed). For one request it computes
(:func:`explorer.analysis.patching.patch`) every head's and every (layer, position)'s share
of the logit difference restored, the logit lens of the clean run
(:mod:`explorer.analysis.logit_lens`), each head's direct logit attribution, and the
corrupted run with one chosen cell patched (a click on a heatmap picks it; by default the
head that restores most).

Bad input (an empty box, different token counts, the masked-word model, two runs that
prefer the answer equally) gets a sentence, never an error. No gradio here; no user text
in any Markdown string (sentences and tokens go into figures, which escape them, and into
table cells, which Gradio shows as text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go
import torch

from explorer.analysis.logit_lens import Attribution, direct_logit_attribution, logit_lens
from explorer.analysis.patching import HEAD_HOOK, MIN_GAP, RESID_HOOK, Patching, patch, patch_one
from explorer.analysis.run import Prepared, plural, prepare
from explorer.figures import compare as compare_figures
from explorer.figures import patching as figures
from explorer.models.capture import run_with_cache
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import Zoo
from explorer.views.ablate import quoted_token
from explorer.views.compare import prediction_rows
from explorer.views.controls import EMPTY_STATE, Controls

# The example (measured on the default model, pinned by tests/views/test_patch.py):
# the first copy's "shoe" becomes "sock", so the second copy's "shoe" no longer points at
# " bell" -- the induction circuit's job.
EXAMPLE_CLEAN = ("Tim wrote a list: apple chair river moon shoe bell cup. "
                 "He read it again: apple chair river moon shoe")
EXAMPLE_CORRUPT = EXAMPLE_CLEAN.replace("moon shoe bell", "moon sock bell")
# The page's examples (label, clean, corrupted); each label's claim is pinned by
# tests/views/test_patch.py on the default model.
EXAMPLES = [
    ("Induction: L3 H2 restores 100 %, the previous-token heads L2 H0 73 % and L1 H1 22 %",
     EXAMPLE_CLEAN, EXAMPLE_CORRUPT),
    ("A repeated list: L3 H2 restores 80 %",
     "red green blue red green", "red green blue red yellow"),
    # not about counting: " six" and " seven" are split (" s"+"ix", " se"+"ven"), so the two
    # runs differ in the last token itself and the residual stream there carries it all
    ("A changed last word (six -> seven): no head carries it (at most 37 %), the word's "
     "own place does",
     "one two three four five six", "one two three four five seven"),
]
# Words tried, in order, when the page makes a corrupted copy (short, common, one token
# after a space in the zoo's tokenizer, the same count is checked anyway).
SUBSTITUTES = ("sock", "lamp", "door", "tree", "fish", "cake", "ring", "boat", "bird", "king")
WORD = re.compile(r"[A-Za-z]+")
CLEAR = 0.5  # a head restoring at least this share "carries" the difference
CELL = re.compile(r"^(head|pos) (\d+) (\d+)$")
LENS_CELL = re.compile(r"^lens (\d+) (\d+)$")
# logit difference = logit[answer] - logit[competitor] at the last position
PAIR_HEADERS = ["run", "tokens", "top guess", "logit difference", "answer", "competitor"]

INTRO_NOT_NEXT_WORD = ("Patching reads the next-word guess at the last position: choose the "
                       "**next word (causal)** model in the knobs.")
NO_CORRUPT = ("✏️ Type a corrupted copy of the sentence in the box above (change one word), "
              "or press **Make a corrupted copy**.")


def corrupted_copy(tok: Tokenizer, text: str, n_ctx: int) -> str | None:
    """A copy of ``text`` with one word swapped, the same number of tokens, or None.

    Which word: if the last word also appears earlier, its earlier occurrence (so the
    repeat no longer points at what followed it: the induction case); otherwise the first
    word of three or more letters. Which replacement: the first of ``SUBSTITUTES`` not in
    the text that keeps the token count."""
    text = "" if text is None else str(text)
    words = list(WORD.finditer(text))
    if len(words) < 2:
        return None
    last = words[-1]
    earlier = [m for m in words[:-1] if m[0] == last[0]]
    long = [m for m in words if len(m[0]) >= 3]
    target = earlier[0] if earlier else (long[0] if long else words[0])
    n = len(prepare(tok, text, n_ctx, False).ids)
    used = {m[0].lower() for m in words}
    for word in SUBSTITUTES:
        if word in used:
            continue
        copy = text[:target.start()] + word + text[target.end():]
        if len(prepare(tok, copy, n_ctx, False).ids) == n:
            return copy
    return None


def parse_cell(value: str | None, n_layers: int, n_heads: int,
               n_tokens: int) -> tuple[str, int, int] | None:
    """"head L H" / "pos L P" (what a click sends) -> (kind, layer, index), or None when it
    names no cell of this model and sentence (never raises on a request's value)."""
    m = CELL.match(str(value or "").strip())
    if not m:
        return None
    kind, layer, index = m[1], int(m[2]), int(m[3])
    if layer >= n_layers or index >= (n_heads if kind == "head" else n_tokens):
        return None
    return kind, layer, index


@dataclass
class PatchView:
    status: str  # Markdown, no user text
    pair: list[list] = field(default_factory=list)  # PAIR_HEADERS rows
    reading: str = ""  # the plain-language reading (Markdown, our words and numbers only)
    heads: go.Figure | None = None
    positions: go.Figure | None = None
    guesses: go.Figure | None = None  # corrupted -> corrupted with the chosen cell patched
    lens: go.Figure | None = None
    attribution: go.Figure | None = None
    patching: Patching | None = None
    cell: tuple[str, int, int] | None = None


def cell_name(cell: tuple[str, int, int], tokens: list[str] | None = None) -> str:
    kind, layer, index = cell
    if kind == "head":
        return f"L{layer} H{index}"
    return f"the residual stream after L{layer} at position {index}"


def reading(p: Patching) -> str:
    """What the head heatmap says, in plain words (our labels and numbers only)."""
    order = np.argsort(-p.heads, axis=None, kind="stable")
    n_heads = p.heads.shape[1]
    best = [(int(i) // n_heads, int(i) % n_heads) for i in order[:3]]
    top = p.heads[best[0]]
    first = f"L{best[0][0]} H{best[0][1]}"
    if top >= CLEAR:
        lines = [f"**{first} carries the difference**: patching its output alone from the "
                 f"clean run restores **{top:.0%}** of the logit difference."]
        more = [f"L{la} H{h} ({p.heads[la, h]:.0%})" for la, h in best[1:]
                if p.heads[la, h] >= 0.1]
        if more:
            lines.append("Others that help: " + ", ".join(more) + " — often the heads that "
                         "feed it (an earlier head that writes what the carrier reads).")
    else:
        lines = [f"**No single head carries it**: the most any one head restores is "
                 f"{top:.0%} ({first}). The information is spread over several heads, or "
                 "it travels through the MLPs and the residual stream (see the map below)."]
    return "\n\n".join(lines)


def attribution_subtitle(dla: Attribution) -> str:
    """What the direct logit attribution heatmap shows, with the parts it leaves out."""
    return (f"Each head's output alone, pushing the answer over the competitor (through W_O "
            f"and the unembedding, the final norm's scale frozen). Heads {dla.heads.sum():+.1f}, "
            f"MLPs {dla.mlps.sum():+.1f}, embeddings and the norm's bias "
            f"{dla.embed + dla.bias:+.1f}: together the logit difference, {dla.total:+.1f}. "
            "A direct push only: a head that works through a later head (a previous-word "
            "head) shows about 0 here.")


def lens_detail(zoo: Zoo, tok: Tokenizer, text: str, controls: Controls,
                cell: str | None) -> str:
    """The logit lens' top five at one clicked cell ("lens L P") of the clean run, in words
    (Markdown, tokens quoted and escaped); "" when the cell names nothing here."""
    model = zoo.get(controls.checkpoint())
    m = LENS_CELL.match(str(cell or "").strip())
    if model is None or m is None or not model.config.causal or not (text or "").strip():
        return ""
    prepared = _prepared(tok, text, model.config.n_ctx)
    layer, at = int(m[1]), int(m[2])
    if layer >= model.config.n_layers or at >= len(prepared.ids):
        return ""
    _, cache = run_with_cache(model, torch.tensor([prepared.ids]), controls.settings(),
                              names="blocks.*.hook_resid_post")
    lens = logit_lens(model, cache)  # the same lens the grid draws
    guesses = ", ".join(f"{quoted_token(tok.decode([int(i)]))} {float(q):.0%}"
                        for q, i in zip(lens.top_probs[layer, at], lens.top_ids[layer, at],
                                        strict=True))
    last = " (the model's own guess)" if layer == model.config.n_layers - 1 else ""
    return (f"**After L{layer}{last}, reading {quoted_token(prepared.pieces[at])} "
            f"(position {at})**, the top five: {guesses}.")


def _prepared(tok: Tokenizer, text: str, n_ctx: int) -> Prepared:
    return prepare(tok, text, n_ctx, False)


def no_shares(p: Patching, answer: str, wrong: str) -> str:
    """Why no shares are shown: the two runs' logit differences are under MIN_GAP apart, so
    every share would divide by almost nothing."""
    why = (f"ℹ️ No shares: the clean run prefers {quoted_token(answer)} over "
           f"{quoted_token(wrong)} by "
           f"{p.ld_clean:.2f} and the corrupted run by {p.ld_corrupt:.2f}, less than "
           f"{MIN_GAP:g} apart, so sharing that difference out would divide by almost "
           "nothing.")
    if p.same_guess:
        return why + (f" Both sentences make the model guess {quoted_token(answer)}: change a word "
                      "that changes the guess.")
    return why + " Change a word the guess depends on more."


def patch_view(zoo: Zoo, tok: Tokenizer, clean_text: str, corrupt_text: str,
               controls: Controls, cell: str | None = None) -> PatchView:
    """Everything the Patch tab shows. ``cell``: the clicked cell ("head L H" or
    "pos L P"); None or unknown: the head that restores most."""
    name = controls.checkpoint()
    model = zoo.get(name)
    if model is None:
        return PatchView("⚠️ " + zoo.why_missing(name))
    config = model.config
    refused = _refused(tok, config, clean_text, corrupt_text)
    if isinstance(refused, PatchView):
        return refused
    clean, corrupt, notices = refused
    settings = controls.settings()
    theme = controls.theme
    p = patch(model, clean.ids, corrupt.ids, settings)
    answer, wrong = tok.decode([p.answer]), tok.decode([p.wrong])
    pair = [["clean", len(clean.ids), answer, round(p.ld_clean, 2), answer, wrong],
            ["corrupted", len(corrupt.ids), tok.decode([int(np.argmax(p.corrupt_logits))]),
             round(p.ld_corrupt, 2), answer, wrong]]
    lens_fig = _lens_figure(model, tok, p, clean.pieces, theme)
    lines = [f"Model **{name}** · {plural(len(clean.ids), 'token')} · the answer is the "
             "clean run's guess, the competitor the corrupted run's (table)."]
    if settings.resolve(config).interventions:
        lines.append("🧪 Also an experiment on the trained model: "
                     + "; ".join(settings.resolve(config).interventions) + ".")
    lines += notices
    attribution = _attribution_figure(model, p, theme, lines)
    if not p.restorable:
        lines.append(no_shares(p, answer, wrong))
        return PatchView("\n\n".join(lines), pair, "", None, None, None, lens_fig,
                         attribution, p)
    chosen = parse_cell(cell, config.n_layers, config.n_heads, len(clean.ids))
    if chosen is None:
        la, h = np.unravel_index(int(np.argmax(p.heads)), p.heads.shape)
        chosen = ("head", int(la), int(h))
    kind, layer, index = chosen
    probs = patch_one(model, corrupt.ids, p.clean, HEAD_HOOK if kind == "head" else RESID_HOOK,
                      layer, index, settings)
    ld = float(np.log(probs[p.answer]) - np.log(probs[p.wrong]))
    pair.append([f"corrupted, {cell_name(chosen)} patched", len(corrupt.ids),
                 tok.decode([int(np.argmax(probs))]), round(ld, 2), answer, wrong])
    heads_fig, positions_fig, guesses = _share_figures(tok, p, probs, chosen, clean.pieces,
                                                       theme)
    return PatchView("\n\n".join(lines), pair, reading(p), heads_fig, positions_fig, guesses,
                     lens_fig, attribution, p, chosen)


def _refused(tok: Tokenizer, config, clean_text: str, corrupt_text: str):
    """Why these two sentences cannot be patched (a :class:`PatchView` with the message),
    or their ``(clean, corrupt, notices)`` prepared."""
    if not config.causal:
        return PatchView("ℹ️ " + INTRO_NOT_NEXT_WORD)
    if not (clean_text or "").strip():
        return PatchView(EMPTY_STATE)
    if not (corrupt_text or "").strip():
        return PatchView(NO_CORRUPT)
    clean = _prepared(tok, clean_text, config.n_ctx)
    corrupt = _prepared(tok, corrupt_text, config.n_ctx)
    notices = [f"⚠️ Clean sentence: {n}" for n in clean.notices] \
        + [f"⚠️ Corrupted copy: {n}" for n in corrupt.notices]
    if len(clean.ids) != len(corrupt.ids):
        return PatchView("\n\n".join([
            f"⚠️ The clean sentence has **{plural(len(clean.ids), 'token')}** and the "
            f"corrupted copy **{plural(len(corrupt.ids), 'token')}**. Patching puts a value "
            "from one run into the *same place* of the other, so every position must exist "
            "in both: change a word for another word of the same number of tokens, or "
            "press **Make a corrupted copy**.", *notices]))
    if clean.ids == corrupt.ids:
        return PatchView("ℹ️ The two sentences are the same tokens, so there is nothing to "
                         "patch: change a word in the corrupted copy.")
    return clean, corrupt, notices


def _lens_figure(model, tok: Tokenizer, p: Patching, pieces: list[str], theme: str):
    """The logit lens of the clean run, each cell's top guesses named."""
    lens = logit_lens(model, p.clean)
    return figures.logit_lens_grid(
        lens.top_probs, [[[tok.decode([int(i)]) for i in cell_ids] for cell_ids in row]
                         for row in lens.top_ids], pieces, theme=theme,
        title="Logit lens: each layer read as a guess (clean run)",
        subtitle="The residual stream after each layer put through the final norm and the "
                 "unembedding: an approximation of what the layer 'thinks'. The last row is "
                 "the model's own guess. Click a cell for its top five.")


def _attribution_figure(model, p: Patching, theme: str, lines: list[str]):
    """Each head's direct push toward the answer, or None (and why, added to ``lines``)."""
    dla = direct_logit_attribution(model, p.clean, p.answer, p.wrong)
    if dla is None:
        lines.append("ℹ️ Direct logit attribution needs a model whose residual stream is a "
                     "sum (pre-norm); this one normalises after every block.")
        return None
    return figures.head_attribution_grid(
        dla.heads, theme=theme, title="Direct logit attribution (clean run)",
        subtitle=attribution_subtitle(dla))


def _share_figures(tok: Tokenizer, p: Patching, probs, chosen: tuple[str, int, int],
                   pieces: list[str], theme: str):
    """The heads' and the positions' shares restored, and the guesses corrupted →
    patched at the ``chosen`` cell (``probs``: the patched run's)."""
    kind, layer, index = chosen
    corrupt_probs = np.exp(p.corrupt_logits - p.corrupt_logits.max())
    corrupt_probs /= corrupt_probs.sum()
    guesses = compare_figures.prediction_change_bar(
        prediction_rows(tok, corrupt_probs, probs), names=("corrupted", "patched"),
        theme=theme, title="Guesses: corrupted → patched")
    heads_fig = figures.head_share_grid(
        p.heads, selected=(layer, index) if kind == "head" else None, theme=theme,
        title="Share restored by patching one head",
        subtitle="Each head's output (every position) copied from the clean run into the "
                 "corrupted one. Click a cell to patch it.")
    positions_fig = figures.position_share_grid(
        p.positions, pieces, theme=theme,
        title="Share restored by patching the residual stream",
        subtitle="After each layer, at one position: where the information sits and when it "
                 "moves to the last token. Click a cell to patch it.")
    return heads_fig, positions_fig, guesses
