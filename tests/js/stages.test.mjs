// Inside one head in the browser (static/engine/stages.js, engine.run with detail: true)
// against explorer/analysis/stages.py's head_stages (tiny_detail.json, from
// scripts/export_js_fixtures.py): on the tiny models (every positional encoding, causal and
// bidirectional, mask off and on, scaling none, a temperature with ALiBi, the head shown
// switched off, a layer and head past the model's range), the same stages in the same order
// with the same names, shapes and words, every value within 1e-4 and -inf where Python has
// it; and a run without detail is the run it was.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createEngine } from "../../static/engine/engine.js";
import { fixture, readFixture } from "./fixtures/read.mjs";

const TOLERANCE = 1e-4;
const { stages: cases } = fixture("tiny_detail.json");

for (const simd of [true, false]) {
  describe(simd ? "with the WebAssembly SIMD kernel" : "with the plain loops", () => {
    const engine = createEngine();
    engine.configure({ read: readFixture, simd });

    test("every stage of detail is head_stages'", async () => {
      for (const want of cases) {
        const what = `${want.model} ${JSON.stringify(want.text)} ${JSON.stringify(want.knobs)}`;
        const r = await engine.run(want.text, { ...want.knobs, model: want.model, detail: true });
        const got = r.detail;
        assert.deepEqual([got.layer, got.head], [want.layer, want.head], what);
        assert.deepEqual(Object.keys(got.stages), want.keys, what);
        for (const key of want.keys) {
          const [g, w] = [got.stages[key], want.stages[key]];
          const where = `${what} ${key}`;
          for (const field of ["step", "title", "formula", "hook", "captured", "capturedDims"]) {
            assert.deepEqual(g[field], w[field], `${where} ${field}`);
          }
          for (const field of ["dims", "shape", "shapeText", "square"]) {
            assert.deepEqual(g[field], w[field], `${where} ${field}`);
          }
          assert.deepEqual(g.blocked || null, w.blocked, `${where} blocked`);
          assert.deepEqual(g.headColumns || null, w.headColumns, `${where} headColumns`);
          const flat = g.values.flat();
          assert.equal(flat.length, w.values.length, where);
          flat.forEach((v, i) => {
            const x = w.values[i];
            if (x === null) assert.equal(v, -Infinity, `${where} [${i}]`);
            else assert.ok(Math.abs(v - x) <= TOLERANCE, `${where} [${i}]: ${v} vs ${x}`);
          });
        }
      }
      assert.ok(cases.some((c) => c.stages.masked.values.includes(null)));
      assert.ok(cases.some((c) => c.knobs.causal === false && c.model.startsWith("causal")));
    });

    test("a run without detail computes what it did, and no stages", async () => {
      const knobs = { model: "causal-h4-rotary", layer: 1, head: 2 };
      const plain = await engine.runTyped("the cat sat on", knobs);
      const detailed = await engine.runTyped("the cat sat on", { ...knobs, detail: true });
      assert.equal(plain.detail, undefined);
      assert.deepEqual(detailed.patterns, plain.patterns);
      assert.deepEqual(detailed.guesses, plain.guesses);
      assert.ok(detailed.detail.stages.pattern.values instanceof Float32Array);
      const empty = await engine.run("", { ...knobs, detail: true });
      assert.deepEqual(empty.detail, { layer: 1, head: 2, stages: {} });
    });
  });
}
