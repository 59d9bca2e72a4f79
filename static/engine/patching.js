// Activation patching between two sentences, in the browser: the second implementation of
// explorer/analysis/patching.py's patch (and the Patch view's guesses, explorer/views/
// patch.py) for the static edition's step 8 (issue 48). Parity: tests/js/patching.test.mjs
// (Node, tiny models) and tests/engine/test_detail_patch_parity_browser.py (Chromium, the zoo).
//
//   patchIds(tokenizer, model, cleanIds, corruptIds, settings, patchHead = null)
//   patchPair(tokenizer, model, clean, corrupt, settings, patchHead = null)   two texts
//       -> {answer, wrong (token ids), answerToken, wrongToken, ld_clean, ld_corrupt,
//           sameGuess, heads [layer][head] | null, positions [layer][pos] | null,
//           patched {layer, head, ld, guess} | null, guesses [{token, corrupted, patched}]
//           | null, tokens, corruptTokens (patchPair)}
//
// As in Python: the answer is the clean run's top guess at the last position, the
// competitor (wrong) the corrupted run's, or its best other token when both guess the same;
// LD = logit[answer] − logit[wrong] there. When |ld_clean − ld_corrupt| < MIN_GAP nothing is
// patched: heads, positions, patched and guesses are null. Otherwise heads[l][h] is the share
// (LD_patched − ld_corrupt) / (ld_clean − ld_corrupt) of the corrupted run with head h's
// output at layer l (hook_z, every position) taken from the clean run, and positions[l][p]
// that of the residual stream after layer l (hook_resid_post) at position p alone (0 where
// both runs hold the same values there, unpatched, as Python skips them). ``patched``: the
// head patchHead ({layer, head}) names, else the one restoring most (the view's default), its
// LD and top guess; ``guesses``: the view's "Guesses: corrupted → patched" rows, the union of
// both runs' top 8 (by probability, ties the lower id), sorted by the larger of the two.
//
// The model's seams (static/engine/model.js): the clean run's every head output and
// residual stream are read by a tap; a head's patched run starts at its layer from the
// corrupted run's saved stream ({from}) and a tap swaps the head's columns of z; a position's
// patched run starts after its layer from the corrupted stream with that row the clean one
// ({from, stream}).

export const MIN_GAP = 1.0; // explorer.analysis.patching.MIN_GAP
export const TOP_K = 8; // explorer.analysis.run.TOP_K: the guesses' rows per run

// index of the largest value (the first of equals, as torch.argmax), skipping ``not``
export function argmax(a, not = -1) {
  let best = -1;
  for (let i = 0; i < a.length; i++) if (i !== not && (best < 0 || a[i] > a[best])) best = i;
  return best;
}

/** The probabilities of ``logits`` (float64). */
export function softmax(logits) {
  const max = logits[argmax(logits)];
  const p = new Float64Array(logits.length);
  let sum = 0;
  for (let i = 0; i < p.length; i++) sum += p[i] = Math.exp(logits[i] - max);
  for (let i = 0; i < p.length; i++) p[i] /= sum;
  return p;
}

// the top ``k`` ids by probability, ties the lower id (np.argsort(-p, kind="stable"))
function topIds(p, k) {
  const ids = Array.from(p.keys());
  ids.sort((a, b) => p[b] - p[a] || a - b);
  return ids.slice(0, k);
}

/** explorer.views.compare.prediction_rows: [{token, corrupted, patched}]. */
export function predictionRows(tokenizer, left, right, k = TOP_K) {
  const ids = [];
  for (const p of [left, right]) for (const i of topIds(p, k)) if (!ids.includes(i)) ids.push(i);
  const rows = ids.map((i) => ({
    token: tokenizer.decode([i]),
    corrupted: left[i],
    patched: right[i],
  }));
  rows.sort((a, b) => Math.max(b.corrupted, b.patched) - Math.max(a.corrupted, a.patched));
  return rows;
}

// The two runs: logits at the last position, every layer's z and resid_post [layer, n, d];
// the corrupted run's block inputs stay saved in the model ({from} resumes from them).
function baseRuns(model, cleanIds, corruptIds, settings) {
  const { n_layers: L, d_model: d } = model.config,
    n = cleanIds.length;
  const keep = (z, post) => (l, where, s) => {
    if (where === "z" && z) z.set(s.z.subarray(0, n * d), l * n * d);
    if (where === "post") post.set(s.x.subarray(0, n * d), l * n * d);
  };
  const cleanZ = new Float32Array(L * n * d),
    cleanPost = new Float32Array(L * n * d),
    corruptPost = new Float32Array(L * n * d);
  const clean = model.forward(cleanIds, settings, n - 1, { tap: keep(cleanZ, cleanPost) }).logits;
  const corrupt = model.forward(corruptIds, settings, n - 1, {
    save: true,
    tap: keep(null, corruptPost),
  }).logits;
  return { clean, corrupt, cleanZ, cleanPost, corruptPost };
}

