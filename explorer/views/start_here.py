"""Start here: a guided path of short steps a teacher can run in front of a class.

Each step sets the sentence and the knobs, says where to look, and asks a question to
predict *before* the answer is revealed. The steps are built on the views that exist
(Explore, Ablate, Positional encodings, Through training, Patch, the Lab) and, where the evaluation
found named heads in the default model (:mod:`explorer.analysis.clear_heads`), they point at
those heads by name; where it found none, the step says so instead of pretending.

Each step also names the figures of its view that it is about (``figures``: elem ids, the
first one the key figure): the view shows them first, under the step's question, so that
they are on the first screen of a laptop, a projector and a phone (explorer/ui/step_bar.py).

The texts serve two editions: the full app (``edition="app"``, the default) and the static
edition (``"static"``, explorer/site/), whose page computes Explore, Ablate, the shuffle test,
the scaling comparison, the training snapshots and Patch in the browser and trains the Lab's
runs there, but has neither the app's sliders and pattern table nor the class's table.
The prose is written once; where a phrase names something only one edition has,
:func:`_by` picks that edition's short alternative.

Pure data and functions: no gradio, no torch, no user text in any string here. The numbers
a step quotes about the model come from its evaluation or from
:mod:`explorer.views.start_here_numbers` (measured when the page starts).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from explorer.analysis.clear_heads import ClearHead, clear_heads
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import DEFAULT_NAME, Zoo
from explorer.training.lab_findings import read_findings
from explorer.views.patch import EXAMPLE_CLEAN, EXAMPLE_CORRUPT
from explorer.views.start_here_numbers import Measured, measure

# Sentences of the path (the model knows the simple English of children's stories).
STORY = "Once there was a girl named Mia. Mia had a red ball. One day Mia gave the ball to"
# A list said in a short story frame, then again up to its sixth word: the default model's
# top guess is the seventh ("coat"). The frame is not the evaluation's ("Mom wrote a list:
# ... Then she read it again:"); a bare list with no frame is continued less often (77 of
# 96 lists against 85-90 in a frame: `python -m scripts.list_misses --frames`).
REPEAT = ("Mia made a list: spoon lamp sock bread egg coat fork shoe. "
          "She read it again: spoon lamp sock bread egg")
ORDER = "The dog chased the cat into the garden."
# The editions the texts are written for: the full app, and the static edition (explorer/site)
EDITIONS = ("app", "static")


def _by(edition: str, app: str, static: str) -> str:
    """``app``'s words in the full app, ``static``'s in the static edition: for a phrase that
    names something only one of them has (a view, the sliders, the pattern table)."""
    if edition not in EDITIONS:
        raise ValueError(f"no edition {edition!r}: one of {EDITIONS}")
    return static if edition == "static" else app


@dataclass(frozen=True)
class Step:
    title: str
    look: str  # Markdown: what to do and where to look
    question: str  # Markdown: what to predict before revealing
    answer: str  # Markdown: revealed on request
    tab: str  # the view to open
    values: dict = field(default_factory=dict)  # control name -> value (Panel's names)
    # elem ids of the figures (or text) in the opened view the step is about, shown first
    # under the step's question in this order; ``key`` (default: the first) is the one
    # that must be on the first screen
    figures: tuple[str, ...] = ()
    key: str = ""
    own: dict = field(default_factory=dict)  # the opened view's own controls: name -> value
    # what in the opened view gives the answer away (CSS selectors, e.g. elem ids): covered
    # ("Hidden until Reveal") while the step is shown and its answer is not revealed
    # (static/steps.js, static/css/60-steps.css); a view opened outside a step shows everything
    hidden: tuple[str, ...] = ()

    @property
    def key_figure(self) -> str:
        return self.key or (self.figures[0] if self.figures else "")

    def controls(self) -> dict:
        """Every knob's value for this step: the defaults, then the step's own."""
        return {**DEFAULTS, **self.values}


DEFAULTS = {"objective": "next word (causal)", "heads": 4, "pos": "rotary",
            "mask": "as trained", "scaling": "1/√d_head", "temperature": 1.0, "layer": 0,
            "head": 0}


def _find(heads: list[ClearHead], kind: str) -> ClearHead | None:
    return next((h for h in heads if h.kind == kind), None)


def _copies_stories(ind: ClearHead, edition: str = "app") -> str:
    """What the page counts say of the copying head on stories said twice, if measured."""
    if not ind.on_page:
        return ""
    named, of = ind.on_page
    if ind.rarely_named:
        return (" It learned to copy from the lists of random words in its training: a story "
                f"said twice it hardly copies (named on {named} of {of} held-out story "
                "openings said twice). Try it: paste a sentence of your own twice.")
    return (f" It copies more than lists: on {named} of {of} held-out story openings said "
            "twice " + _by(edition, "the page names it", "the full app's table names it")
            + ". Try it: paste a sentence of your own twice.")


def default_path(zoo: Zoo, tok: Tokenizer | None = None, edition: str = "app") -> list[Step]:
    """The path for the default model of ``zoo``, pointed at the heads its evaluation found;
    with ``tok``, the numbers it quotes measured on that model; in ``edition``'s words."""
    evaluation = zoo.evals.get(DEFAULT_NAME)
    heads = clear_heads(evaluation)
    ind = _find(heads, "induction")
    measured = (measure(zoo, tok, STORY, REPEAT, (ind.layer, ind.head) if ind else None,
                        (EXAMPLE_CLEAN, EXAMPLE_CORRUPT))
                if tok is not None else None)
    return steps(evaluation, measured, read_findings(), edition)


