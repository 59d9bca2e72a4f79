// The Lab's optimizer (static/lab/adamw.js) on a quadratic: its first step moves every
// weight by about lr against its gradient's sign (Adam's mark), and it finds the minimum.
// (Parity with torch.optim.AdamW: tests/training/test_lab_js_parity.py.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { LAB_ADAMW, makeAdamW } from "../../static/lab/adamw.js";

// f(p) = 1/2 sum a_i (p_i - c_i)^2, gradient a_i (p_i - c_i)
const a = [1, 10, 0.1, 100],
  c = [0.5, -0.3, 0.2, 1];
const gradOf = (p) => ({ p: Float64Array.from(p, (x, i) => a[i] * (x - c[i])) });

test("the first step moves every weight by lr against its gradient", () => {
  const params = { p: new Float32Array(4) };
  makeAdamW(params).step(gradOf(params.p));
  params.p.forEach((x, i) => assert.ok(Math.abs(x - Math.sign(c[i]) * LAB_ADAMW.lr) < 1e-6));
});

test("AdamW finds the quadratic's minimum", () => {
  const params = { p: new Float32Array(4) };
  const opt = makeAdamW(params, { lr: 1e-2 });
  for (let t = 0; t < 3000; t++) opt.step(gradOf(params.p));
  assert.equal(opt.t, 3000);
  params.p.forEach((x, i) => assert.ok(Math.abs(x - c[i]) < 1e-3, `${i}: ${x}`));
});

test("weight decay shrinks a weight whose gradient is 0", () => {
  const params = { p: Float32Array.of(1) };
  makeAdamW(params, { lr: 0.1, weight_decay: 0.5 }).step({ p: Float64Array.of(0) });
  assert.ok(Math.abs(params.p[0] - 0.95) < 1e-7);
});
