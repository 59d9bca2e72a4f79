// static/engine/sha256.js against node:crypto: the plain JavaScript digest (what a page
// without crypto.subtle computes) and sha256Hex both with crypto.subtle and without it, on
// the lengths where the padding changes shape (55, 56, 63, 64, 65 bytes) and on a few MB.
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { test } from "node:test";
import { sha256Hex, sha256Plain } from "../../static/engine/sha256.js";

const reference = (bytes) => createHash("sha256").update(bytes).digest("hex");

function inputs() {
  const out = [
    ["empty", new Uint8Array(0)],
    ["abc", new TextEncoder().encode("abc")],
  ];
  for (const n of [1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000]) {
    out.push([`${n} random bytes`, new Uint8Array(randomBytes(n))]);
  }
  out.push(["3 MB + 7 random bytes", new Uint8Array(randomBytes(3 * 1024 * 1024 + 7))]);
  return out;
}
const INPUTS = inputs();

test("the known digests of '' and 'abc'", () => {
  const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  assert.equal(sha256Plain(new ArrayBuffer(0)), empty);
  assert.equal(sha256Plain(new TextEncoder().encode("abc")), abc);
});

test("the plain JavaScript digest is node:crypto's", () => {
  for (const [what, bytes] of INPUTS) assert.equal(sha256Plain(bytes), reference(bytes), what);
});

test("sha256Hex with crypto.subtle is node:crypto's, for an ArrayBuffer or a view", async () => {
  assert.ok(globalThis.crypto && globalThis.crypto.subtle, "Node 20 has crypto.subtle");
  for (const [what, bytes] of INPUTS) {
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    assert.equal(await sha256Hex(buffer), reference(bytes), what);
  }
  // a view into a larger buffer: only its own bytes count
  const big = new Uint8Array(randomBytes(300));
  assert.equal(await sha256Hex(big.subarray(10, 250)), reference(big.subarray(10, 250)));
  assert.equal(sha256Plain(big.subarray(10, 250)), reference(big.subarray(10, 250)));
});

test("sha256Hex without crypto.subtle (plain http on a LAN address) is the same", async () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "crypto");
  Object.defineProperty(globalThis, "crypto", { value: {}, configurable: true, writable: true });
  try {
    assert.equal(globalThis.crypto.subtle, undefined);
    for (const [what, bytes] of INPUTS)
      assert.equal(await sha256Hex(bytes), reference(bytes), what);
  } finally {
    Object.defineProperty(globalThis, "crypto", saved);
  }
});
