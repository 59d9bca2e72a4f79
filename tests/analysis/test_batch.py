"""Many sentences in one forward pass (explorer.analysis.run.analyse_batch): each sentence
gets what it gets alone, whatever its length and the others beside it, with the mask as
trained, switched off (the padding is then hidden by the key mask) and on a masked-word
model; only the last bits of float32 sums may move."""

import numpy as np
import pytest

from explorer.analysis.run import analyse, analyse_batch
from explorer.models.settings import AttentionSettings

BASE = "Once upon a time there was a little girl named Lily. She liked to play with her ball."
TEXTS = [BASE[:k] for k in range(0, len(BASE), 7)] + [
    "The cat sat", "The dog ran", "She found a [mask] in the garden.", "He saw a ___ there.",
    "a", "   "]


@pytest.mark.parametrize("name", ["causal-h4-rotary", "bidir-h4-rotary", "causal-h8-alibi",
                                  "causal-h1-learned", "causal-h2-sinusoidal"])
@pytest.mark.parametrize("settings", [None, AttentionSettings(causal=False),
                                      AttentionSettings(temperature=2.0, head_mask=((1, 0),))])
def test_each_sentence_of_a_batch_gets_what_it_gets_alone(resources, name, settings):
    tok, zoo = resources
    model = zoo.get(name)
    together = analyse_batch(model, tok, TEXTS, settings, max_batch=5)
    assert len(together) == len(TEXTS)
    for text, got in zip(TEXTS, together, strict=True):
        alone = analyse(model, tok, text, settings, detail=False)
        want = analyse(model, tok, text, settings)  # the full path: one sentence, no batch
        assert got.tokens == alone.tokens == want.tokens and got.notices == alone.notices
        assert got.patterns.shape == want.patterns.shape  # its own [layer, head, n, n]
        np.testing.assert_allclose(got.patterns, want.patterns, atol=1e-5, rtol=0)
        assert [t for t, _ in got.predictions] == [t for t, _ in want.predictions]
        np.testing.assert_allclose([p for _, p in got.predictions],
                                   [p for _, p in want.predictions], atol=1e-5)
        if got.patterns.size:  # every row a distribution over the sentence's own tokens
            np.testing.assert_allclose(got.patterns.sum(-1), 1.0, atol=1e-5)
