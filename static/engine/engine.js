// One sentence through a zoo model, with the page's knobs. createEngine() makes one engine
// (the page's is AttentionExplorer.engine, static/engine/index.js):
//
//   engine.configure({base, urls, simd, read, hashes})   base: where tokenizer.json and
//       <model>.safetensors are (default "./"); urls: name -> URL for each file instead;
//       simd: false for the plain loops instead of WebAssembly (models loaded after);
//       read: url -> Promise<ArrayBuffer> (default fetch, static/engine/io.js);
//       hashes: file name ("causal-h4-rotary.safetensors", "tokenizer.json") -> its
//       sha256 (lowercase hex, as checkpoints/manifest.json): a file with a known hash is
//       checked before it is parsed, and refused if its bytes differ (a plain Error saying
//       the file is damaged; the next load tries again); a file without one is not checked
//   await engine.load(name)        fetch and parse once, kept in memory
//   engine.loaded(name)            the model and the tokenizer are both in memory
//   await engine.run(text, knobs) -> {tokens, ids, patterns, guesses, ...}
//   await engine.runTyped(text, knobs)   the same, patterns one Float32Array
//   await engine.loss(text, knobs) -> {loss, positions, how}   the sentence's loss
//   await engine.rank(text, knobs) -> {base, positions, how, heads: [{layer, head, loss,
//       delta}]}   every head switched off alone, largest loss rise first (losses.js)
//   await engine.run(text, {...knobs, layer, head, detail: true}) -> also {detail: {layer,
//       head, stages}}: every stage Inside one head shows, for that head (stages.js)
//   await engine.patch(clean, corrupt, {...knobs, patchHead}) -> {answer, wrong, ld_clean,
//       ld_corrupt, heads, positions, patched, guesses, ...}   activation patching
//       (patching.js)
//   await engine.ablate(text, knobs) -> {guesses [{token, on, off}], top, lossOn, lossOff,
//       ...}   knobs.heads_off switched off: the guesses and loss before -> after (ablation.js)
//   await engine.shuffle(text, {...knobs, layer, head, seed}) -> {perm, original, restored,
//       maxDiffHead, maxDiffAll, topChanged, ...}   the word-shuffle test, mask off (shuffle.js)
//   knobs.snapshot = "step_00059.safetensors": run(), runTyped() and snapshot() use that
//       training snapshot of knobs.model instead (the file snapshots/<model>/<snapshot>, its
//       hash keyed so; refused unless its config is the model's)
//   await engine.snapshot(text, {...knobs, snapshot}) -> {previous {layer, head, share},
//       baseline, copy {layer, head, score} | null, prevShare, copyScores, tokens, n}: the
//       Through training view's numbers (snapshots.js)
//
// knobs = {model: "causal-h4-rotary", causal: null|true|false, scale: null|"d_head"|
// "d_model"|"none", temperature: 1.0, heads_off: [[layer, head], ...]}. The semantics are
// those of explorer.analysis.run.analyse(..., detail=False): the text prepared as there
// (static/engine/tokenizer.js), patterns[layer][head][query][key], and the top three
// guesses at the last token (next word) or the first [mask] (masked word).
import { sentenceAblation } from "./ablation.js";
import { fetchBytes } from "./io.js";
import { sentenceLoss, sentenceRanking } from "./losses.js";
import { Transformer } from "./model.js";
import { patchPair } from "./patching.js";
import { parseSafetensors } from "./safetensors.js";
import { sha256Hex } from "./sha256.js";
import { sentenceShuffle } from "./shuffle.js";
import { snapshotScores } from "./snapshots.js";
import { nestedStages, stageProbe } from "./stages.js";
import * as tokenizers from "./tokenizer.js";

const SCALES = ["d_head", "d_model", "none"];
const MODEL = /^(causal-h[1248]-(none|sinusoidal|learned|rotary|alibi)|bidir-h4-rotary)$/;
const SNAPSHOT = /^step_\d{1,9}\.safetensors$/; // explorer.analysis.snapshots.FILE_RE

// The knobs checked as AttentionSettings.resolve checks them, with a plain message.
function checked(knobs, config) {
  const k = knobs || {};
  if (k.causal != null && typeof k.causal !== "boolean") {
    throw new Error("causal must be true, false or null");
  }
  if (k.scale != null && !SCALES.includes(k.scale)) {
    throw new Error(`scale must be one of ${SCALES.join(", ")}`);
  }
  const temperature = k.temperature == null ? 1 : Number(k.temperature);
  if (!Number.isFinite(temperature) || temperature <= 0) {
    throw new Error("temperature must be a positive finite number");
  }
  const headsOff = (k.heads_off || []).map((pair) => {
    const [l, h] = Array.isArray(pair) ? pair.map(Number) : [NaN, NaN];
    const inModel = Number.isInteger(l) && Number.isInteger(h) && l >= 0 && h >= 0;
    if (!(inModel && l < config.n_layers && h < config.n_heads)) {
      throw new Error("a head switched off does not exist in this model");
    }
    return [l, h];
  });
  return { causal: k.causal, scale: k.scale, temperature, headsOff };
}

