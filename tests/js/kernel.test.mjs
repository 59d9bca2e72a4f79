// The WebAssembly kernel's bytes (static/engine/kernel_bytes.js, written by
// scripts/build_kernel.py) are the compilation of static/engine/kernel.wat by wabt 1.0.36,
// the version package.json pins: neither can change without the other.
import assert from "node:assert/strict";
import { test } from "node:test";
import wabtInit from "wabt";
import { KERNEL } from "../../static/engine/kernel_bytes.js";
import { arena, kernel } from "../../static/engine/kernel.js";
import { repoText } from "./fixtures/read.mjs";

test("KERNEL is kernel.wat compiled", async () => {
  const wabt = await wabtInit();
  const module = wabt.parseWat("kernel.wat", repoText("static/engine/kernel.wat"), { simd: true });
  try {
    const { buffer } = module.toBinary({});
    assert.equal(KERNEL, Buffer.from(buffer).toString("base64"));
  } finally {
    module.destroy();
  }
});

test("the kernel compiles here and exports linear and linear_tn", () => {
  const mod = kernel();
  assert.ok(mod, "Node 20 runs WebAssembly SIMD");
  const names = WebAssembly.Module.exports(mod).map((e) => e.name);
  assert.deepEqual(names, ["linear", "linear_tn"]);
});

test("linear_tn is a^T b (the Lab's weight gradients), every block width", () => {
  const mem = arena(4096, true);
  for (const [n, m, p] of [
    [9, 8, 12],
    [5, 4, 4],
    [3, 12, 8],
  ]) {
    const a = mem.take(n * m),
      b = mem.take(n * p),
      y = mem.take(m * p);
    a.forEach((_, i) => (a[i] = Math.sin(i * 1.3)));
    b.forEach((_, i) => (b[i] = Math.cos(i * 0.7)));
    mem.linearTN(a.byteOffset, n, m, b.byteOffset, p, y.byteOffset);
    for (let j = 0; j < m; j++) {
      for (let o = 0; o < p; o++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += a[i * m + j] * b[i * p + o];
        assert.ok(Math.abs(y[j * p + o] - s) < 1e-5, `${n}x${m}x${p} [${j}, ${o}]`);
      }
    }
  }
});
