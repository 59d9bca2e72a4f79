// The JavaScript side of tests/training/test_lab_js_parity.py: reads one case (a Lab
// model's weights and a batch, exported from Python, where torch is the live reference),
// runs the Lab's JavaScript math on it and writes what it got, for Python to compare.
//
//   node tests/js/lab_grad_cli.mjs IN.json OUT.json
//
// IN: {settings: {layers, heads, pos, mlp, norm, d_model, vocab, n_ctx}, params: {name:
//      [flat floats]}, tokens: [[int]] [batch, n], copy: [[0|1]] [batch, n - 1],
//      copy_only, simd (false: the plain float64 loops, not the WebAssembly kernel),
//      adam: {lr, grads: [{name: [flat floats]}] one set a step} (optional)}
// OUT: {loss, losses [batch * (n - 1)], grads: {name: [flat]}, previous_token and
//       induction [layer * head] (on this batch's patterns, the Lab's copy queries),
//       adam_params: {name: [flat]} after the steps (when IN has adam)}
import { readFileSync, writeFileSync } from "node:fs";
import { makeAdamW } from "../../static/lab/adamw.js";
import { backward } from "../../static/lab/backward.js";
import { forward, lossWeights } from "../../static/lab/forward.js";
import { labConfig, labSettings, paramShapes, zerosLike } from "../../static/lab/params.js";
import { copyQueries, inductionScores, previousTokenScores } from "../../static/lab/scores.js";
import { makeTape } from "../../static/lab/tape.js";

const [input, output] = process.argv.slice(2);
const job = JSON.parse(readFileSync(input, "utf8"));
const config = labConfig(labSettings(job.settings));
const params = {};
for (const [name] of paramShapes(config)) {
  if (!job.params[name]) throw new Error(`the case has no ${name}`);
  params[name] = Float32Array.from(job.params[name]);
}
const batch = job.tokens.length,
  n = job.tokens[0].length;
const tokens = Int32Array.from(job.tokens.flat());
const copy = Uint8Array.from(job.copy.flat());
const weights = lossWeights(copy, !!job.copy_only);
const tape = makeTape(config, batch, n, job.simd !== false);
const grads = zerosLike(params);
const loss = forward(params, config, tape, tokens, weights);
backward(params, config, tape, tokens, weights, grads);
const patterns = tape.layers.map((L) => L.P);
const dims = { batch, n, n_heads: config.n_heads };
const out = {
  loss,
  losses: Array.from(tape.losses),
  grads: Object.fromEntries(Object.entries(grads).map(([k, g]) => [k, Array.from(g)])),
  previous_token: Array.from(previousTokenScores(patterns, dims)),
  induction: Array.from(inductionScores(patterns, dims, tokens, copyQueries(copy, batch, n))),
  simd: tape.scratch.simd,
};
if (job.adam) {
  const opt = makeAdamW(params, { lr: job.adam.lr });
  for (const set of job.adam.grads) {
    opt.step(Object.fromEntries(Object.entries(set).map(([k, g]) => [k, Float64Array.from(g)])));
  }
  out.adam_params = Object.fromEntries(Object.entries(params).map(([k, p]) => [k, Array.from(p)]));
}
writeFileSync(output, JSON.stringify(out));
