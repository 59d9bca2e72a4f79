// The training snapshots' numbers in the browser (static/engine/snapshots.js) on hand-made
// patterns: explorer.analysis.snapshots' even_spread, head_labels' doubled and copy_scores,
// head_stats' previous_token_share, and snapshotScores' best heads (numpy's argmax: the
// first of equals) and its null copy where Python has no trend. The real snapshots against
// Python: tests/engine/test_snapshot_parity_browser.py (Chromium).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  copyScoresOf,
  doubled,
  evenSpread,
  previousShare,
  snapshotScores,
} from "../../static/engine/snapshots.js";

const close = (a, b) => Math.abs(a - b) <= 1e-12;

test("even_spread: a causal row i sees i + 1 keys, otherwise all n", () => {
  assert.ok(close(evenSpread(4, true), (1 / 2 + 1 / 3 + 1 / 4) / 3));
  assert.equal(evenSpread(4, false), 0.25);
  assert.equal(evenSpread(1, true), 0);
});

test("doubled: only three tokens or more, and twice within the context", () => {
  assert.equal(doubled([1, 2], 128), null);
  assert.equal(doubled([1, 2, 3], 5), null);
  assert.deepEqual(doubled([1, 2, 3], 6), [1, 2, 3, 1, 2, 3]);
});

test("the previous-token share and the copy score of one head", () => {
  const three = Float32Array.from([1, 0, 0, 0.6, 0.4, 0, 0.2, 0.5, 0.3]);
  assert.ok(close(previousShare(three, 1, 1, 3)[0][0], Math.fround(0.6) / 2 + 0.25));
  const six = new Float32Array(36);
  six[4 * 6 + 2] = 0.75; // query 4 (the second "2") on key 2 (the "3" after the first "2")
  six[5 * 6 + 3] = 0.25; // query 5 on key 3
  assert.equal(copyScoresOf(six, 1, 1, 3)[0][0], 0.5);
  assert.equal(previousShare(new Float32Array(1), 1, 1, 1)[0][0], 0);
});

// a tokenizer of one id per character, a model whose every head puts all its weight on the
// previous token (heads of layer 1 half of it), or on the copy target when the text repeats
function fakes(causal) {
  const t = {
    prepare: (text) => ({ ids: [...text].map((c) => c.charCodeAt(0)), pieces: [...text] }),
  };
  const config = { n_layers: 2, n_heads: 2, n_ctx: 8, causal };
  const forward = (ids) => {
    const n = ids.length;
    const patterns = new Float32Array(4 * n * n);
    for (let lh = 0; lh < 4; lh++) {
      for (let q = 0; q < n; q++)
        patterns[lh * n * n + q * n + Math.max(q - 1, 0)] = lh < 2 ? 1 : 0.5;
    }
    return { patterns };
  };
  return { t, model: { config, forward } };
}

test("snapshotScores: the first best head, the even spread, the copy where there is one", () => {
  const { t, model } = fakes(true);
  const r = snapshotScores(t, model, "abcd", { causal: null });
  assert.deepEqual(r.previous, { layer: 0, head: 0, share: 1 });
  assert.deepEqual(r.prevShare, [
    [1, 1],
    [0.5, 0.5],
  ]);
  assert.ok(close(r.baseline, evenSpread(4, true)));
  // said twice (8 tokens, the context's 8): a head on the previous token is not copying
  assert.deepEqual(r.copy, { layer: 0, head: 0, score: 0 });
  assert.equal(snapshotScores(t, model, "abcde", {}).copy, null); // twice past the context
  assert.equal(snapshotScores(t, model, "ab", {}).copy, null); // too short
  assert.ok(close(snapshotScores(t, model, "abcd", { causal: false }).baseline, 0.25));
  const masked = fakes(false);
  assert.equal(snapshotScores(masked.t, masked.model, "abcd", {}).copy, null);
  assert.deepEqual(snapshotScores(t, model, "", {}).previous, { layer: 0, head: 0, share: 0 });
});
