// static/engine/tokenizer.js against the Python tokenizer on the real checkpoints/
// tokenizer.json: a few hundred strings (Unicode, spaces, punctuation, mask markers, special
// tokens, lone surrogates, cuts) exported by scripts/export_js_fixtures.py
// (tokenizer_cases.json): the same ids, offsets, pieces, decode and prepare facts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { clean } from "../../static/engine/pretokenize.js";
import { fromJSON, load } from "../../static/engine/tokenizer.js";
import { bytesOf, fixture, repoText, ROOT } from "./fixtures/read.mjs";

const { nCtx, cases } = fixture("tokenizer_cases.json");
const tok = fromJSON(JSON.parse(repoText("checkpoints/tokenizer.json")));
const label = (text) => JSON.stringify(text.slice(0, 60));

test("the fixtures hold a few hundred strings, hard ones among them", () => {
  assert.ok(cases.length >= 250);
  assert.ok(cases.some((c) => c.text.includes("[mask]")));
  assert.ok(cases.some((c) => c.prepared && c.prepared[0].cutTokens));
  assert.ok(cases.some((c) => c.prepared && c.prepared[0].cutChars));
});

test("ids are Python's", () => {
  for (const c of cases) assert.deepEqual(tok.encode(c.text), c.ids, label(c.text));
});

test("pieces and their code-point offsets are Python's", () => {
  for (const c of cases) {
    const points = Array.from(clean(c.text));
    const want = [];
    for (let i = 0; i < c.ids.length; i++) {
      const [start, end] = c.spans.slice(2 * i, 2 * i + 2);
      want.push({ id: c.ids[i], piece: points.slice(start, end).join(""), start, end });
    }
    assert.deepEqual(tok.pieces(c.text), want, label(c.text));
  }
});

test("decode is Python's", () => {
  for (const c of cases) assert.equal(tok.decode(c.ids), c.decoded, label(c.text));
});

test("prepare's facts are Python's (cuts, trailing spaces, mask markers)", () => {
  const hard = cases.filter((c) => c.prepared);
  assert.ok(hard.length >= 40);
  for (const c of hard) {
    [false, true].forEach((maskedWord, i) => {
      const got = tok.prepare(c.text, { nCtx, maskedWord });
      assert.deepEqual(got, c.prepared[i], `${label(c.text)} maskedWord=${maskedWord}`);
    });
  }
});

test("load() reads through the reader it is given", async () => {
  const read = async (url) => bytesOf(`${ROOT}/${url}`);
  const loaded = await load("checkpoints/tokenizer.json", read);
  assert.deepEqual(loaded.encode("The cat sat."), tok.encode("The cat sat."));
  assert.deepEqual([loaded.eotId, loaded.padId, loaded.maskId], [0, 1, 2]);
});

test("a tokenizer.json the port does not support is refused", () => {
  const obj = JSON.parse(repoText("checkpoints/tokenizer.json"));
  obj.model.ignore_merges = true;
  assert.throws(() => fromJSON(obj), /tokenizer.json not supported/);
});
