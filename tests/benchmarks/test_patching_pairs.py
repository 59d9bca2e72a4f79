"""benchmarks.patching's sentence pairs each patch something (a pair under MIN_GAP draws no
heatmap and stopped the benchmark), at exactly the length its row names, with the one word
changed at the 10th token."""

import pytest

from benchmarks.patching import SIZES, pair
from explorer.analysis.patching import patch


@pytest.mark.parametrize("story_first", [True, False])
def test_every_pair_patches_something_at_its_length(resources, story_first):
    tok, zoo = resources
    model = zoo.get(zoo.default_name)
    for n in SIZES if story_first else SIZES[1:]:
        clean, corrupt = (tok.encode(t) for t in pair(tok, n, story_first))
        assert len(clean) == len(corrupt) == n
        changed = [i for i, (a, b) in enumerate(zip(clean, corrupt, strict=True)) if a != b]
        assert changed == ([9 + n - 23] if story_first else [9])
        assert patch(model, clean, corrupt).heads is not None, (n, story_first)
