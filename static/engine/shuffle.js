// The word-shuffle test in the browser: the second implementation of explorer/analysis/
// positional_views.py (word_starts, word_permutation, shuffle_from_ids), so that the static
// edition's step 5 shows what the Positional encodings view shows. Parity: tests/js/
// shuffle.test.mjs (Node, tiny models, tiny_steps.json) and tests/engine/
// test_detail_patch_parity_browser.py (Chromium, the zoo).
//
//   wordStarts(pieces) -> the indices of the tokens that begin a word
//   wordPermutation(pieces, seed) -> perm (perm[j]: the original position of the token now
//       at j; whole words move) | null when there is one word or none
//   shuffleIds(model, ids, pieces, settings, layer, head, seed) -> ShuffleResult
//   sentenceShuffle(tokenizer, model, text, settings, layer, head, seed) -> ShuffleResult
//
// ShuffleResult = {tokens, shuffledTokens, perm, layer, head (clamped to the model),
//   original, shuffled, restored ([query][key] of that head: the words in order, as the
//   model saw them shuffled, and shuffled put back in the original order), maxDiffHead,
//   maxDiffAll (the largest |original - restored| of that head and of every head),
//   topChanged (positions whose top guess changed, compared at the same token)}; with no
//   perm the patterns are null and the numbers 0. The test always runs with the causal
//   mask off (``settings.causal`` is ignored): with it on, the triangle itself tells each
//   word how many came before it.
import { defaultRng } from "./numpy_random.js";

// Python's str.isspace (bidirectional WS, B, S or category Zs), not JavaScript's \s
const SPACES = new Set([
  0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002,
  0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f,
  0x3000,
]);

/** Indices of tokens that begin a word: the first, and any starting with whitespace. */
export function wordStarts(pieces) {
  const out = [];
  pieces.forEach((p, i) => {
    if (i === 0 || (p.length > 0 && SPACES.has(p.codePointAt(0)))) out.push(i);
  });
  return out;
}

/** A token order that moves whole words (numpy's default_rng(seed)), or null. */
export function wordPermutation(pieces, seed = 0) {
  const starts = [...wordStarts(pieces), pieces.length];
  const words = [];
  for (let w = 0; w + 1 < starts.length; w++) {
    words.push(Array.from({ length: starts[w + 1] - starts[w] }, (_, i) => starts[w] + i));
  }
  if (words.length < 2) return null;
  const rng = defaultRng(seed);
  let order = null;
  for (let tries = 0; tries < 50; tries++) {
    order = rng.permutation(words.length); // a real shuffle: never the original order
    if (order.some((w, i) => w !== i)) break;
  }
  return order.flatMap((w) => words[w]);
}

// one head's [query][key] of a flat [layer, head, query, key] array
function headOf(patterns, H, n, layer, head) {
  const o = (layer * H + head) * n * n;
  return Array.from({ length: n }, (_, q) =>
    Array.from(patterns.subarray(o + q * n, o + q * n + n)),
  );
}

// the top guess (argmax of the logits) at every position of the model's last pass
function topAt(model, n) {
  const out = [];
  for (let p = 0; p < n; p++) {
    const logits = model.logitsAt(p);
    let best = 0;
    for (let i = 1; i < logits.length; i++) if (logits[i] > logits[best]) best = i;
    out.push(best);
  }
  return out;
}

/** The shuffle test on prepared ids (shuffle_from_ids), mask off. */
export function shuffleIds(model, ids, pieces, settings, layer = 0, head = 0, seed = 0) {
  const c = model.config,
    H = c.n_heads,
    n = ids.length;
  const clamp = (x, top) => Math.min(Math.max(Math.trunc(Number(x)) || 0, 0), top - 1);
  layer = clamp(layer, c.n_layers);
  head = clamp(head, H);
  const perm = n ? wordPermutation(pieces, seed) : null;
  const result = { tokens: [...pieces], shuffledTokens: [...pieces], perm, layer, head };
  Object.assign(result, { original: null, shuffled: null, restored: null });
  Object.assign(result, { maxDiffHead: 0, maxDiffAll: 0, topChanged: 0 });
  if (!perm) return result;
  result.shuffledTokens = perm.map((i) => pieces[i]);
  const knobs = { ...settings, causal: false };
  const orig = model.forward(ids, knobs, null).patterns;
  const topOrig = topAt(model, n);
  const shuf = model.forward(
    perm.map((i) => ids[i]),
    knobs,
    null,
  ).patterns;
  const topShuf = topAt(model, n);
  const inverse = new Array(n); // original position i sits at shuffled position inverse[i]
  perm.forEach((orig, j) => (inverse[orig] = j));
  let maxAll = 0,
    maxHead = 0;
  const restored = new Float32Array(orig.length);
  for (let lh = 0; lh < c.n_layers * H; lh++) {
    const o = lh * n * n;
    for (let q = 0; q < n; q++) {
      for (let k = 0; k < n; k++) {
        const v = shuf[o + inverse[q] * n + inverse[k]];
        restored[o + q * n + k] = v;
        const d = Math.abs(orig[o + q * n + k] - v);
        if (d > maxAll) maxAll = d;
        if (lh === layer * H + head && d > maxHead) maxHead = d;
      }
    }
  }
  result.original = headOf(orig, H, n, layer, head);
  result.shuffled = headOf(shuf, H, n, layer, head);
  result.restored = headOf(restored, H, n, layer, head);
  result.maxDiffHead = maxHead;
  result.maxDiffAll = maxAll;
  result.topChanged = topOrig.filter((t, i) => t !== topShuf[inverse[i]]).length;
  return result;
}

/** The shuffle test on a sentence as the Positional encodings view reads it. */
export function sentenceShuffle(tokenizer, model, text, settings, layer, head, seed = 0) {
  const c = model.config;
  const prep = tokenizer.prepare(text == null ? "" : String(text), {
    nCtx: c.n_ctx,
    maskedWord: !c.causal,
  });
  return shuffleIds(model, prep.ids, prep.pieces, settings, layer, head, seed);
}
