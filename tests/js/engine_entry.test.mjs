// The engine's entry (static/engine/index.js, bundled as static/build/engine.js): what it adds
// to window.AttentionExplorer, merged with what is there, and how a page configures it with
// JSON (the element explorer/server/engine_route.py writes): the URLs it reads its files
// from, the hashes it checks them against, gridInBrowser, the default model fetched once the page is idle, engineReady. The
// page is two small stand-ins: a document that has the config element, and an idle queue.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { readFixture } from "./fixtures/read.mjs";

async function sha(file) {
  return createHash("sha256")
    .update(new Uint8Array(await readFixture(file)))
    .digest("hex");
}
const CONFIG = {
  urls: {
    "causal-h4-rotary": "ae-engine/0123/causal-h4-rotary.safetensors",
    "tokenizer.json": "ae-engine/4567/tokenizer.json",
    "causal-h2-none": "ae-engine/89ab/causal-h2-none.safetensors",
  },
  hashes: {
    "causal-h4-rotary.safetensors": await sha("causal-h4-rotary.safetensors"),
    "tokenizer.json": await sha("tokenizer.json"),
    "causal-h2-none.safetensors": "0".repeat(64), // not its bytes: refused
  },
  texts: "ae-engine/engine_texts.json",
  model: "causal-h4-rotary",
};
const idle = [];
const dispatched = [];
globalThis.AttentionExplorer = { grid: "the page's own" };
globalThis.document = {
  getElementById: (id) =>
    id === "ae-engine-config" ? { textContent: JSON.stringify(CONFIG) } : null,
};
globalThis.requestIdleCallback = (f) => idle.push(f);
globalThis.dispatchEvent = (event) => dispatched.push(event.type);
const entry = await import("../../static/engine/index.js");

test("the public interface is added to what the page had", async () => {
  const AE = globalThis.AttentionExplorer;
  assert.equal(AE.grid, "the page's own");
  for (const name of ["configure", "load", "loaded", "run", "runTyped", "loss", "rank"]) {
    assert.equal(typeof AE.engine[name], "function", name);
  }
  for (const name of ["setTexts", "configure", "texts", "displayToken", "plainLabel", "knobsOf"]) {
    assert.equal(typeof AE.payload[name], "function", name);
  }
  assert.equal(typeof AE.gridPayload, "function");
  assert.equal(AE.tokenizer.MAX_CHARS, 1000);
  assert.equal(typeof AE.tokenizer.fromJSON, "function");
  assert.equal(typeof AE.model.parseSafetensors, "function");
  assert.equal(await AE.engineReady, AE);
  assert.deepEqual(dispatched, ["ae-engine-ready"]);
  assert.equal(entry.engine, AE.engine);
});

test("the page's JSON configures the engine; the default model loads when idle", async () => {
  const AE = globalThis.AttentionExplorer;
  assert.equal(AE.gridInBrowser, true);
  assert.equal(idle.length, 1);
  const asked = [];
  AE.engine.configure({ read: (url) => (asked.push(url), readFixture(url)) });
  AE.payload.setTexts({}); // the texts are not what this test is about
  idle[0]();
  await AE.engine.load("causal-h4-rotary");
  await AE.engine.runTyped("", { model: "causal-h4-rotary" });
  assert.deepEqual(
    asked.sort(),
    [CONFIG.urls["causal-h4-rotary"], CONFIG.urls["tokenizer.json"]].sort(),
  );
  assert.equal(AE.engine.loaded("causal-h4-rotary"), true);
  // the page's hashes are checked: a file whose bytes differ is refused
  await assert.rejects(AE.engine.load("causal-h2-none"), /causal-h2-none\.safetensors is damaged/);
});
