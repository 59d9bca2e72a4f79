// The WebAssembly kernel's bytes (static/engine/kernel_bytes.js, written by
// scripts/build_kernel.py) are the compilation of static/engine/kernel.wat by wabt 1.0.36,
// the version package.json pins: neither can change without the other.
import assert from "node:assert/strict";
import { test } from "node:test";
import wabtInit from "wabt";
import { KERNEL } from "../../static/engine/kernel_bytes.js";
import { kernel } from "../../static/engine/kernel.js";
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

test("the kernel compiles here and exports linear", () => {
  const mod = kernel();
  assert.ok(mod, "Node 20 runs WebAssembly SIMD");
  const names = WebAssembly.Module.exports(mod).map((e) => e.name);
  assert.deepEqual(names, ["linear"]);
});
