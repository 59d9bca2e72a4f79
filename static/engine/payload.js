// The Explore grid's payload computed in the browser: the same object as
// explorer/views/grid_payload.py grid_payload, from an engine's runTyped (engine.js).
// createPayload(engine) makes the page's (static/engine/index.js):
//
//   payload.setTexts(obj)          the caption's words and the knob tables,
//                                  explorer/views/engine_texts.py's JSON
//   payload.configure({textsUrl})  or fetched from there on first use
//   await payload.texts()          the texts (fetched once)
//   await payload.gridPayload(text, controls, {colors, heads_off, fetch})
//     -> payload | null (fetch: true waits for the model's weights instead of answering null);
//     with heads_off, the payload's `off` names them (static/live_grid.js draws them off)
//     with snapshot ("step_00059.safetensors"), that training snapshot of the model runs
//   payload.displayToken(s) / plainLabel(s, max)   (labels.py, ported: static/engine/labels.js)
//   payload.knobsOf(controls, opts)  the engine's knobs of the page's controls, or null
//
// controls = the knobs by name, {objective, heads, pos, mask, scaling, temperature, layer,
// head, theme} (a keystroke's request: static/live_grid.js request()).
// null: the browser cannot answer (the Lab model, a model the browser has not loaded, knobs
// it does not know); the page then asks the server.
import { interventions, notices, plainStatus, plural } from "./captions.js";
import { fetchBytes, readJSON } from "./io.js";
import { displayToken, plainLabel, points } from "./labels.js";
import { MAX_CHARS } from "./tokenizer.js";

// controls -> the engine's knobs (explorer/views/controls.py), from the texts' tables
function knobsOf(t, c, opts) {
  const k = t.controls;
  const { objective, heads, pos, mask, scaling, temperature, layer, head, theme } = c;
  if (objective === k.lab || !(objective in k.objectives)) return null;
  const name = ((k.models[objective] || {})[String(Number(heads))] || {})[pos];
  if (!name || !(mask in k.masks) || !(scaling in k.scales)) return null;
  const temp = Number(temperature);
  if (!Number.isFinite(temp)) return null;
  const [low, high] = k.temperature_range;
  return {
    model: name,
    causal: k.masks[mask],
    scale: k.scales[scaling],
    temperature: Math.min(Math.max(temp, low), high),
    heads_off: (opts && opts.heads_off) || [],
    ...(opts && opts.snapshot ? { snapshot: String(opts.snapshot) } : {}), // a training one
    layer: Math.trunc(Number(layer)) || 0,
    head: Math.trunc(Number(head)) || 0,
    theme: theme === "dark" ? "dark" : "light",
    // echoed as grid_payload echoes them (Controls.named(): the values as parsed)
    controls: {
      objective: String(objective),
      heads: Math.trunc(Number(heads)),
      pos: String(pos),
      mask: String(mask),
      scaling: String(scaling),
      temperature: temp,
      layer: Math.trunc(Number(layer)) || 0,
      head: Math.trunc(Number(head)) || 0,
      theme: theme === "dark" ? "dark" : "light",
    },
  };
}

// mosaic(): [L*T, H*T] whole percent, np.rint (round half to even) of clip(w, 0, 1) * 100,
// base64: a payload's z (patterns flat [layer, head, query, key], n tokens)
export function mosaic(patterns, L, H, n) {
  const z = new Uint8Array(L * n * H * n),
    row = H * n;
  for (let l = 0; l < L; l++)
    for (let h = 0; h < H; h++) {
      const o = (l * H + h) * n * n;
      for (let q = 0; q < n; q++)
        for (let k = 0; k < n; k++) {
          // float32 product as numpy computes it on a float32 array
          const v = Math.fround(Math.min(Math.max(patterns[o + q * n + k], 0), 1) * 100);
          let r = Math.round(v);
          if (r - v === 0.5 && r % 2 === 1) r -= 1; // half to even
          z[(l * n + q) * row + h * n + k] = r;
        }
    }
  let bin = "";
  for (let i = 0; i < z.length; i += 8192)
    bin += String.fromCharCode.apply(null, z.subarray(i, i + 8192));
  return btoa(bin);
}