def _lists_without(evaluation: dict | None, kind: str) -> tuple[int, int] | None:
    """(lists the model still continues, lists) with the head of ``kind`` switched off, from
    the evaluation's switch-off check; None where it was not measured."""
    off = ((evaluation or {}).get("switched_off") or {}).get(kind) or {}
    lists = ((evaluation or {}).get("list_continuation") or {}).get("lists")
    share = off.get("list_continuation")
    if share is None or not lists:
        return None
    return round(share * lists), lists


def _copy_answer(evaluation: dict | None, prev: ClearHead | None) -> str:
    """Step 3: what switching off the induction head, and the previous-word head, costs."""
    base = ("No: without the induction head the guess is no longer the list's next word; "
            "the guesses before → after, and the sentence under them, say which token took "
            "its place. The ranking "
            "table shows how much the loss rises without each head: on a repeated list the "
            "top two are the induction head and the previous-word head of step 1. ")
    ind_off, prev_off = (_lists_without(evaluation, "induction"),
                         _lists_without(evaluation, "previous_token"))
    if ind_off is None or prev_off is None or prev is None:
        return base + ("Copying takes both: one writes into each word which word came "
                       "before it, the other finds the word that followed it last time.")
    return base + (
        "They work together, but not equally. On the evaluation's lists said twice the "
        f"model continues {ind_off[0]} of {ind_off[1]} with the induction head off, and "
        f"still {prev_off[0]} of {prev_off[1]} with the previous-word head, "
        f"**L{prev.layer} H{prev.head}**, off: without the induction head copying stops; "
        "without the previous-word head it gets harder, as other heads also carry which "
        "word came before.")


