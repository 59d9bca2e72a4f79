// The loss on one sentence and the heads ranked by what switching each off costs, in the
// browser: the second implementation of explorer/analysis/losses.py (loss_spec, spec_loss)
// and of explorer/views/ablate.py's rank_heads, so that the static edition shows the numbers
// the lesson cites (issue 48). Parity: tests/js/loss.test.mjs (Node, tiny models) and
// tests/engine/test_loss_parity_browser.py (Chromium, the zoo).
//
//   lossSpec(ids, causalModel, maskId, maxMasked = 16)
//       -> {inputs: [{ids [T], cols [m], targets [m]}], positions, how}   the scored positions
//          | {reason}                                                     or why there are none
//   specLoss(model, spec, settings) -> the mean cross-entropy (one forward pass per input)
//   rankHeads(model, spec, settings) -> {base, heads: [{layer, head, loss, delta}]}
//   sentenceLoss(tokenizer, model, text, settings) -> {loss, positions, how}
//   sentenceRanking(tokenizer, model, text, settings) -> {base, positions, how, heads}
//
// As in Python: a next-word model is scored at every position but the last, each guessing
// the token after it (one input); a masked-word model has each word hidden in turn as
// [mask] (one input per word, scored at that word), at most MAX_MASKED evenly spaced words,
// the student's own [mask] tokens left out. ``settings`` are the model's knobs ({causal,
// scale, temperature, headsOff}, static/engine/model.js); a ranking ignores headsOff, as the
// Ablate view's does. Losses are float32 values, as Python's float(F.cross_entropy(...)).
// With no loss to compute, loss (or base) is null, positions 0 and ``how`` says why.

export const MAX_MASKED = 16; // explorer.analysis.losses.MAX_MASKED

// explorer.analysis.run.plural: "1 position", "2 positions", "1,000 positions"
function plural(n, word) {
  const digits = String(n).replace(/\B(?=(\d{3})+$)/g, ",");
  return `${digits} ${n === 1 ? word : word + "s"}`;
}

// np.linspace(0, count - 1, picks).round(), duplicates dropped in order. count > picks, so
// the step is over 1 and no two picks are equal; k * (count - 1) / (picks - 1) is never a
// half exactly (2k(count - 1) is even, an odd multiple of picks - 1 = 15 is not), so
// rounding half up or half to even picks the same.
function evenlySpaced(count, picks) {
  const out = [];
  for (let k = 0; k < picks; k++) {
    const at = Math.round((k * (count - 1)) / (picks - 1));
    if (!out.includes(at)) out.push(at);
  }
  return out;
}

/** The scored positions of ``ids`` (explorer.analysis.losses.loss_spec), or {reason}. */
export function lossSpec(ids, causalModel, maskId, maxMasked = MAX_MASKED) {
  ids = Array.from(ids);
  if (causalModel) {
    if (ids.length < 2) {
      return { reason: "The loss needs at least two tokens (one to read, one to guess)." };
    }
    const n = ids.length - 1;
    const cols = Array.from({ length: n }, (_, i) => i);
    return {
      inputs: [{ ids, cols, targets: ids.slice(1) }],
      positions: n,
      how: `mean next-word cross-entropy over ${plural(n, "position")}`,
    };
  }
  let scorable = ids.flatMap((t, i) => (t === maskId ? [] : [i]));
  if (!scorable.length) return { reason: "The loss needs at least one word that is not [mask]." };
  if (scorable.length > maxMasked) {
    scorable = evenlySpaced(scorable.length, maxMasked).map((i) => scorable[i]);
  }
  const inputs = scorable.map((col) => {
    const hidden = ids.slice();
    hidden[col] = maskId;
    return { ids: hidden, cols: [col], targets: [ids[col]] };
  });
  return {
    inputs,
    positions: scorable.length,
    how:
      "mean cross-entropy of guessing each word when it is hidden as [mask], " +
      `over ${plural(scorable.length, "position")}`,
  };
}

// -log softmax(logits)[target], in float64
function crossEntropy(logits, target) {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i] - max);
  return max + Math.log(sum) - logits[target];
}

// the summed cross-entropy at an input's scored positions, from the pass just made
function inputLoss(model, input) {
  let total = 0;
  input.cols.forEach((col, i) => {
    total += crossEntropy(model.logitsAt(col), input.targets[i]);
  });
  return total;
}

/** The mean cross-entropy over the spec's positions under ``settings`` (spec_loss). */
export function specLoss(model, spec, settings) {
  let total = 0;
  for (const input of spec.inputs) {
    model.forward(input.ids, settings, null);
    total += inputLoss(model, input);
  }
  return Math.fround(total / spec.positions);
}

/** Each head switched off alone, sorted by how much the loss goes up (ties: layer, head),
    under ``settings`` without their heads off (explorer.views.ablate.rank_heads). A head's
    pass starts at its own layer, from the stream the pass with every head on saved. */
export function rankHeads(model, spec, settings) {
  const { n_layers: layers, n_heads: heads } = model.config;
  const plain = { ...settings, headsOff: [] };
  let base = 0;
  const totals = new Float64Array(layers * heads); // [layer, head] summed over the inputs
  for (const input of spec.inputs) {
    model.forward(input.ids, plain, null, { save: true });
    base += inputLoss(model, input);
    for (let layer = 0; layer < layers; layer++) {
      for (let head = 0; head < heads; head++) {
        model.forward(input.ids, { ...plain, headsOff: [[layer, head]] }, null, { from: layer });
        totals[layer * heads + head] += inputLoss(model, input);
      }
    }
  }
  base = Math.fround(base / spec.positions);
  const rows = Array.from(totals, (total, i) => {
    const loss = Math.fround(total / spec.positions);
    return { layer: Math.floor(i / heads), head: i % heads, loss, delta: loss - base };
  });
  rows.sort((a, b) => b.delta - a.delta || a.layer - b.layer || a.head - b.head);
  return { base, heads: rows };
}

// The sentence as the model reads it (explorer.analysis.run.prepare), then its spec.
function specOf(tokenizer, model, text) {
  const c = model.config;
  const maskedWord = !c.causal;
  const prep = tokenizer.prepare(text == null ? "" : String(text), { nCtx: c.n_ctx, maskedWord });
  return lossSpec(prep.ids, c.causal, tokenizer.maskId);
}

/** The sentence's loss under ``settings``, heads off included: {loss, positions, how}. */
export function sentenceLoss(tokenizer, model, text, settings) {
  const spec = specOf(tokenizer, model, text);
  if (spec.reason) return { loss: null, positions: 0, how: spec.reason };
  return { loss: specLoss(model, spec, settings), positions: spec.positions, how: spec.how };
}

/** Every head of the model ranked on the sentence: {base, positions, how, heads}. */
export function sentenceRanking(tokenizer, model, text, settings) {
  const spec = specOf(tokenizer, model, text);
  if (spec.reason) return { base: null, positions: 0, how: spec.reason, heads: [] };
  return { ...rankHeads(model, spec, settings), positions: spec.positions, how: spec.how };
}
