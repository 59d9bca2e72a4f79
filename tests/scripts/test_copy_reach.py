"""The copy-reach script on the shipped default model: its induction head copies a list of
words said twice, short or as long as its longest training repeats (60 tokens)."""

import numpy as np

from scripts.copy_reach import reach


def test_the_default_models_copying_reaches_as_far_as_its_training_repeats(resources):
    tok, zoo = resources
    model = zoo.get("causal-h4-rotary")
    best = zoo.evals["causal-h4-rotary"]["induction"]["random_repeat"]["best"]
    # whole-word tokens in id order: BPE merges the commonest pairs first
    words = [i for i in range(tok.vocab_size)
             if tok.decode([i]).startswith(" ") and tok.decode([i])[1:].isalpha()][:600]
    rng = np.random.default_rng(0)
    short = reach(model, [rng.choice(words, 16, replace=False).tolist() for _ in range(6)])
    long = reach(model, [rng.choice(words, 60, replace=False).tolist() for _ in range(6)])
    assert short[1] == long[1] == f"L{best['layer']}H{best['head']}"
    assert short[0] >= 0.5 and short[2] > 3.0  # a head on the copy target, and it copies
    # 60 words back: recipe F's head (repeats of at most 32) fell to 0.12 here
    assert long[0] >= 0.5 and long[2] > 3.0
