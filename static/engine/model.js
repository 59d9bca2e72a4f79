// The forward pass of the zoo's language models in the browser: the second implementation
// of explorer/models/transformer.py (the reference), trusted as far as the parity tests show
// (tests/engine/ in Chromium on the zoo, tests/js/engine.test.mjs in Node on tiny fixtures).
//
//   new Transformer(parseSafetensors(buffer), {simd: true})   (static/engine/safetensors.js)
//   .forward(ids, {causal, scale, temperature, headsOff}, at, {save, from, stream, tap, only})
//       -> {patterns: Float32Array [layer, head, query, key] (n x n each), logits: Float32Array
//           [vocab] at position ``at`` (null when at is null)}
//   .logitsAt(p) -> the last forward pass's logits [vocab] at position p (a scratch view)
//   .resolve(knobs) -> {causal, scaleName, T, scale}: the knobs as a pass uses them
//   .simd: whether the WebAssembly kernel computes the matrix products
//
// Shapes, row-major: the residual stream x [pos, d_model]; a Linear's weight [out, in] as
// torch stores it (y = x W^T); q, k, v [pos, d_model], head h in columns h*d_head ..
// The matrix products run in WebAssembly with 128-bit SIMD (static/engine/kernel.js), about
// eight times the plain loops (static/engine/loops.js), which compute where the runtime has
// no SIMD (or with {simd: false}). A forward pass allocates only the patterns it returns
// (and, the first time, the residual streams a ranking saves: {save: true}, or the rows a
// keystroke's pass keeps for the next: {only: true}, static/engine/prefix.js).
import { arena } from "./kernel.js";
import { addInto, attendHead, gelu, layerNorm, linear, weighRow } from "./loops.js";
import { PrefixCache } from "./prefix.js";

export function alibiSlopes(h) {
  const pow2 = (n) => Array.from({ length: n }, (_, i) => (2 ** (-8 / n)) ** (i + 1));
  if (Number.isInteger(Math.log2(h))) return pow2(h);
  const closest = 2 ** Math.floor(Math.log2(h));
  return pow2(closest).concat(
    pow2(2 * closest)
      .filter((_, i) => i % 2 === 0)
      .slice(0, h - closest),
  );
}

