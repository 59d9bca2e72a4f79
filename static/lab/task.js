// The Lab's task (explorer/training/lab_task.py): random tokens in which a random block is
// said twice. Each sequence is [BOS, block, block, filler]: token 0, a block of min_block ..
// max_block random tokens (1 .. vocab-1), the same block again, then random tokens up to
// n_ctx. The same rules as the Python; the numbers come from the Lab's own generator.
//
//   repeatTask(partial) -> {vocab_size: 64, n_ctx: 64, min_block: 8, max_block: 31} (checked)
//   repeatBatch(task, size, rng) -> {size, n, tokens: Int32Array [size, n], copy and fresh:
//       Uint8Array [size, n - 1] over the next-token targets (entry i: token i + 1): copy,
//       a second-copy token the first copy predicts (all but its first); fresh, the filler
//       after the copies, predictable by nothing}
//   probe(task, rng, block = 12) -> Int32Array [1 + 2 block]: BOS, a block, the block again
export const BOS = 0;

export function repeatTask(partial = {}) {
  const t = { vocab_size: 64, n_ctx: 64, min_block: 8, max_block: 31, ...partial };
  if (!(t.min_block >= 2 && t.min_block <= t.max_block) || 1 + 2 * t.max_block > t.n_ctx)
    throw new Error("blocks must be 2 or longer and fit twice in the context");
  if (t.vocab_size < 3) throw new Error("the vocabulary needs BOS and at least two tokens");
  return t;
}

export function repeatBatch(task, size, rng) {
  const n = task.n_ctx,
    tokens = new Int32Array(size * n),
    copy = new Uint8Array(size * (n - 1)),
    fresh = new Uint8Array(size * (n - 1));
  for (let i = 0; i < size * n; i++) tokens[i] = rng.int(1, task.vocab_size);
  for (let b = 0; b < size; b++) {
    const len = rng.int(task.min_block, task.max_block + 1),
      o = b * n;
    tokens[o] = BOS;
    for (let p = len + 1; p <= 2 * len; p++) tokens[o + p] = tokens[o + p - len];
    for (let t = 1; t < n; t++) {
      copy[b * (n - 1) + t - 1] = t > len + 1 && t <= 2 * len ? 1 : 0;
      fresh[b * (n - 1) + t - 1] = t > 2 * len ? 1 : 0;
    }
  }
  return { size, n, tokens, copy, fresh };
}

export function probe(task, rng, block = 12) {
  const out = new Int32Array(1 + 2 * block);
  out[0] = BOS;
  for (let i = 1; i <= block; i++) out[i] = out[i + block] = rng.int(1, task.vocab_size);
  return out;
}
