"""The "Positional encodings" view: the selected model's encoding drawn as it is, positions
compared with each other, and the word-shuffle test.

:func:`positional_view` draws the encoding even when the chosen combination has no trained
checkpoint (sinusoidal, rotary and ALiBi come from a formula), and runs the shuffle test
(:func:`explorer.analysis.positional_views.shuffle_experiment`) only on a trained model.
The test always runs with the causal mask off: with the mask on, the triangle itself tells
each word how many came before it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import plotly.graph_objects as go

from explorer.analysis.positional_views import (
    KIND_NAMES,
    encoding_view,
    equivariance_gap,
    shuffle_experiment,
)
from explorer.analysis.run import prepare
from explorer.analysis.stages import model_line, pick
from explorer.figures.numbers import plain_number
from explorer.figures.positional import encoding_figures, shuffle_figures
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import Zoo
from explorer.views.controls import EMPTY_STATE, Controls

WHY = {
    "none": "Attention compares every token with every other by content alone, so without "
            "help it cannot tell *the dog bit the man* from *the man bit the dog*.",
    "sinusoidal": "A fixed table of sines and cosines (the 2017 paper) is **added** to the "
                  "token embeddings, so each position has its own vector. Here it is "
                  "multiplied by one trained number first: added at full size, it drowned "
                  "out the words and the model learned far worse.",
    "learned": "A table with one trained vector per position (GPT-2, BERT) is **added** to "
               "the token embeddings.",
    "rotary": "Nothing is added to the embeddings: inside every head, each pair of query and "
              "key dimensions is **rotated** by an angle proportional to the position, so "
              "q·k depends on how far apart two tokens are.",
    "alibi": "Nothing is added to the embeddings: each head's scores get a **penalty "
             "proportional to the distance** between query and key, with its own slope.",
}
NEEDS_MODEL = "*The shuffle test needs a trained model: pick a combination that exists.*"


@dataclass(frozen=True)
class PositionalView:
    status: str
    picture: go.Figure | None = None  # the encoding itself
    detail: go.Figure | None = None  # a closer look (None: nothing to show for this kind)
    similarity: go.Figure | None = None  # positions compared with each other
    summary: str = ""  # the shuffle test in words
    shuffled: tuple[go.Figure, go.Figure, go.Figure] | None = None  # original, shuffled, diff


def positional_view(zoo: Zoo, tok: Tokenizer, text: str, c: Controls,
                    shuffle_seed: int = 0) -> PositionalView:
    picked = pick(zoo, c)
    model = picked.model
    if model is not None:
        config = model.config
    else:  # not trained (yet): the formula-based encodings can still be drawn
        base = zoo.get(zoo.default_name).config
        config = dataclasses.replace(base, pos_encoding=c.pos, n_heads=int(c.heads),
                                     causal=c.objective.startswith("next"))
    # Only spaces count as an empty box, as on every other view.
    text = text if (text or "").strip() else ""
    prep = prepare(tok, text, config.n_ctx, masked_word=not config.causal)
    pic, det, sim = encoding_figures(encoding_view(config, model, len(prep.ids)), prep.pieces,
                                     theme=c.theme)
    head = [f"**{KIND_NAMES[config.pos_encoding]}.** {WHY[config.pos_encoding]}"]
    if model is None:
        head.insert(0, "⚠️ " + picked.missing + " The pictures below come from the "
                    "encoding's definition; the shuffle test needs the trained model.")
        return PositionalView("\n\n".join(head), pic, det, sim, NEEDS_MODEL)
    head.insert(0, model_line(zoo, picked, len(prep.ids)))
    if not prep.ids:
        return PositionalView(EMPTY_STATE, pic, det, sim)
    settings = dataclasses.replace(c.settings(), causal=False)
    r = shuffle_experiment(model, tok, text, settings, picked.layer, picked.head,
                           seed=shuffle_seed)
    head += [f"⚠️ {n}" for n in (*picked.notes, *r.notices)]
    lines = [equivariance_gap(r)]
    if r.perm is None:
        return PositionalView("\n\n".join(head), pic, det, sim, lines[0])
    lines.append(f"Largest difference for layer {r.layer}, head {r.head}: "
                 f"**{plain_number(r.max_diff_head)}**; over every head: "
                 f"**{plain_number(r.max_diff_all)}**. "
                 f"The top guess changed at **{r.top_changed} of {len(r.tokens)}** "
                 "tokens (compared token by token).")
    if r.interventions:
        lines.append("🧪 Settings that differ from training here: "
                     + "; ".join(r.interventions) + ".")
    return PositionalView("\n\n".join(head), pic, det, sim, "\n\n".join(lines),
                          tuple(shuffle_figures(r, theme=c.theme)))
