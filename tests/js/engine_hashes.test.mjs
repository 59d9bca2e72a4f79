// engine.configure({hashes}) (static/engine/engine.js): a file whose sha256 the page names is
// checked before it is parsed. Intact files load; a model or tokenizer with one byte flipped
// is refused with the message a student reads, and loads once intact again; without a hash
// the same damaged bytes are not checked (the engine parses them as before).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { createEngine } from "../../static/engine/engine.js";
import { readFixture } from "./fixtures/read.mjs";

const MODEL = "causal-h4-rotary";
const FILE = `${MODEL}.safetensors`;
const sha = (buffer) => createHash("sha256").update(new Uint8Array(buffer)).digest("hex");
const HASHES = {
  [FILE]: sha(await readFixture(FILE)),
  "tokenizer.json": sha(await readFixture("tokenizer.json")),
};

// readFixture, with one byte flipped near the end of the files `damaged` names (in a
// model, among the weights: its header still parses)
function reader(damaged) {
  return async (url) => {
    const bytes = new Uint8Array((await readFixture(url)).slice(0));
    if (damaged.has(String(url).replace(/^.*\//, ""))) bytes[bytes.length - 3] ^= 0x40;
    return bytes.buffer;
  };
}

test("files whose bytes match their hashes load and run", async () => {
  const engine = createEngine();
  engine.configure({ read: readFixture, hashes: HASHES });
  const r = await engine.runTyped("the cat sat", { model: MODEL });
  assert.ok(r.n > 0 && r.guesses.length === 3);
  assert.ok(engine.loaded(MODEL));
});

test("a damaged model is refused in plain words, and loads once intact", async () => {
  const engine = createEngine();
  const damaged = new Set([FILE]);
  engine.configure({ read: reader(damaged), hashes: HASHES });
  const message =
    "The model file causal-h4-rotary.safetensors is damaged (its checksum does not match): " +
    "download the page again.";
  await assert.rejects(engine.load(MODEL), { message });
  await assert.rejects(engine.runTyped("the cat", { model: MODEL }), { message });
  assert.equal(engine.loaded(MODEL), false);
  damaged.clear(); // downloaded again: the failed load is not kept
  assert.ok(await engine.load(MODEL));
});

test("a damaged tokenizer is refused in plain words", async () => {
  const engine = createEngine();
  engine.configure({ read: reader(new Set(["tokenizer.json"])), hashes: HASHES });
  await assert.rejects(engine.runTyped("the cat", { model: MODEL }), {
    message:
      "The tokenizer file tokenizer.json is damaged (its checksum does not match): " +
      "download the page again.",
  });
});

test("without a hash the same damaged bytes are not checked", async () => {
  const engine = createEngine();
  engine.configure({ read: reader(new Set([FILE])) });
  const model = await engine.load(MODEL); // parsed as before: no check to refuse it
  assert.equal(model.config.n_heads, 4);
  // a hash for another file only checks that file
  const other = createEngine();
  other.configure({
    read: reader(new Set([FILE])),
    hashes: { "tokenizer.json": HASHES["tokenizer.json"] },
  });
  assert.ok(await other.runTyped("the cat", { model: MODEL }));
});
