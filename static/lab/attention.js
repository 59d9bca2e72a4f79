// Causal self-attention of one layer, forward and backward, every sequence of a batch and
// every head: scores q_i . k_j * scale (- slope_h |i - j|, ALiBi), masked above the
// diagonal, softmax, z_i = sum_j P_ij v_j (explorer/models/transformer.py Attention, with
// q and k already rotated for rotary). Shapes, row-major: q, k, v, z and their gradients
// [batch * pos, d_model], head h in columns h*d_head .. (h+1)*d_head (the multi-head
// split is a view); the pattern P [batch, head, query_pos, key_pos]. Each head's products
// (Q K^T, P V and the backward's four) go through the tape's matrix product (linalg.js:
// the WebAssembly kernel where it can) on the head's columns copied out: a product
// computes the masked half too, and still beats the loops that skip it.
//
//   makeAttentionScratch(n, d_head) -> the per-head copies' room (one per tape)
//   attendForward(dims, mm, w, q, k, v, P, z)
//   attendBackward(dims, mm, w, q, k, v, P, dz, dq, dk, dv)   (dq, dk, dv set)
// dims: {batch, n, d_model, n_heads, d_head, scale, slopes (Float64Array [head] or null)};
// mm(x, n, dIn, W, dOut, b, y): y = x W^T; w: makeAttentionScratch's

export function makeAttentionScratch(n, dh) {
  const F = (count) => new Float64Array(count);
  return {
    a: F(n * dh),
    b: F(n * dh),
    c: F(n * dh),
    d: F(n * dh),
    S: F(n * n),
    T: F(n * n),
    U: F(n * n),
  };
}

// out [n, dh] = the head's columns col .. col+dh of x [n rows from row0, d]; or transposed
function gather(x, row0, n, d, col, dh, out, transposed) {
  for (let i = 0; i < n; i++) {
    const o = (row0 + i) * d + col;
    for (let e = 0; e < dh; e++) {
      if (transposed) out[e * n + i] = x[o + e];
      else out[i * dh + e] = x[o + e];
    }
  }
  return out;
}

function scatter(src, x, row0, n, d, col, dh) {
  for (let i = 0; i < n; i++) {
    const o = (row0 + i) * d + col;
    for (let e = 0; e < dh; e++) x[o + e] = src[i * dh + e];
  }
}

// P rows from the raw scores S [n, n]: scale, ALiBi, causal mask, softmax
function softmaxRows(S, n, scale, slope, P, po) {
  for (let i = 0; i < n; i++) {
    const pi = po + i * n;
    let max = -Infinity;
    for (let j = 0; j <= i; j++) {
      const s = (P[pi + j] = S[i * n + j] * scale - slope * (i - j));
      if (s > max) max = s;
    }
    let sum = 0;
    for (let j = 0; j <= i; j++) sum += P[pi + j] = Math.exp(P[pi + j] - max);
    for (let j = 0; j <= i; j++) P[pi + j] /= sum;
    for (let j = i + 1; j < n; j++) P[pi + j] = 0;
  }
}

export function attendForward(dims, mm, w, q, k, v, P, z) {
  const { batch, n, d_model: d, n_heads: H, d_head: dh, scale, slopes } = dims;
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < H; h++) {
      const po = (b * H + h) * n * n,
        col = h * dh;
      const qh = gather(q, b * n, n, d, col, dh, w.a, false),
        kh = gather(k, b * n, n, d, col, dh, w.b, false);
      mm(qh, n, dh, kh, n, null, w.S); // S = Q K^T [n, n]
      softmaxRows(w.S, n, scale, slopes ? slopes[h] : 0, P, po);
      const vT = gather(v, b * n, n, d, col, dh, w.c, true);
      mm(P.subarray(po, po + n * n), n, n, vT, dh, null, w.d); // Z = P V [n, dh]
      scatter(w.d, z, b * n, n, d, col, dh);
    }
  }
}

// dS = P (dP - rowsum(P dP)) * scale into S; its transpose into T
function softmaxBack(P, po, dP, n, scale, S, T) {
  for (let i = 0; i < n; i++) {
    const pi = po + i * n;
    let dot = 0;
    for (let j = 0; j <= i; j++) dot += P[pi + j] * dP[i * n + j];
    for (let j = 0; j < n; j++) {
      const g = j <= i ? P[pi + j] * (dP[i * n + j] - dot) * scale : 0;
      S[i * n + j] = g;
      T[j * n + i] = g;
    }
  }
}

// dP = dZ V^T; dV = P^T dZ; dQ = dS K; dK = dS^T Q (ALiBi's bias is a constant)
export function attendBackward(dims, mm, w, q, k, v, P, dz, dq, dk, dv) {
  const { batch, n, d_model: d, n_heads: H, d_head: dh, scale } = dims;
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < H; h++) {
      const po = (b * H + h) * n * n,
        col = h * dh,
        r0 = b * n;
      const dzh = gather(dz, r0, n, d, col, dh, w.a, false);
      mm(dzh, n, dh, gather(v, r0, n, d, col, dh, w.b, false), n, null, w.U); // dP
      const Pt = w.T;
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Pt[j * n + i] = P[po + i * n + j];
      mm(Pt, n, n, gather(dz, r0, n, d, col, dh, w.c, true), dh, null, w.d); // dV = P^T dZ
      scatter(w.d, dv, r0, n, d, col, dh);
      softmaxBack(P, po, w.U, n, scale, w.S, w.T);
      mm(w.S, n, n, gather(k, r0, n, d, col, dh, w.c, true), dh, null, w.d); // dQ = dS K
      scatter(w.d, dq, r0, n, d, col, dh);
      mm(w.T, n, n, gather(q, r0, n, d, col, dh, w.c, true), dh, null, w.d); // dK = dS^T Q
      scatter(w.d, dk, r0, n, d, col, dh);
    }
  }
}
