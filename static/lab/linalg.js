// The Lab's arithmetic, forward and backward, on row-major typed arrays: a Linear
// (y = x W^T + b, W [out, in] as torch stores it), LayerNorm (eps 1e-5, biased variance,
// as nn.LayerNorm) and GELU (torch's exact one, erf). The matrix products all run through
// one product, y = x W^T (+ b): the engine's WebAssembly kernel (static/engine/kernel.js,
// float32 SIMD, about eight times the loops) on copies of the operands in its memory, or
// the engine's plain loop (static/engine/loops.js linear, float64 sums) where the runtime
// has no SIMD, a width is not a multiple of 4, or with {simd: false}. The backward
// products run on transposed copies: dW = dy^T x is linear(dy^T, x^T), dx = dy W is
// linear(dy, W^T). Activations and gradients are Float64Arrays, weights Float32Arrays.
//
//   makeScratch(rows, widest, simd = true) -> the transposes' room and the product s.mm
//       (x, n, dIn, W, dOut, b, y) (one per tape, reused every step; s.simd: the kernel's)
//   linearBackward(x, dy, n, dIn, W, dOut, g, s) -> g.dW [out, in], g.db [out] (if given)
//       set; g.dx [n, in] set, or added to when g.add (null: not wanted)
//   layerNormForward(x, n, d, w, b, y, xhat, rstd); layerNormBackward(dy, n, d, w, xhat,
//       rstd, dx (added to), dw, db (set))
//   geluForward(a, g, count) g = GELU(a); geluBackward(a, dg, da, count) da = dg GELU'(a)
import { arena } from "../engine/kernel.js";
import { erf, linear } from "../engine/loops.js";

const LN_EPS = 1e-5;

export function makeScratch(rows, widest, simd = true) {
  const mm = makeMatmul(Math.max(rows, widest) * widest, widest, simd);
  return {
    a: new Float64Array(rows * widest),
    b: new Float64Array(rows * widest),
    c: new Float64Array(rows * widest),
    w: new Float64Array(widest * widest),
    mm,
    simd: mm !== linear,
  };
}

// y = x W^T (+ b) for operands of at most ``floats`` values (a bias: ``widest``)
function makeMatmul(floats, widest, simd) {
  const mem = simd ? arena(3 * floats + widest, true) : { linear: null };
  if (!mem.linear) return linear;
  const X = mem.take(floats),
    W = mem.take(floats),
    Y = mem.take(floats),
    B = mem.take(widest);
  return (x, n, dIn, w, dOut, b, y) => {
    const fits = n * dIn <= floats && dOut * dIn <= floats && n * dOut <= floats;
    if (dIn % 4 || dOut % 4 || !fits) return linear(x, n, dIn, w, dOut, b, y);
    X.set(x.subarray(0, n * dIn));
    W.set(w.subarray(0, dOut * dIn));
    if (b) B.set(b.subarray(0, dOut));
    mem.linear(X.byteOffset, n, dIn, W.byteOffset, dOut, b ? B.byteOffset : 0, Y.byteOffset);
    y.set(Y.subarray(0, n * dOut));
    return y;
  };
}

// out [cols, rows] = a [rows, cols] transposed
export function transpose(a, rows, cols, out) {
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    for (let j = 0; j < cols; j++) out[j * rows + i] = a[o + j];
  }
  return out;
}

export function linearBackward(x, dy, n, dIn, W, dOut, g, s) {
  const dyT = transpose(dy, n, dOut, s.a);
  s.mm(dyT, dOut, n, transpose(x, n, dIn, s.b), dIn, null, g.dW);
  if (g.db) {
    g.db.fill(0);
    for (let i = 0; i < n; i++) for (let o = 0; o < dOut; o++) g.db[o] += dy[i * dOut + o];
  }
  if (!g.dx) return;
  const WT = transpose(W, dOut, dIn, s.w);
  if (!g.add) {
    s.mm(dy, n, dOut, WT, dIn, null, g.dx);
    return;
  }
  s.mm(dy, n, dOut, WT, dIn, null, s.c);
  for (let i = 0; i < n * dIn; i++) g.dx[i] += s.c[i];
}

export function layerNormForward(x, n, d, w, b, y, xhat, rstd) {
  for (let i = 0; i < n; i++) {
    const o = i * d;
    let mean = 0;
    for (let k = 0; k < d; k++) mean += x[o + k];
    mean /= d;
    let v = 0;
    for (let k = 0; k < d; k++) v += (x[o + k] - mean) ** 2;
    const r = (rstd[i] = 1 / Math.sqrt(v / d + LN_EPS));
    for (let k = 0; k < d; k++) {
      const h = (xhat[o + k] = (x[o + k] - mean) * r);
      y[o + k] = h * w[k] + b[k];
    }
  }
}

// dx += rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)), dxhat = dy w
export function layerNormBackward(dy, n, d, w, xhat, rstd, dx, dw, db) {
  dw.fill(0);
  db.fill(0);
  for (let i = 0; i < n; i++) {
    const o = i * d;
    let m1 = 0,
      m2 = 0;
    for (let k = 0; k < d; k++) {
      const g = dy[o + k],
        h = xhat[o + k],
        gh = g * w[k];
      dw[k] += g * h;
      db[k] += g;
      m1 += gh;
      m2 += gh * h;
    }
    m1 /= d;
    m2 /= d;
    for (let k = 0; k < d; k++) dx[o + k] += rstd[i] * (dy[o + k] * w[k] - m1 - xhat[o + k] * m2);
  }
}

export function geluForward(a, g, count) {
  for (let i = 0; i < count; i++) g[i] = 0.5 * a[i] * (1 + erf(a[i] * Math.SQRT1_2));
}

// GELU'(u) = Phi(u) + u phi(u)
export function geluBackward(a, dg, da, count) {
  const c = 1 / Math.sqrt(2 * Math.PI);
  for (let i = 0; i < count; i++) {
    const u = a[i];
    da[i] = dg[i] * (0.5 * (1 + erf(u * Math.SQRT1_2)) + u * c * Math.exp(-0.5 * u * u));
  }
}
