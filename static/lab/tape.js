// Room for one training step of a Lab model on a batch of ``batch`` sequences of ``n``
// tokens: what the forward pass keeps for the backward pass (the tape), the backward
// pass's own buffers and the position tables. Allocated once per (model, batch size,
// length) and reused by every step: a step allocates nothing.
//
//   makeTape(config, batch, n, simd = true) -> {batch, n, rows, dims, layers: [{x, h, xhat,
//       rstd, q, k, v, P, z, mid, h2, xhat2, rstd2, a, g}], final: {x, h, xhat, rstd, logits,
//       probs}, losses, grad: {dx, dh, dq, dk, dv, dz, da, dg, dlogits}, scratch (the
//       matrix products' room: linalg.js makeScratch; simd false: the plain loops), attn
//       (attention.js makeAttentionScratch), tables}
// Shapes (rows = batch * n): x, h, q, k, v, z, mid, h2 [rows, d_model] (x: the residual
// stream at the block's input, mid: after its attention); P [batch, head, query_pos,
// key_pos]; a, g [rows, d_ff] (the MLP's input to and output of GELU); xhat [rows,
// d_model] and rstd [rows] (a LayerNorm's normalised input and 1/std); logits, probs
// [rows, vocab]; losses [batch, n - 1] (entry i: the loss of predicting token i + 1).
import { attentionFloats, makeAttentionScratch } from "./attention.js";
import { makeScratch } from "./linalg.js";
import { alibiSlopes, rotaryTables, sinusoidTable } from "./positions.js";

const F64 = (count) => new Float64Array(count);

function layerTape(c, rows, batch, n) {
  const d = c.d_model,
    norm = c.norm === "pre";
  const L = {
    x: F64(rows * d),
    q: F64(rows * d),
    k: F64(rows * d),
    v: F64(rows * d),
    z: F64(rows * d),
    mid: F64(rows * d),
    P: F64(batch * c.n_heads * n * n),
  };
  if (norm) Object.assign(L, { h: F64(rows * d), xhat: F64(rows * d), rstd: F64(rows) });
  if (c.mlp) {
    Object.assign(L, { a: F64(rows * c.d_ff), g: F64(rows * c.d_ff) });
    if (norm) Object.assign(L, { h2: F64(rows * d), xhat2: F64(rows * d), rstd2: F64(rows) });
  }
  return L;
}

function tables(c, n) {
  const pe = c.pos_encoding;
  return {
    sinusoids: pe === "sinusoidal" ? sinusoidTable(n, c.d_model) : null,
    rotary: pe === "rotary" ? rotaryTables(n, c.d_head, c.rotary_base) : null,
    slopes: pe === "alibi" ? alibiSlopes(c.n_heads) : null,
  };
}

export function makeTape(c, batch, n, simd = true) {
  if (n > c.n_ctx) throw new Error(`${n} tokens is more than the context of ${c.n_ctx}`);
  const rows = batch * n,
    d = c.d_model,
    V = c.vocab_size,
    norm = c.norm === "pre",
    t = tables(c, n);
  const final = { x: F64(rows * d), logits: F64(rows * V), probs: F64(rows * V) };
  if (norm) Object.assign(final, { h: F64(rows * d), xhat: F64(rows * d), rstd: F64(rows) });
  return {
    batch,
    n,
    rows,
    dims: {
      batch,
      n,
      d_model: d,
      n_heads: c.n_heads,
      d_head: c.d_head,
      scale: 1 / Math.sqrt(c.d_head),
      slopes: t.slopes,
    },
    layers: Array.from({ length: c.n_layers }, () => layerTape(c, rows, batch, n)),
    final,
    losses: F64(batch * (n - 1)),
    grad: {
      dx: F64(rows * d),
      dh: F64(rows * d),
      dq: F64(rows * d),
      dk: F64(rows * d),
      dv: F64(rows * d),
      dz: F64(rows * d),
      da: c.mlp ? F64(rows * c.d_ff) : null,
      dg: c.mlp ? F64(rows * c.d_ff) : null,
      dlogits: F64(rows * V),
    },
    scratch: makeScratch(
      rows,
      Math.max(d, c.mlp ? c.d_ff : d, V),
      simd,
      attentionFloats(n, c.d_head),
    ),
    attn: makeAttentionScratch(n),
    tables: t,
  };
}
