// Every head's previous-token and induction score, as explorer/training/head_scores.py
// defines them, on the patterns of one forward pass (tape.layers[l].P).
//
//   previousTokenScores(patterns, dims) -> Float64Array [layer, head]: the mean weight of
//       query i on key i - 1 (queries 1 .. n-1, every sequence)
//   inductionScores(patterns, dims, tokens, queries) -> Float64Array [layer, head]: over
//       the chosen queries (Uint8Array [batch, n]), the mean total weight on the keys that
//       followed an earlier occurrence of the query's token (key k = p + 1, tokens[p] ==
//       tokens[q], k < q)
//   copyQueries(copy, batch, n) -> Uint8Array [batch, n]: the Lab's queries, those whose
//       next token the first copy predicts (query q chosen when copy[q - 1])
// patterns: one Float64Array [batch, head, query_pos, key_pos] per layer; dims {batch, n,
// n_heads}
export const FORMED = 0.3; // head_scores.THRESHOLDS["induction_score"]: the evaluation's bar

export function previousTokenScores(patterns, { batch, n, n_heads: H }) {
  const out = new Float64Array(patterns.length * H);
  patterns.forEach((P, l) => {
    for (let h = 0; h < H; h++) {
      let sum = 0;
      for (let b = 0; b < batch; b++) {
        const po = (b * H + h) * n * n;
        for (let i = 1; i < n; i++) sum += P[po + i * n + i - 1];
      }
      out[l * H + h] = sum / (batch * (n - 1));
    }
  });
  return out;
}

export function inductionScores(patterns, { batch, n, n_heads: H }, tokens, queries) {
  const out = new Float64Array(patterns.length * H);
  let chosen = 0;
  for (let i = 0; i < batch * n; i++) chosen += queries[i] ? 1 : 0;
  patterns.forEach((P, l) => {
    for (let h = 0; h < H; h++) {
      let sum = 0;
      for (let b = 0; b < batch; b++) {
        const po = (b * H + h) * n * n,
          t = b * n;
        for (let q = 0; q < n; q++) {
          if (!queries[t + q]) continue;
          for (let k = 1; k < q; k++) {
            if (tokens[t + k - 1] === tokens[t + q]) sum += P[po + q * n + k];
          }
        }
      }
      out[l * H + h] = sum / Math.max(chosen, 1);
    }
  });
  return out;
}

export function copyQueries(copy, batch, n) {
  const out = new Uint8Array(batch * n);
  for (let b = 0; b < batch; b++)
    for (let q = 1; q < n; q++) out[b * n + q] = copy[b * (n - 1) + q - 1];
  return out;
}
