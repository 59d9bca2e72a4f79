// The grid's payload built in the browser (static/engine/payload.js) against the server's
// (explorer/views/grid_payload.py grid_payload) on the tiny zoo of scripts/
// export_js_fixtures.py (payload_cases.json, with explorer/views/engine_texts.py's words):
// sentences and knobs that make every kind of caption (interventions, cut notices,
// unfamiliar characters, a masked word with no mask, the empty state). Captions, labels,
// controls and guesses are Python's; the cells (whole percent) agree within 1.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createEngine } from "../../static/engine/engine.js";
import { createPayload } from "../../static/engine/payload.js";
import { fixture, readFixture } from "./fixtures/read.mjs";

const { texts, cases } = fixture("payload_cases.json");

function payloadSide() {
  const engine = createEngine();
  engine.configure({ read: readFixture });
  const payload = createPayload(engine);
  payload.setTexts(texts);
  return payload;
}

// the payload but its cells and guesses (compared within a tolerance)
const plain = (p) =>
  Object.fromEntries(Object.entries(p).filter(([k]) => !["z", "guesses"].includes(k)));
const cells = (p) => Uint8Array.from(atob(p.z), (c) => c.charCodeAt(0));

test("every case's payload is the server's", async () => {
  const payload = payloadSide();
  assert.ok(cases.length >= 8 && cases.some((c) => !c.payload.ok));
  for (const { text, controls, payload: want } of cases) {
    const what = `${JSON.stringify(text.slice(0, 40))} ${JSON.stringify(controls)}`;
    const got = await payload.gridPayload(text, controls, { fetch: true });
    assert.ok(got, what);
    assert.deepEqual(plain(got), plain(want), what);
    if (!want.ok) continue;
    const [a, b] = [cells(got), cells(want)];
    assert.equal(a.length, b.length, what);
    let differ = 0;
    for (let i = 0; i < a.length; i++) {
      assert.ok(Math.abs(a[i] - b[i]) <= 1, `${what}: cell ${i}`);
      differ += a[i] !== b[i];
    }
    assert.ok(differ <= Math.max(1, a.length / 100), `${what}: ${differ} cells differ`);
    assert.deepEqual(
      got.guesses.map((g) => g[0]),
      want.guesses.map((g) => g[0]),
      what,
    );
    got.guesses.forEach((g, i) => assert.ok(Math.abs(g[1] - want.guesses[i][1]) <= 2e-4, what));
  }
});

test("without fetch, a model not yet in memory answers null while it loads", async () => {
  const payload = payloadSide();
  const { text, controls } = cases[0];
  assert.equal(await payload.gridPayload(text, controls), null);
  assert.ok(await payload.gridPayload(text, controls, { fetch: true }));
  assert.ok(await payload.gridPayload(text, controls)); // in memory now
});

test("knobs the browser has no model for answer null (the page asks the server)", async () => {
  const payload = payloadSide();
  const controls = { ...cases[0].controls, objective: texts.controls.lab };
  assert.equal(await payload.gridPayload("the cat", controls, { fetch: true }), null);
  assert.equal(payload.knobsOf({ ...cases[0].controls, pos: "spiral" }), null);
});

test("labels are Python's: visible spaces, named invisible characters, the cut", () => {
  const payload = payloadSide();
  assert.equal(payload.displayToken(" a\tb\n"), "\u2423a\u21e5b\u21b5");
  assert.equal(payload.displayToken("\u200b"), "\u27e8ZWSP\u27e9");
  assert.equal(payload.displayToken(""), "\u2205");
  assert.equal(payload.plainLabel("abcdefghij", 8), "abcdefg\u2026");
});

test("heads switched off are named in the payload, for the grid to draw them off", async () => {
  const payload = payloadSide();
  const { text, controls } = cases[0];
  const on = await payload.gridPayload(text, controls, { fetch: true });
  assert.ok(on.ok && !("off" in on)); // as the server's: no key without heads off
  const off = await payload.gridPayload(text, controls, { fetch: true, heads_off: [[1, 3]] });
  assert.deepEqual(off.off, [[1, 3]]);
  assert.match(off.caption, /experiment/);
});
