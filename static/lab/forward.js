// The forward pass of a Lab model on a batch, keeping on the tape what the backward pass
// needs (tape.js), and the next-token loss: explorer/models/transformer.py's Transformer
// for the Lab's configurations (pre-LayerNorm or none, MLP or none, every positional
// choice, causal, scaled by 1/sqrt(d_head)) and explorer/training/lab.py's loss_on.
//
//   forward(params, config, tape, tokens, weights) -> the loss (a number)
//       tokens: Int32Array [batch, n]; weights: Float64Array [batch, n - 1], each target's
//       share of the loss (lossWeights); the loss is sum(weights * per-target loss)
//   lossWeights(mask, copyOnly) -> Float64Array [batch, n - 1]: the mean's 1 / count on
//       every target (copyOnly false) or on those the mask (the copy targets) marks only
//   forwardBlock(params, config, tape, l, xOut): one block, its input tape.layers[l].x
// After the pass: tape.final.logits [rows, vocab], tape.final.probs (softmax), tape.losses
// [batch, n - 1] (every target's loss), tape.layers[l].P the patterns [batch, head, q, k].
import { attendForward } from "./attention.js";
import { layerNorm } from "../engine/loops.js";
import { geluForward } from "./linalg.js";
import { rotate } from "./positions.js";

function embed(params, c, tape, tokens, x) {
  const d = c.d_model,
    { rows, n } = tape,
    W_E = params["W_E.weight"];
  const table = params["pos.W_pos.weight"] || tape.tables.sinusoids;
  const scale = tape.tables.sinusoids ? params["pos.scale"][0] : 1;
  for (let r = 0; r < rows; r++) {
    const o = r * d,
      e = tokens[r] * d,
      p = (r % n) * d;
    for (let j = 0; j < d; j++) x[o + j] = W_E[e + j] + (table ? table[p + j] * scale : 0);
  }
}

// LayerNorm ``name`` of x into the tape's y (its xhat and rstd kept), or x itself without one
function norm(params, c, name, x, R, y, xhat, rstd) {
  if (c.norm !== "pre") return x;
  layerNorm(x, R, c.d_model, params[name + ".weight"], params[name + ".bias"], y, xhat, rstd);
  return y;
}

export function forwardBlock(params, c, tape, l, xOut) {
  const L = tape.layers[l],
    p = `blocks.${l}.`,
    W = (name) => params[p + name],
    d = c.d_model,
    R = tape.rows,
    mm = tape.scratch.mm;
  const h = norm(params, c, p + "ln1", L.x, R, L.h, L.xhat, L.rstd);
  const s = tape.scratch;
  s.X.set(h.subarray(0, R * d)); // h staged once for its three products
  for (const [name, y] of [
    ["attn.W_Q.weight", L.q],
    ["attn.W_K.weight", L.k],
    ["attn.W_V.weight", L.v],
  ]) {
    s.W.set(W(name));
    s.run(R, d, d);
    y.set(s.Y.subarray(0, R * d));
  }
  if (tape.tables.rotary) {
    rotate(L.q, R, tape.n, d, c.d_head, tape.tables.rotary);
    rotate(L.k, R, tape.n, d, c.d_head, tape.tables.rotary);
  }
  attendForward(tape.dims, tape.scratch, tape.attn, L.q, L.k, L.v, L.P, L.z);
  const out = tape.grad.dh; // free until the backward pass
  mm(L.z, R, d, W("attn.W_O.weight"), d, null, out);
  for (let i = 0; i < R * d; i++) L.mid[i] = L.x[i] + out[i];
  if (!c.mlp) {
    xOut.set(L.mid.subarray(0, R * d));
    return;
  }
  const h2 = norm(params, c, p + "ln2", L.mid, R, L.h2, L.xhat2, L.rstd2);
  mm(h2, R, d, W("mlp.W_in.weight"), c.d_ff, W("mlp.W_in.bias"), L.a);
  geluForward(L.a, L.g, R * c.d_ff);
  mm(L.g, R, c.d_ff, W("mlp.W_out.weight"), d, W("mlp.W_out.bias"), out);
  for (let i = 0; i < R * d; i++) xOut[i] = L.mid[i] + out[i];
}

// softmax of every row into probs; each target's loss -log p(token i + 1) into tape.losses
function crossEntropy(c, tape, tokens, weights) {
  const V = c.vocab_size,
    { batch, n } = tape,
    { logits, probs } = tape.final;
  let loss = 0;
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < n; i++) {
      const o = (b * n + i) * V;
      let max = -Infinity;
      for (let j = 0; j < V; j++) if (logits[o + j] > max) max = logits[o + j];
      let sum = 0;
      for (let j = 0; j < V; j++) sum += probs[o + j] = Math.exp(logits[o + j] - max);
      for (let j = 0; j < V; j++) probs[o + j] /= sum;
      if (i === n - 1) continue;
      const t = b * (n - 1) + i,
        ce = Math.log(sum) + max - logits[o + tokens[b * n + i + 1]];
      tape.losses[t] = ce;
      loss += weights[t] * ce;
    }
  }
  return loss;
}

export function forward(params, c, tape, tokens, weights) {
  const F = tape.final,
    inputOf = (l) => (l < c.n_layers ? tape.layers[l].x : F.x);
  embed(params, c, tape, tokens, inputOf(0));
  for (let l = 0; l < c.n_layers; l++) forwardBlock(params, c, tape, l, inputOf(l + 1));
  const h = norm(params, c, "ln_final", F.x, tape.rows, F.h, F.xhat, F.rstd);
  tape.scratch.mm(h, tape.rows, c.d_model, params["W_U.weight"], c.vocab_size, null, F.logits);
  return crossEntropy(c, tape, tokens, weights);
}

export function lossWeights(mask, copyOnly) {
  const w = new Float64Array(mask.length);
  let chosen = 0;
  for (let i = 0; i < mask.length; i++) chosen += copyOnly ? mask[i] : 1;
  for (let i = 0; i < mask.length; i++) w[i] = copyOnly && !mask[i] ? 0 : 1 / Math.max(chosen, 1);
  return w;
}
