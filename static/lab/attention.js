// Causal self-attention of one layer, forward and backward, every sequence of a batch and
// every head: scores q_i . k_j * scale (- slope_h |i - j|, ALiBi), masked above the
// diagonal, softmax, z_i = sum_j P_ij v_j (explorer/models/transformer.py Attention, with
// q and k already rotated for rotary). Shapes, row-major: q, k, v, z and their gradients
// [batch * pos, d_model], head h in columns h*d_head .. (h+1)*d_head (the multi-head
// split is a view); the pattern P [batch, head, query_pos, key_pos]. Each head's products
// (Q K^T, P V and the backward's four) go through the tape's staged matrix product
// (linalg.js makeScratch: the WebAssembly kernel where it can): the head's columns are
// written straight into the product's operands (s.X, s.W) and its result read from s.Y.
// The scores Q K^T and their gradient dZ V^T are computed in blocks of BLOCK query rows
// against only the keys up to the block's last row (the masked half mostly skipped).
//
//   makeAttentionScratch(n) -> the block layout of the scores (one per tape)
//   attentionFloats(n, d_head) -> the floats the staged product needs for one head
//   attendForward(dims, s, w, q, k, v, P, z)
//   attendBackward(dims, s, w, q, k, v, P, dz, dq, dk, dv)   (dq, dk, dv set)
// dims: {batch, n, d_model, n_heads, d_head, scale, slopes (Float64Array [head] or null)};
// s: the tape's scratch (linalg.js makeScratch); w: makeAttentionScratch's
const BLOCK = 8;

export function attentionFloats(n, dh) {
  return 2 * n * Math.max(n, dh);
}

// row i of the block-computed scores starts at at[i] with stride width[i]
export function makeAttentionScratch(n) {
  const at = new Int32Array(n),
    width = new Int32Array(n),
    blocks = [];
  let offset = 0;
  for (let r0 = 0; r0 < n; r0 += BLOCK) {
    const r1 = Math.min(n, r0 + BLOCK),
      cols = Math.min(n, Math.ceil(r1 / 4) * 4);
    blocks.push([r0, r1, cols, offset]);
    for (let i = r0; i < r1; i++) {
      at[i] = offset + (i - r0) * cols;
      width[i] = cols;
    }
    offset += (r1 - r0) * cols;
  }
  return { at, width, blocks };
}

// out (from offset ``o0``) [n, dh] = the head's columns col .. col+dh of x [n rows from
// row0, d]; or transposed [dh, n]
function gather(x, row0, n, d, col, dh, out, o0, transposed) {
  for (let i = 0; i < n; i++) {
    const o = (row0 + i) * d + col;
    if (transposed) for (let e = 0; e < dh; e++) out[o0 + e * n + i] = x[o + e];
    else for (let e = 0; e < dh; e++) out[o0 + i * dh + e] = x[o + e];
  }
}

function scatter(src, s0, x, row0, n, d, col, dh) {
  for (let i = 0; i < n; i++) {
    const o = (row0 + i) * d + col,
      r = s0 + i * dh;
    for (let e = 0; e < dh; e++) x[o + e] = src[r + e];
  }
}

// Y (block layout) = X [n, dh] W [n, dh]^T on and below the diagonal (a little above it)
function causalScores(s, w, dh) {
  for (const [r0, r1, cols, offset] of w.blocks)
    s.run(r1 - r0, dh, cols, false, r0 * dh, 0, offset);
}

// P rows (and X, the next product's operand) from the raw scores in Y: scale, ALiBi, causal
// mask, softmax
function softmaxRows(w, Y, n, scale, slope, P, po, X) {
  for (let i = 0; i < n; i++) {
    const pi = po + i * n,
      si = w.at[i];
    let max = -Infinity;
    for (let j = 0; j <= i; j++) {
      const s = (P[pi + j] = Y[si + j] * scale - slope * (i - j));
      if (s > max) max = s;
    }
    let sum = 0;
    for (let j = 0; j <= i; j++) sum += P[pi + j] = Math.exp(P[pi + j] - max);
    for (let j = 0; j <= i; j++) X[i * n + j] = P[pi + j] /= sum;
    for (let j = i + 1; j < n; j++) X[i * n + j] = P[pi + j] = 0;
  }
}

export function attendForward(dims, s, w, q, k, v, P, z) {
  const { batch, n, d_model: d, n_heads: H, d_head: dh, scale, slopes } = dims;
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < H; h++) {
      const po = (b * H + h) * n * n,
        col = h * dh;
      gather(q, b * n, n, d, col, dh, s.X, 0, false);
      gather(k, b * n, n, d, col, dh, s.W, 0, false);
      causalScores(s, w, dh); // S = Q K^T
      softmaxRows(w, s.Y, n, scale, slopes ? slopes[h] : 0, P, po, s.X);
      gather(v, b * n, n, d, col, dh, s.W, 0, true);
      s.run(n, n, dh); // Z = P V [n, dh]
      scatter(s.Y, 0, z, b * n, n, d, col, dh);
    }
  }
}

// dS = P (dP - rowsum(P dP)) * scale into X [n, n]; dP (block layout) in Y
function softmaxBack(w, P, po, Y, n, scale, X) {
  for (let i = 0; i < n; i++) {
    const pi = po + i * n,
      si = w.at[i];
    let dot = 0;
    for (let j = 0; j <= i; j++) dot += P[pi + j] * Y[si + j];
    for (let j = 0; j <= i; j++) X[i * n + j] = P[pi + j] * (Y[si + j] - dot) * scale;
    for (let j = i + 1; j < n; j++) X[i * n + j] = 0;
  }
}

// dV = P^T dZ; dP = dZ V^T; dQ = dS K; dK = dS^T Q (ALiBi's bias is a constant)
export function attendBackward(dims, s, w, q, k, v, P, dz, dq, dk, dv) {
  const { batch, n, d_model: d, n_heads: H, d_head: dh, scale } = dims;
  const { X, W, Y } = s;
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < H; h++) {
      const po = (b * H + h) * n * n,
        col = h * dh,
        r0 = b * n;
      X.set(P.subarray(po, po + n * n));
      gather(dz, r0, n, d, col, dh, W, 0, false);
      s.runTN(n, n, dh); // dV = P^T dZ
      scatter(Y, 0, dv, r0, n, d, col, dh);
      gather(dz, r0, n, d, col, dh, X, 0, false);
      gather(v, r0, n, d, col, dh, W, 0, false);
      causalScores(s, w, dh); // dP = dZ V^T
      softmaxBack(w, P, po, Y, n, scale, X);
      gather(k, r0, n, d, col, dh, W, 0, true);
      gather(q, r0, n, d, col, dh, W, n * dh, false);
      s.run(n, n, dh); // dQ = dS K
      s.runTN(n, n, dh, 0, n * dh, n * dh); // dK = dS^T Q
      scatter(Y, 0, dq, r0, n, d, col, dh);
      scatter(Y, n * dh, dk, r0, n, d, col, dh);
    }
  }
}
