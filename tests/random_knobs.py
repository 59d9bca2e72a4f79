"""Random knob values as the page could send them, for the tests that fire many requests
(test_isolation: concurrent students; test_memory: thousands of calls).

:func:`random_knobs` gives the 9 control values in ``Panel.inputs`` order after the text
(objective, heads, pos, mask, scaling, temperature, layer, head, theme): mostly a model the
zoo has, sometimes any combination ("no model was trained as ..." is an answer too), every
other knob over all that the page offers, layer and head past a small model's range too.
"""

from __future__ import annotations

import random

from explorer.models.zoo import NAME_RE
from explorer.views.controls import HEADS, MASK_CHOICES, OBJECTIVES, POSITIONAL, SCALE_CHOICES


def random_knobs(rng: random.Random, zoo, trained_share: float = 0.9) -> list:
    by_label = {v: k for k, v in OBJECTIVES.items()}
    trained = [NAME_RE.match(name).groups() for name in zoo.models if NAME_RE.match(name)]
    if trained and rng.random() < trained_share:
        objective, heads, pos = rng.choice(trained)
        objective, heads = by_label[objective], int(heads)
    else:
        objective, heads, pos = (rng.choice(list(OBJECTIVES)), rng.choice(HEADS),
                                 rng.choice(POSITIONAL))
    temperature = round(rng.randint(2, 100) * 0.05, 2)  # the slider's 0.1 .. 5.0, step 0.05
    return [objective, heads, pos, rng.choice(list(MASK_CHOICES)),
            rng.choice(list(SCALE_CHOICES)), temperature, rng.randint(0, 3), rng.randint(0, 7),
            rng.choice(["light", "dark"])]
