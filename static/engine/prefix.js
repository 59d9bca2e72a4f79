// What a keystroke's pass reuses from the last one (static/engine/model.js, forward with
// {only: true}). Under a causal mask, row i of every block depends on the tokens 0 .. i
// alone, and each row is computed on its own (the kernel's and the loops' sums run row by
// row, in the same order whatever the other rows): so a pass on ids that begin as the last
// pass's did, with the same knobs, computes only the rows from the first one that differs,
// and the rows before it are the last pass's, the same numbers.
//
//   const cache = new PrefixCache(config)
//   cache.start(ids, pass, at) -> p: the first row to compute (0: nothing reused), at most
//       the last row and ``at``; pass: {causal, scale, T, off (Set of layer * H + head)}
//   cache.k[l], cache.v[l]    block l's rotated k and v of every row, [n_ctx, d_model]: the
//       pass writes rows p .. n-1 there and attends over them
//   cache.reuse(patterns, n, p)   the rows before p of the last pass's patterns, copied
//       into this pass's [layer, head, query, key] (n x n each)
//   cache.finish(ids, patterns)   the pass is whole: its ids and patterns are the next's

const keyOf = (pass) =>
  [pass.causal, pass.scale, pass.T, [...pass.off].sort((a, b) => a - b).join(",")].join("|");

export class PrefixCache {
  constructor(config) {
    const size = config.n_ctx * config.d_model;
    this.k = Array.from({ length: config.n_layers }, () => new Float32Array(size));
    this.v = Array.from({ length: config.n_layers }, () => new Float32Array(size));
    this.ids = null; // the last whole pass's ids (null: nothing to reuse)
    this.key = "";
    this.patterns = null;
  }

  start(ids, pass, at) {
    const key = keyOf(pass),
      old = this.ids;
    let p = 0;
    if (old && key === this.key) {
      const m = Math.min(old.length, ids.length);
      while (p < m && old[p] === ids[p]) p++;
    }
    p = Math.max(0, Math.min(p, ids.length - 1, at == null ? Infinity : at));
    this.ids = null; // until finish(): a pass cut short leaves nothing to reuse
    this.key = key;
    return p;
  }

  reuse(patterns, n, p) {
    if (!p) return;
    const was = this.patterns,
      m = this.n,
      count = patterns.length / (n * n);
    for (let g = 0; g < count; g++) {
      for (let i = 0; i < p; i++) {
        const from = g * m * m + i * m; // causal: keys 0 .. i, the rest 0
        patterns.set(was.subarray(from, from + i + 1), g * n * n + i * n);
      }
    }
  }

  finish(ids, patterns) {
    this.ids = Array.from(ids);
    this.n = ids.length;
    this.patterns = patterns.slice();
  }
}
