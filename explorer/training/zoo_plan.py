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
RECIPE = {"--batch-size": "8", "--lr": "0.002",
          # half the rows repeat a span (study variant N): by a coin flip the row's own text
          # or tokens drawn from the pool, so the copying head also copies a story said twice
          # (F, random spans only: on 0 of 100 held-out openings said twice; N: 86)
          "--repeat-share": "0.5", "--repeat-kind": "mixed",
          # spans up to 60 tokens: a head trained on repeats of at most 32 could not reach
          # further back than that (scripts/copy_reach.py)
          "--repeat-min": "8", "--repeat-max": "60",
          # the span pool is every token the tokenizer has (4096): a pool of the 2,000 most
          # frequent left a model unable to copy any rarer word (study variant F)
          "--repeat-top": "4096",
          "--precision": "fp32", "--track-every": "500"}
BUDGET = "12000000"  # tokens per model: the common budget, so a comparison isolates one knob
DEFAULT_SNAPSHOTS = 10  # only the default model gets "watch attention emerge" snapshots
RECIPE_A_POOL = 2000  # recipe A's span pool (the trainer's default), for cards without one
TEXT_SHARE = 0.5  # the trainer's --repeat-text-share default: "mixed" rows by a coin flip


def recipe_training() -> dict:
    """``RECIPE`` as a card's ``training`` records it (the keys that make a recipe; the
    trainer's coin flip for the text share when RECIPE does not set one)."""
    return {"batch_size": int(RECIPE["--batch-size"]),
            "repeat_share": float(RECIPE["--repeat-share"]),
            "repeat_kind": RECIPE["--repeat-kind"], "repeat_max": int(RECIPE["--repeat-max"]),
            "repeat_top": int(RECIPE["--repeat-top"]),
            "repeat_text_share": float(RECIPE.get("--repeat-text-share", TEXT_SHARE))}


def on_recipe(card: dict) -> bool:
    """Whether a card's training used ``RECIPE`` (the budget is checked by the builder)."""
    # cards from before --repeat-text-share existed were trained with the coin flip (0.5)
    t = {"repeat_text_share": TEXT_SHARE, **card.get("training", {})}
    return all(t.get(k) == v for k, v in recipe_training().items())


SPAN_WORDS = {"frequent": "random tokens", "words": "random words", "text": "its own text",
              "lists": "word lists", "mixed": "random tokens or its own text"}


def recipe_words(training: dict | None = None) -> str:
    """The repeats of a card's ``training`` (default: ``RECIPE``'s) in plain words."""
    t = training or recipe_training()
    return (f"{t['repeat_share']:.0%} of the rows repeat a span of "
            f"{span_words(t)}, up to {t.get('repeat_max', 32)} tokens")


def span_words(training: dict) -> str:
    """What a card's repeated spans are made of, in plain words (``SPAN_WORDS``, with the
    split of a ``mixed`` recipe when it is not the coin flip)."""
    kind = training.get("repeat_kind", "frequent")
    text_share = training.get("repeat_text_share", TEXT_SHARE)
    if kind == "mixed" and text_share != TEXT_SHARE:
        return f"random tokens ({1 - text_share:.0%}) or its own text ({text_share:.0%})"
    return SPAN_WORDS.get(kind, kind)


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