export class Transformer {
  constructor(parsed, options = {}) {
    const c = (this.config = parsed.config),
      t = parsed.tensors;
    if (c.task !== "lm" || c.norm !== "pre" || c.mlp === false) {
      throw new Error("the browser computes the zoo's pre-norm language models only");
    }
    const { d_model: d, d_ff: ff, n_ctx: N } = c;
    const scratch = {
      x: N * d,
      h: N * d,
      q: N * d,
      k: N * d,
      v: N * d,
      z: N * d,
      out: N * d,
      mid: N * ff,
      fin: d,
      logits: c.vocab_size,
    };
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
        ln1w: get(p + "ln1.weight"),
        ln1b: get(p + "ln1.bias"),
        ln2w: get(p + "ln2.weight"),
        ln2b: get(p + "ln2.bias"),
        W_Q: get(p + "attn.W_Q.weight"),
        W_K: get(p + "attn.W_K.weight"),
        W_V: get(p + "attn.W_V.weight"),
        W_O: get(p + "attn.W_O.weight"),
        W_in: get(p + "mlp.W_in.weight"),
        b_in: get(p + "mlp.W_in.bias"),
        W_out: get(p + "mlp.W_out.weight"),
        b_out: get(p + "mlp.W_out.bias"),
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
      this.invFreq = Float32Array.from(
        { length: half },
        (_, i) => 1 / c.rotary_base ** ((2 * i) / this.dHead),
      );
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

  // rotary: each (2i, 2i+1) pair of every head's q or k (rows from .. n-1) rotated by
  // pos * invFreq[i]
  rotate(x, n, from = 0) {
    const { d_model: d, n_heads: H } = this.config,
      dh = this.dHead,
      half = dh / 2,
      turns = this.rotaryTable();
    for (let p = from; p < n; p++) {
      for (let i = 0; i < half; i++) {
        const c = turns[2 * (p * half + i)],
          s = turns[2 * (p * half + i) + 1];
        for (let h = 0; h < H; h++) {
          const o = p * d + h * dh + 2 * i,
            x0 = x[o],
            x1 = x[o + 1];
          x[o] = x0 * c - x1 * s;
          x[o + 1] = x0 * s + x1 * c;
        }
      }
    }
  }

  // [n_ctx, d_head / 2, 2]: cos and sin of the angle fround(p * invFreq[i]), made once (the
  // same doubles rotate() would compute for each call)
  rotaryTable() {
    if (this.turns) return this.turns;
    const half = this.dHead / 2,
      N = this.config.n_ctx;
    const turns = new Float64Array(2 * N * half);
    for (let p = 0; p < N; p++) {
      for (let i = 0; i < half; i++) {
        const a = Math.fround(p * this.invFreq[i]);
        turns[2 * (p * half + i)] = Math.cos(a);
        turns[2 * (p * half + i) + 1] = Math.sin(a);
      }
    }
    return (this.turns = turns);
  }

  // The residual stream x [n, d_model] at the first block's input: the token embeddings,
  // plus the absolute positions' table (rows ``from`` .. n-1).
  embed(ids, x, from = 0) {
    const d = this.config.d_model,
      n = ids.length;
    for (let p = from; p < n; p++) x.set(this.W_E.subarray(ids[p] * d, ids[p] * d + d), p * d);
    const table = this.positionTable(n);
    if (table) for (let i = from * d; i < n * d; i++) x[i] += table[i];
  }

  // The knobs as one pass uses them: {causal, scaleName, T, scale} (scale holds the 1/T;
  // an ALiBi head's slope is divided by T too), as AttentionSettings.resolve.
  resolve(knobs) {
    const c = this.config;
    const causal = knobs.causal == null ? c.causal : !!knobs.causal;
    const T = knobs.temperature == null ? 1 : knobs.temperature;
    const scaleName = knobs.scale == null ? c.attn_scale : knobs.scale;
    const factor = {
      d_head: 1 / Math.sqrt(this.dHead),
      d_model: 1 / Math.sqrt(c.d_model),
      none: 1,
    };
    return { causal, scaleName, T, scale: factor[scaleName] / T };
  }

  // resume: {save: true} keeps the residual stream at each block's input; {from: l}
  // starts at block l from the stream saved by the last such pass, which must have had the
  // same ids and knobs for the blocks before l (its patterns left 0 there). A ranking
  // (static/engine/losses.js) switches one head off at a time so: the blocks before its
  // layer are the same as with every head on. {from: l, stream} starts at block l from
  // ``stream`` [n, d_model] instead (l may be n_layers: the logits of that stream).
  // {tap: (layer, where, scratch, n) => ...} is called in every block with the scratch
  // (this.s: h, q, k, v, z, out, x, [pos, width] row-major) at "qkv" (h = the block's
  // LayerNorm1 output X, q k v projected), "rotated" (rotary: q and k turned), "z" (every
  // head's output, before W_O: a tap may change it), "out" (z W_O^T) and "post" (x, the
  // residual stream after the block): static/engine/stages.js and patching.js read and
  // patch through it. Without a tap nothing more is done. {only: true} (no tap, save, from
  // or stream): only what is returned is wanted, so the last block computes its output for
  // row ``at`` alone (none when at is null), and under a causal mask the rows before the
  // first token that differs from the last such pass's are that pass's (prefix.js): the
  // same numbers; the scratch's stream is then not whole (logitsAt() of another position
  // is not that pass's). The engine's run and runTyped pass it (a keystroke).
  forward(ids, knobs, at, resume = {}) {
    const c = this.config,
      d = c.d_model,
      n = ids.length;
    const { x } = this.s;
    const from = resume.from || 0,
      tap = resume.tap,
      saved = resume.save ? this.savedStream(n) : this.saved;
    if (n > c.n_ctx) throw new Error(`at most ${c.n_ctx} tokens`);
    const pass = { ...this.resolve(knobs), n, tap, p: 0, kv: null };
    pass.off = new Set((knobs.headsOff || []).map(([l, h]) => l * c.n_heads + h));
    pass.patterns = new Float32Array(c.n_layers * c.n_heads * n * n);
    const only = resume.only && !tap && !resume.save && !from && !resume.stream;
    if (only && pass.causal && n) this.reusing(ids, pass, at);
    if (resume.stream) x.set(resume.stream.subarray(0, n * d));
    else if (from && !(saved && saved.n === n)) throw new Error("no stream saved to resume from");
    else if (from) x.set(saved.subarray(from * n * d, (from + 1) * n * d));
    else this.embed(ids, x, pass.p);
    this.blocks.forEach((B, l) => {
      if (l < from) return;
      if (resume.save) saved.set(x.subarray(0, n * d), l * n * d);
      if (only && l === c.n_layers - 1) this.lastBlock(B, l, pass, at);
      else this.block(B, l, pass);
    });
    if (pass.kv) pass.kv.finish(ids, pass.patterns);
    // the scratch is the next call's: the logits returned are a copy
    return { patterns: pass.patterns, logits: at == null ? null : this.logitsAt(at).slice() };
  }

  // a causal pass with {only: true}: the rows before pass.p are the last such pass's
  // (static/engine/prefix.js); its k and v rows are kept in pass.kv
  reusing(ids, pass, at) {
    if (!this.prefix) this.prefix = new PrefixCache(this.config);
    pass.kv = this.prefix;
    pass.p = this.prefix.start(ids, pass, at);
    this.prefix.reuse(pass.patterns, pass.n, pass.p);
  }

  // LayerNorm1 and q, k, v of rows p .. n-1 into the scratch (rotary: q and k turned); with
  // pass.kv, k and v are copied into its rows too
  qkv(B, l, { n, p, tap, kv }) {
    const d = this.config.d_model,
      { x, h, q, k, v } = this.s,
      r = (a) => a.subarray(p * d, n * d);
    layerNorm(r(x), n - p, d, B.ln1w, B.ln1b, r(h));
    this.linear(r(h), n - p, d, B.W_Q, d, null, r(q));
    this.linear(r(h), n - p, d, B.W_K, d, null, r(k));
    this.linear(r(h), n - p, d, B.W_V, d, null, r(v));
    if (tap) tap(l, "qkv", this.s, n);
    if (this.invFreq) {
      this.rotate(q, n, p);
      this.rotate(k, n, p);
      if (tap) tap(l, "rotated", this.s, n);
    }
    if (kv) {
      kv.k[l].set(r(k), p * d);
      kv.v[l].set(r(v), p * d);
    }
  }

  // every head of block l, queries p .. n-1: its pattern into pass.patterns and, when
  // ``zOn``, its output into z (zeroed first; a head switched off writes none); the keys
  // and values of every row are pass.kv's when it reuses, else the scratch's
  attend(l, { n, p, causal, scale, T, off, patterns, kv }, zOn) {
    const { d_model: d, n_heads: H } = this.config,
      dh = this.dHead,
      { q, z } = this.s,
      k = kv ? kv.k[l] : this.s.k,
      v = kv ? kv.v[l] : this.s.v;
    z.fill(0, p * d, n * d);
    for (let hd = 0; hd < H; hd++) {
      const bias = (this.slopes ? this.slopes[hd] : 0) / T,
        out = zOn && !off.has(l * H + hd) ? z : null;
      const po = (l * H + hd) * n * n;
      attendHead(q, k, v, d, n, hd * dh, dh, causal, scale, bias, this.row, patterns, po, out, p);
    }
  }

  // One block on rows p .. n-1 of the residual stream x (in place).
  block(B, l, pass) {
    this.qkv(B, l, pass);
    this.attend(l, pass, true);
    if (pass.tap) pass.tap(l, "z", this.s, pass.n);
    this.rest(B, l, pass.p, pass.n, pass.tap, pass.n);
  }

  // The rest of block l on rows lo .. hi-1 (of n) once z holds the heads' outputs: z W_O^T
  // into the residual stream x, then LayerNorm2 and the MLP into it (each row on its own)
  rest(B, l, lo, hi, tap, n) {
    const { d_model: d, d_ff: ff } = this.config,
      { x, h, z, out, mid } = this.s,
      m = hi - lo,
      r = (a, w = d) => a.subarray(lo * w, hi * w);
    this.linear(r(z), m, d, B.W_O, d, null, r(out));
    if (tap) tap(l, "out", this.s, n);
    addInto(r(x), r(out), m * d);
    layerNorm(r(x), m, d, B.ln2w, B.ln2b, r(h));
    this.linear(r(h), m, d, B.W_in, ff, B.b_in, r(mid, ff));
    gelu(r(mid, ff), m * ff);
    this.linear(r(mid, ff), m, ff, B.W_out, d, B.b_out, r(out));
    addInto(r(x), r(out), m * d);
    if (tap) tap(l, "post", this.s, n);
  }

  // The last block when only the patterns and the logits at ``at`` are wanted: every
  // pattern, then the block's output for row ``at`` alone (the same numbers as block():
  // each row is computed on its own, in the same order)
  lastBlock(B, l, pass, at) {
    const { d_model: d, n_heads: H } = this.config,
      dh = this.dHead,
      { n, causal, off, patterns, kv } = pass,
      v = kv ? kv.v[l] : this.s.v;
    this.qkv(B, l, pass);
    this.attend(l, pass, false);
    if (at == null) return;
    const last = causal ? at : n - 1;
    for (let hd = 0; hd < H; hd++) {
      if (off.has(l * H + hd)) continue;
      const pi = (l * H + hd) * n * n + at * n;
      weighRow(patterns, pi, v, d, hd * dh, dh, last, this.s.z, at * d + hd * dh);
    }
    this.rest(B, l, at, at + 1, null, n);
  }

  // room for the residual stream at every block's input, [layer, n, d_model]
  savedStream(n) {
    const size = this.config.n_layers * n * this.config.d_model;
    if (!this.saved || this.saved.length < size) this.saved = new Float32Array(size);
    this.saved.n = n;
    return this.saved;
  }

  // The logits [vocab] at position ``p`` of the last forward pass (its residual stream is
  // still in the scratch): a view of the scratch, valid until the next call. The loss
  // (static/engine/losses.js) reads every scored position of one pass so.
  logitsAt(p) {
    const c = this.config,
      d = c.d_model;
    layerNorm(this.s.x.subarray(p * d, p * d + d), 1, d, this.lnfw, this.lnfb, this.s.fin);
    this.linear(this.s.fin, 1, d, this.W_U, c.vocab_size, null, this.s.logits);
    return this.s.logits;
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