// A model whose download failed is not asked for again for this long (no request per key).
const RETRY_MS = 60000;
const NOT_YET = {};

// The payload of a sentence the engine has run (``r``: runTyped's answer).
function payloadOf(t, text, knobs, r, opts) {
  const c = r.config;
  const n = r.n;
  let caption = plural(t, n, "token");
  const iv = interventions(t, c, knobs);
  if (iv.length) caption += t.caption.experiment + iv.join(t.caption.join);
  // the text the model read: prepare's cuts (MAX_CHARS, trailing spaces, n_ctx)
  let read = points(text).slice(0, MAX_CHARS).join("").replace(/ +$/, "");
  if (r.cutTokens) read = points(read).slice(0, r.keptChars).join("");
  for (const notice of notices(t, r, read)) caption += t.caption.notice + plainStatus(notice);
  const layer = Math.min(Math.max(knobs.layer, 0), c.n_layers - 1);
  const head = Math.min(Math.max(knobs.head, 0), c.n_heads - 1);
  const label = (s, max) => plainLabel(s, max, t.label_ranges);
  // the heads switched off, for the grid to draw as off (only when some are: the server's
  // payload, which never has heads off, has no such key)
  const off = knobs.heads_off.length
    ? { off: knobs.heads_off.map(([l, h]) => [Number(l), Number(h)]) }
    : {};
  return {
    ok: true,
    text,
    controls: knobs.controls,
    tokens: r.tokens.map((s) => label(s, t.grid_label_chars)),
    layers: r.layers,
    heads: r.heads,
    n,
    z: mosaic(r.patterns, r.layers, r.heads, n),
    selected: [layer, head],
    colors: opts.colors || (t.colors || {})[knobs.theme],
    guesses: r.guesses.map((g) => [label(g.token, 24), Math.round(g.p * 1e4) / 1e4]),
    where: c.causal ? "next word" : "[mask]",
    caption,
    ...off,
  };
}

/** The payload side of ``engine`` (see the header); ``read``: how the texts are fetched. */
export function createPayload(engine, read = fetchBytes) {
  let texts = null;
  let textsUrl = "engine_texts.json";
  let loading = null;
  const failed = new Map(); // model name -> when its download failed

  async function getTexts() {
    if (texts) return texts;
    if (!loading) {
      loading = readJSON(textsUrl, read).then((t) => (texts = t));
      loading.catch(() => (loading = null));
    }
    return loading;
  }

  // Is the model in memory? fetchIt: wait for it. Otherwise its download starts (first use)
  // and false is answered until it is there: a promise already settled wins the race.
  async function ready(name, fetchIt) {
    if (engine.loaded(name)) return true;
    if (Date.now() - (failed.get(name) || -Infinity) < RETRY_MS) return false;
    try {
      const loading = engine.load(name);
      loading.catch(() => failed.set(name, Date.now()));
      const raced = fetchIt ? loading : Promise.race([loading, Promise.resolve(NOT_YET)]);
      return (await raced) !== NOT_YET;
    } catch {
      return false;
    }
  }

  async function gridPayload(text, controls, opts = {}) {
    const t = await getTexts();
    const knobs = knobsOf(t, controls || {}, opts);
    if (!knobs || !(await ready(knobs.model, opts.fetch))) return null;
    text = text == null ? "" : String(text);
    if (!text.trim()) {
      return { ok: false, text, controls: knobs.controls, caption: plainStatus(t.empty_state) };
    }
    return payloadOf(t, text, knobs, await engine.runTyped(text, knobs), opts);
  }

  const ranges = () => (texts && texts.label_ranges) || null;
  return {
    setTexts: (obj) => void (texts = obj),
    configure: (o = {}) => void (o.textsUrl && (textsUrl = String(o.textsUrl))),
    texts: getTexts,
    gridPayload,
    displayToken: (s) => displayToken(s, ranges()),
    plainLabel: (s, max) => plainLabel(s, max, ranges()),
    knobsOf: (c, o) => texts && knobsOf(texts, c, o),
  };
}
