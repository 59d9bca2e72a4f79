// The browser side's one build: esbuild bundles each entry module of static/ into one classic
// script in static/build/ (an IIFE; no import/export left), the form Gradio's <head>, the
// notebook's HTML and the static edition load. The output is checked in and reproducible:
//
//   npm run build          writes static/build/*.js
//   npm run check-build    builds in memory and fails, naming the file, if any checked-in
//                          bundle differs from what the sources give (CI runs it)
//
// No minification and no source maps: the bundles are read in review and in DevTools.
import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "static", "build");

// entry module -> bundle name (under static/build/). Each entry attaches
// its interface to window.AttentionExplorer, the one global (docs/layout.md).
export const ENTRIES = {
  "static/engine/index.js": "engine.js",
  "static/app.js": "app.js",
  "static/site/site.js": "site.js",
  "static/notebook.js": "notebook.js",
  // the Lab's trainer in the browser (issue 50): a Web Worker's script, it attaches nothing
  "static/lab/worker.js": "lab_worker.js",
};

const BANNER = "// Built by scripts/build_js.mjs from static/ (npm run build): do not edit.";

async function bundle(entry) {
  const result = await esbuild.build({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    write: false,
    format: "iife",
    target: "es2020",
    charset: "utf8",
    legalComments: "none",
    banner: { js: BANNER },
    logLevel: "silent",
    absWorkingDir: ROOT,
  });
  return result.outputFiles[0].text;
}

async function main(check) {
  const stale = [];
  for (const [entry, name] of Object.entries(ENTRIES)) {
    const text = await bundle(entry);
    const target = path.join(OUT, name);
    if (check) {
      const onDisk = await readFile(target, "utf8").catch(() => null);
      if (onDisk !== text) stale.push(path.relative(ROOT, target));
    } else {
      await mkdir(OUT, { recursive: true });
      await writeFile(target, text);
    }
  }
  if (stale.length) {
    console.error(`Out of date with static/ (run npm run build): ${stale.join(", ")}`);
    process.exit(1);
  }
  console.log(`${check ? "checked" : "built"} ${Object.keys(ENTRIES).length} bundle(s)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main(process.argv.includes("--check"));
}
