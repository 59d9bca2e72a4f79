// The engine's forward pass (static/engine/model.js, engine.js) against explorer/models/
// transformer.py on six tiny seeded models (tiny_runs.json and tiny/*.safetensors, from
// scripts/export_js_fixtures.py: d_model 32, 2 layers, 1-8 heads, every positional
// encoding, causal and bidirectional, the page's knobs): the same ids and tokens, every
// attention weight, the logits and the guesses within 1e-4, with the WebAssembly SIMD
// kernel and with the plain loops.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { createEngine } from "../../static/engine/engine.js";
import { Transformer } from "../../static/engine/model.js";
import { parseSafetensors } from "../../static/engine/safetensors.js";
import { fromJSON } from "../../static/engine/tokenizer.js";
import { bytesOf, fixture, readFixture, ROOT } from "./fixtures/read.mjs";

const TOLERANCE = 1e-4;
const { runs } = fixture("tiny_runs.json");
const NAMES = Object.keys(runs);
const tiny = fromJSON(fixture("tiny_tokenizer.json"));

function assertClose(got, want, what) {
  assert.equal(got.length, want.length, `${what}: length`);
  let worst = 0;
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
  assert.ok(worst <= TOLERANCE, `${what}: differs by ${worst}`);
}

// the engine's knobs -> the model's (engine.js checks and renames them so)
const modelKnobs = (k) => ({ ...k, headsOff: k.heads_off || [] });

for (const simd of [true, false]) {
  describe(simd ? "with the WebAssembly SIMD kernel" : "with the plain loops", () => {
    const engine = createEngine();
    engine.configure({ base: "fixtures/", read: readFixture, simd });

    test("every tiny model runs as in Python", async () => {
      for (const name of NAMES) {
        assert.equal((await engine.load(name)).simd, simd, name);
        for (const run of runs[name]) {
          const what = `${name} ${JSON.stringify(run.text)} ${JSON.stringify(run.knobs)}`;
          const r = await engine.runTyped(run.text, { ...run.knobs, model: name });
          assert.deepEqual(r.ids, run.ids, what);
          assert.deepEqual(r.tokens, run.tokens, what);
          assert.equal(r.predictAt, run.predictAt, what);
          assertClose(r.patterns, run.patterns, `${what} patterns`);
          assert.equal(r.guesses.length, run.guesses.length, what);
          r.guesses.forEach((g, i) => {
            const [token, p] = run.guesses[i];
            assert.ok(Math.abs(g.p - p) <= TOLERANCE, `${what} guess ${i}: ${g.p} vs ${p}`);
            const near = run.guesses.filter(([, q], j) => j !== i && Math.abs(q - p) <= TOLERANCE);
            if (!near.length) assert.equal(g.token, token, `${what} guess ${i}`);
          });
        }
      }
    });

    test("the logits at the guessed position are Python's", () => {
      for (const name of NAMES) {
        const file = path.join(ROOT, "tests/js/fixtures/tiny", `${name}.safetensors`);
        const model = new Transformer(parseSafetensors(bytesOf(file)), { simd });
        for (const run of runs[name].filter((r) => r.logits)) {
          const out = model.forward(run.ids, modelKnobs(run.knobs), run.predictAt);
          assertClose(out.logits, run.logits, `${name} ${JSON.stringify(run.knobs)} logits`);
        }
      }
    });
  });
}

describe("the engine's interface", () => {
  const engine = createEngine();
  engine.configure({ read: readFixture });

  test("loaded() says yes once the model and the tokenizer are in memory", async () => {
    assert.equal(engine.loaded("causal-h4-rotary"), false);
    await engine.load("causal-h4-rotary");
    await engine.runTyped("", { model: "causal-h4-rotary" }); // the tokenizer too
    assert.equal(engine.loaded("causal-h4-rotary"), true);
    assert.equal(engine.loaded("causal-h2-none"), false);
  });

  test("run() gives nested patterns, rows that sum to 1, and guesses without ids", async () => {
    const r = await engine.run("the [mask] sat on", { model: "bidir-h4-rotary" });
    assert.equal(r.patterns.length, 2);
    assert.equal(r.patterns[0].length, 4);
    const row = r.patterns[1][3][0];
    assert.equal(row.length, r.n);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5 && row[r.n - 1] > 0);
    assert.equal(r.predictAt, r.tokens.indexOf("[mask]"));
    assert.deepEqual(Object.keys(r.guesses[0]), ["token", "p"]);
    const none = await engine.run("the cat sat", { model: "bidir-h4-rotary" });
    assert.deepEqual([none.guesses, none.maskMissing], [[], true]);
  });

  const refused = [
    [{ model: "no-such-model" }, /no model of that name/],
    [{ model: "causal-h4-rotary", temperature: 0 }, /temperature/],
    [{ model: "causal-h4-rotary", temperature: "abc" }, /temperature/],
    [{ model: "causal-h4-rotary", scale: "sqrt" }, /scale/],
    [{ model: "causal-h4-rotary", heads_off: [[2, 0]] }, /does not exist/],
    [{ model: "causal-h1-learned", heads_off: [[0, 1]] }, /does not exist/],
    [{ model: "causal-h4-rotary", causal: "yes" }, /causal/],
  ];
  for (const [knobs, message] of refused) {
    test(`impossible knobs are refused in words: ${JSON.stringify(knobs)}`, async () => {
      await assert.rejects(engine.run("the cat", knobs), message);
    });
  }

  test("a model whose file is missing fails, and may be asked for again", async () => {
    const other = createEngine();
    let missing = true;
    other.configure({
      read: (url) =>
        missing && url.endsWith(".safetensors") ? readFixture("x") : readFixture(url),
    });
    await assert.rejects(other.load("causal-h2-none"), /404/);
    missing = false;
    assert.ok(await other.load("causal-h2-none"));
  });
});

test("the tiny tokenizer is a real byte-level BPE with the special tokens first", () => {
  assert.deepEqual([tiny.eotId, tiny.padId, tiny.maskId], [0, 1, 2]);
  assert.equal(tiny.decode(tiny.encode("héllo 😀")), "héllo 😀");
});

test("the engine's modules import one another without a cycle; only index.js reads the page", () => {
  const dir = path.join(ROOT, "static/engine");
  const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
  const source = Object.fromEntries(files.map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));
  const imports = (f) => [...source[f].matchAll(/from "\.\/([\w]+\.js)"/g)].map((m) => m[1]);
  const done = new Set();
  const visit = (f, trail) => {
    assert.ok(!trail.includes(f), `import cycle: ${[...trail, f].join(" -> ")}`);
    if (done.has(f)) return;
    assert.ok(files.includes(f), `${trail.at(-1)} imports ${f}, which is not there`);
    for (const g of imports(f)) visit(g, [...trail, f]);
    done.add(f);
  };
  visit("index.js", []);
  assert.deepEqual([...done].sort(), [...files].sort(), "every module is reached from index.js");
  for (const f of files.filter((name) => name !== "index.js")) {
    assert.doesNotMatch(source[f], /\b(document|window)\./, `${f} reads the page`);
  }
});