/** The ``count`` most likely tokens of ``logits``: [{id, token, p}], most likely first
    (ties: the lower id, as torch.topk). */
export function topGuesses(t, logits, count = 3) {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
  let sum = 0;
  const p = new Float64Array(logits.length);
  for (let i = 0; i < logits.length; i++) {
    p[i] = Math.exp(logits[i] - max);
    sum += p[i];
  }
  const best = [];
  for (let i = 0; i < p.length; i++) {
    if (best.length < count || p[i] > p[best[best.length - 1]]) {
      best.push(i);
      best.sort((a, b) => p[b] - p[a] || a - b);
      if (best.length > count) best.pop();
    }
  }
  return best.map((i) => ({ id: i, token: t.decode([i]), p: p[i] / sum }));
}

// patterns [layer, head, query, key] as nested arrays
function nested(flat, layers, heads, n) {
  const patterns = [];
  for (let l = 0; l < layers; l++) {
    const layer = [];
    for (let h = 0; h < heads; h++) {
      const head = [];
      const o = (l * heads + h) * n * n;
      for (let i = 0; i < n; i++) head.push(Array.from(flat.subarray(o + i * n, o + i * n + n)));
      layer.push(head);
    }
    patterns.push(layer);
  }
  return patterns;
}

// One prepared sentence through the model: the run's facts (see runTyped).
function forward(t, model, text, settings, resume) {
  const c = model.config;
  const maskedWord = !c.causal;
  const prep = t.prepare(text == null ? "" : String(text), { nCtx: c.n_ctx, maskedWord });
  const ids = prep.ids;
  const n = ids.length;
  let at = null;
  if (n && !maskedWord) at = n - 1;
  else if (n && ids.includes(t.maskId)) at = ids.indexOf(t.maskId);
  const out = n
    ? model.forward(ids, settings, at, resume || { only: true }) // reuses the last pass's rows
    : { patterns: new Float32Array(0), logits: null };
  return {
    tokens: prep.pieces,
    ids,
    n,
    layers: c.n_layers,
    heads: c.n_heads,
    patterns: out.patterns,
    guesses: out.logits ? topGuesses(t, out.logits) : [],
    predictAt: at,
    maskMissing: maskedWord && n > 0 && at == null,
    cutTokens: prep.cutTokens,
    cutChars: prep.cutChars,
    keptChars: prep.keptChars,
    config: c,
  };
}

// The bytes of `file` (its name, as the page's configuration names it) read from `url`,
// refused when a sha256 is known for it (`want`) and theirs differs: a file cut short or
// altered on a USB stick would otherwise be drawn as a model (NaN% guesses).
async function verified(read, url, file, want) {
  const bytes = await read(url);
  if (want && (await sha256Hex(bytes)) !== String(want).toLowerCase()) {
    const what = file.endsWith(".safetensors") ? "model" : "tokenizer";
    throw new Error(
      `The ${what} file ${file} is damaged (its checksum does not match): ` +
        "download the page again.",
    );
  }
  return bytes;
}

// Where the engine's files come from (configure()'s base, urls and read) and their hashes:
// url(file, key) is the URL of `file` (urls[key], else base + file); reader(file) reads a
// URL's bytes, checked against the hash of `file`.
function fileSource() {
  let base = "./";
  let urls = {};
  let read = fetchBytes;
  let hashes = {}; // file name -> sha256
  return {
    configure(options) {
      if (options.base != null) base = String(options.base);
      if (options.urls) urls = { ...options.urls };
      if (options.read) read = options.read;
      if (options.hashes) hashes = { ...options.hashes };
    },
    url: (file, key) => urls[key] || base + file,
    reader: (file) => (url) => verified(read, url, file, hashes[file]),
  };
}

// The promise `models` holds under `key`, made by make() the first time; a failed one is
// forgotten, so that it may be tried again.
function once(models, key, make) {
  if (!models.has(key)) {
    const made = make();
    made.catch(() => models.delete(key));
    models.set(key, made);
  }
  return models.get(key);
}

// A training snapshot of a zoo model (knobs.snapshot): loaded once into `models` (under its
// file's key, snapshots/<name>/<file>), refused unless its config is the model's.
function snapshotLoader(source, load, models, simd) {
  return function loadSnapshot(name, file) {
    if (!SNAPSHOT.test(String(file))) {
      return Promise.reject(new Error("The browser has no training snapshot of that name."));
    }
    const key = `snapshots/${name}/${file}`;
    return once(models, key, () => {
      const bytes = source.reader(key)(source.url(key, key));
      return Promise.all([bytes, load(name)]).then(([b, final]) => {
        const m = new Transformer(parseSafetensors(b), { simd: simd() });
        if (JSON.stringify(m.config) !== JSON.stringify(final.config)) {
          throw new Error(`The training snapshot ${file} is not of ${name}.`);
        }
        return m;
      });
    });
  };
}

