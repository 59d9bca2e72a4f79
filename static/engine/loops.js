// The forward pass's arithmetic in plain JavaScript over Float32Arrays: GELU (torch's exact
// one), LayerNorm, one attention head, and y = x W^T (+ b), the matrix product the
// WebAssembly kernel (static/engine/kernel.js) computes instead where it can. Shapes,
// row-major: x [n, dIn], a Linear's weight W [dOut, dIn] as torch stores it, y [n, dOut];
// q, k, v [n, d_model] with head h in columns h*d_head .. (h+1)*d_head.

const LN_EPS = 1e-5;

// erf to ~1e-7 (Numerical Recipes' erfc, Chebyshev): GELU as torch's exact one
export function erf(x) {
  const z = Math.abs(x),
    t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - r : r - 1;
}

export function addInto(x, y, count) {
  for (let i = 0; i < count; i++) x[i] += y[i];
}

// erf on [-4, 4] every 1/1024, read with linear interpolation (error < 2e-7, as erf()
// itself; |erf| beyond 4 is 1 to 2e-8): a GELU without an exp for each of its values
const ERF_STEP = 1024,
  ERF_MAX = 4;
const ERF = Float64Array.from({ length: 2 * ERF_MAX * ERF_STEP + 2 }, (_, i) =>
  erf(i / ERF_STEP - ERF_MAX),
);

// GELU as torch's exact one, in place on the first ``count`` values
export function gelu(a, count) {
  for (let i = 0; i < count; i++) {
    const u = a[i],
      t = (u * Math.SQRT1_2 + ERF_MAX) * ERF_STEP;
    let e;
    if (t <= 0) e = -1;
    else if (t >= 2 * ERF_MAX * ERF_STEP) e = 1;
    else {
      const j = t | 0,
        f = t - j;
      e = ERF[j] + f * (ERF[j + 1] - ERF[j]);
    }
    a[i] = 0.5 * u * (1 + e);
  }
}

// y[i, o] = sum_k x[i, k] W[o, k] (+ b[o]): x [n, dIn], W [dOut, dIn]. Two rows of x
// times four rows of W at a time: eight sums fed by six reads (V8 keeps them in registers).
export function linear(x, n, dIn, W, dOut, b, y) {
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const xa = i * dIn,
      xb = xa + dIn,
      ya = i * dOut,
      yb = ya + dOut;
    let o = 0;
    for (; o + 3 < dOut; o += 4) {
      const w0 = o * dIn,
        w1 = w0 + dIn,
        w2 = w1 + dIn,
        w3 = w2 + dIn;
      let a0 = 0,
        a1 = 0,
        a2 = 0,
        a3 = 0,
        b0 = 0,
        b1 = 0,
        b2 = 0,
        b3 = 0;
      for (let k = 0; k < dIn; k++) {
        const u = x[xa + k],
          v = x[xb + k];
        const c0 = W[w0 + k],
          c1 = W[w1 + k],
          c2 = W[w2 + k],
          c3 = W[w3 + k];
        a0 += u * c0;
        a1 += u * c1;
        a2 += u * c2;
        a3 += u * c3;
        b0 += v * c0;
        b1 += v * c1;
        b2 += v * c2;
        b3 += v * c3;
      }
      const e0 = b ? b[o] : 0,
        e1 = b ? b[o + 1] : 0,
        e2 = b ? b[o + 2] : 0,
        e3 = b ? b[o + 3] : 0;
      y[ya + o] = a0 + e0;
      y[ya + o + 1] = a1 + e1;
      y[ya + o + 2] = a2 + e2;
      y[ya + o + 3] = a3 + e3;
      y[yb + o] = b0 + e0;
      y[yb + o + 1] = b1 + e1;
      y[yb + o + 2] = b2 + e2;
      y[yb + o + 3] = b3 + e3;
    }
    for (; o < dOut; o++) {
      linearOne(x, xa, dIn, W, o, b, y, ya);
      linearOne(x, xb, dIn, W, o, b, y, yb);
    }
  }
  if (i < n) linearRow(x, i * dIn, dIn, W, dOut, b, y, i * dOut);
  return y;
}

// one row of x (the last of an odd count, or W_U's single row): four rows of W at a time
function linearRow(x, xo, dIn, W, dOut, b, y, yo) {
  let o = 0;
  for (; o + 3 < dOut; o += 4) {
    const w0 = o * dIn,
      w1 = w0 + dIn,
      w2 = w1 + dIn,
      w3 = w2 + dIn;
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0;
    for (let k = 0; k < dIn; k++) {
      const a = x[xo + k];
      s0 += a * W[w0 + k];
      s1 += a * W[w1 + k];
      s2 += a * W[w2 + k];
      s3 += a * W[w3 + k];
    }
    if (b) {
      s0 += b[o];
      s1 += b[o + 1];
      s2 += b[o + 2];
      s3 += b[o + 3];
    }
    y[yo + o] = s0;
    y[yo + o + 1] = s1;
    y[yo + o + 2] = s2;
    y[yo + o + 3] = s3;
  }
  for (; o < dOut; o++) linearOne(x, xo, dIn, W, o, b, y, yo);
}

