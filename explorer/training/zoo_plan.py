"""The zoo's plan: which language models, at what size, with which recipe and budget.

Read by the builder (:mod:`explorer.training.zoo_build`, which trains what is missing)
and by the index (:mod:`explorer.training.zoo_index`, which lists what is still to come),
so that neither imports the other: the evaluation writes the index, and the builder runs
the evaluation.
"""

from __future__ import annotations

from explorer.models.zoo import DEFAULT_NAME

OTHER_POS = ("none", "sinusoidal", "learned", "alibi")
OTHER_HEADS = (1, 2, 8)
SIZE = {"--d-model": "128", "--layers": "4", "--d-ff": "512", "--ctx": "128"}
# The head recipe chosen by the study (checkpoints/study/README.md), spelled out so each
# card's command rebuilds its model even if the trainer's defaults change later.
RECIPE = {"--batch-size": "8", "--lr": "0.002", "--repeat-share": "0.25",
          "--repeat-kind": "frequent", "--repeat-min": "8", "--repeat-max": "32",
          # the span pool is every token the tokenizer has (4096): a pool of the 2,000 most
          # frequent left a model unable to copy any rarer word (study variant F)
          "--repeat-top": "4096",
          "--precision": "fp32", "--track-every": "500"}
BUDGET = "12000000"  # tokens per model: the common budget, so a comparison isolates one knob
DEFAULT_SNAPSHOTS = 10  # only the default model gets "watch attention emerge" snapshots
RECIPE_A_POOL = 2000  # recipe A's span pool (the trainer's default), for cards without one


def span_pool(card: dict) -> int | None:
    """How many of the most frequent tokens a card's repeated spans were drawn from, or None
    when they were drawn from any token of the vocabulary (recipe F). Read by the index, the
    page's warning on models not yet retrained, and the study's table."""
    top = card.get("training", {}).get("repeat_top", RECIPE_A_POOL)
    return None if top >= card.get("config", {}).get("vocab_size", 4096) else top


def planned_names() -> list[str]:
    """Every zoo checkpoint, most wanted first: the default, its masked-word twin, the other
    positional encodings at 4 heads, other head counts with rotary, then the rest."""
    names = [DEFAULT_NAME, "bidir-h4-rotary"]
    names += [f"causal-h4-{pos}" for pos in OTHER_POS]
    names += [f"causal-h{h}-rotary" for h in OTHER_HEADS]
    names += [f"causal-h{h}-{pos}" for h in OTHER_HEADS for pos in OTHER_POS]
    return names