def _mask_answer(ind: ClearHead | None, m: Measured | None, edition: str = "app") -> str:
    """Step 4: what the mask off does to the loss and to the copying head, measured."""
    if ind is None:
        return ("The guesses get worse, because the model was never trained to cope with "
                "seeing what comes next: during training the answer would have been in plain "
                "view.")
    name = f"**L{ind.layer} H{ind.head}**"
    if m is None or m.next_share is None or m.loss_unmasked_no_copy is None:
        easier = ("And the sentence gets *easier*: "
                  + _by(edition, "open **Ablate**, whose loss follows the knobs, and it",
                        "the step's losses say so: it")
                  + " is lower with the mask off. ")
        share = (f"The copying head, {name}, looks for what came after the current word; "
                 "with the mask off, part of that is the very next word, in plain view "
                 "(switch it off too and the advantage goes). ")
    else:
        easier = (f"And this sentence gets *easier*: its loss is **{m.loss_masked:.2f} with "
                  f"the mask** and **{m.loss_unmasked:.2f} without** (lower = easier to "
                  "guess). ")
        share = (f"The copying head, {name} ({_by(edition, 'large above', 'the large head')}),"
                 " looks for what came after the current word; with the mask off, "
                 f"{m.next_share:.0%} of its attention lands "
                 "on the very next word, in plain view, and that is enough to help. "
                 "Switch it off as well ("
                 + _by(edition, "**Ablate**", "the last of the step's three losses")
                 + f") and the loss rises to {m.loss_unmasked_no_copy:.2f}. ")
    return (easier + share + "That is why a model is trained with the mask: otherwise it "
            "would learn to read the answer instead of predicting it. (On a short opening "
            "like this one; over a longer text the model, never trained to see ahead, does "
            "worse.)")


def _stripe(m: Measured | None) -> str:
    """Where step 2's copying stripe runs, in tokens when they were counted."""
    if m is None or m.copies_apart is None:
        return ("Its bright stripe runs parallel to the diagonal, as far to the left as the "
                "two copies are apart, less one: it looks one word further, at what came "
                "next.")
    return (f"Its bright stripe runs parallel to the diagonal, {m.copies_apart - 1} tokens to "
            f"its left: the two copies are {m.copies_apart} tokens apart (the list's 8 words "
            "plus “. She read it again:”), and the head looks one word further, at what "
            "came next.")


def _carrier_answer(ind: ClearHead | None, prev: ClearHead | None,
                    m: Measured | None, evaluation: dict | None = None) -> str:
    """Step 8: which heads carry the copied word, as the patching measured it; a head over
    the previous-token bar in the evaluation (``previous_token.scores``) is named so."""
    if m is None or m.carried is None:
        return ("Look for the brightest cell of the heatmap: patching that head alone "
                "brings back most of the guess. A copying head usually carries the copied "
                "word; the previous-word head helps it find where to look.")
    shares = m.carried
    order = sorted(np.ndindex(shares.shape), key=lambda c: -shares[c])
    (l1, h1), (l2, h2) = order[0], order[1]
    text = (f"**L{l1} H{h1}**: patched alone, it restores {shares[l1, h1]:.0%} of the "
            "difference between the scores of “ bell” and of “:”, the changed copy's guess "
            "(the top cell of the heatmap)")
    if ind is not None and (ind.layer, ind.head) == (l1, h1):
        text += ", the copying head of step 2: it reads the word that came after “shoe” "
        text += "last time and writes it into the guess"
    text += (f". Next comes **L{l2} H{h2}** with {shares[l2, h2]:.0%}")
    second = _previous_score(evaluation, l2, h2)
    if second is not None and (prev is None or (prev.layer, prev.head) != (l2, h2)):
        text += (f", a second previous-word head: on held-out stories it puts "
                 f"{second:.0%} of its attention on the word just before")
    if prev is not None:
        p = shares[prev.layer, prev.head]
        text += (f"; the previous-word head of step 1, **L{prev.layer} H{prev.head}**, "
                 f"restores {p:.0%}: alone it brings back little, since another head "
                 "does the same job")
    return text + (". Patching asks *which part carries the difference*; switching a head "
                   "off (step 3) asks *what breaks without it*.")


