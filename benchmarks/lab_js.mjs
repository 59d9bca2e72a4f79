// The Lab's JavaScript trainer (static/lab/) on this machine, in Node: milliseconds per
// default training step (median over --steps steps after --warmup), split into its phases
// (the batch, forward, backward, AdamW; and one measurement: the held-out forward pass and
// the head scores, taken every update_s of training), then a seed-0 run as the page trains it, up
// to the event that finds its induction head formed (--form 0 skips it). Prints the load average before and after:
// on a shared box the numbers mean little without it.
//
//   node benchmarks/lab_js.mjs [--steps 40] [--warmup 10] [--form 1] [--layers 2] [--seed 0]
/* global process, console, performance -- Node's (eslint.config.js gives benchmarks/ none) */
import { loadavg } from "node:os";
import { makeAdamW } from "../static/lab/adamw.js";
import { backward } from "../static/lab/backward.js";
import { forward, lossWeights } from "../static/lab/forward.js";
import { initParams, labConfig, labSettings, zerosLike } from "../static/lab/params.js";
import { makeRng } from "../static/lab/rng.js";
import { makeTape } from "../static/lab/tape.js";
import { repeatBatch, repeatTask } from "../static/lab/task.js";
import { makeRun, train } from "../static/lab/train.js";

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(" ")
    .split("--")
    .filter(Boolean)
    .map((a) => a.trim().split(/\s+/))
    .map(([k, v]) => [k, Number(v)]),
);
const opt = { steps: 40, warmup: 10, form: 1, layers: 2, seed: 0, ...args };
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => x.toFixed(1).padStart(7);

console.log(`load average before: ${load()}`);
const settings = labSettings({ layers: opt.layers, seed: opt.seed });
const config = labConfig(settings),
  task = repeatTask({ vocab_size: settings.vocab, n_ctx: settings.n_ctx });
const params = initParams(config, makeRng(2 * settings.seed)),
  grads = zerosLike(params),
  adam = makeAdamW(params, { lr: settings.lr }),
  rng = makeRng(2 * settings.seed + 1),
  tape = makeTape(config, settings.batch, settings.n_ctx);
// wall and CPU milliseconds (the process's CPU time: on a busy box, the less disturbed)
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const clock = () => [performance.now(), cpu()];
const names = ["batch", "forward", "backward", "adamw", "step", "measure"];
const wall = Object.fromEntries(names.map((k) => [k, []])),
  used = Object.fromEntries(names.map((k) => [k, []]));
const note = (k, a, b) => {
  wall[k].push(b[0] - a[0]);
  used[k].push(b[1] - a[1]);
};
for (let s = 0; s < opt.warmup + opt.steps; s++) {
  const t0 = clock();
  const b = repeatBatch(task, settings.batch, rng),
    weights = lossWeights(b.copy, settings.copy_loss_only);
  const t1 = clock();
  forward(params, config, tape, b.tokens, weights);
  const t2 = clock();
  backward(params, config, tape, b.tokens, weights, grads);
  const t3 = clock();
  adam.step(grads);
  const t4 = clock();
  if (s < opt.warmup) continue;
  note("batch", t0, t1);
  note("forward", t1, t2);
  note("backward", t2, t3);
  note("adamw", t3, t4);
  note("step", t0, t4);
}
const run = makeRun({ layers: opt.layers, seed: opt.seed });
for (let i = 0; i < 10; i++) {
  const t0 = clock();
  run.measure(null);
  if (i >= 2) note("measure", t0, clock());
}
console.log(
  `${settings.layers} layers x ${settings.heads} heads, d_model ${settings.d_model}, ` +
    `batch ${settings.batch}, n_ctx ${settings.n_ctx}; median of ${opt.steps} steps ` +
    `after ${opt.warmup} (ms, wall and CPU):`,
);
for (const k of names) {
  const tail = k === "measure" ? `  (once per update_s ${settings.update_s} s of training)` : "";
  console.log(`  ${k.padEnd(9)} ${ms(median(wall[k]))} ${ms(median(used[k]))}${tail}`);
}
console.log(`load average after steps: ${load()}`);
if (opt.form) {
  // the run as the page trains it (train.js: an event every update_s of training, each
  // measuring 64 held-out sequences), stopped at the first event that finds the head formed
  const t0 = performance.now();
  let events = 0,
    formedAt = null;
  const done = await train(
    { layers: opt.layers, seed: opt.seed },
    {
      onEvent: (e) => {
        events++;
        if (e.formed_now) formedAt = { ...e, wall: (performance.now() - t0) / 1000 };
      },
      shouldStop: () => formedAt !== null,
    },
  );
  if (formedAt)
    console.log(
      `seed ${opt.seed}, ${opt.layers} layers: formed at step ${formedAt.step} after ` +
        `${formedAt.seconds.toFixed(1)} s of training, ${formedAt.wall.toFixed(1)} s wall ` +
        `(${events} events; best induction ${formedAt.best_induction})`,
    );
  else console.log(`seed ${opt.seed}: not formed in ${done.steps} steps (${done.wall_s} s wall)`);
  console.log(`load average after the run: ${load()}`);
}