/** A fresh engine: its own settings, tokenizer and models in memory. */
export function createEngine() {
  const source = fileSource();
  let simd = true; // false: the plain JavaScript loops (models loaded after configure)
  let tokenizer = null; // a promise
  let tokenizerReady = false;
  const models = new Map(); // name -> promise of a Transformer
  const ready = new Set(); // names whose model is in memory

  function configure(options = {}) {
    source.configure(options);
    if (options.simd != null) simd = !!options.simd;
  }

  function tok() {
    if (!tokenizer) {
      const file = "tokenizer.json";
      tokenizer = tokenizers.load(source.url(file, file), source.reader(file));
      tokenizer.then(
        () => (tokenizerReady = true),
        () => (tokenizer = null), // a failed load may be tried again
      );
    }
    return tokenizer;
  }

  function load(name) {
    if (!MODEL.test(String(name))) {
      return Promise.reject(new Error("The browser has no model of that name."));
    }
    return once(models, name, () => {
      const file = `${name}.safetensors`;
      const bytes = source.reader(file)(source.url(file, name));
      const made = bytes.then((b) => new Transformer(parseSafetensors(b), { simd }));
      made.then(
        () => ready.add(name),
        () => {},
      );
      tok(); // a model is no use without the tokenizer: both load at once
      return made;
    });
  }

  // the knobs' model, or its training snapshot when they name one (knobs.snapshot)
  const snapshot = snapshotLoader(source, load, models, () => simd);
  const modelOf = (k) =>
    k && k.snapshot != null ? snapshot(k.model, k.snapshot) : load(k && k.model);
  // Both the model and the tokenizer are in memory: a run starts computing at once.
  function loaded(name) {
    return ready.has(name) && tokenizerReady;
  }

  // The same as run(), with patterns as one Float32Array [layer, head, query, key].
  async function runTyped(text, knobs) {
    const name = knobs && knobs.model;
    const [t, model] = await Promise.all([tok(), modelOf(knobs)]);
    ready.add(name); // (a snapshot's model is loaded with it)
    const settings = checked(knobs, model.config);
    if (!(knobs && knobs.detail)) return forward(t, model, text, settings);
    const probe = stageProbe(model, settings, knobs.layer, knobs.head);
    const r = forward(t, model, text, settings, probe.resume);
    return { ...r, detail: probe.result(r.patterns, r.n) };
  }

  async function run(text, knobs) {
    const r = await runTyped(text, knobs);
    const patterns = nested(r.patterns, r.layers, r.heads, r.n);
    const out = { ...r, patterns, guesses: r.guesses.map(({ token, p }) => ({ token, p })) };
    if (r.detail) out.detail = nestedStages(r.detail);
    return out;
  }

  // the tokenizer, the knobs' model, and the knobs checked against it
  async function need(knobs) {
    const [t, model] = await Promise.all([tok(), modelOf(knobs)]);
    return [t, model, checked(knobs, model.config)];
  }

  return { configure, load, loaded, run, runTyped, ...measures(need) };
}

// The numbers beside a run, each on need(knobs)'s [tokenizer, model, settings].
function measures(need) {
  return {
    // The sentence's loss under the knobs, heads off included (static/engine/losses.js).
    async loss(text, knobs) {
      const [t, model, settings] = await need(knobs);
      return sentenceLoss(t, model, text, settings);
    },
    // Every head ranked by the loss rise when it alone is off (the knobs' heads_off ignored).
    async rank(text, knobs) {
      const [t, model, settings] = await need(knobs);
      return sentenceRanking(t, model, text, settings);
    },
    // Activation patching from clean into corrupt (static/engine/patching.js);
    // knobs.patchHead {layer, head}: the head whose patched guesses come back (else the best).
    async patch(clean, corrupt, knobs) {
      const [t, model, settings] = await need(knobs);
      return patchPair(t, model, clean, corrupt, settings, knobs.patchHead);
    },
    // The Ablate view's guesses and loss with knobs.heads_off switched off, and without.
    async ablate(text, knobs) {
      const [t, model, settings] = await need(knobs);
      return sentenceAblation(t, model, text, settings);
    },
    // The word-shuffle test on one head (knobs.layer, knobs.head), numpy's seed knobs.seed.
    async shuffle(text, knobs) {
      const [t, model, settings] = await need(knobs);
      return sentenceShuffle(t, model, text, settings, knobs.layer, knobs.head, knobs.seed || 0);
    },
    // The Through training view's numbers on knobs.snapshot (static/engine/snapshots.js).
    async snapshot(text, knobs) {
      const [t, model, settings] = await need(knobs);
      return snapshotScores(t, model, text, settings);
    },
  };
}