def _previous_score(evaluation: dict | None, layer: int, head: int) -> float | None:
    """The head's previous-token score on held-out stories when it clears the bar."""
    try:
        score = float(evaluation["previous_token"]["scores"][layer][head])
        bar = float(evaluation["thresholds"]["previous_token_score"])
    except (TypeError, KeyError, IndexError, ValueError):
        return None
    return score if score >= bar else None


def _lab_answer(found: dict | None) -> str:
    """Step 9: what one and two layers did in the Lab's measured runs
    (:mod:`explorer.training.lab_findings`), only as far as the file says."""
    why = ("Why: a first-layer key holds only its own word and its place, not the word "
           "before it, so it cannot look for \"the word after the last time my word was "
           "said\". That takes two heads in a row: a previous-word head, then a head that "
           "matches on what it wrote (steps 1 and 2).")
    one, two = ((found or {}).get("summary") or {}).get("1"), \
        ((found or {}).get("summary") or {}).get("2")
    if not one or not two:
        return ("One layer: no induction head; two layers: one forms, after a few hundred "
                "steps. Compare your two runs in the class's table. " + why)
    lo, hi = one["best_induction"]
    even = ((found or {}).get("measures") or {}).get("uniform_induction")
    said = [f"In the Lab's own check (seeds 0 to {one['runs'] - 1}, 1,000 steps each, one "
            "CPU core), "]
    said.append(f"one layer never grew an induction head: its best score stayed at "
                f"{lo:.2f}–{hi:.2f}" + (f", twice what evenly spread attention scores "
                                        f"({even:.2f}) but far under the 0.3 bar. " if even
                                        else ", far under the 0.3 bar. ")
                if one["formed"] == 0 else
                f"one layer grew one in {one['formed']} of {one['runs']} runs. ")
    if two["formed"] == two["runs"]:
        # to the ten outside the runs' range: the step a head is seen to form moves with how
        # often a run is checked (reruns of seeds 0-4 formed at 352-395)
        lo, hi = two["first_step"] // 10 * 10, -(-two["last_step"] // 10) * 10
        said.append(f"Two layers grew one every time, at about step {lo}–{hi}. ")
    else:
        said.append(f"Two layers grew one in {two['formed']} of {two['runs']} runs. ")
    prev = [r["best_previous_token"] for r in (found or {}).get("runs", [])
            if r.get("layers") == 2 and r.get("best_previous_token") is not None]
    if prev:
        said.append(f"Their best previous-word head scores only {min(prev):.2f}–"
                    f"{max(prev):.2f}, under Explore's 0.5 bar, but enough here. ")
    return "".join(said) + why


def _previous_answer(prev, edition: str = "app") -> str:
    """Step 1's answer: the previous-token head found (its score, how often the page names
    it), or what to look for when none cleared the bar."""
    return (
        f"**Layer {prev.layer}, head {prev.head}**: on held-out stories it puts "
        f"{prev.score:.0%} of its attention on the word just before. "
        + _by(edition, "The sliders now point at it: in its large view,",
              "It is the large head now:")
        + " the bright cells sit just left of the diagonal. Why "
        "would a model want that? So the next layer knows which word came before each word."
        + (f" The table names it only where it clears the bar on the sentence itself: it did "
           f"on {prev.on_page[0]} of {prev.on_page[1]} held-out story openings, so on some "
           "sentences of your own it will say *no clear pattern*."
           if prev.on_page and edition == "app" else "")
        if prev else
        "This model has no head that clears the bar (half its attention on the previous "
        "word on held-out stories). Look for the head closest to a line just below the "
        "diagonal" + _by(edition, ": the table under the figures names the heads that pass "
                         "on this sentence.", "."))


def _copying_answer(ind, measured: Measured | None, edition: str = "app") -> str:
    """Step 2's answer: the induction head found and the guess it makes, or why the model
    cannot copy the list."""
    return (
        f"**Layer {ind.layer}, head {ind.head}** (an *induction head*): from each word of "
        "the second copy it looks at the word that came *after* the same word in the first "
        f"copy ({ind.score:.0%} on held-out word lists), so the model can guess that what "
        "came next last time comes next again. " + _stripe(measured)
        + " The guesses should say **coat**." + _copies_stories(ind, edition)
        if ind else
        "This model grew no induction head that passes the held-out check, so it cannot "
        "copy the list: its guess is a likely word, not the next one of the list.")


