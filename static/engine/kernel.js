// The WebAssembly matrix product (static/engine/kernel.wat, its bytes in kernel_bytes.js)
// and the memory it reads: each model lays its weights and its scratch out once, in one
// WebAssembly memory of exactly the size needed, for sequences up to n_ctx. Where the
// runtime has no WebAssembly SIMD (or with {simd: false}) the arena hands out plain
// Float32Arrays and the plain loops (static/engine/loops.js) compute.
import { KERNEL } from "./kernel_bytes.js";

let kernelModule; // undefined: not tried yet; null: this runtime cannot run it

/** The compiled kernel, or null where WebAssembly SIMD is missing. */
export function kernel() {
  if (kernelModule === undefined) {
    try {
      const bytes = Uint8Array.from(atob(KERNEL), (ch) => ch.charCodeAt(0));
      kernelModule = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      kernelModule = null;
    }
  }
  return kernelModule;
}

/** Float32Arrays laid out one after another: in a WebAssembly memory (the kernel reads them
    by byte offset) or, without the kernel, plain arrays. ``floats``: the total, counted
    first. Offset 0 is never handed out (bias 0 = none). Returns {linear, linearTN,
    take(count)}: linear(x, n, dIn, W, dOut, b, y) and linearTN(a, n, m, b, p, y) (y = a^T b,
    kernel.wat's linear_tn) by byte offsets, or null. */
export function arena(floats, simd) {
  const mod = simd && kernel();
  if (!mod) return { linear: null, linearTN: null, take: (count) => new Float32Array(count) };
  const pages = Math.ceil(((floats + 4 * 64) * 4 + 16) / 65536);
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  const { linear, linear_tn: linearTN } = new WebAssembly.Instance(mod, { env: { memory } })
    .exports;
  let at = 16;
  return {
    linear,
    linearTN,
    take(count) {
      const view = new Float32Array(memory.buffer, at, count);
      at += Math.ceil((count * 4) / 16) * 16; // 16-byte aligned for v128 loads
      return view;
    },
  };
}
