// The "Through training" view's numbers on one training snapshot, in the browser: the second
// implementation of explorer/analysis/snapshots.py's snapshot_view (the previous-token share
// of every head, explorer.analysis.head_stats.previous_token_share), even_spread and
// induction_trend's one value (the largest weight any head puts on the copy target when the
// sentence is said twice, explorer.analysis.head_labels.copy_scores). A snapshot is a
// Transformer like a zoo model's (static/engine/model.js), its file checked by the engine
// (engine.js: snapshots/<model>/step_NNNNN.safetensors, its config the model's).
// Parity: tests/engine/test_snapshot_parity_browser.py (Chromium, every snapshot).
//
//   snapshotScores(tokenizer, model, text, settings) -> {
//     tokens, n,
//     prevShare [layer][head]   mean weight each query (from the 2nd) puts on the token before
//     previous {layer, head, share}   the most previous-token-like head (numpy's argmax: the
//                               first of equals), share 0 and head L0 H0 below two tokens
//     baseline                  what spreading attention evenly would give (even_spread)
//     copyScores [layer][head] | null   on the sentence said twice (null: a masked-word
//                               model, fewer than 3 tokens, or twice past the context)
//     copy {layer, head, score} | null   the best copying head and its weight
//   }
//   evenSpread(n, causal), doubled(ids, nCtx), previousShare(patterns, L, H, n),
//   copyScoresOf(patterns, L, H, n)   the pieces, as their Python namesakes
//
// ``settings`` are the engine's knobs ({causal, scale, temperature, headsOff}); as in Python
// the sentence said twice runs under the same knobs, and only a next-word model (its config,
// not the mask knob) is doubled.

/** even_spread: the previous-token share of a head that spreads attention evenly. */
export function evenSpread(n, causal) {
  if (n < 2) return 0;
  if (!causal) return 1 / n;
  let sum = 0;
  for (let i = 2; i <= n; i++) sum += 1 / i;
  return sum / (n - 1);
}

/** head_labels.doubled: the ids followed by themselves, or null (too short or too long). */
export function doubled(ids, nCtx) {
  if (ids.length < 3 || 2 * ids.length > nCtx) return null;
  return [...ids, ...ids];
}

// [layer][head] of f(offset of that head's [n, n] pattern), patterns flat [L, H, n, n]
function perHead(L, H, n, f) {
  const out = [];
  for (let l = 0; l < L; l++) {
    const row = [];
    for (let h = 0; h < H; h++) row.push(f((l * H + h) * n * n));
    out.push(row);
  }
  return out;
}

/** previous_token_share: [layer][head], the mean of pattern[i][i - 1] for i = 1 .. n - 1. */
export function previousShare(patterns, L, H, n) {
  return perHead(L, H, n, (o) => {
    if (n < 2) return 0;
    let sum = 0;
    for (let i = 1; i < n; i++) sum += patterns[o + i * n + i - 1];
    return sum / (n - 1);
  });
}

/** copy_scores on a doubled sentence of 2 * half tokens: [layer][head], the mean weight from
    each second-copy query q = half + 1 .. 2 half - 1 on key q - half + 1. */
export function copyScoresOf(patterns, L, H, half) {
  const n = 2 * half;
  return perHead(L, H, n, (o) => {
    let sum = 0;
    for (let q = half + 1; q < n; q++) sum += patterns[o + q * n + q - half + 1];
    return sum / (half - 1);
  });
}

// the largest value of a [layer][head] table and where (the first of equals, as np.argmax)
function best(table) {
  let top = { layer: 0, head: 0, value: -Infinity };
  table.forEach((row, l) =>
    row.forEach((v, h) => {
      if (v > top.value) top = { layer: l, head: h, value: v };
    }),
  );
  return top;
}

/** The snapshot's numbers on ``text`` (see the header). */
export function snapshotScores(t, model, text, settings) {
  const c = model.config;
  const prep = t.prepare(text == null ? "" : String(text), {
    nCtx: c.n_ctx,
    maskedWord: !c.causal,
  });
  const { ids } = prep;
  const n = ids.length;
  const L = c.n_layers,
    H = c.n_heads;
  const patterns = n ? model.forward(ids, settings, null).patterns : new Float32Array(0);
  const prevShare = previousShare(patterns, L, H, n);
  const top = n >= 2 ? best(prevShare) : { layer: 0, head: 0, value: 0 };
  const causal = settings.causal == null ? c.causal : settings.causal;
  const rep = c.causal ? doubled(ids, c.n_ctx) : null;
  let copyScores = null,
    copy = null;
  if (rep) {
    copyScores = copyScoresOf(model.forward(rep, settings, null).patterns, L, H, n);
    const b = best(copyScores);
    copy = { layer: b.layer, head: b.head, score: b.value };
  }
  return {
    tokens: prep.pieces,
    n,
    prevShare,
    previous: { layer: top.layer, head: top.head, share: top.value },
    baseline: evenSpread(n, causal),
    copyScores,
    copy,
  };
}
