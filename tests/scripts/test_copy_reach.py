"""The copy-reach script on the shipped default model: its induction head copies a short
list of words said twice and fades on a list longer than any repeat it was trained on."""

import numpy as np

from scripts.copy_reach import reach


def test_the_default_models_copying_fades_past_its_training_spans(resources):
    tok, zoo = resources
    model = zoo.get("causal-h4-rotary")
    best = zoo.evals["causal-h4-rotary"]["induction"]["random_repeat"]["best"]
    # whole-word tokens in id order: BPE merges the commonest pairs first
    words = [i for i in range(tok.vocab_size)
             if tok.decode([i]).startswith(" ") and tok.decode([i])[1:].isalpha()][:600]
    rng = np.random.default_rng(0)
    short = reach(model, [rng.choice(words, 16, replace=False).tolist() for _ in range(6)])
    long = reach(model, [rng.choice(words, 60, replace=False).tolist() for _ in range(6)])
    assert short[1] == f"L{best['layer']}H{best['head']}"
    assert short[0] >= 0.3 and short[2] > 1.0  # a head on the copy target, and it copies
    assert long[0] < short[0] / 2  # 60 words: past the 8-32-token repeats it trained on
