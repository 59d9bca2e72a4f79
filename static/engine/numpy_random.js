// numpy's default random generator, as far as the shuffle test needs it: the same numbers
// as ``np.random.default_rng(seed).permutation(n)`` (numpy 1.17 and later), so that the
// browser shuffles a sentence's words into the order the Positional encodings view shows
// (explorer/analysis/positional_views.py word_permutation; static/engine/shuffle.js).
//
//   defaultRng(seed) -> {permutation(n) -> number[], nextUint32(), nextUint64() -> BigInt}
//
// What numpy does, step by step: SeedSequence(seed) mixes the seed's 32-bit words into a
// pool of four (numpy/random/bit_generator.pyx: hashmix, mix) and draws four 64-bit words
// from it (generate_state); PCG64 seeds its 128-bit state and increment with them
// (pcg64.h: pcg_setseq_128_srandom_r) and steps as state = state * MULT + inc, giving the
// XSL-RR output of the new state; a 32-bit draw is the low half of a 64-bit one, then its
// high half (pcg64_next32); permutation(n) shuffles 0..n-1 by Fisher-Yates from the end,
// each index drawn by rejection under a bit mask (distributions.c random_interval).
// Parity: tests/js/shuffle.test.mjs against numpy's own numbers (tiny_steps.json).

const M32 = 0xffffffff;
const MASK64 = (1n << 64n) - 1n;
const MASK128 = (1n << 128n) - 1n;
const MULT128 = 0x2360ed051fc65da44385df649fccf645n;

// SeedSequence's constants (bit_generator.pyx)
const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
const POOL = 4;

const mul32 = (a, b) => Math.imul(a, b) >>> 0;
const xshift = (v) => (v ^ (v >>> 16)) >>> 0;

// A non-negative integer seed as 32-bit words, least significant first ([0] for 0).
function seedWords(seed) {
  let n = BigInt(seed);
  if (n < 0n) throw new Error("the seed must be a non-negative integer");
  const words = [];
  do {
    words.push(Number(n & 0xffffffffn));
    n >>= 32n;
  } while (n > 0n);
  return words;
}

// SeedSequence(seed).pool: the entropy mixed into POOL words
function seedPool(seed) {
  const entropy = seedWords(seed);
  let hashConst = INIT_A;
  const hashmix = (value) => {
    value = (value ^ hashConst) >>> 0;
    hashConst = mul32(hashConst, MULT_A);
    return xshift(mul32(value, hashConst));
  };
  const mix = (x, y) => xshift((mul32(MIX_MULT_L, x) - mul32(MIX_MULT_R, y)) >>> 0);
  const pool = [];
  for (let i = 0; i < POOL; i++) pool.push(hashmix(i < entropy.length ? entropy[i] : 0));
  for (let src = 0; src < POOL; src++) {
    for (let dst = 0; dst < POOL; dst++) {
      if (src !== dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
    }
  }
  for (let src = POOL; src < entropy.length; src++) {
    for (let dst = 0; dst < POOL; dst++) pool[dst] = mix(pool[dst], hashmix(entropy[src]));
  }
  return pool;
}

// SeedSequence.generate_state(n64, np.uint64): n64 64-bit words (little-endian pairs)
function generateState(pool, n64) {
  let hashConst = INIT_B;
  const words = [];
  for (let i = 0; i < 2 * n64; i++) {
    const v = (pool[i % pool.length] ^ hashConst) >>> 0;
    hashConst = mul32(hashConst, MULT_B);
    words.push(xshift(mul32(v, hashConst)));
  }
  const out = [];
  for (let i = 0; i < n64; i++) {
    out.push(BigInt(words[2 * i]) | (BigInt(words[2 * i + 1]) << 32n));
  }
  return out;
}

/** numpy's ``np.random.default_rng(seed)`` (PCG64), as far as permutation(). */
export function defaultRng(seed = 0) {
  const [s0, s1, i0, i1] = generateState(seedPool(seed), 4);
  const initState = (s0 << 64n) | s1;
  const initSeq = (i0 << 64n) | i1;
  const inc = ((initSeq << 1n) | 1n) & MASK128;
  let state = 0n;
  const step = () => (state = (state * MULT128 + inc) & MASK128);
  step();
  state = (state + initState) & MASK128;
  step();
  let spare = null; // the high half of the last 64-bit draw, not used yet

  function nextUint64() {
    step();
    const x = ((state >> 64n) ^ state) & MASK64;
    const rot = state >> 122n;
    return ((x >> rot) | (x << ((64n - rot) & 63n))) & MASK64;
  }
  function nextUint32() {
    if (spare != null) {
      const v = spare;
      spare = null;
      return v;
    }
    const next = nextUint64();
    spare = Number(next >> 32n);
    return Number(next & 0xffffffffn);
  }
  // an integer in [0, max] (max < 2^32): masked draws until one is not over max
  function interval(max) {
    if (max === 0) return 0;
    let mask = max;
    for (const s of [1, 2, 4, 8, 16]) mask = (mask | (mask >>> s)) >>> 0;
    let value;
    do value = (nextUint32() & mask) >>> 0;
    while (value > max);
    return value;
  }
  function permutation(n) {
    if (n > M32) throw new Error("too many items to shuffle");
    const a = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i >= 1; i--) {
      const j = interval(i);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
  return { nextUint32, nextUint64, permutation };
}
