"""The browser's training-snapshot numbers (static/engine/snapshots.js: ``engine.snapshot``)
against the Python functions, in real Chromium, on every snapshot of the default model
(issue 48, Start here's step 7 in the static edition).

The references: :func:`explorer.analysis.snapshots.snapshot_view`'s previous-token share of
every head (its best head and share: the status line of the Through training view),
:func:`~explorer.analysis.snapshots.even_spread`, and
:func:`~explorer.analysis.snapshots.induction_trend`'s value (the largest weight any head puts
on the copy target, :func:`explorer.analysis.head_labels.copy_scores`, on the sentence said
twice), with every head's copy score. Checked on step 7's sentence and three others (one too
short to be said twice), each snapshot's file fetched as the static edition serves it
(``snapshots/<model>/<file>``) and checked against checkpoints/manifest.json's sha256: every
number within 1e-3, the same best heads (or a near tie), and ``copy`` null exactly where
Python has no trend.

Cheap by design: the Python references first, then ONE ``page.evaluate``.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from explorer.analysis.head_labels import copy_scores, doubled
from explorer.analysis.run import prepare
from explorer.analysis.snapshots import (
    even_spread,
    induction_trend,
    load_snapshots,
    snapshot_view,
)
from explorer.models.capture import run_with_cache
from explorer.models.zoo import CHECKPOINT_DIR, DEFAULT_NAME, read_manifest
from explorer.views.start_here import REPEAT

TOLERANCE = 1e-3
SENTENCES = [
    REPEAT,  # step 7's
    "The dog chased the cat into the garden.",
    "Once upon a time, a little girl named Lily found a shiny red ball in the park.",
    "Hi there",  # two tokens: no copy score
]
COMPUTE = """async ([name, files, texts, hashes]) => {
  const E = AttentionExplorer.engine;
  E.configure({hashes});
  const out = [];
  for (const file of files) {
    const rows = [];
    for (const text of texts) rows.push(await E.snapshot(text, {model: name, snapshot: file}));
    out.push(rows);
  }
  return out;
}"""


def copy_table(model, ids: list[int]) -> np.ndarray | None:
    rep = doubled(ids, model.config.n_ctx)
    if rep is None:
        return None
    _, cache = run_with_cache(model, torch.tensor([rep]), None, names="*hook_pattern")
    return copy_scores(cache.stack("attn.hook_pattern")[:, 0].double().numpy(), len(ids))


@pytest.fixture(scope="module")
def computed(zoo_page, resources):
    """(the snapshots, Python's numbers [snapshot][sentence], the browser's the same)."""
    tok, _ = resources
    snaps = load_snapshots(CHECKPOINT_DIR, vocab_size=tok.vocab_size)
    assert len(snaps) >= 2 and not snaps.unavailable
    trends = [induction_trend(snaps, tok, text) for text in SENTENCES]
    want = []
    for i, snap in enumerate(snaps.snapshots):
        rows = []
        for j, text in enumerate(SENTENCES):
            r = snapshot_view(snaps, tok, text, i)
            ids = prepare(tok, text, snap.model.config.n_ctx, False).ids
            rows.append({"prev": r.prev_share, "n": len(r.tokens),
                         "baseline": even_spread(len(r.tokens), r.resolved.causal),
                         "trend": None if trends[j] is None else trends[j][i],
                         "copies": copy_table(snap.model, ids)})
        want.append(rows)
    manifest = read_manifest(CHECKPOINT_DIR)
    files = [s.file for s in snaps.snapshots]
    hashes = {k: v for k, v in manifest.items() if k.startswith(f"snapshots/{DEFAULT_NAME}/")}
    got = zoo_page.evaluate(COMPUTE, [DEFAULT_NAME, files, SENTENCES, hashes])
    return snaps, want, got


def same_best(table: np.ndarray, layer: int, head: int) -> bool:
    """(layer, head) is the table's best, or within the tolerance of it."""
    return table[layer, head] >= table.max() - TOLERANCE


def test_every_snapshot_and_sentence_was_computed(computed):
    snaps, want, got = computed
    assert len(got) == len(want) == len(snaps)
    assert all(len(rows) == len(SENTENCES) for rows in got)


@pytest.mark.parametrize("index", range(10))
def test_the_previous_token_shares_are_pythons(computed, index):
    snaps, want, got = computed
    if index >= len(snaps):
        pytest.skip("fewer snapshots installed")
    for text, w, js in zip(SENTENCES, want[index], got[index], strict=True):
        where = (snaps.snapshots[index].file, text[:30])
        assert js["n"] == w["n"], where
        prev = np.array(js["prevShare"])
        assert prev.shape == w["prev"].shape, where
        assert np.abs(prev - w["prev"]).max() <= TOLERANCE, where
        p = js["previous"]
        assert abs(p["share"] - w["prev"].max()) <= TOLERANCE, where
        assert same_best(w["prev"], p["layer"], p["head"]), (where, p)
        assert abs(js["baseline"] - w["baseline"]) <= 1e-9, where


@pytest.mark.parametrize("index", range(10))
def test_the_copy_scores_are_pythons(computed, index):
    snaps, want, got = computed
    if index >= len(snaps):
        pytest.skip("fewer snapshots installed")
    for text, w, js in zip(SENTENCES, want[index], got[index], strict=True):
        where = (snaps.snapshots[index].file, text[:30])
        if w["trend"] is None:
            assert js["copy"] is None and js["copyScores"] is None, where
            continue
        assert abs(js["copy"]["score"] - w["trend"]) <= TOLERANCE, (where, js["copy"])
        table = np.array(js["copyScores"])
        assert np.abs(table - w["copies"]).max() <= TOLERANCE, where
        assert same_best(w["copies"], js["copy"]["layer"], js["copy"]["head"]), where


def test_the_max_error(computed):
    """The largest difference over everything compared (printed for the record)."""
    _, want, got = computed
    errors = []
    for wrows, jrows in zip(want, got, strict=True):
        for w, js in zip(wrows, jrows, strict=True):
            errors.append(np.abs(np.array(js["prevShare"]) - w["prev"]).max())
            if w["copies"] is not None:
                errors.append(np.abs(np.array(js["copyScores"]) - w["copies"]).max())
    print(f"snapshot parity: max error {max(errors):.2e} over {len(errors)} tables")
    assert max(errors) <= TOLERANCE
