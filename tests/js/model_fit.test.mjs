// The static page's Model knob reaches only trained models (static/site/model_fit.js): the
// masked-word model exists only with 4 heads and rotary positions, so with it chosen the
// knobs move there, the other choices are not offered, and the note says so in plain words;
// every next-word combination stays as it is.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fitModel } from "../../static/site/model_fit.js";

const HEADS = [1, 2, 4, 8];
const POS = ["none", "sinusoidal", "learned", "rotary", "alibi"];
const OBJECTIVES = { "next word (causal)": "causal", "masked word (bidirectional)": "bidir" };
const CAUSAL = HEADS.flatMap((h) => POS.map((p) => `causal-h${h}-${p}`));
const config = (models) => ({ models, objectives: OBJECTIVES, heads: HEADS, positional: POS });
const ZOO = config([...CAUSAL, "bidir-h4-rotary"]);
const MASKED = "masked word (bidirectional)";

test("masked word moves Heads and Positional encoding to its one model, saying so", () => {
  for (const [heads, pos] of [
    [2, "rotary"],
    [4, "none"],
    [8, "alibi"],
    ["1", "learned"],
  ]) {
    const f = fitModel(ZOO, { objective: MASKED, heads, pos });
    assert.equal(f.heads, 4);
    assert.equal(f.pos, "rotary");
    assert.deepEqual(f.headsOffered, [4]);
    assert.deepEqual(f.posOffered, ["rotary"]);
    assert.match(f.note, /^Only one masked-word model was trained \(4 heads, rotary\)/);
  }
});

test("next word keeps every combination, with nothing to say", () => {
  for (const heads of HEADS) {
    for (const pos of POS) {
      const f = fitModel(ZOO, { objective: "next word (causal)", heads: String(heads), pos });
      assert.deepEqual([f.heads, f.pos, f.note], [heads, pos, ""]);
      assert.deepEqual(f.headsOffered, HEADS);
      assert.deepEqual(f.posOffered, POS);
    }
  }
});

test("a missing combination among several moves to the nearest one that exists", () => {
  const some = config(["causal-h2-rotary", "causal-h2-none", "causal-h4-alibi"]);
  const f = fitModel(some, { objective: "next word (causal)", heads: 2, pos: "alibi" });
  assert.deepEqual([f.heads, f.pos], [2, "none"]); // the same heads kept (page order)
  assert.deepEqual(f.headsOffered, [2, 4]);
  assert.deepEqual(f.posOffered, ["none", "rotary"]);
  assert.equal(
    f.note,
    "No next-word model was trained with 2 heads, alibi: the knobs moved to 2 heads, none.",
  );
  const g = fitModel(some, { objective: "next word (causal)", heads: 8, pos: "alibi" });
  assert.deepEqual([g.heads, g.pos], [4, "alibi"]); // else the same positions
  const kept = fitModel(some, { objective: "next word (causal)", heads: 2, pos: "rotary" });
  assert.deepEqual([kept.heads, kept.pos, kept.note], [2, "rotary", ""]);
});

test("an objective with no model shipped offers everything (the grid says it is missing)", () => {
  const f = fitModel(config(CAUSAL), { objective: MASKED, heads: 2, pos: "none" });
  assert.deepEqual([f.heads, f.pos, f.note], [2, "none", ""]);
  assert.deepEqual(f.headsOffered, HEADS);
});