// The corrupted run's logits with head ``head`` of ``layer`` patched from the clean run.
function headPatched(model, ids, settings, runs, layer, head) {
  const d = model.config.d_model,
    dh = d / model.config.n_heads,
    n = ids.length;
  const tap = (l, where, s) => {
    if (l !== layer || where !== "z") return;
    for (let p = 0; p < n; p++) {
      const o = p * d + head * dh;
      s.z.set(runs.cleanZ.subarray(layer * n * d + o, layer * n * d + o + dh), o);
    }
  };
  return model.forward(ids, settings, n - 1, { from: layer, tap }).logits;
}

// shares [layer][pos] of the residual stream after each layer patched at one position
function positionShares(model, ids, settings, runs, share) {
  const { n_layers: L, d_model: d } = model.config,
    n = ids.length;
  const stream = new Float32Array(n * d);
  const out = [];
  for (let l = 0; l < L; l++) {
    const row = new Array(n).fill(0);
    const corrupt = runs.corruptPost.subarray(l * n * d, (l + 1) * n * d),
      clean = runs.cleanPost.subarray(l * n * d, (l + 1) * n * d);
    for (let p = 0; p < n; p++) {
      let same = true;
      for (let e = p * d; e < p * d + d && same; e++) same = clean[e] === corrupt[e];
      if (same) continue; // patching it changes nothing (Python skips it too)
      stream.set(corrupt);
      stream.set(clean.subarray(p * d, p * d + d), p * d);
      row[p] = share(model.forward(ids, settings, n - 1, { from: l + 1, stream }).logits);
    }
    out.push(row);
  }
  return out;
}

function checkedHead(config, patchHead) {
  if (patchHead == null) return null;
  const { layer, head } = patchHead;
  const ok = Number.isInteger(layer) && Number.isInteger(head) && layer >= 0 && head >= 0;
  if (!(ok && layer < config.n_layers && head < config.n_heads)) {
    throw new Error("the head to patch does not exist in this model");
  }
  return { layer, head };
}

/** explorer.analysis.patching.patch on token ids, and the Patch view's guesses (header). */
export function patchIds(tokenizer, model, cleanIds, corruptIds, settings, patchHead = null) {
  const config = model.config;
  if (cleanIds.length !== corruptIds.length || !cleanIds.length) {
    throw new Error("the two sentences need the same number of tokens (at least one)");
  }
  const chosen = checkedHead(config, patchHead);
  const runs = baseRuns(model, cleanIds, corruptIds, settings);
  const answer = argmax(runs.clean);
  const top = argmax(runs.corrupt);
  const wrong = top !== answer ? top : argmax(runs.corrupt, answer);
  const ld = (logits) => Math.fround(logits[answer] - logits[wrong]);
  const ldClean = ld(runs.clean),
    ldCorrupt = ld(runs.corrupt);
  const out = {
    answer,
    wrong,
    answerToken: tokenizer.decode([answer]),
    wrongToken: tokenizer.decode([wrong]),
    ld_clean: ldClean,
    ld_corrupt: ldCorrupt,
    sameGuess: answer === top,
    heads: null,
    positions: null,
    patched: null,
    guesses: null,
  };
  if (!(Math.abs(ldClean - ldCorrupt) >= MIN_GAP)) return out;
  const share = (logits) => (ld(logits) - ldCorrupt) / (ldClean - ldCorrupt);
  out.heads = [];
  for (let l = 0; l < config.n_layers; l++) {
    const row = [];
    for (let h = 0; h < config.n_heads; h++) {
      row.push(share(headPatched(model, corruptIds, settings, runs, l, h)));
    }
    out.heads.push(row);
  }
  out.positions = positionShares(model, corruptIds, settings, runs, share);
  const flat = out.heads.flat();
  const best = argmax(flat);
  const { layer, head } = chosen || {
    layer: Math.floor(best / config.n_heads),
    head: best % config.n_heads,
  };
  const logits = headPatched(model, corruptIds, settings, runs, layer, head);
  const probs = softmax(logits);
  out.patched = { layer, head, ld: ld(logits), guess: tokenizer.decode([argmax(logits)]) };
  out.guesses = predictionRows(tokenizer, softmax(runs.corrupt), probs);
  return out;
}

/** The same on two texts, each read as explorer.analysis.run.prepare reads a next-word
    model's: {..., tokens, corruptTokens}. A masked-word model is refused. */
export function patchPair(tokenizer, model, clean, corrupt, settings, patchHead = null) {
  const c = model.config;
  if (!c.causal) {
    throw new Error(
      "patching reads the next-word guess at the last position: pick a next-word model",
    );
  }
  const prep = (text) =>
    tokenizer.prepare(text == null ? "" : String(text), { nCtx: c.n_ctx, maskedWord: false });
  const a = prep(clean),
    b = prep(corrupt);
  if (a.ids.length !== b.ids.length || !a.ids.length) {
    throw new Error(
      `the two sentences need the same number of tokens (${a.ids.length} and ${b.ids.length})`,
    );
  }
  const out = patchIds(tokenizer, model, a.ids, b.ids, settings, patchHead);
  return { ...out, tokens: a.pieces, corruptTokens: b.pieces };
}
