// The backward pass of a Lab model: every parameter's gradient of the loss forward() last
// computed on the same tape (forward.js), by hand, in the reverse order of the forward
// pass: the loss's softmax, W_U, the final LayerNorm, each block (its MLP, then its
// attention: W_O, the pattern's softmax, the rotary turn undone, W_Q W_K W_V, LayerNorm 1),
// then the embeddings (W_E, W_pos or the sinusoids' scale).
//
//   backward(params, config, tape, tokens, weights, grads)
//       grads: {name: Float64Array} shaped as params (params.js zerosLike): set, not added
//       to; a parameter the pass does not read (ln2 without an MLP) gets 0, where torch
//       leaves None (AdamW then moves neither)
// Shapes as forward.js: every d-prefixed buffer is the gradient of its namesake.
import { attendBackward } from "./attention.js";
import { geluBackward, layerNormBackward, linearBackward } from "./linalg.js";
import { rotate } from "./positions.js";

// dlogits = weight * (softmax - onehot(target)) on the scored rows, 0 on the last position
function lossBackward(c, tape, tokens, weights) {
  const V = c.vocab_size,
    { batch, n } = tape,
    { probs } = tape.final,
    dl = tape.grad.dlogits;
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < n; i++) {
      const o = (b * n + i) * V,
        w = i < n - 1 ? weights[b * (n - 1) + i] : 0;
      for (let j = 0; j < V; j++) dl[o + j] = w * probs[o + j];
      if (i < n - 1) dl[o + tokens[b * n + i + 1]] -= w;
    }
  }
}

// dx (the gradient at LayerNorm's output, or at x itself without one) -> dx at x, added
function normBack(params, grads, name, dy, R, d, xhat, rstd, dx) {
  if (!xhat) {
    for (let i = 0; i < R * d; i++) dx[i] += dy[i];
    return;
  }
  const w = params[name + ".weight"];
  layerNormBackward(dy, R, d, w, xhat, rstd, dx, grads[name + ".weight"], grads[name + ".bias"]);
}

// the block's MLP: dx (at the block's output) gains the MLP input's share
function mlpBackward(params, grads, c, tape, l) {
  const L = tape.layers[l],
    G = tape.grad,
    p = `blocks.${l}.mlp.`,
    d = c.d_model,
    R = tape.rows,
    s = tape.scratch;
  const h2 = L.h2 || L.mid;
  const out = { dW: grads[p + "W_out.weight"], db: grads[p + "W_out.bias"], dx: G.dg };
  linearBackward(L.g, G.dx, R, c.d_ff, params[p + "W_out.weight"], d, out, s);
  geluBackward(L.a, G.dg, G.da, R * c.d_ff);
  const inn = { dW: grads[p + "W_in.weight"], db: grads[p + "W_in.bias"], dx: G.dh };
  linearBackward(h2, G.da, R, d, params[p + "W_in.weight"], c.d_ff, inn, s);
  normBack(params, grads, `blocks.${l}.ln2`, G.dh, R, d, L.xhat2, L.rstd2, G.dx);
}

// the block's attention: dx (at resid_mid) gains the attention input's share
function attnBackward(params, grads, c, tape, l) {
  const L = tape.layers[l],
    G = tape.grad,
    p = `blocks.${l}.attn.`,
    d = c.d_model,
    R = tape.rows,
    s = tape.scratch;
  const h = L.h || L.x;
  linearBackward(
    L.z,
    G.dx,
    R,
    d,
    params[p + "W_O.weight"],
    d,
    { dW: grads[p + "W_O.weight"], dx: G.dz },
    s,
  );
  attendBackward(tape.dims, s, tape.attn, L.q, L.k, L.v, L.P, G.dz, G.dq, G.dk, G.dv);
  if (tape.tables.rotary) {
    rotate(G.dq, R, tape.n, d, c.d_head, tape.tables.rotary, -1);
    rotate(G.dk, R, tape.n, d, c.d_head, tape.tables.rotary, -1);
  }
  [
    ["W_Q", G.dq],
    ["W_K", G.dk],
    ["W_V", G.dv],
  ].forEach(([W, dy], i) => {
    const g = { dW: grads[`${p}${W}.weight`], dx: G.dh, add: i > 0 };
    linearBackward(h, dy, R, d, params[`${p}${W}.weight`], d, g, s);
  });
  normBack(params, grads, `blocks.${l}.ln1`, G.dh, R, d, L.xhat, L.rstd, G.dx);
}

function embedBackward(grads, c, tape, tokens) {
  const d = c.d_model,
    { rows, n } = tape,
    dx = tape.grad.dx,
    dE = grads["W_E.weight"],
    dPos = grads["pos.W_pos.weight"],
    sin = tape.tables.sinusoids;
  dE.fill(0);
  if (dPos) dPos.fill(0);
  let dScale = 0;
  for (let r = 0; r < rows; r++) {
    const o = r * d,
      e = tokens[r] * d,
      p = (r % n) * d;
    for (let j = 0; j < d; j++) dE[e + j] += dx[o + j];
    if (dPos) for (let j = 0; j < d; j++) dPos[p + j] += dx[o + j];
    if (sin) for (let j = 0; j < d; j++) dScale += dx[o + j] * sin[p + j];
  }
  if (sin) grads["pos.scale"][0] = dScale;
}

export function backward(params, c, tape, tokens, weights, grads) {
  const d = c.d_model,
    R = tape.rows,
    F = tape.final,
    G = tape.grad;
  for (const g of Object.values(grads)) g.fill(0); // (ln2 without an MLP stays 0)
  lossBackward(c, tape, tokens, weights);
  const top = { dW: grads["W_U.weight"], dx: G.dh };
  linearBackward(
    F.h || F.x,
    G.dlogits,
    R,
    d,
    params["W_U.weight"],
    c.vocab_size,
    top,
    tape.scratch,
  );
  G.dx.fill(0, 0, R * d);
  normBack(params, grads, "ln_final", G.dh, R, d, F.xhat, F.rstd, G.dx);
  for (let l = c.n_layers - 1; l >= 0; l--) {
    if (c.mlp) mlpBackward(params, grads, c, tape, l);
    attnBackward(params, grads, c, tape, l);
  }
  embedBackward(grads, c, tape, tokens);
}
