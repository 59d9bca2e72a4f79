// The Explore grid's payload computed in the browser (issue 38): the same object as
// explorer/views/grid_payload.py grid_payload, from AttentionExplorer.engine.runTyped.
//
//   AttentionExplorer.payload.setTexts(obj)       the caption's words and the knob tables,
//                                                   explorer/views/engine_texts.py's JSON
//   AttentionExplorer.payload.configure({textsUrl}) or fetched from there on first use
//   await AttentionExplorer.gridPayload(text, controls, {colors, heads_off, fetch})
//     -> payload | null (fetch: true waits for the model's weights instead of answering null)
//   AttentionExplorer.payload.displayToken(s) / plainLabel(s, max)   (labels.py, ported)
//
// controls = the knobs by name, {objective, heads, pos, mask, scaling, temperature, layer,
// head, theme} (a keystroke's request, AttentionExplorer.grid.request: static/live_grid.js).
// null: the browser cannot answer (the Lab model, a model the browser has not loaded, knobs
// it does not know); the page then asks the server.
// No prose lives here: every sentence comes from the texts JSON (one source, Python).
(() => {
  const AE = (globalThis.AttentionExplorer = globalThis.AttentionExplorer || {});
  if (AE.gridPayload) return;

  let texts = null;
  let textsUrl = "engine_texts.json";
  let loading = null;

  function setTexts(obj) { texts = obj; }
  function configure(o = {}) { if (o.textsUrl) textsUrl = String(o.textsUrl); }
  async function getTexts() {
    if (texts) return texts;
    if (!loading) {
      loading = fetch(textsUrl).then((r) => {
        if (!r.ok) throw new Error("could not load the caption's texts");
        return r.json();
      }).then((t) => (texts = t));
      loading.catch(() => { loading = null; });
    }
    return loading;
  }

  // ------------------------------------------------ labels (explorer/figures/labels.py)
  const NAMES = { 0xA0: "NBSP", 0xAD: "SHY", 0x34F: "CGJ", 0x61C: "ALM", 0x180E: "MVS",
    0x200B: "ZWSP", 0x200C: "ZWNJ", 0x200D: "ZWJ", 0x200E: "LRM", 0x200F: "RLM",
    0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO", 0x202E: "RLO",
    0x202F: "NNBSP", 0x2028: "LS", 0x2029: "PS", 0x2060: "WJ", 0x2066: "LRI",
    0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI", 0xFE0E: "VS15", 0xFE0F: "VS16", 0xFEFF: "BOM" };
  const BLANK_LOOKING = new Set([0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0, 0x034F]);
  // Python's unicodedata classes (engine_texts.py label_ranges), not the browser's: the
  // browser's Unicode is of another version. Until the texts arrive, the browser's own.
  const SO = 1, HIDDEN = 2, FMT = 3, VISIBLE = 4, MARK = 5;
  const OWN = [null, /^\p{So}$/u, /^[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]$/u, /^[\p{Zs}\p{Cf}]$/u,
    /^[\p{L}\p{N}\p{P}\p{S}]$/u, /^\p{M}$/u];
  // the value of the inclusive run [start, end, value] of flat ``runs`` holding ``cp``, or
  // null (binary search: engine_texts.py writes kind_ranges and label_ranges so)
  function runOf(runs, cp) {
    let lo = 0, hi = runs.length / 3 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1, s = runs[mid * 3], e = runs[mid * 3 + 1];
      if (cp < s) hi = mid - 1; else if (cp > e) lo = mid + 1; else return runs[mid * 3 + 2];
    }
    return null;
  }
  const labelClass = (cp) => runOf(texts.label_ranges, cp) || 0;
  const cat = (ch, want) => {
    const cp = ch.codePointAt(0);
    if (!(texts && texts.label_ranges)) return OWN[want].test(ch);
    const c = labelClass(cp);
    return want === VISIBLE ? c === VISIBLE || c === SO : c === want;
  };
  const hex = (cp) => cp.toString(16).toUpperCase().padStart(4, "0");
  const marker = (cp) => "\u27e8" + (NAMES[cp] || "U+" + hex(cp)) + "\u27e9";
  const isVS = (cp) => (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF)
    || (cp >= 0x180B && cp <= 0x180F);

  // code points as Python indexes a str (lone surrogates stay one element each)
  const points = (s) => Array.from(s);

  function pictographBefore(chars, i) {
    let j = i - 1;
    while (j >= 0) {
      const cp = chars[j].codePointAt(0);
      if (cp === 0xFE0F || (cp >= 0x1F3FB && cp < 0x1F400)) j--; else break;
    }
    return j >= 0 && cat(chars[j], SO);
  }

  function keepsEmoji(chars, i, cp) {
    if (cp === 0x200D) {
      return pictographBefore(chars, i) && i + 1 < chars.length && cat(chars[i + 1], SO);
    }
    if (isVS(cp)) {
      return i > 0 && cat(chars[i - 1], VISIBLE) && !BLANK_LOOKING.has(chars[i - 1].codePointAt(0));
    }
    if (cp >= 0xE0020 && cp < 0xE0080) {
      return chars.slice(0, i).some((c) => c.codePointAt(0) === 0x1F3F4);
    }
    return false;
  }

  function showChar(chars, i) {
    const ch = chars[i], cp = ch.codePointAt(0);
    if (ch === " ") return "\u2423";
    if (ch === "\n") return "\u21b5";
    if (ch === "\t") return "\u21e5";
    if (cp < 0x20) return String.fromCodePoint(0x2400 + cp);
    if (cp === 0x7F) return "\u2421";
    if (cp < 0x80) return ch;
    if (cat(ch, HIDDEN) || BLANK_LOOKING.has(cp)) return marker(cp);
    if (cat(ch, FMT) || isVS(cp)) return keepsEmoji(chars, i, cp) ? ch : marker(cp);
    return ch;
  }

  // labels.display_token(text) with visible spaces (the slow path gives the fast path's result)
  function displayToken(text) {
    if (!text) return "\u2205";
    const chars = points(text);
    let shown = "";
    for (let i = 0; i < chars.length; i++) shown += showChar(chars, i);
    const first = chars[0];
    if (cat(first, MARK) && !isVS(first.codePointAt(0))) shown = "\u25cc" + shown;
    return shown;
  }

  // grid_payload.plain_label: cut with … past maxChars code points
  function plainLabel(token, maxChars = 8) {
    const shown = points(displayToken(token));
    return shown.length <= maxChars ? shown.join("") : shown.slice(0, maxChars - 1).join("") + "\u2026";
  }

  // ------------------------------------------------ the caption's words (engine_texts.py)
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  function plural(t, n, word) {
    const [one, many] = t.plural[word];
    return n.toLocaleString("en-US") + " " + (n === 1 ? one : many);
  }
  const fmtG = (x) => String(Number(x.toPrecision(6))); // Python's {:g} for 0.1..5

  function interventions(t, config, knobs) {
    const iv = t.interventions, out = [];
    const causal = knobs.causal == null ? config.causal : knobs.causal;
    const scale = knobs.scale == null ? config.attn_scale : knobs.scale;
    if (causal !== config.causal) out.push(iv.causal[String(causal)]);
    if (scale !== config.attn_scale) out.push(iv.scale[config.attn_scale + ">" + scale]);
    if (knobs.temperature !== 1) out.push(fill(iv.temperature, { t: fmtG(knobs.temperature) }));
    if (knobs.heads_off.length) {
      const keys = [...new Set(knobs.heads_off.map(([l, h]) => l * 1e6 + h))].sort((a, b) => a - b);
      const heads = keys.map((k) => fill(iv.head, { layer: Math.floor(k / 1e6), head: k % 1e6 }));
      out.push(fill(iv.heads, { heads: heads.join(iv.heads_join) }));
    }
    return out;
  }

  function kindOf(t, cp) {
    const k = runOf(t.kind_ranges, cp);
    return k === null ? null : t.kinds[k];
  }

  function unfamiliar(t, text, pieces) {
    const kinds = [];
    for (const ch of points(text)) {
      const cp = ch.codePointAt(0);
      if (cp < 0x80) continue;
      const kind = kindOf(t, cp);
      if (kind && !kinds.includes(kind)) kinds.push(kind);
    }
    let chars = 0, tokens = 0; // run.py _byte_tokens
    for (let i = 1; i < pieces.length; i++) {
      if (pieces[i] !== "") continue;
      tokens += 1;
      if (pieces[i - 1] !== "") { chars += 1; tokens += 1; }
    }
    if (!kinds.length && !chars) return null;
    const n = t.notices;
    let notice = fill(n.unfamiliar, { what: kinds.length ? kinds.join(n.what_join) : n.what_default });
    if (chars) {
      notice += fill(n.unfamiliar_bytes, { chars: plural(t, chars, "character"),
        tokens: plural(t, tokens, "byte token") });
    }
    return notice;
  }

  // run.py prepare's and analyse's notices, from the facts the engine reports
  function notices(t, r, read) {
    const n = t.notices, out = [];
    if (r.cutTokens) {
      out.push(fill(n.cut_tokens, { n_ctx: r.config.n_ctx, kept: plural(t, r.keptChars, "character") }));
    } else if (r.cutChars) out.push(n.cut_chars);
    const u = unfamiliar(t, read, r.tokens);
    if (u) out.push(u);
    if (r.maskMissing) out.push(n.mask_hint);
    return out;
  }

  // grid_payload.plain_status: our Markdown as one plain line
  const plainStatus = (md) => md.replace(/[*`]/g, "").replace(/\s*\n+\s*/g, " ").trim();

  // ------------------------------------------------ controls -> knobs (views/controls.py)
  function knobsOf(t, c, opts) {
    const k = t.controls;
    const { objective, heads, pos, mask, scaling, temperature, layer, head, theme } = c;
    if (objective === k.lab || !(objective in k.objectives)) return null;
    const name = ((k.models[objective] || {})[String(Number(heads))] || {})[pos];
    if (!name || !(mask in k.masks) || !(scaling in k.scales)) return null;
    const temp = Number(temperature);
    if (!Number.isFinite(temp)) return null;
    const [low, high] = k.temperature_range;
    return { model: name, causal: k.masks[mask], scale: k.scales[scaling],
      temperature: Math.min(Math.max(temp, low), high),
      heads_off: (opts && opts.heads_off) || [],
      layer: Math.trunc(Number(layer)) || 0, head: Math.trunc(Number(head)) || 0,
      theme: theme === "dark" ? "dark" : "light",
      // echoed as grid_payload echoes them (Controls.named(): the values as parsed)
      controls: { objective: String(objective), heads: Math.trunc(Number(heads)),
        pos: String(pos), mask: String(mask), scaling: String(scaling), temperature: temp,
        layer: Math.trunc(Number(layer)) || 0, head: Math.trunc(Number(head)) || 0,
        theme: theme === "dark" ? "dark" : "light" } };
  }

  // mosaic(): [L*T, H*T] whole percent, np.rint (round half to even) of clip(w, 0, 1) * 100
  function mosaic(patterns, L, H, n) {
    const z = new Uint8Array(L * n * H * n), row = H * n;
    for (let l = 0; l < L; l++) for (let h = 0; h < H; h++) {
      const o = (l * H + h) * n * n;
      for (let q = 0; q < n; q++) for (let k = 0; k < n; k++) {
        // float32 product as numpy computes it on a float32 array
        const v = Math.fround(Math.min(Math.max(patterns[o + q * n + k], 0), 1) * 100);
        let r = Math.round(v);
        if (r - v === 0.5 && r % 2 === 1) r -= 1; // half to even
        z[(l * n + q) * row + h * n + k] = r;
      }
    }
    let bin = "";
    for (let i = 0; i < z.length; i += 8192) bin += String.fromCharCode.apply(null, z.subarray(i, i + 8192));
    return btoa(bin);
  }

  // Is the model in memory? fetch: wait for it. Otherwise its download starts (first use)
  // and null is answered until it is there: a promise already settled wins the race.
  // A model whose download failed is not asked for again for a minute (no request per key).
  const NOT_YET = {}, failed = new Map();
  async function ready(name, fetchIt) {
    if (AE.engine.loaded(name)) return true;
    if (Date.now() - (failed.get(name) || -Infinity) < 60000) return false;
    try {
      const loading = AE.engine.load(name);
      loading.catch(() => failed.set(name, Date.now()));
      return (await (fetchIt ? loading : Promise.race([loading, Promise.resolve(NOT_YET)]))) !== NOT_YET;
    } catch (e) { return false; }
  }

  async function gridPayload(text, controls, opts = {}) {
    const t = await getTexts();
    const knobs = knobsOf(t, controls || {}, opts);
    if (!knobs || !AE.engine || !(await ready(knobs.model, opts.fetch))) return null;
    text = text == null ? "" : String(text);
    const base = { text, controls: knobs.controls };
    if (!text.trim()) return { ok: false, ...base, caption: plainStatus(t.empty_state) };
    const r = await AE.engine.runTyped(text, knobs);
    const c = r.config, n = r.n;
    let caption = plural(t, n, "token");
    const iv = interventions(t, c, knobs);
    if (iv.length) caption += t.caption.experiment + iv.join(t.caption.join);
    // the text the model read: prepare's cuts (MAX_CHARS, trailing spaces, n_ctx)
    let read = points(text).slice(0, AE.tokenizer.MAX_CHARS || 1000).join("").replace(/ +$/, "");
    if (r.cutTokens) read = points(read).slice(0, r.keptChars).join("");
    for (const notice of notices(t, r, read)) caption += t.caption.notice + plainStatus(notice);
    const layer = Math.min(Math.max(knobs.layer, 0), c.n_layers - 1);
    const head = Math.min(Math.max(knobs.head, 0), c.n_heads - 1);
    return { ok: true, ...base,
      tokens: r.tokens.map((s) => plainLabel(s, t.grid_label_chars)),
      layers: r.layers, heads: r.heads, n, z: mosaic(r.patterns, r.layers, r.heads, n),
      selected: [layer, head], colors: opts.colors || (t.colors || {})[knobs.theme],
      guesses: r.guesses.map((g) => [plainLabel(g.token, 24), Math.round(g.p * 1e4) / 1e4]),
      where: c.causal ? "next word" : "[mask]", caption };
  }

  AE.payload = { setTexts, configure, texts: getTexts, displayToken, plainLabel, knobsOf: (c, o) => texts && knobsOf(texts, c, o) };
  AE.gridPayload = gridPayload;
})();
