// The Lab's positional choices (explorer/models/positional.py), forward and backward:
// "none"; "learned" (W_pos [n_ctx, d_model] added to the token embeddings); "sinusoidal"
// (the fixed table [n, d_model] times the learned scalar pos.scale); "rotary" (each pair
// (2i, 2i+1) of every head's q and k turned by pos * theta_i); "alibi" (-slope_h |i - j|
// added to head h's scaled scores: attention.js). The tables are computed in float32 as
// torch builds its buffers, so the same weights give the same numbers.
//
//   sinusoidTable(n, d_model) -> Float64Array [n, d_model] (unscaled)
//   rotaryTables(n, d_head, base) -> {cos, sin}: Float64Array [n, d_head / 2] each
//   rotate(x, rows, n, d_model, d_head, tables, sign) in place on x [rows, d_model]
//       (rows = batch * n, position = row % n); sign -1 turns back: the backward pass
//   alibiSlopes(n_heads) -> Float64Array [n_heads] (float32 values, as torch's buffer)
import { alibiSlopes as slopes } from "../engine/model.js";

const f = Math.fround;

export function sinusoidTable(n, d) {
  const out = new Float64Array(n * d);
  for (let p = 0; p < n; p++) {
    for (let i = 0; i < d; i += 2) {
      const angle = f(p / f(10000 ** f(i / d)));
      out[p * d + i] = f(Math.sin(angle));
      if (i + 1 < d) out[p * d + i + 1] = f(Math.cos(angle));
    }
  }
  return out;
}

export function rotaryTables(n, dh, base) {
  const half = dh / 2,
    cos = new Float64Array(n * half),
    sin = new Float64Array(n * half);
  for (let i = 0; i < half; i++) {
    const invFreq = f(1 / f(base ** f((2 * i) / dh)));
    for (let p = 0; p < n; p++) {
      const a = f(p * invFreq);
      cos[p * half + i] = f(Math.cos(a));
      sin[p * half + i] = f(Math.sin(a));
    }
  }
  return { cos, sin };
}

export function rotate(x, rows, n, d, dh, { cos, sin }, sign = 1) {
  const half = dh / 2;
  for (let r = 0; r < rows; r++) {
    const t = (r % n) * half;
    for (let i = 0; i < half; i++) {
      const c = cos[t + i],
        s = sign * sin[t + i];
      for (let o = r * d + 2 * i; o < (r + 1) * d; o += dh) {
        const x0 = x[o],
          x1 = x[o + 1];
        x[o] = x0 * c - x1 * s;
        x[o + 1] = x0 * s + x1 * c;
      }
    }
  }
}

export function alibiSlopes(h) {
  return Float64Array.from(slopes(h), f);
}