function linearOne(x, xo, dIn, W, o, b, y, yo) {
  const wo = o * dIn;
  let s = b ? b[o] : 0;
  for (let k = 0; k < dIn; k++) s += x[xo + k] * W[wo + k];
  y[yo + o] = s;
}

// y = LayerNorm(x) row by row ([n, d]); the Lab's trainer (static/lab/) also keeps what its
// backward pass needs: xhat (the normalised rows, [n, d]) and rstd (1/sigma per row, [n]).
export function layerNorm(x, n, d, w, b, y, xhat = null, rstd = null) {
  for (let i = 0; i < n; i++) {
    const o = i * d;
    let mean = 0;
    for (let k = 0; k < d; k++) mean += x[o + k];
    mean /= d;
    let v = 0;
    for (let k = 0; k < d; k++) {
      const c = x[o + k] - mean;
      v += c * c;
    }
    const inv = 1 / Math.sqrt(v / d + LN_EPS);
    if (rstd) rstd[i] = inv;
    for (let k = 0; k < d; k++) {
      const h = (x[o + k] - mean) * inv;
      if (xhat) xhat[o + k] = h;
      y[o + k] = h * w[k] + b[k];
    }
  }
  return y;
}

// One head, every query i: its pattern row softmax(q_i . k_j * scale - bias |i - j|) into
// ``patterns`` from offset ``po`` ([query, key], n x n), and, unless the head is switched
// off (z null: it attends, writes nothing), sum_j p_ij v_j into z's columns col .. col+dh;
// the queries i0 .. n-1 (the rows before are left as they are).
// ``row``: a Float64Array of at least n. Each sum runs in the order a one-at-a-time loop
// runs it (a score over e, z over j ascending and rounded to float32 after every add, as a
// Float32Array store does): four keys or four columns at a time only to read values once.
export function attendHead(
  q,
  k,
  v,
  d,
  n,
  col,
  dh,
  causal,
  scale,
  bias,
  row,
  patterns,
  po,
  z,
  i0 = 0,
) {
  for (let i = i0; i < n; i++) {
    const qi = i * d + col,
      last = causal ? i : n - 1,
      pi = po + i * n;
    scoreRow(q, k, d, qi, col, dh, last, row);
    let max = -Infinity;
    for (let j = 0; j <= last; j++) {
      let s = row[j] * scale;
      if (bias !== 0) s -= bias * Math.abs(i - j);
      row[j] = s;
      if (s > max) max = s;
    }
    let sum = 0;
    for (let j = 0; j <= last; j++) {
      const e = Math.exp(row[j] - max);
      row[j] = e;
      sum += e;
    }
    for (let j = 0; j <= last; j++) patterns[pi + j] = row[j] / sum;
    if (z !== null) weighRow(patterns, pi, v, d, col, dh, last, z, qi);
  }
}

// row[j] = q_i . k_j (in order of e, summed as doubles) for j <= last, four keys at a time
function scoreRow(q, k, d, qi, col, dh, last, row) {
  let j = 0;
  for (; j + 3 <= last; j += 4) {
    const k0 = j * d + col,
      k1 = k0 + d,
      k2 = k1 + d,
      k3 = k2 + d;
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0;
    for (let e = 0; e < dh; e++) {
      const a = q[qi + e];
      s0 += a * k[k0 + e];
      s1 += a * k[k1 + e];
      s2 += a * k[k2 + e];
      s3 += a * k[k3 + e];
    }
    row[j] = s0;
    row[j + 1] = s1;
    row[j + 2] = s2;
    row[j + 3] = s3;
  }
  for (; j <= last; j++) {
    const kj = j * d + col;
    let s = 0;
    for (let e = 0; e < dh; e++) s += q[qi + e] * k[kj + e];
    row[j] = s;
  }
}

// z[qi + e] += p_j v_j[e] for j = 0 .. last in order, rounded to float32 after each add (as
// the Float32Array z would store it), four columns at a time: query i's output of one head
// (pi = its pattern row's offset, qi = i * d + col)
export function weighRow(p, pi, v, d, col, dh, last, z, qi) {
  const f = Math.fround;
  let e = 0;
  for (; e + 3 < dh; e += 4) {
    let z0 = z[qi + e],
      z1 = z[qi + e + 1],
      z2 = z[qi + e + 2],
      z3 = z[qi + e + 3];
    for (let j = 0, vj = col + e; j <= last; j++, vj += d) {
      const w = p[pi + j];
      z0 = f(z0 + w * v[vj]);
      z1 = f(z1 + w * v[vj + 1]);
      z2 = f(z2 + w * v[vj + 2]);
      z3 = f(z3 + w * v[vj + 3]);
    }
    z[qi + e] = z0;
    z[qi + e + 1] = z1;
    z[qi + e + 2] = z2;
    z[qi + e + 3] = z3;
  }
  for (; e < dh; e++) {
    let a = z[qi + e];
    for (let j = 0, vj = col + e; j <= last; j++, vj += d) a = f(a + p[pi + j] * v[vj]);
    z[qi + e] = a;
  }
}
