// One sentence through a zoo model in the browser, with the page's knobs:
//
//   AttentionExplorer.engine.configure({base})   where tokenizer.json and <model>.safetensors
//                                                  are (default "./"); {simd: false} for the
//                                                  plain loops instead of WebAssembly
//   await AttentionExplorer.engine.load(name)     fetch and parse once, kept in memory
//   AttentionExplorer.engine.loaded(name)
//   await AttentionExplorer.engine.run(text, knobs) -> {tokens, ids, patterns, guesses, ...}
//
// knobs = {model: "causal-h4-rotary", causal: null|true|false, scale: null|"d_head"|
// "d_model"|"none", temperature: 1.0, heads_off: [[layer, head], ...]}. The semantics are
// those of explorer.analysis.run.analyse(..., detail=False): the text prepared as there
// (static/engine/tokenizer.js), patterns[layer][head][query][key], and the top three
// guesses at the last token (next word) or the first [mask] (masked word).
(() => {
  const AE = (globalThis.AttentionExplorer = globalThis.AttentionExplorer || {});
  if (AE.engine) return;

  const SCALES = ["d_head", "d_model", "none"];
  const MODEL = /^(causal-h[1248]-(none|sinusoidal|learned|rotary|alibi)|bidir-h4-rotary)$/;
  let base = "./";
  let urls = {};
  let simd = true; // false: the plain JavaScript loops (models loaded after configure)
  let tokenizer = null; // a promise
  const models = new Map(); // name -> promise of a Transformer

  function configure(options = {}) {
    if (options.base != null) base = String(options.base);
    if (options.urls) urls = { ...options.urls };
    if (options.simd != null) simd = !!options.simd;
  }

  async function fetchBuffer(url) {
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(`could not load ${url} (${answer.status})`);
    return answer.arrayBuffer();
  }

  let tokenizerReady = false;
  function tok() {
    if (!tokenizer) {
      tokenizer = AE.tokenizer.load(urls["tokenizer.json"] || base + "tokenizer.json");
      tokenizer.then(() => { tokenizerReady = true; },
        () => { tokenizer = null; }); // a failed load may be tried again
    }
    return tokenizer;
  }

  function load(name) {
    if (!MODEL.test(String(name))) {
      return Promise.reject(new Error("The browser has no model of that name."));
    }
    if (!models.has(name)) {
      const url = urls[name] || `${base}${name}.safetensors`;
      const made = fetchBuffer(url)
        .then((buffer) => new AE.model.Transformer(AE.model.parseSafetensors(buffer), { simd }));
      made.then(() => ready.add(name), () => models.delete(name));
      models.set(name, made);
      tok(); // a model is no use without the tokenizer: both load at once
    }
    return models.get(name);
  }

  // Both the model and the tokenizer are in memory: a run starts computing at once.
  const ready = new Set();
  function loaded(name) { return ready.has(name) && tokenizerReady; }

  // The knobs checked as AttentionSettings.resolve checks them, with a plain message.
  function checked(knobs, config) {
    const k = knobs || {};
    if (k.causal != null && typeof k.causal !== "boolean") throw new Error("causal must be true, false or null");
    if (k.scale != null && !SCALES.includes(k.scale)) {
      throw new Error(`scale must be one of ${SCALES.join(", ")}`);
    }
    const temperature = k.temperature == null ? 1 : Number(k.temperature);
    if (!Number.isFinite(temperature) || temperature <= 0) {
      throw new Error("temperature must be a positive finite number");
    }
    const headsOff = (k.heads_off || []).map((pair) => {
      const [l, h] = Array.isArray(pair) ? pair.map(Number) : [NaN, NaN];
      if (!(Number.isInteger(l) && Number.isInteger(h) && l >= 0 && l < config.n_layers
        && h >= 0 && h < config.n_heads)) {
        throw new Error("a head switched off does not exist in this model");
      }
      return [l, h];
    });
    return { causal: k.causal, scale: k.scale, temperature, headsOff };
  }

  function topGuesses(t, logits, count = 3) {
    let max = -Infinity;
    for (let i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
    let sum = 0;
    const p = new Float64Array(logits.length);
    for (let i = 0; i < logits.length; i++) { p[i] = Math.exp(logits[i] - max); sum += p[i]; }
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

  // The same as run(), with patterns as one Float32Array [layer, head, query, key].
  async function runTyped(text, knobs) {
    const name = knobs && knobs.model;
    const [t, model] = await Promise.all([tok(), load(name)]);
    ready.add(name);
    const c = model.config, maskedWord = !c.causal;
    const settings = checked(knobs, c);
    const prep = t.prepare(text == null ? "" : String(text), { nCtx: c.n_ctx, maskedWord });
    const ids = prep.ids, n = ids.length;
    const at = !n ? null : maskedWord ? (ids.includes(t.maskId) ? ids.indexOf(t.maskId) : null)
      : n - 1;
    const out = n ? model.forward(ids, settings, at) : { patterns: new Float32Array(0), logits: null };
    return {
      tokens: prep.pieces, ids, n, layers: c.n_layers, heads: c.n_heads,
      patterns: out.patterns, guesses: out.logits ? topGuesses(t, out.logits) : [],
      predictAt: at, maskMissing: maskedWord && n > 0 && at == null,
      cutTokens: prep.cutTokens, cutChars: prep.cutChars, keptChars: prep.keptChars,
      config: c,
    };
  }

  async function run(text, knobs) {
    const r = await runTyped(text, knobs);
    const { n } = r, patterns = [];
    for (let l = 0; l < r.layers; l++) {
      const layer = [];
      for (let h = 0; h < r.heads; h++) {
        const head = [], o = (l * r.heads + h) * n * n;
        for (let i = 0; i < n; i++) head.push(Array.from(r.patterns.subarray(o + i * n, o + i * n + n)));
        layer.push(head);
      }
      patterns.push(layer);
    }
    return { ...r, patterns, guesses: r.guesses.map(({ token, p }) => ({ token, p })) };
  }

  AE.engine = { configure, load, loaded, run, runTyped };
})();
