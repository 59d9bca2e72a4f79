// The Lab's task and generator (static/lab/task.js, rng.js): the rules of
// explorer/training/lab_task.py (tests/training/test_lab.py checks the same on the Python's
// batches), and one seed, one batch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { makeRng } from "../../static/lab/rng.js";
import { BOS, probe, repeatBatch, repeatTask } from "../../static/lab/task.js";

test("a batch says a random block twice and marks what a copy predicts", () => {
  const task = repeatTask();
  const b = repeatBatch(task, 50, makeRng(3));
  const n = 64;
  assert.equal(b.tokens.length, 50 * n);
  assert.equal(b.copy.length, 50 * (n - 1));
  const lengths = new Set();
  for (let r = 0; r < 50; r++) {
    const row = b.tokens.subarray(r * n, (r + 1) * n),
      copy = b.copy.subarray(r * (n - 1), (r + 1) * (n - 1)),
      fresh = b.fresh.subarray(r * (n - 1), (r + 1) * (n - 1));
    assert.equal(row[0], BOS);
    assert.ok(row.slice(1).every((t) => t >= 1 && t < 64));
    const len = copy.reduce((a, c) => a + c, 0) + 1; // the second copy's first is unpredictable
    lengths.add(len);
    assert.deepEqual(
      Array.from(row.slice(1, 1 + len)),
      Array.from(row.slice(1 + len, 1 + 2 * len)),
    );
    const targets = [];
    copy.forEach((c, i) => c && targets.push(i + 1));
    assert.deepEqual(
      targets,
      Array.from({ length: len - 1 }, (_, i) => len + 2 + i),
    );
    assert.equal(
      fresh.reduce((a, c) => a + c, 0),
      63 - 2 * len,
    );
    assert.ok(copy.every((c, i) => !(c && fresh[i])));
  }
  assert.ok(lengths.size > 5 && Math.min(...lengths) >= 8 && Math.max(...lengths) <= 31);
});

test("one seed gives one batch; another seed another", () => {
  const task = repeatTask();
  const a = repeatBatch(task, 8, makeRng(1)),
    again = repeatBatch(task, 8, makeRng(1)),
    other = repeatBatch(task, 8, makeRng(2));
  assert.deepEqual(a.tokens, again.tokens);
  assert.deepEqual(a.copy, again.copy);
  assert.notDeepEqual(a.tokens, other.tokens);
  assert.equal(probe(task, makeRng(0)).length, 25);
});

test("the generator: uniform in [0, 1), ints in range, normals of mean 0 and std 1", () => {
  const rng = makeRng(0);
  let sum = 0,
    sq = 0;
  const N = 20000;
  for (let i = 0; i < N; i++) {
    const u = rng.uniform(),
      k = rng.int(3, 7),
      z = rng.normal();
    assert.ok(u >= 0 && u < 1 && k >= 3 && k < 7 && Number.isInteger(k));
    sum += z;
    sq += z * z;
  }
  assert.ok(Math.abs(sum / N) < 0.03 && Math.abs(sq / N - 1) < 0.05);
});

test("the task refuses blocks that do not fit twice", () => {
  assert.throws(() => repeatTask({ n_ctx: 20 }), /fit twice/);
});
