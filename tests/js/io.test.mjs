// static/engine/io.js: a busy server (429/503) is asked again after its Retry-After, a
// bounded number of times; any other failure is said at once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fetchBytes, retryAfter, TRIES } from "../../static/engine/io.js";

function server(statuses) {
  const asked = [];
  const get = async (url) => {
    const status = statuses[Math.min(asked.length, statuses.length - 1)];
    asked.push(url);
    return {
      ok: status === 200,
      status,
      headers: { get: (h) => (h === "retry-after" && status === 429 ? "2" : null) },
      arrayBuffer: async () => new Uint8Array([1, 2, 3]).buffer,
    };
  };
  return { get, asked };
}

test("a busy answer is asked again after its Retry-After", async () => {
  const s = server([429, 503, 200]);
  const waits = [];
  const bytes = await fetchBytes("m.safetensors", {
    get: s.get,
    sleep: async (x) => waits.push(x),
  });
  assert.equal(new Uint8Array(bytes).length, 3);
  assert.deepEqual(waits, [2, 1]); // 429 named 2 s; the 503 none: 1 s
  assert.equal(s.asked.length, 3);
});

test("a server busy for good is given up on after TRIES", async () => {
  const s = server([429]);
  await assert.rejects(
    fetchBytes("m", { get: s.get, sleep: async () => {} }),
    /could not load m \(429\)/,
  );
  assert.equal(s.asked.length, TRIES);
});

test("any other failure is said at once", async () => {
  const s = server([404]);
  await assert.rejects(fetchBytes("m", { get: s.get, sleep: async () => {} }), /\(404\)/);
  assert.equal(s.asked.length, 1);
});

test("Retry-After is read in seconds, bounded", () => {
  assert.equal(retryAfter("3"), 3);
  assert.equal(retryAfter("120"), 10);
  assert.equal(retryAfter(null), 1);
  assert.equal(retryAfter("Wed, 21 Oct 2026 07:28:00 GMT"), 1);
});
