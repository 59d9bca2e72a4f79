// The loss and the head ranking in the browser (static/engine/losses.js, engine.loss and
// engine.rank) against explorer/analysis/losses.py and explorer/views/ablate.py's rank_heads
// (tiny_losses.json, from scripts/export_js_fixtures.py): loss_spec's scored positions on
// plain ids, every rule (too short, only [mask], the 16-word cut); the six tiny models' loss
// on short texts under the page's knobs (mask off, scaling none, heads off), and their
// rankings, every head in Python's order with its loss and rise, within 1e-4.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import path from "node:path";
import { createEngine } from "../../static/engine/engine.js";
import { lossSpec, MAX_MASKED } from "../../static/engine/losses.js";
import { Transformer } from "../../static/engine/model.js";
import { parseSafetensors } from "../../static/engine/safetensors.js";
import { bytesOf, fixture, readFixture, ROOT } from "./fixtures/read.mjs";

const TOLERANCE = 1e-4;
const { specs, losses, ranks } = fixture("tiny_losses.json");
const close = (a, b) => Math.abs(a - b) <= TOLERANCE;

test("the scored positions are loss_spec's", () => {
  assert.equal(MAX_MASKED, 16);
  for (const want of specs) {
    const what = `${want.causal ? "next-word" : "masked-word"} ${want.ids.length} ids`;
    const got = lossSpec(want.ids, want.causal, 2);
    if (want.reason) {
      assert.deepEqual(got, { reason: want.reason }, what);
      continue;
    }
    assert.equal(got.how, want.how, what);
    assert.equal(got.positions, want.cols.length, what);
    const rows = got.inputs.flatMap((input, row) => input.cols.map(() => row));
    assert.deepEqual(rows, want.rows, what);
    assert.deepEqual(
      got.inputs.flatMap((input) => input.cols),
      want.cols,
      what,
    );
    assert.deepEqual(
      got.inputs.flatMap((input) => input.targets),
      want.targets,
      what,
    );
    for (const input of got.inputs) {
      // the input is the sentence, with the scored word hidden for a masked-word model
      const hidden = want.ids.map((t, i) => (!want.causal && input.cols.includes(i) ? 2 : t));
      assert.deepEqual(input.ids, hidden, what);
    }
  }
  assert.ok(specs.some((s) => !s.causal && s.ids.length > 100 && s.cols.length === 16));
});

for (const simd of [true, false]) {
  describe(simd ? "with the WebAssembly SIMD kernel" : "with the plain loops", () => {
    const engine = createEngine();
    engine.configure({ read: readFixture, simd });

    test("engine.loss is the Python loss", async () => {
      let scored = 0;
      for (const want of losses) {
        const what = `${want.model} ${JSON.stringify(want.text)} ${JSON.stringify(want.knobs)}`;
        const got = await engine.loss(want.text, { ...want.knobs, model: want.model });
        assert.equal(got.positions, want.positions, what);
        assert.equal(got.how, want.how, what);
        if (want.loss === null) assert.equal(got.loss, null, what);
        else assert.ok(close(got.loss, want.loss), `${what}: ${got.loss} vs ${want.loss}`);
        scored += want.loss === null ? 0 : 1;
      }
      assert.ok(scored >= 12);
    });

    test("engine.rank is the Ablate view's ranking", async () => {
      for (const want of ranks) {
        const what = `${want.model} ${JSON.stringify(want.text)} ${JSON.stringify(want.knobs)}`;
        const got = await engine.rank(want.text, { ...want.knobs, model: want.model });
        assert.equal(got.how, want.how, what);
        assert.ok(close(got.base, want.base), `${what} base: ${got.base} vs ${want.base}`);
        assert.equal(got.heads.length, want.heads.length, what);
        got.heads.forEach((h, i) => {
          const [layer, head, loss, delta] = want.heads[i];
          assert.ok(close(h.loss, loss) && close(h.delta, delta), `${what} row ${i}`);
          // the same head in this place, unless Python's rises here are a near tie
          const tied = want.heads.some(
            ([l, hd, , d], j) => j !== i && close(d, delta) && l === h.layer && hd === h.head,
          );
          if (!tied) assert.deepEqual([h.layer, h.head], [layer, head], `${what} row ${i}`);
        });
      }
    });
  });
}

test("a pass resumed at a layer computes what a whole pass does, bit for bit", () => {
  const file = path.join(ROOT, "tests/js/fixtures/tiny/causal-h4-rotary.safetensors");
  const model = new Transformer(parseSafetensors(bytesOf(file)));
  const ids = [5, 40, 77, 9, 120, 3];
  const knobs = { causal: false, scale: "none", headsOff: [[1, 2]] };
  const whole = model.forward(ids, knobs, 4).logits;
  assert.throws(() => model.forward(ids, knobs, 4, { from: 1 }), /no stream saved/);
  model.forward(ids, { ...knobs, headsOff: [] }, null, { save: true });
  assert.deepEqual(model.forward(ids, knobs, 4, { from: 1 }).logits, whole);
  assert.notDeepEqual(model.forward(ids, { ...knobs, headsOff: [] }, 4).logits, whole);
  assert.throws(() => model.forward(ids.slice(1), knobs, 4, { from: 1 }), /no stream saved/);
});

test("a sentence with nothing to score says why; impossible knobs are refused", async () => {
  const engine = createEngine();
  engine.configure({ read: readFixture });
  const none = await engine.rank("a", { model: "causal-h4-rotary" });
  assert.deepEqual(none, {
    base: null,
    positions: 0,
    how: "The loss needs at least two tokens (one to read, one to guess).",
    heads: [],
  });
  await assert.rejects(
    engine.loss("the cat", { model: "causal-h2-none", heads_off: [[0, 2]] }),
    /does not exist/,
  );
  await assert.rejects(engine.rank("the cat", { model: "nope" }), /no model of that name/);
});