def steps(evaluation: dict | None, measured: Measured | None = None,
          lab: dict | None = None, edition: str = "app") -> list[Step]:
    """The path for the default model, given its evaluation (``eval/NAME.json``) and, when
    they were measured, the numbers it quotes (:func:`explorer.views.start_here_numbers.measure`);
    ``lab``: the Lab's findings (:mod:`explorer.training.lab_findings`) for its step;
    ``edition``: whose words (:data:`EDITIONS`)."""
    heads = clear_heads(evaluation)
    prev, ind = _find(heads, "previous-token"), _find(heads, "induction")
    at_prev = {"layer": prev.layer, "head": prev.head} if prev else {}
    at_ind = {"layer": ind.layer, "head": ind.head} if ind else {}
    prev_answer = _previous_answer(prev, edition)
    ind_answer = _copying_answer(ind, measured, edition)
    big = ("head-large",)  # Explore's large head (the guesses beside it on a laptop)
    return [
        Step("1 · Every head at once",
             "The large heatmap is one head, opened for you; the grid under it shows every "
             "head of every layer. In each square, row *i* is word *i* looking back at the "
             "words before it (brighter = more attention).",
             "This head shows a bright line just *below* the diagonal. What is it looking at?",
             "At the word just before. " + prev_answer, "explore",
             {"text": STORY, **at_prev}, figures=big),
        Step("2 · A head that copies",
             "The sentence is a list said twice, cut before its last word. Watch the large "
             "head, one of the last layer's, and the model's guesses.",
             "What will the model guess next, and where will this head look from the second "
             "copy?", ind_answer, "explore", {"text": REPEAT, **at_ind},
             figures=("head-large", "predictions"),
             # the guesses, "coat 63 %": the chart and the line above the grid
             hidden=("#predictions", "#grid .ae-grid-guesses")),
        Step("3 · Switch it off",
             "Switch the head of step 2 off: click its square in the grid, or tick it "
             + _by(edition, "below.", "under **Switch heads off**.")
             + (f" It is **L{ind.layer} H{ind.head}**." if ind else ""),
             "Will the guess still say the next word of the list?",
             _copy_answer(evaluation, prev), "ablate", {"text": REPEAT},
             figures=("ablate-predictions", "ablate-grid", "ablate-status")),
        Step("4 · Turn the mask off",
             "The *causal mask* stops each word from looking at later words. **Causal "
             "mask** is now *off* (done for you); the large head is the copying head.",
             "What appears in the squares? Will the model find the words of this sentence "
             "easier or harder to guess?",
             "Weight appears *above* the diagonal: words now see the future. "
             + _mask_answer(ind, measured, edition),
             "explore", {"text": STORY, "mask": "off", **at_ind},
             # the guesses' legend gives the sentence's loss as trained and now: the top
             # guess gets worse while the sentence gets easier (issue 42 item 5); that
             # legend (and the static page's list of losses) is the second answer
             figures=("head-large", "predictions"), hidden=("#predictions",)),
        Step("5 · No positional encoding",
             "**Positional encoding** is now *none* (done for you). The shuffle test mixes up "
             "the words and compares the attention on both orders. In it the **causal "
             "mask is off**, whatever the knob says.",
             "In this test (mask off), can a model with no positional encoding tell the "
             "shuffled words from yours?",
             "Without the causal mask it could not: attention is a weighted *set* operation "
             "and does not see order, so the difference is zero. With the causal mask a word "
             "still knows how many words came before it, so such a model can still pick up "
             "some order on its own; sinusoidal, learned, rotary and ALiBi encodings give "
             "order directly.", "positional",
             {"text": ORDER, "pos": "none"},
             figures=("pe-shuffle-difference", "pe-shuffle-summary"),
             # the blank difference, its reading ("cannot tell the two orders apart") and
             # the test's intro ("the difference is zero") say the answer
             hidden=("#pe-shuffle-difference", "#pe-shuffle-summary", "#pe-shuffle-intro")),
        Step("6 · Why scale?",
             "The same head twice: on the left as trained, on the right with **Scaling** "
             "*none* (done for you): the scores q·k are no longer divided by √d_head before "
             "the softmax.",
             "Will the head on the right look sharper or blurrier than on the left?",
             "Sharper: dot products grow with the size of the vectors, and a softmax of big "
             "numbers puts the weight on fewer words; more of the head's rows put nearly all "
             "of it on one word. Dividing by "
             "√d_head keeps the scores in a range where the softmax can still spread "
             "attention.", "compare", {"text": STORY},
             # the head as trained and now, side by side (issue 42 item 7): the left is the
             # knobs (as trained), the right the Compare view's own
             figures=("cmp-left", "cmp-right"),
             hidden=("#cmp-right",),  # the head without scaling is the answer
             own={**{k: DEFAULTS[k] for k in ("objective", "heads", "pos", "mask",
                                              "temperature")}, "scaling": "none"}),
        Step("7 · How heads appear",
             _by(edition, "The view starts", "The slider below starts") + " at the first "
             "snapshot, almost untrained. Slide **Training snapshot** to the right, one "
             "snapshot at a time, and watch the "
             + _by(edition, "status", "numbers, the heads") + " and the curves.",
             "On the lower chart, which rises first: the previous word (solid) or the copy "
             "(dotted)?",
             "The previous word. While the dotted copy curve (this list said "
             "twice) stays near zero, the solid curve climbs over the first snapshots to about "
             "half of the best head's attention. Then, between two snapshots, copying appears "
             "suddenly, and the previous-word head sharpens at the same moment: the copying "
             "head builds on a previous-word pattern that grew before it.",
             "training",
             {"text": REPEAT, **at_ind},  # the large head: the copying one, to watch appear
             figures=("training-snapshot", "training-chart"), key="training-chart",
             own={"snapshot": 0},
             # the view's intro says "first the previous word, then, suddenly, copying"
             hidden=("#training-intro",)),
        Step("8 · Which head carries the word?",
             "Two sentences that differ in one word: the list says *shoe bell* in yours and "
             "*sock bell* in the copy, so the model guesses *bell* after *shoe* only in "
             "yours. The heatmap copies one head at a time from your sentence into the copy "
             "and shows how much of the guess that brings back.",
             "Which head, copied alone, brings back the most of the guess *bell*?",
             _carrier_answer(ind, prev, measured, evaluation), "patch", {"text": EXAMPLE_CLEAN},
             figures=("patch-heads", "patch-pair"), own={"corrupt": EXAMPLE_CORRUPT},
             # the heatmap (its top cell outlined), its reading, the patched guesses and
             # the table's row "corrupted, L3 H2 patched" name the head
             hidden=("#patch-heads", "#patch-reading", "#patch-guesses",
                     "#patch-pair .virtual-body > .virtual-row:nth-child(3)")),
        Step("9 · Train your own",
             "A tiny transformer learns random words in which a block is said twice. "
             + _by(edition, "**Layers** is now *1*: press", "Set **Layers** to *1*, press")
             + " **Train** and watch the induction score; then train *2* layers. "
             + _by(edition, "The class's table", "This browser's table") + " keeps both runs.",
             "Can a model with one layer grow an induction head? And with two?",
             _lab_answer(lab), "lab", {"text": STORY},
             figures=("lab-run",), key="lab-run",  # Train, the status, the chart
             own={"layers": 1}),
    ]
