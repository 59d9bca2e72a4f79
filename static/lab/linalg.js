// The Lab's arithmetic, forward and backward, on row-major typed arrays: a Linear
// (y = x W^T + b, W [out, in] as torch stores it), LayerNorm (eps 1e-5, biased variance,
// as nn.LayerNorm) and GELU (torch's exact one, erf). The matrix products run on operands
// staged in the scratch's X, W (and B) and read back from Y: in the engine's WebAssembly
// memory, float32, for its kernel (static/engine/kernel.wat, SIMD: linear, y = x W^T, and
// linear_tn, y = a^T b, the weight gradients without transposing), or Float64Arrays for
// the engine's plain loops (static/engine/loops.js linear, float64 sums) where the runtime
// has no SIMD or with {simd: false}; a width not a multiple of 4 takes the loops on the
// staged operands. The backward products: dW = dy^T x is runTN(dy, x); dx = dy W is
// run(dy, W^T) (W^T: a small copy). Activations and gradients are Float64Arrays, weights
// Float32Arrays. Callers that stage their own operands (attention.js, forward.js's Q K V
// from one staged input) write into s.X / s.W at float offsets and call s.run / s.runTN.
//
//   makeScratch(rows, widest, simd = true, attnFloats = 0) -> {X, W, Y, B, run(n, dIn,
//       dOut, bias, xo, wo, yo), runTN(n, m, p, xo, wo, yo), mm(x, n, dIn, W, dOut, b, y)
//       (copies in and out), floats, simd (the kernel's)} (one per tape, reused every step)
//   linearBackward(x, dy, n, dIn, W, dOut, g, s) -> g.dW [out, in], g.db [out] (if given)
//       set; g.dx [n, in] set, or added to when g.add (null: not wanted)
//   layerNormBackward(dy, n, d, w, xhat, rstd, dx (added to), dw, db (set)) (the forward:
//       the engine's layerNorm with its xhat and rstd, static/engine/loops.js)
//   geluForward(a, g, count) g = GELU(a); geluBackward(a, dg, da, count) da = dg GELU'(a)
import { arena } from "../engine/kernel.js";
import { erf, linear } from "../engine/loops.js";

export function makeScratch(rows, widest, simd = true, attnFloats = 0) {
  return makeMatmul(Math.max(Math.max(rows, widest) * widest, attnFloats), widest, simd);
}

// The staged product: X, W, Y, B (Float32Arrays in the kernel's memory, or Float64Arrays for
// the loops) hold the operands; run(n, dIn, dOut, bias, xo, wo, yo) computes Y[yo..] =
// X[xo..] W[wo..]^T (+ B) (offsets in floats), and mm(x, n, dIn, W, dOut, b, y) copies its
// operands in and its result out (operands of at most ``floats`` values)
function makeMatmul(floats, widest, simd) {
  const mem = simd ? arena(3 * floats + widest, true) : { linear: null };
  const kernel = mem.linear,
    kernelTN = mem.linearTN,
    take = kernel ? (count) => mem.take(count) : (count) => new Float64Array(count);
  const X = take(floats),
    W = take(floats),
    Y = take(floats),
    B = take(widest);
  const run = (n, dIn, dOut, bias = false, xo = 0, wo = 0, yo = 0) => {
    if (kernel && dIn % 4 === 0 && dOut % 4 === 0) {
      const b = bias ? B.byteOffset : 0;
      kernel(X.byteOffset + 4 * xo, n, dIn, W.byteOffset + 4 * wo, dOut, b, Y.byteOffset + 4 * yo);
    } else {
      const at = (a, o) => (o ? a.subarray(o) : a);
      linear(at(X, xo), n, dIn, at(W, wo), dOut, bias ? B : null, at(Y, yo));
    }
  };
  // Y[yo..] [m, p] = X[xo..]^T W[wo..]: X [n, m], W [n, p]
  const runTN = (n, m, p, xo = 0, wo = 0, yo = 0) => {
    if (kernelTN && m % 4 === 0 && p % 4 === 0) {
      kernelTN(X.byteOffset + 4 * xo, n, m, W.byteOffset + 4 * wo, p, Y.byteOffset + 4 * yo);
      return;
    }
    Y.fill(0, yo, yo + m * p);
    for (let i = 0; i < n; i++) {
      const wi = wo + i * p;
      for (let j = 0; j < m; j++) {
        const a = X[xo + i * m + j],
          yj = yo + j * p;
        for (let o = 0; o < p; o++) Y[yj + o] += a * W[wi + o];
      }
    }
  };
  const mm = (x, n, dIn, w, dOut, b, y) => {
    const fits = n * dIn <= floats && dOut * dIn <= floats && n * dOut <= floats;
    if (!fits) return linear(x, n, dIn, w, dOut, b, y);
    X.set(x.subarray(0, n * dIn));
    W.set(w.subarray(0, dOut * dIn));
    if (b) B.set(b.subarray(0, dOut));
    run(n, dIn, dOut, !!b);
    y.set(Y.subarray(0, n * dOut));
    return y;
  };
  return { X, W, Y, B, run, runTN, mm, floats, simd: !!kernel };
}

// out [cols, rows] (from offset ``at``) = a [rows, cols] transposed
export function transpose(a, rows, cols, out, at = 0) {
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    for (let j = 0; j < cols; j++) out[at + j * rows + i] = a[o + j];
  }
  return out;
}

// dW = dy^T x (the transposed product, runTN); dx = dy W (W^T staged)
export function linearBackward(x, dy, n, dIn, W, dOut, g, s) {
  s.X.set(dy.subarray(0, n * dOut));
  s.W.set(x.subarray(0, n * dIn));
  s.runTN(n, dOut, dIn);
  g.dW.set(s.Y.subarray(0, dOut * dIn));
  if (g.db) {
    g.db.fill(0);
    for (let i = 0; i < n; i++) for (let o = 0; o < dOut; o++) g.db[o] += dy[i * dOut + o];
  }
  if (!g.dx) return;
  transpose(W, dOut, dIn, s.W); // (s.X still holds dy)
  s.run(n, dOut, dIn);
  const Y = s.Y,
    dx = g.dx;
  if (!g.add) dx.set(Y.subarray(0, n * dIn));
  else for (let i = 0; i < n * dIn; i++) dx[i] += Y[i];
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
