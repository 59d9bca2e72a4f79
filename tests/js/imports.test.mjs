// The browser side's import graph: every module of static/ (the bundles in static/build/
// aside) imports only files that exist, the graph has no cycle, and every module is reached
// from one of the build's entries (a file nothing imports is dead code or a missing import),
// but for the scripts copied as they are (COPIED).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ENTRIES } from "../../scripts/build_js.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const STATIC = path.join(ROOT, "static");
// Scripts no entry imports, copied as they are: the static edition's service worker
// (explorer/site/build.py writes it beside index.html); a classic script, it imports nothing.
const COPIED = ["static/site/sw.js"].map((f) => path.join(ROOT, f));
// import ... from "x"; export ... from "x"; import "x"
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']/g;

async function modules(dir = STATIC) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && full !== path.join(STATIC, "build"))
      out.push(...(await modules(full)));
    else if (entry.isFile() && entry.name.endsWith(".js")) out.push(full);
  }
  return out;
}

async function graph() {
  const edges = new Map();
  for (const file of await modules()) {
    const text = await readFile(file, "utf8");
    const targets = [...text.matchAll(IMPORT)].map((m) => m[1] || m[2]);
    edges.set(
      file,
      targets.map((t) => path.resolve(path.dirname(file), t)),
    );
  }
  return edges;
}

test("every import names a module of static/", async () => {
  const edges = await graph();
  for (const [file, targets] of edges) {
    for (const t of targets) {
      assert.ok(edges.has(t), `${path.relative(ROOT, file)} imports a missing ${t}`);
    }
  }
});

test("the import graph has no cycle", async () => {
  const edges = await graph();
  const state = new Map(); // undefined: new, 1: on the path, 2: done
  const visit = (file, trail) => {
    if (state.get(file) === 2) return;
    assert.notEqual(
      state.get(file),
      1,
      `cycle: ${[...trail, file].map((f) => path.relative(STATIC, f)).join(" -> ")}`,
    );
    state.set(file, 1);
    for (const t of edges.get(file) || []) visit(t, [...trail, file]);
    state.set(file, 2);
  };
  for (const file of edges.keys()) visit(file, []);
});

test("every module is reached from an entry of the build", async () => {
  const edges = await graph();
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const t of edges.get(file) || []) walk(t);
  };
  for (const entry of Object.keys(ENTRIES)) walk(path.join(ROOT, entry));
  for (const file of COPIED) assert.deepEqual(edges.get(file), [], file);
  const unreached = [...edges.keys()].filter((f) => !seen.has(f) && !COPIED.includes(f));
  assert.deepEqual(
    unreached.map((f) => path.relative(ROOT, f)),
    [],
  );
});
