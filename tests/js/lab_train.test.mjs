// The Lab's training run in JavaScript (static/lab/train.js): its events and summary as
// lab.py's, determinism, stopping. The long check (does an induction head form with the
// defaults, in 2 layers and not in 1?) trains for minutes: it runs with LAB_SMOKE=1 only.
//
//   LAB_SMOKE=1 node --test tests/js/lab_train.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { makeRun, train } from "../../static/lab/train.js";

const TINY = { d_model: 16, vocab: 20, n_ctx: 64, batch: 4, update_s: 0, max_steps: 3 };

test("a run reports a start, an update a step and a summary, as lab.py's", async () => {
  const events = [];
  const done = await train(TINY, { onEvent: (e) => events.push(e), withProbe: true });
  assert.deepEqual(
    events.map((e) => e.kind),
    ["start", "update", "update", "update", "done"],
  );
  assert.equal(done, events.at(-1));
  assert.equal(done.steps, 3);
  assert.equal(done.stopped, false);
  const first = events[0];
  assert.equal(first.induction.length, 2); // [layer][head]
  assert.equal(first.induction[0].length, 2);
  assert.equal(first.probe[0][0].length, 25); // [layer][head][q][k] on BOS + 12 + 12
  assert.ok(first.loss_copy > 2 && first.loss_fresh > 2);
  assert.equal(done.chance_loss, Math.round(Math.log(19) * 1e4) / 1e4);
  assert.deepEqual(Object.keys(done.final).sort(), [
    "best_induction",
    "best_previous_token",
    "induction",
    "loss_copy",
    "loss_fresh",
    "previous_token",
  ]);
});

test("one seed, one run; the loss falls", () => {
  const losses = (seed) => {
    const run = makeRun({ ...TINY, seed, lr: 1e-2 });
    return Array.from({ length: 12 }, () => run.step());
  };
  const a = losses(1);
  assert.deepEqual(a, losses(1));
  assert.notDeepEqual(a, losses(2));
  assert.ok(a.at(-1) < a[0], `${a[0]} -> ${a.at(-1)}`);
});

test("an abort ends the run before its next step", async () => {
  const controller = new AbortController();
  let updates = 0;
  const onEvent = (e) => {
    if (e.kind === "update" && ++updates === 2) controller.abort();
  };
  const done = await train({ ...TINY, max_steps: 50 }, { onEvent, signal: controller.signal });
  assert.equal(done.stopped, true);
  assert.equal(done.steps, 2);
});

const SMOKE = process.env.LAB_SMOKE === "1";

// stops a run as soon as an induction head forms; prints its progress every 50 steps
function untilFormed() {
  let formed = false;
  const onEvent = (e) => {
    if (e.kind !== "done" && e.step % 50 < 2)
      console.log(`step ${e.step} ${e.wall_s} s induction ${e.best_induction}`);
    formed = formed || !!e.formed_now;
  };
  return { onEvent, shouldStop: () => formed };
}

test("the defaults: 2 layers form an induction head, 1 does not", { skip: !SMOKE }, async () => {
  const done2 = await train({ seconds: 600 }, untilFormed());
  const took = (d) => `${d.seconds} s of training, ${d.wall_s} s with the measuring`;
  console.log(`2 layers: formed at step ${done2.formed_at_step}, ${took(done2)}`);
  assert.ok(done2.formed && done2.formed_at_step <= 3000);
  const steps = Number(process.env.LAB_SMOKE_ONE_LAYER_STEPS || 3000);
  const done1 = await train({ layers: 1, seconds: 600, max_steps: steps }, untilFormed());
  console.log(
    `1 layer: best induction ${done1.best_induction}, ${done1.steps} steps, ${took(done1)}`,
  );
  assert.ok(!done1.formed);
});

test("update_every: an event every N steps, whatever the clock says", async () => {
  let t = 0;
  const steps = [];
  const fast = () => (t += 0.001),
    slow = () => (t += 5); // a device 5,000 times slower: the same events
  for (const now of [fast, slow]) {
    const at = [];
    await train(
      { ...TINY, update_s: 0.4, update_every: 4, max_steps: 10 },
      {
        now,
        onEvent: (e) => e.kind !== "done" && at.push(e.step),
      },
    );
    steps.push(at);
  }
  assert.deepEqual(steps, [
    [0, 4, 8, 10],
    [0, 4, 8, 10],
  ]);
  assert.throws(() => makeRun({ ...TINY, update_every: 1.5 }), /update_every/);
});

test("a time cap, when set, cuts the run short and says so; none by default", async () => {
  let t = 0;
  const now = () => (t += 0.5); // every reading of the clock: half a second later
  const cut = await train({ ...TINY, max_steps: 50, seconds: 2 }, { now });
  assert.equal(cut.timed_out, true);
  assert.equal(cut.stopped, true); // a run cut short is not a result
  assert.ok(cut.steps < 50);
  const whole = await train({ ...TINY, max_steps: 5 }, { now });
  assert.equal(whole.timed_out, false);
  assert.equal(whole.steps, 5);
});

test("the worker trains on a message, posts every event and stops on one", async () => {
  const posted = [];
  const scope = { postMessage: (e) => posted.push(e) }; // the worker's global, faked
  globalThis.self = scope;
  await import("../../static/lab/worker.js");
  const finished = new Promise((resolve) => {
    scope.postMessage = (e) => {
      posted.push(e);
      if (e.kind === "update") scope.onmessage({ data: { kind: "stop" } });
      if (e.kind === "done" || e.kind === "error") resolve();
    };
  });
  scope.onmessage({ data: { kind: "train", settings: { ...TINY, max_steps: 50 } } });
  await finished;
  assert.deepEqual(
    posted.map((e) => e.kind),
    ["start", "update", "done"],
  );
  assert.equal(posted.at(-1).stopped, true);
  posted.length = 0;
  await scope.onmessage({ data: { kind: "train", settings: { heads: 3 } } });
  assert.deepEqual(posted, [{ kind: "error", message: "heads must be 1, 2 or 4" }]);
  delete globalThis.self;
});
