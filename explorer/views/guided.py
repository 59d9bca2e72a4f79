"""Start here: a guided path of short steps a teacher can run in front of a class.

Each step sets the sentence and the knobs, says where to look, and asks a question to
predict *before* the answer is revealed. The steps are built on the views that exist
(Explore, Ablate, Positional encodings, Through training) and, where the evaluation
found named heads in the default model (:mod:`explorer.analysis.clear_heads`), they point at
those heads by name; where it found none, the step says so instead of pretending.

Pure data and functions: no gradio, no torch, no user text in any string here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from explorer.analysis.clear_heads import ClearHead, clear_heads
from explorer.models.zoo import DEFAULT_NAME, Zoo

# Sentences of the path (the model knows the simple English of children's stories).
STORY = "Once there was a girl named Mia. Mia had a red ball. One day Mia gave the ball to"
# A list said in a short story frame, then again up to its sixth word: the default model's
# top guess is the seventh ("coat"). The frame is not the evaluation's ("Mom wrote a list:
# ... Then she read it again:"); a bare list with no frame is continued less often (77 of
# 96 lists against 85-90 in a frame: `python -m scripts.list_misses --frames`).
REPEAT = ("Mia made a list: spoon lamp sock bread egg coat fork shoe. "
          "She read it again: spoon lamp sock bread egg")
ORDER = "The dog chased the cat into the garden."


@dataclass(frozen=True)
class Step:
    title: str
    look: str  # Markdown: what to do and where to look
    question: str  # Markdown: what to predict before revealing
    answer: str  # Markdown: revealed on request
    tab: str  # the view to open
    values: dict = field(default_factory=dict)  # control name -> value (Panel's names)

    def controls(self) -> dict:
        """Every knob's value for this step: the defaults, then the step's own."""
        return {**DEFAULTS, **self.values}


DEFAULTS = {"objective": "next word (causal)", "heads": 4, "pos": "rotary",
            "mask": "as trained", "scaling": "1/√d_head", "temperature": 1.0, "layer": 0,
            "head": 0}


def _find(heads: list[ClearHead], kind: str) -> ClearHead | None:
    return next((h for h in heads if h.kind == kind), None)


def _copies_stories(ind: ClearHead) -> str:
    """What the page counts say of the copying head on stories said twice, if measured."""
    if not ind.on_page:
        return ""
    named, of = ind.on_page
    if ind.rarely_named:
        return (" It learned to copy from the lists of random words in its training: a story "
                f"said twice it hardly copies (named on {named} of {of} held-out story "
                "openings said twice). Try it: paste a sentence of your own twice.")
    return (f" It copies more than lists: on {named} of {of} held-out story openings said "
            "twice the page names it. Try it: paste a sentence of your own twice.")


def default_path(zoo: Zoo) -> list[Step]:
    """The path for the default model of ``zoo``, pointed at the heads its evaluation found."""
    return steps(zoo.evals.get(DEFAULT_NAME))


def steps(evaluation: dict | None) -> list[Step]:
    """The path for the default model, given its evaluation (``eval/NAME.json``)."""
    heads = clear_heads(evaluation)
    prev, ind = _find(heads, "previous-token"), _find(heads, "induction")
    at_prev = {"layer": prev.layer, "head": prev.head} if prev else {}
    at_ind = {"layer": ind.layer, "head": ind.head} if ind else {}
    prev_answer = (
        f"**Layer {prev.layer}, head {prev.head}**: on held-out stories it puts "
        f"{prev.score:.0%} of its attention on the word just before. The sliders now point "
        "at it: in its large view, the bright cells sit just left of the diagonal. Why "
        "would a model want that? So the next layer knows which word came before each word."
        + (f" The table names it only where it clears the bar on the sentence itself: it did "
           f"on {prev.on_page[0]} of {prev.on_page[1]} held-out story openings, so on some "
           "sentences of your own it will say *no clear pattern*." if prev.on_page else "")
        if prev else
        "This model has no head that clears the bar (half its attention on the previous "
        "word on held-out stories). Look for the head closest to a line just below the "
        "diagonal: the table under the figures names the heads that pass on this sentence.")
    ind_answer = (
        f"**Layer {ind.layer}, head {ind.head}** (an *induction head*): from each word of "
        "the second copy it looks at the word that came *after* the same word in the first "
        f"copy ({ind.score:.0%} on held-out word lists), so the model can guess that what "
        "came next last time comes next again. Its bright stripe runs parallel to the "
        "diagonal, one list-length to the left. The guesses should say **coat**."
        + _copies_stories(ind)
        if ind else
        "This model grew no induction head that passes the held-out check, so it cannot "
        "copy the list: its guess is a likely word, not the next one of the list.")
    mask_answer = (
        f"And the sentence gets *easier*: open **Ablate**, whose loss follows the knobs, and "
        f"it is lower with the mask off. The copying head, **L{ind.layer} H{ind.head}**, looks "
        "for what came after the current word; with the mask off, that is the very next "
        "word, in plain view, and it copies it (switch it off there and the advantage goes). "
        "That is why a model is trained with the mask: otherwise it would learn to read the "
        "answer instead of predicting it."
        if ind else
        "The guesses get worse, because the model was never trained to cope with seeing what "
        "comes next: during training the answer would have been in plain view.")
    return [
        Step("1 · Every head at once",
             "The grid shows every head of every layer: in each square, row *i* is word *i* "
             "looking back at the words before it (brighter = more attention).",
             "Some squares show a bright line just *below* the diagonal. What is such a head "
             "looking at?",
             "At the word just before. " + prev_answer, "explore",
             {"text": STORY, **at_prev}),
        Step("2 · A head that copies",
             "The sentence is a list said twice, cut before its last word. Watch the guesses "
             "and the squares of the last layer.",
             "What will the model guess next, and where will one head look from the second "
             "copy?", ind_answer, "explore", {"text": REPEAT, **at_ind}),
        Step("3 · Switch it off",
             "Open **Ablate** and switch the head of step 2 off (tick it, or click its "
             "square)." + (f" It is **L{ind.layer} H{ind.head}**." if ind else ""),
             "Will the guess still say the next word of the list?",
             "No: without the induction head the model loses the copy and falls back on a "
             "plausible word. The ranking table shows how much the loss rises without each "
             "head: on a repeated list the top two are the induction head and the "
             "previous-word head of step 1. Copying takes both: one writes into each word "
             "which word came before it, the other finds the word that followed it last "
             "time.", "ablate",
             {"text": REPEAT}),
        Step("4 · Turn the mask off",
             "The *causal mask* stops each word from looking at later words. Set **Causal "
             "mask** to *off* (done for you).",
             "What appears in the squares? Will the model find the words of this sentence "
             "easier or harder to guess?",
             "Weight appears *above* the diagonal: words now see the future. " + mask_answer,
             "explore", {"text": STORY, "mask": "off", **at_ind}),  # the copying head large
        Step("5 · No positional encoding",
             "Pick **Positional encoding: none** and open **Positional encodings**, then "
             "try its shuffle test.",
             "If the words are shuffled, can a model with no positional encoding tell?",
             "Without the causal mask it could not: attention is a weighted *set* operation "
             "and does not see order. With the causal mask a word still knows how many words "
             "came before it, which is why these models learn something at all; rotary, "
             "learned and ALiBi encodings give them order directly.", "positional",
             {"text": ORDER, "pos": "none"}),
        Step("6 · Why scale?",
             "Set **Scaling** to *none* (done for you). The scores q·k are no longer divided "
             "by √d_head before the softmax.",
             "Will the heads look sharper or blurrier?",
             "Sharper, often one-hot: dot products grow with the size of the vectors, and a "
             "softmax of big numbers puts nearly all weight on one word. Dividing by "
             "√d_head keeps the scores in a range where the softmax can still spread "
             "attention.", "explore", {"text": STORY, "scaling": "none"}),
        Step("7 · How heads appear",
             "Open **Through training** and slide from the first snapshot to the last.",
             "Which appears first: the previous-word head or the copying head?",
             "The previous-word head comes first and grows slowly; the copying head appears "
             "suddenly, later, once a previous-word head exists for it to build on: the "
             "copy curves (dotted: this list said twice; dash-dot: the built-in list) "
             "jump from near zero to most of the head's attention between two snapshots.",
             "training",
             {"text": REPEAT, **at_ind}),  # the large head: the copying one, to watch appear
    ]
