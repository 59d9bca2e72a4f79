// The word-shuffle test and the guesses before -> after in the browser (static/engine/
// shuffle.js and numpy_random.js: engine.shuffle; ablation.js: engine.ablate) against the
// Python (tiny_steps.json, from scripts/export_js_fixtures.py): numpy's
// default_rng(seed).permutation(n) drawn one after another, for small and huge seeds;
// word_starts and word_permutation on pieces that start with spaces Python counts and
// JavaScript's \s does not (and the other way round); shuffle_experiment on the six tiny
// models (every encoding, a masked-word model, one word, a head out of range, heads off):
// the same order, head, top guesses changed, and every pattern and difference within 1e-4;
// and explorer.views.ablate.ablate: the guesses before -> after, the top guess's change and
// the loss both ways.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createEngine } from "../../static/engine/engine.js";
import { defaultRng } from "../../static/engine/numpy_random.js";
import { wordPermutation, wordStarts } from "../../static/engine/shuffle.js";
import { fixture, readFixture } from "./fixtures/read.mjs";

const TOLERANCE = 1e-4;
const { permutations, words, shuffles, ablations } = fixture("tiny_steps.json");
const close = (a, b) => Math.abs(a - b) <= TOLERANCE;

function sameSquare(got, want, what) {
  assert.equal(got.length, want.length, what);
  got.forEach((row, i) =>
    row.forEach((v, j) =>
      assert.ok(close(v, want[i][j]), `${what} [${i}][${j}] ${v} vs ${want[i][j]}`),
    ),
  );
}

test("defaultRng(seed).permutation is numpy's", () => {
  for (const { seed, lengths, drawn } of permutations) {
    const rng = defaultRng(BigInt(seed));
    lengths.forEach((n, i) =>
      assert.deepEqual(rng.permutation(n), drawn[i], `seed ${seed} n ${n}`),
    );
  }
  assert.throws(() => defaultRng(-1), /non-negative/);
});

test("the words and their shuffled order are word_starts' and word_permutation's", () => {
  for (const { pieces, starts, orders } of words) {
    assert.deepEqual(wordStarts(pieces), starts, JSON.stringify(pieces));
    orders.forEach((order, seed) =>
      assert.deepEqual(wordPermutation(pieces, seed), order, `${JSON.stringify(pieces)} ${seed}`),
    );
  }
  assert.ok(words.some((w) => w.orders[0] === null) && words.some((w) => w.orders[0] !== null));
});

for (const simd of [true, false]) {
  describe(simd ? "with the WebAssembly SIMD kernel" : "with the plain loops", () => {
    const engine = createEngine();
    engine.configure({ read: readFixture, simd });

    test("engine.shuffle is shuffle_experiment's", async () => {
      for (const want of shuffles) {
        const what = `${want.model} ${JSON.stringify(want.text)} ${JSON.stringify(want.knobs)}`;
        const got = await engine.shuffle(want.text, {
          ...want.knobs,
          model: want.model,
          seed: want.seed,
        });
        assert.deepEqual(
          [got.tokens, got.shuffledTokens, got.perm],
          [want.tokens, want.shuffledTokens, want.perm],
          what,
        );
        assert.deepEqual(
          [got.layer, got.head, got.topChanged],
          [want.layer, want.head, want.topChanged],
          what,
        );
        assert.ok(close(got.maxDiffHead, want.maxDiffHead), `${what} maxDiffHead`);
        assert.ok(close(got.maxDiffAll, want.maxDiffAll), `${what} maxDiffAll`);
        for (const k of ["original", "shuffled", "restored"]) {
          if (want[k] === null) assert.equal(got[k], null, `${what} ${k}`);
          else sameSquare(got[k], want[k], `${what} ${k}`);
        }
      }
      // no positions: nothing but the words tells the orders apart
      const none = shuffles.filter((s) => s.model.endsWith("-none") && s.perm);
      assert.ok(none.length && none.every((s) => s.maxDiffAll < 1e-4));
      assert.ok(shuffles.some((s) => s.maxDiffAll > 0.01 && s.topChanged > 0));
    });

    test("engine.ablate is ablate's, with the guesses before -> after", async () => {
      for (const want of ablations) {
        const what = `${want.model} ${JSON.stringify(want.text)} ${JSON.stringify(want.knobs)}`;
        const got = await engine.ablate(want.text, { ...want.knobs, model: want.model });
        assert.deepEqual(
          [got.tokens, got.predictAt, got.how],
          [want.tokens, want.predictAt, want.how],
          what,
        );
        assert.deepEqual(
          got.guesses.map((r) => r.token),
          want.guesses.map((r) => r[0]),
          what,
        );
        got.guesses.forEach((r, i) => {
          assert.ok(
            close(r.on, want.guesses[i][1]) && close(r.off, want.guesses[i][2]),
            `${what} ${i}`,
          );
        });
        for (const k of ["lossOn", "lossOff"]) {
          if (want[k] === null) assert.equal(got[k], null, `${what} ${k}`);
          else assert.ok(close(got[k], want[k]), `${what} ${k} ${got[k]} vs ${want[k]}`);
        }
        if (want.top === null) {
          assert.equal(got.top, null, what);
          continue;
        }
        assert.deepEqual([got.top.was, got.top.now], [want.top.was, want.top.now], what);
        for (const k of ["wasOn", "wasOff", "nowOff"])
          assert.ok(close(got.top[k], want.top[k]), `${what} ${k}`);
      }
      assert.ok(ablations.some((a) => a.top && a.top.was !== a.top.now));
    });
  });
}
