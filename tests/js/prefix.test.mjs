// static/engine/prefix.js: a keystroke's pass reuses the rows of the last one (causal
// models). Typed one character at a time, deleted, edited mid-sentence, with knobs changed
// between keystrokes, one engine's patterns and guesses must be exactly a fresh engine's
// for the same text: the cache changes how much is computed, never a number.
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { createEngine } from "../../static/engine/engine.js";
import { bytesOf, ROOT } from "./fixtures/read.mjs";

const read = async (url) => bytesOf(path.join(ROOT, "checkpoints", String(url).split("/").pop()));
const SENTENCE = "Once there was a girl named Mia. Mia had a red ball. She gave it to";

function typed() {
  const texts = [];
  for (let i = 1; i <= SENTENCE.length; i += 5) texts.push(SENTENCE.slice(0, i));
  texts.push(SENTENCE, SENTENCE.slice(0, -6), SENTENCE.replace("girl", "boy"), "x", SENTENCE);
  return texts;
}

function engine(simd) {
  const e = createEngine();
  e.configure({ read, simd });
  return e;
}

function same(got, want, where) {
  assert.deepEqual(Array.from(got.patterns), Array.from(want.patterns), where);
  assert.deepEqual(got.guesses, want.guesses, where);
}

for (const simd of [true, false]) {
  test(`typing through one engine gives a fresh engine's numbers (simd ${simd})`, async () => {
    const typing = engine(simd);
    const knobs = [{}, { heads_off: [[1, 2]] }, { temperature: 0.5 }, { causal: false }, {}];
    let i = 0;
    for (const text of typed()) {
      const k = { model: "causal-h4-rotary", ...knobs[Math.floor(i++ / 4) % knobs.length] };
      const got = await typing.runTyped(text, k);
      const want = await engine(simd).runTyped(text, k);
      same(got, want, [text, k]);
    }
  });
}
