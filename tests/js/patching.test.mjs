// Activation patching in the browser (static/engine/patching.js, engine.patch) against
// explorer/analysis/patching.py's patch and the Patch view's guesses (tiny_detail.json, from
// scripts/export_js_fixtures.py): on pairs of texts through the tiny next-word models, the
// same answer and competitor, both logit differences within 1e-4, every head's and every
// (layer, position)'s share within 1e-3 and null where Python's are (a pair under MIN_GAP),
// the head patched (the best, or the one asked for) with its logit difference and guess, and
// the guesses corrupted -> patched.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createEngine } from "../../static/engine/engine.js";
import { MIN_GAP } from "../../static/engine/patching.js";
import { fixture, readFixture } from "./fixtures/read.mjs";

const SHARES = 1e-3;
const TOLERANCE = 1e-4;
const { patches } = fixture("tiny_detail.json");
const close = (a, b, tol) => Math.abs(a - b) <= tol;

function sameGrid(got, want, tol, where) {
  assert.equal(got.length, want.length, where);
  got.forEach((row, i) => {
    assert.equal(row.length, want[i].length, `${where} row ${i}`);
    row.forEach((v, j) =>
      assert.ok(close(v, want[i][j], tol), `${where} [${i}][${j}]: ${v} vs ${want[i][j]}`),
    );
  });
}

for (const simd of [true, false]) {
  describe(simd ? "with the WebAssembly SIMD kernel" : "with the plain loops", () => {
    const engine = createEngine();
    engine.configure({ read: readFixture, simd });

    test("engine.patch is patch's", async () => {
      for (const want of patches) {
        const what = `${want.model} ${JSON.stringify(want.corrupt)} ${JSON.stringify(want.knobs)}`;
        const knobs = { ...want.knobs, model: want.model };
        if (want.patchHead) knobs.patchHead = { layer: want.patchHead[0], head: want.patchHead[1] };
        const got = await engine.patch(want.clean, want.corrupt, knobs);
        assert.deepEqual([got.answer, got.wrong], [want.answer, want.wrong], what);
        assert.ok(close(got.ld_clean, want.ld_clean, TOLERANCE), `${what} ld_clean`);
        assert.ok(close(got.ld_corrupt, want.ld_corrupt, TOLERANCE), `${what} ld_corrupt`);
        if (want.heads === null) {
          for (const k of ["heads", "positions", "patched", "guesses"])
            assert.equal(got[k], null, what);
          continue;
        }
        sameGrid(got.heads, want.heads, SHARES, `${what} heads`);
        sameGrid(got.positions, want.positions, SHARES, `${what} positions`);
        const { layer, head, ld, guess } = want.patched;
        assert.deepEqual(
          [got.patched.layer, got.patched.head, got.patched.guess],
          [layer, head, guess],
          what,
        );
        assert.ok(close(got.patched.ld, ld, 1e-3), `${what} patched ld ${got.patched.ld} vs ${ld}`);
        assert.deepEqual(
          got.guesses.map((r) => r.token),
          want.guesses.map((r) => r[0]),
          `${what} guesses`,
        );
        got.guesses.forEach((r, i) => {
          assert.ok(close(r.corrupted, want.guesses[i][1], TOLERANCE), `${what} guess ${i}`);
          assert.ok(close(r.patched, want.guesses[i][2], TOLERANCE), `${what} guess ${i}`);
        });
      }
      const gaps = patches.map((p) => Math.abs(p.ld_clean - p.ld_corrupt));
      assert.ok(gaps.some((g) => g < MIN_GAP) && gaps.filter((g) => g >= MIN_GAP).length >= 4);
    });
  });
}

test("pairs that cannot be patched are refused in words", async () => {
  const engine = createEngine();
  engine.configure({ read: readFixture });
  const model = "causal-h4-rotary";
  await assert.rejects(
    engine.patch("the cat", "the dog ran", { model }),
    /same number of tokens \(2 and 3\)/,
  );
  await assert.rejects(engine.patch("", "", { model }), /same number of tokens/);
  await assert.rejects(
    engine.patch("the cat", "the dog", { model: "bidir-h4-rotary" }),
    /next-word model/,
  );
  await assert.rejects(
    engine.patch("the mat. the dog", "the mat. the cat", {
      model,
      patchHead: { layer: 2, head: 0 },
    }),
    /does not exist/,
  );
});
