"""Which models the Model, Heads and Positional knobs can reach, and what the knobs say.

Every next-word model of the zoo was trained, but only one masked-word model (4 heads,
rotary): any other choice of the knobs with "masked word" showed three empty figure boxes
and "No model was trained as ...". So while an objective has only one trained model, its
Heads and Positional knobs are set to it and switched off, with a note saying why; and a
sentence with ``[mask]`` in it, on the next-word model (which reads "[mask]" as four
tokens), switches to the masked-word model, saying so.

No gradio; no user text in any note.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.models.zoo import Zoo, checkpoint_name
from explorer.views.controls import HEADS, OBJECTIVES, POSITIONAL

MASK = "[mask]"
NEXT_WORD, MASKED_WORD = list(OBJECTIVES)


@dataclass(frozen=True)
class KnobFit:
    heads: int
    pos: str
    fixed: bool  # the Heads and Positional knobs are switched off (one model only)
    note: str  # for the Model knob ("" when there is nothing to say)


def trained(zoo: Zoo, objective: str) -> list[tuple[int, str]]:
    """(heads, positional encoding) of every model trained for ``objective``, page order."""
    kind = OBJECTIVES.get(objective)
    if kind is None:
        return []
    return [(h, p) for h in HEADS for p in POSITIONAL
            if zoo.get(checkpoint_name(kind, h, p)) is not None]


def fit_knobs(zoo: Zoo, objective: str, heads, pos, text: str = "") -> KnobFit:
    """The knobs for ``objective``: as they are where that model exists; the only trained
    model's where there is just one (then fixed, with a note; ``text`` with ``[mask]``
    says that is why)."""
    models = trained(zoo, objective)
    try:
        current = (int(heads), str(pos))
    except (TypeError, ValueError):
        current = None
    if len(models) != 1:
        return KnobFit(*(current or models[0] if models else (4, "rotary")), False, "")
    h, p = models[0]
    because = (f" Your sentence has a {MASK}, which only it fills in."
               if MASK in (text or "") and objective == MASKED_WORD else "")
    kind = objective.split(" (")[0].replace(" ", "-")  # "masked-word"
    return KnobFit(h, p, True,
                   f"Only one {kind} model was trained ({h} heads, {p}): Heads per layer and "
                   "Positional encoding are set to it while it is chosen." + because)


def switch_for(zoo: Zoo) -> dict:
    """What the page's script needs to switch to the masked-word model when a sentence has
    ``[mask]`` (data: the objectives' labels and the one masked-word model), or {} when no
    masked-word model was trained."""
    models = trained(zoo, MASKED_WORD)
    if not models:
        return {}
    h, p = models[0]
    return {"mask": MASK, "from": NEXT_WORD, "to": MASKED_WORD, "heads": h, "pos": p}
