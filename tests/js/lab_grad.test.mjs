// The Lab's backward pass (static/lab/backward.js) against finite differences of its own
// forward pass, on tiny models: every option the Lab offers, a few entries of every
// parameter, on the plain loops (float64: the WebAssembly kernel's float32 sums would drown a
// difference of 1e-6). (Parity with torch, both ways: tests/training/test_lab_js_parity.py.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { backward } from "../../static/lab/backward.js";
import { forward, lossWeights } from "../../static/lab/forward.js";
import { initParams, labConfig, labSettings, zerosLike } from "../../static/lab/params.js";
import { makeRng } from "../../static/lab/rng.js";
import { makeTape } from "../../static/lab/tape.js";
import { repeatBatch, repeatTask } from "../../static/lab/task.js";

const TINY = { d_model: 8, vocab: 11, n_ctx: 12 };
const CASES = [
  {},
  { pos: "none" },
  { pos: "sinusoidal" },
  { pos: "rotary", heads: 1 },
  { pos: "alibi", heads: 4 },
  { mlp: true, norm: true, layers: 1 },
  { layers: 3, norm: true },
  { copy_loss_only: true, mlp: true },
];

function setup(options) {
  const settings = labSettings({ ...TINY, ...options });
  const config = labConfig(settings);
  const rng = makeRng(3);
  // float64 weights: a difference of 1e-6 is then exact enough to check the gradient by
  const params = Object.fromEntries(
    Object.entries(initParams(config, rng)).map(([k, a]) => [
      k,
      Float64Array.from(a, (x) => x + 0.3 * rng.normal()), // LayerNorms off 1 and 0, too
    ]),
  );
  const task = repeatTask({ vocab_size: 11, n_ctx: 12, min_block: 2, max_block: 5 });
  const b = repeatBatch(task, 2, rng);
  const weights = lossWeights(b.copy, settings.copy_loss_only);
  const tape = makeTape(config, 2, 12, false); // float64 throughout: no float32 kernel
  const loss = () => forward(params, config, tape, b.tokens, weights);
  return { config, params, tape, b, weights, loss, rng };
}

for (const options of CASES) {
  test(`the gradient is the loss's finite difference: ${JSON.stringify(options)}`, () => {
    const { config, params, tape, b, weights, loss, rng } = setup(options);
    const grads = zerosLike(params);
    loss();
    backward(params, config, tape, b.tokens, weights, grads);
    const h = 1e-6;
    for (const [name, p] of Object.entries(params)) {
      for (let trial = 0; trial < 4; trial++) {
        const i = Math.floor(rng.uniform() * p.length),
          keep = p[i];
        p[i] = keep + h;
        const up = loss();
        p[i] = keep - h;
        const down = loss();
        p[i] = keep;
        const numeric = (up - down) / (2 * h);
        const err = Math.abs(numeric - grads[name][i]);
        assert.ok(
          err <= 1e-6 + 1e-5 * Math.abs(numeric),
          `${name}[${i}]: backward ${grads[name][i]}, finite difference ${numeric}`,
        );
      }
    }
  });
}

test("a parameter nothing reads gets a zero gradient (ln2 without an MLP)", () => {
  const { config, params, tape, b, weights, loss } = setup({ norm: true });
  const grads = zerosLike(params);
  loss();
  backward(params, config, tape, b.tokens, weights, grads);
  assert.ok(grads["blocks.0.ln2.weight"].every((g) => g === 0));
  assert.ok(grads["blocks.0.ln1.weight"].some((g) => g !== 0));
});
