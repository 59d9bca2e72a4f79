// The forward pass of the zoo's language models in the browser: the second implementation
// of explorer/models/transformer.py (the reference), trusted as far as the parity tests in
// tests/engine/ show. Plain JavaScript over Float32Arrays, no dependencies.
//
//   AttentionExplorer.model.parseSafetensors(buffer) -> {config, tensors: {name: {shape, data}}}
//   new AttentionExplorer.model.Transformer(parsed, {simd: true})
//   .forward(ids, {causal, scale, temperature, headsOff}, at)
//       -> {patterns: Float32Array [layer, head, query, key] (n x n each), logits: Float32Array
//           [vocab] at position ``at`` (null when at is null)}
//
// Shapes, row-major: the residual stream x [pos, d_model]; a Linear's weight [out, in] as
// torch stores it (y = x W^T); q, k, v [pos, d_model], head h in columns h*d_head ..
//
// The matrix products run in WebAssembly with 128-bit SIMD (static/engine/kernel.wat, its
// bytes below; scripts/build_kernel.py writes them), about eight times the plain loops here,
// which compute where the browser has no SIMD (or with {simd: false}). Each model lays its
// weights and its scratch out once, in its own memory, for sequences up to n_ctx: a forward
// pass allocates only the patterns it returns.
(() => {
  const AE = (globalThis.AttentionExplorer = globalThis.AttentionExplorer || {});
  if (AE.model) return;

  const LN_EPS = 1e-5;
  const KERNEL = "AGFzbQEAAAABFgNgAXsBfWACf38BfWAHf39/f39/fwACDwEDZW52Bm1lbW9yeQIAAQMEAwABAgcKAQZsaW5lYXIAAgqoCQMZACAA/R8AIAD9HwGSIAD9HwIgAP0fA5KSCxgAIAAEfSAAIAFBAnRqKgIABUMAAAAACwvyCAINfwt7IAJBAnQhCiAEQQJ0IQsCQANAIAdBAWogAU8NASAAIAcgCmxqIQwgDCAKaiENIAYgByALbGohDiAOIAtqIQ9BACEIAkADQCAIIARPDQEgAyAIIApsaiEQIBAgCmohESARIApqIRIgEiAKaiET/QwAAAAAAAAAAAAAAAAAAAAAIRf9DAAAAAAAAAAAAAAAAAAAAAAhGP0MAAAAAAAAAAAAAAAAAAAAACEZ/QwAAAAAAAAAAAAAAAAAAAAAIRr9DAAAAAAAAAAAAAAAAAAAAAAhG/0MAAAAAAAAAAAAAAAAAAAAACEc/QwAAAAAAAAAAAAAAAAAAAAAIR39DAAAAAAAAAAAAAAAAAAAAAAhHkEAIQkCQANAIAkgCk8NASAMIAlq/QAEACEUIA0gCWr9AAQAIRUgECAJav0ABAAhFiAXIBQgFv3mAf3kASEXIBsgFSAW/eYB/eQBIRsgESAJav0ABAAhFiAYIBQgFv3mAf3kASEYIBwgFSAW/eYB/eQBIRwgEiAJav0ABAAhFiAZIBQgFv3mAf3kASEZIB0gFSAW/eYB/eQBIR0gEyAJav0ABAAhFiAaIBQgFv3mAf3kASEaIB4gFSAW/eYB/eQBIR4gCUEQaiEJDAALCyAOIAhBAGpBAnRqIBcQACAFIAhBAGoQAZI4AgAgDiAIQQFqQQJ0aiAYEAAgBSAIQQFqEAGSOAIAIA4gCEECakECdGogGRAAIAUgCEECahABkjgCACAOIAhBA2pBAnRqIBoQACAFIAhBA2oQAZI4AgAgDyAIQQBqQQJ0aiAbEAAgBSAIQQBqEAGSOAIAIA8gCEEBakECdGogHBAAIAUgCEEBahABkjgCACAPIAhBAmpBAnRqIB0QACAFIAhBAmoQAZI4AgAgDyAIQQNqQQJ0aiAeEAAgBSAIQQNqEAGSOAIAIAhBBGohCAwACwsgB0ECaiEHDAALCyAHIAFJBEAgACAHIApsaiEMIAYgByALbGohDkEAIQgCQANAIAggBE8NASADIAggCmxqIRAgECAKaiERIBEgCmohEiASIApqIRP9DAAAAAAAAAAAAAAAAAAAAAAhF/0MAAAAAAAAAAAAAAAAAAAAACEY/QwAAAAAAAAAAAAAAAAAAAAAIRn9DAAAAAAAAAAAAAAAAAAAAAAhGkEAIQkCQANAIAkgCk8NASAMIAlq/QAEACEUIBAgCWr9AAQAIRYgFyAUIBb95gH95AEhFyARIAlq/QAEACEWIBggFCAW/eYB/eQBIRggEiAJav0ABAAhFiAZIBQgFv3mAf3kASEZIBMgCWr9AAQAIRYgGiAUIBb95gH95AEhGiAJQRBqIQkMAAsLIA4gCEEAakECdGogFxAAIAUgCEEAahABkjgCACAOIAhBAWpBAnRqIBgQACAFIAhBAWoQAZI4AgAgDiAIQQJqQQJ0aiAZEAAgBSAIQQJqEAGSOAIAIA4gCEEDakECdGogGhAAIAUgCEEDahABkjgCACAIQQRqIQgMAAsLCws=";

  let kernelModule; // undefined: not tried yet; null: this browser cannot run it
  function kernel() {
    if (kernelModule === undefined) {
      try {
        const bytes = Uint8Array.from(atob(KERNEL), (ch) => ch.charCodeAt(0));
        kernelModule = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
      } catch (e) {
        kernelModule = null;
      }
    }
    return kernelModule;
  }

  // Float32Arrays laid out one after another: in a WebAssembly memory of exactly the size
  // needed (the kernel reads them by byte offset) or, without the kernel, plain arrays.
  // ``floats``: the total, counted first. Offset 0 is never handed out (bias 0 = none).
  function arena(floats, simd) {
    const mod = simd && kernel();
    if (!mod) return { linear: null, take: (count) => new Float32Array(count) };
    const pages = Math.ceil(((floats + 4 * 64) * 4 + 16) / 65536);
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    const { linear } = new WebAssembly.Instance(mod, { env: { memory } }).exports;
    let at = 16;
    return {
      linear,
      take(count) {
        const view = new Float32Array(memory.buffer, at, count);
        at += Math.ceil((count * 4) / 16) * 16; // 16-byte aligned for v128 loads
        return view;
      },
    };
  }

  // IEEE half -> float (the checkpoints store F16; Python converts them to float32 too)
  function halfToFloat(h) {
    const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, f = h & 0x3ff;
    if (e === 0) return s * f * 2 ** -24;
    if (e === 31) return f ? NaN : s * Infinity;
    return s * (1 + f / 1024) * 2 ** (e - 15);
  }
  const HALF = new Float32Array(65536);
  for (let i = 0; i < 65536; i++) HALF[i] = halfToFloat(i);

  function parseSafetensors(buffer) {
    const view = new DataView(buffer);
    const n = Number(view.getBigUint64(0, true));
    if (n <= 0 || 8 + n > buffer.byteLength) throw new Error("not a safetensors file");
    const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 8, n)));
    const meta = header.__metadata__ || {};
    if (!meta.explorer_config) throw new Error("the file holds no model configuration");
    const tensors = {};
    for (const [name, t] of Object.entries(header)) {
      if (name === "__metadata__") continue;
      const [start, end] = t.data_offsets, at = 8 + n + start, count = t.shape.reduce((a, b) => a * b, 1);
      let data;
      if (t.dtype === "F16") {
        const raw = new Uint16Array(buffer.slice(at, end + 8 + n));
        data = new Float32Array(count);
        for (let i = 0; i < count; i++) data[i] = HALF[raw[i]];
      } else if (t.dtype === "F32") {
        data = new Float32Array(buffer.slice(at, end + 8 + n));
      } else {
        throw new Error(`tensor ${name}: dtype ${t.dtype} is not supported`);
      }
      if (data.length !== count) throw new Error(`tensor ${name}: wrong size`);
      tensors[name] = { shape: t.shape, data };
    }
    return { config: JSON.parse(meta.explorer_config), tensors };
  }

  // erf to ~1e-7 (Numerical Recipes' erfc, Chebyshev): GELU as torch's exact one
  function erf(x) {
    const z = Math.abs(x), t = 1 / (1 + 0.5 * z);
    const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
      + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
      + t * (-0.82215223 + t * 0.17087277)))))))));
    return x >= 0 ? 1 - r : r - 1;
  }

  function addInto(x, y, count) {
    for (let i = 0; i < count; i++) x[i] += y[i];
  }

  // erf on [-4, 4] every 1/1024, read with linear interpolation (error < 2e-7, as erf()
  // itself; |erf| beyond 4 is 1 to 2e-8): a GELU without an exp for each of its values
  const ERF_STEP = 1024, ERF_MAX = 4;
  const ERF = Float64Array.from({ length: 2 * ERF_MAX * ERF_STEP + 2 },
    (_, i) => erf(i / ERF_STEP - ERF_MAX));

  // GELU as torch's exact one, in place on the first ``count`` values
  function gelu(a, count) {
    for (let i = 0; i < count; i++) {
      const u = a[i], t = (u * Math.SQRT1_2 + ERF_MAX) * ERF_STEP;
      let e;
      if (t <= 0) e = -1;
      else if (t >= 2 * ERF_MAX * ERF_STEP) e = 1;
      else { const j = t | 0, f = t - j; e = ERF[j] + f * (ERF[j + 1] - ERF[j]); }
      a[i] = 0.5 * u * (1 + e);
    }
  }

  // y[i, o] = sum_k x[i, k] W[o, k] (+ b[o]): x [n, dIn], W [dOut, dIn]. Two rows of x
  // times four rows of W at a time: eight sums fed by six reads (V8 keeps them in registers).
  function linear(x, n, dIn, W, dOut, b, y) {
    let i = 0;
    for (; i + 1 < n; i += 2) {
      const xa = i * dIn, xb = xa + dIn, ya = i * dOut, yb = ya + dOut;
      let o = 0;
      for (; o + 3 < dOut; o += 4) {
        const w0 = o * dIn, w1 = w0 + dIn, w2 = w1 + dIn, w3 = w2 + dIn;
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
        for (let k = 0; k < dIn; k++) {
          const u = x[xa + k], v = x[xb + k];
          const c0 = W[w0 + k], c1 = W[w1 + k], c2 = W[w2 + k], c3 = W[w3 + k];
          a0 += u * c0; a1 += u * c1; a2 += u * c2; a3 += u * c3;
          b0 += v * c0; b1 += v * c1; b2 += v * c2; b3 += v * c3;
        }
        const e0 = b ? b[o] : 0, e1 = b ? b[o + 1] : 0, e2 = b ? b[o + 2] : 0, e3 = b ? b[o + 3] : 0;
        y[ya + o] = a0 + e0; y[ya + o + 1] = a1 + e1; y[ya + o + 2] = a2 + e2; y[ya + o + 3] = a3 + e3;
        y[yb + o] = b0 + e0; y[yb + o + 1] = b1 + e1; y[yb + o + 2] = b2 + e2; y[yb + o + 3] = b3 + e3;
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
      const w0 = o * dIn, w1 = w0 + dIn, w2 = w1 + dIn, w3 = w2 + dIn;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let k = 0; k < dIn; k++) {
        const a = x[xo + k];
        s0 += a * W[w0 + k]; s1 += a * W[w1 + k]; s2 += a * W[w2 + k]; s3 += a * W[w3 + k];
      }
      if (b) { s0 += b[o]; s1 += b[o + 1]; s2 += b[o + 2]; s3 += b[o + 3]; }
      y[yo + o] = s0; y[yo + o + 1] = s1; y[yo + o + 2] = s2; y[yo + o + 3] = s3;
    }
    for (; o < dOut; o++) linearOne(x, xo, dIn, W, o, b, y, yo);
  }

  function linearOne(x, xo, dIn, W, o, b, y, yo) {
    const wo = o * dIn;
    let s = b ? b[o] : 0;
    for (let k = 0; k < dIn; k++) s += x[xo + k] * W[wo + k];
    y[yo + o] = s;
  }

  function layerNorm(x, n, d, w, b, y) {
    for (let i = 0; i < n; i++) {
      const o = i * d;
      let mean = 0;
      for (let k = 0; k < d; k++) mean += x[o + k];
      mean /= d;
      let v = 0;
      for (let k = 0; k < d; k++) { const c = x[o + k] - mean; v += c * c; }
      const inv = 1 / Math.sqrt(v / d + LN_EPS);
      for (let k = 0; k < d; k++) y[o + k] = (x[o + k] - mean) * inv * w[k] + b[k];
    }
    return y;
  }

  // One head, every query i: its pattern row softmax(q_i . k_j * scale - bias |i - j|) into
  // ``patterns`` from offset ``po`` ([query, key], n x n), and, unless the head is switched
  // off (z null: it attends, writes nothing), sum_j p_ij v_j into z's columns col .. col+dh.
  function attendHead(q, k, v, d, n, col, dh, causal, scale, bias, row, patterns, po, z) {
    for (let i = 0; i < n; i++) {
      const qi = i * d + col, last = causal ? i : n - 1, pi = po + i * n;
      let max = -Infinity;
      for (let j = 0; j <= last; j++) {
        const kj = j * d + col;
        let s = 0;
        for (let e = 0; e < dh; e++) s += q[qi + e] * k[kj + e];
        s *= scale;
        if (bias !== 0) s -= bias * Math.abs(i - j);
        row[j] = s;
        if (s > max) max = s;
      }
      let sum = 0;
      for (let j = 0; j <= last; j++) { const e = Math.exp(row[j] - max); row[j] = e; sum += e; }
      for (let j = 0; j <= last; j++) patterns[pi + j] = row[j] / sum;
      if (z === null) continue;
      for (let j = 0; j <= last; j++) {
        const w = patterns[pi + j], vj = j * d + col;
        for (let e = 0; e < dh; e++) z[qi + e] += w * v[vj + e];
      }
    }
  }

  function alibiSlopes(h) {
    const pow2 = (n) => Array.from({ length: n }, (_, i) => (2 ** (-8 / n)) ** (i + 1));
    if (Number.isInteger(Math.log2(h))) return pow2(h);
    const closest = 2 ** Math.floor(Math.log2(h));
    return pow2(closest).concat(pow2(2 * closest).filter((_, i) => i % 2 === 0)
      .slice(0, h - closest));
  }

  class Transformer {
    constructor(parsed, options = {}) {
      const c = (this.config = parsed.config), t = parsed.tensors;
      if (c.task !== "lm" || c.norm !== "pre" || c.mlp === false) {
        throw new Error("the browser computes the zoo's pre-norm language models only");
      }
      const { d_model: d, d_ff: ff, n_ctx: N } = c;
      const scratch = { x: N * d, h: N * d, q: N * d, k: N * d, v: N * d, z: N * d,
        out: N * d, mid: N * ff, fin: d, logits: c.vocab_size };
      let floats = Object.values(scratch).reduce((a, b) => a + b, 0);
      for (const name of Object.keys(t)) floats += t[name].data.length;
      const mem = arena(floats, options.simd !== false);
      this.kernel = mem.linear; // null: the plain loops compute
      this.simd = !!mem.linear;
      const placed = new Map();
      const get = (name) => {
        if (!t[name]) throw new Error(`the checkpoint has no ${name}`);
        if (!placed.has(name)) placed.set(name, mem.take(t[name].data.length));
        const view = placed.get(name);
        view.set(t[name].data);
        return view;
      };
      this.s = Object.fromEntries(Object.entries(scratch).map(([k, n]) => [k, mem.take(n)]));
      this.row = new Float64Array(N);
      this.dHead = c.d_model / c.n_heads;
      this.W_E = get("W_E.weight");
      this.blocks = Array.from({ length: c.n_layers }, (_, l) => {
        const p = `blocks.${l}.`;
        return {
          ln1w: get(p + "ln1.weight"), ln1b: get(p + "ln1.bias"),
          ln2w: get(p + "ln2.weight"), ln2b: get(p + "ln2.bias"),
          W_Q: get(p + "attn.W_Q.weight"), W_K: get(p + "attn.W_K.weight"),
          W_V: get(p + "attn.W_V.weight"), W_O: get(p + "attn.W_O.weight"),
          W_in: get(p + "mlp.W_in.weight"), b_in: get(p + "mlp.W_in.bias"),
          W_out: get(p + "mlp.W_out.weight"), b_out: get(p + "mlp.W_out.bias"),
        };
      });
      this.lnfw = get("ln_final.weight");
      this.lnfb = get("ln_final.bias");
      this.W_U = t["W_U.weight"] ? get("W_U.weight") : this.W_E; // tied in the zoo
      const pe = c.pos_encoding;
      if (pe === "learned") this.W_pos = get("pos.W_pos.weight");
      if (pe === "sinusoidal") this.sinScale = t["pos.scale"].data[0];
      if (pe === "alibi") this.slopes = alibiSlopes(c.n_heads);
      if (pe === "rotary") {
        const half = this.dHead / 2;
        this.invFreq = Float32Array.from({ length: half },
          (_, i) => 1 / c.rotary_base ** ((2 * i) / this.dHead));
      }
    }

    // [n, d_model] added to the token embeddings (absolute encodings), or null
    positionTable(n) {
      const d = this.config.d_model;
      if (this.W_pos) return this.W_pos.subarray(0, n * d);
      if (this.sinScale === undefined) return null;
      if (!this.sinTable) this.sinTable = this.sinusoids(this.config.n_ctx);
      return this.sinTable.subarray(0, n * d);
    }

    sinusoids(n) {
      const d = this.config.d_model;
      const out = new Float32Array(n * d);
      for (let p = 0; p < n; p++) {
        for (let i = 0; i < d; i += 2) {
          const angle = Math.fround(p / Math.fround(10000 ** Math.fround(i / d)));
          out[p * d + i] = Math.sin(angle) * this.sinScale;
          if (i + 1 < d) out[p * d + i + 1] = Math.cos(angle) * this.sinScale;
        }
      }
      return out;
    }

    // rotary: each (2i, 2i+1) pair of every head's q or k rotated by pos * invFreq[i]
    rotate(x, n) {
      const { d_model: d, n_heads: H } = this.config, dh = this.dHead;
      for (let p = 0; p < n; p++) {
        for (let i = 0; i < dh / 2; i++) {
          const a = Math.fround(p * this.invFreq[i]), c = Math.cos(a), s = Math.sin(a);
          for (let h = 0; h < H; h++) {
            const o = p * d + h * dh + 2 * i, x0 = x[o], x1 = x[o + 1];
            x[o] = x0 * c - x1 * s;
            x[o + 1] = x0 * s + x1 * c;
          }
        }
      }
    }

    forward(ids, knobs, at) {
      const c = this.config, d = c.d_model, H = c.n_heads, dh = this.dHead, n = ids.length;
      const causal = knobs.causal == null ? c.causal : !!knobs.causal;
      const T = knobs.temperature == null ? 1 : knobs.temperature;
      const scaleName = knobs.scale == null ? c.attn_scale : knobs.scale;
      const scale = { d_head: 1 / Math.sqrt(dh), d_model: 1 / Math.sqrt(d), none: 1 }[scaleName] / T;
      const off = new Set((knobs.headsOff || []).map(([l, h]) => l * H + h));
      if (n > c.n_ctx) throw new Error(`at most ${c.n_ctx} tokens`);
      const { x, h, q, k, v, z, out, mid } = this.s, row = this.row;
      for (let p = 0; p < n; p++) x.set(this.W_E.subarray(ids[p] * d, ids[p] * d + d), p * d);
      const table = this.positionTable(n);
      if (table) for (let i = 0; i < n * d; i++) x[i] += table[i];
      const linear = (a, rows, dIn, W, dOut, b, y) => this.linear(a, rows, dIn, W, dOut, b, y);
      const patterns = new Float32Array(c.n_layers * H * n * n);
      this.blocks.forEach((B, l) => {
        layerNorm(x, n, d, B.ln1w, B.ln1b, h);
        linear(h, n, d, B.W_Q, d, null, q);
        linear(h, n, d, B.W_K, d, null, k);
        linear(h, n, d, B.W_V, d, null, v);
        if (this.invFreq) { this.rotate(q, n); this.rotate(k, n); }
        z.fill(0, 0, n * d);
        for (let hd = 0; hd < H; hd++) {
          const slope = this.slopes ? this.slopes[hd] : 0;
          attendHead(q, k, v, d, n, hd * dh, dh, causal, scale, slope / T, row, patterns,
            (l * H + hd) * n * n, off.has(l * H + hd) ? null : z);
        }
        linear(z, n, d, B.W_O, d, null, out);
        addInto(x, out, n * d);
        layerNorm(x, n, d, B.ln2w, B.ln2b, h);
        linear(h, n, d, B.W_in, c.d_ff, B.b_in, mid);
        gelu(mid, n * c.d_ff);
        linear(mid, n, c.d_ff, B.W_out, d, B.b_out, out);
        addInto(x, out, n * d);
      });
      let logits = null;
      if (at != null) {
        layerNorm(x.subarray(at * d, at * d + d), 1, d, this.lnfw, this.lnfb, this.s.fin);
        linear(this.s.fin, 1, d, this.W_U, c.vocab_size, null, this.s.logits);
        logits = this.s.logits.slice(); // the scratch is the next call's
      }
      return { patterns, logits };
    }

    // y = x W^T (+ b) on the first ``n`` rows: the kernel when every array is in its memory
    // and the sizes suit it, the plain loops otherwise
    linear(x, n, dIn, W, dOut, b, y) {
      if (this.kernel && dIn % 4 === 0 && dOut % 4 === 0) {
        this.kernel(x.byteOffset, n, dIn, W.byteOffset, dOut, b ? b.byteOffset : 0, y.byteOffset);
        return y;
      }
      return linear(x, n, dIn, W, dOut, b, y);
    }
  }

  AE.model = { parseSafetensors, Transformer, alibiSlopes };
})();
