// The SHA-256 of a file's bytes, as lowercase hex: how the engine checks that a model or the
// tokenizer arrived as the page's configuration says (engine.configure({hashes})). The
// browser's crypto.subtle.digest where there is one; a page served over plain http from a
// LAN address is not a secure context, and has no crypto.subtle: there the plain
// JavaScript below (FIPS 180-4, one 64-byte block at a time) computes the same digest.
//
//   await sha256Hex(bytes) -> "e3b0c442…"   bytes: an ArrayBuffer or a typed array
//   sha256Plain(bytes) -> "e3b0c442…"       always the plain JavaScript (tests compare both)

// the first 32 bits of the fractional parts of the cube roots of the first 64 primes
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
// the first 32 bits of the fractional parts of the square roots of the first 8 primes
const H0 = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

function bytesOf(data) {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

const rotr = (x, n) => (x >>> n) | (x << (32 - n));

// One 64-byte block at `at` of `view` into the state `h` (eight uint32), `w` the schedule.
function block(h, w, view, at) {
  for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + 4 * i);
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15],
      b = w[i - 2];
    const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
    const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let [a, b, c, d, e, f, g, k] = h;
  for (let i = 0; i < 64; i++) {
    const t1 =
      (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  const out = [a, b, c, d, e, f, g, k];
  for (let i = 0; i < 8; i++) h[i] = (h[i] + out[i]) | 0;
}

function hex(words) {
  return Array.from(words, (x) => (x >>> 0).toString(16).padStart(8, "0")).join("");
}

/** The SHA-256 of `data` in plain JavaScript (no crypto.subtle needed), as lowercase hex. */
export function sha256Plain(data) {
  const bytes = bytesOf(data);
  const n = bytes.length;
  const whole = n - (n % 64);
  const h = new Int32Array(H0);
  const w = new Int32Array(64);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at < whole; at += 64) block(h, w, view, at);
  // the rest, the 0x80 marker, zeros, and the length in bits (64-bit big-endian)
  const tail = new Uint8Array(n - whole < 56 ? 64 : 128);
  tail.set(bytes.subarray(whole));
  tail[n - whole] = 0x80;
  const end = new DataView(tail.buffer);
  end.setUint32(tail.length - 8, Math.floor(n / 0x20000000));
  end.setUint32(tail.length - 4, (n * 8) >>> 0);
  for (let at = 0; at < tail.length; at += 64) block(h, w, end, at);
  return hex(h);
}

/** The SHA-256 of `data` as lowercase hex: crypto.subtle's where the page has it. */
export async function sha256Hex(data) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) return sha256Plain(data);
  const digest = new Uint8Array(await subtle.digest("SHA-256", bytesOf(data)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
