// Built by scripts/build_js.mjs from static/ (npm run build): do not edit.
(() => {
  // static/engine/losses.js
  var MAX_MASKED = 16;
  function plural(n, word) {
    const digits = String(n).replace(/\B(?=(\d{3})+$)/g, ",");
    return `${digits} ${n === 1 ? word : word + "s"}`;
  }
  function evenlySpaced(count, picks) {
    const out = [];
    for (let k = 0; k < picks; k++) {
      const at = Math.round(k * (count - 1) / (picks - 1));
      if (!out.includes(at)) out.push(at);
    }
    return out;
  }
  function lossSpec(ids, causalModel, maskId, maxMasked = MAX_MASKED) {
    ids = Array.from(ids);
    if (causalModel) {
      if (ids.length < 2) {
        return { reason: "The loss needs at least two tokens (one to read, one to guess)." };
      }
      const n = ids.length - 1;
      const cols = Array.from({ length: n }, (_, i) => i);
      return {
        inputs: [{ ids, cols, targets: ids.slice(1) }],
        positions: n,
        how: `mean next-word cross-entropy over ${plural(n, "position")}`
      };
    }
    let scorable = ids.flatMap((t, i) => t === maskId ? [] : [i]);
    if (!scorable.length) return { reason: "The loss needs at least one word that is not [mask]." };
    if (scorable.length > maxMasked) {
      scorable = evenlySpaced(scorable.length, maxMasked).map((i) => scorable[i]);
    }
    const inputs = scorable.map((col) => {
      const hidden = ids.slice();
      hidden[col] = maskId;
      return { ids: hidden, cols: [col], targets: [ids[col]] };
    });
    return {
      inputs,
      positions: scorable.length,
      how: `mean cross-entropy of guessing each word when it is hidden as [mask], over ${plural(scorable.length, "position")}`
    };
  }
  function crossEntropy(logits, target) {
    let max = -Infinity;
    for (let i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
    let sum = 0;
    for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i] - max);
    return max + Math.log(sum) - logits[target];
  }
  function inputLoss(model, input) {
    let total = 0;
    input.cols.forEach((col, i) => {
      total += crossEntropy(model.logitsAt(col), input.targets[i]);
    });
    return total;
  }
  function specLoss(model, spec, settings) {
    let total = 0;
    for (const input of spec.inputs) {
      model.forward(input.ids, settings, null);
      total += inputLoss(model, input);
    }
    return Math.fround(total / spec.positions);
  }
  function rankHeads(model, spec, settings) {
    const { n_layers: layers, n_heads: heads } = model.config;
    const plain = { ...settings, headsOff: [] };
    let base = 0;
    const totals = new Float64Array(layers * heads);
    for (const input of spec.inputs) {
      model.forward(input.ids, plain, null, { save: true });
      base += inputLoss(model, input);
      for (let layer = 0; layer < layers; layer++) {
        for (let head = 0; head < heads; head++) {
          model.forward(input.ids, { ...plain, headsOff: [[layer, head]] }, null, { from: layer });
          totals[layer * heads + head] += inputLoss(model, input);
        }
      }
    }
    base = Math.fround(base / spec.positions);
    const rows = Array.from(totals, (total, i) => {
      const loss = Math.fround(total / spec.positions);
      return { layer: Math.floor(i / heads), head: i % heads, loss, delta: loss - base };
    });
    rows.sort((a, b) => b.delta - a.delta || a.layer - b.layer || a.head - b.head);
    return { base, heads: rows };
  }
  function specOf(tokenizer, model, text) {
    const c = model.config;
    const maskedWord = !c.causal;
    const prep = tokenizer.prepare(text == null ? "" : String(text), { nCtx: c.n_ctx, maskedWord });
    return lossSpec(prep.ids, c.causal, tokenizer.maskId);
  }
  function sentenceLoss(tokenizer, model, text, settings) {
    const spec = specOf(tokenizer, model, text);
    if (spec.reason) return { loss: null, positions: 0, how: spec.reason };
    return { loss: specLoss(model, spec, settings), positions: spec.positions, how: spec.how };
  }
  function sentenceRanking(tokenizer, model, text, settings) {
    const spec = specOf(tokenizer, model, text);
    if (spec.reason) return { base: null, positions: 0, how: spec.reason, heads: [] };
    return { ...rankHeads(model, spec, settings), positions: spec.positions, how: spec.how };
  }

  // static/engine/patching.js
  var MIN_GAP = 1;
  var TOP_K = 8;
  function argmax(a, not = -1) {
    let best3 = -1;
    for (let i = 0; i < a.length; i++) if (i !== not && (best3 < 0 || a[i] > a[best3])) best3 = i;
    return best3;
  }
  function softmax(logits) {
    const max = logits[argmax(logits)];
    const p = new Float64Array(logits.length);
    let sum = 0;
    for (let i = 0; i < p.length; i++) sum += p[i] = Math.exp(logits[i] - max);
    for (let i = 0; i < p.length; i++) p[i] /= sum;
    return p;
  }
  function topIds(p, k) {
    const ids = Array.from(p.keys());
    ids.sort((a, b) => p[b] - p[a] || a - b);
    return ids.slice(0, k);
  }
  function predictionRows(tokenizer, left, right, k = TOP_K) {
    const ids = [];
    for (const p of [left, right]) for (const i of topIds(p, k)) if (!ids.includes(i)) ids.push(i);
    const rows = ids.map((i) => ({
      token: tokenizer.decode([i]),
      corrupted: left[i],
      patched: right[i]
    }));
    rows.sort((a, b) => Math.max(b.corrupted, b.patched) - Math.max(a.corrupted, a.patched));
    return rows;
  }
  function baseRuns(model, cleanIds, corruptIds, settings) {
    const { n_layers: L, d_model: d } = model.config, n = cleanIds.length;
    const keep = (z, post) => (l, where, s) => {
      if (where === "z" && z) z.set(s.z.subarray(0, n * d), l * n * d);
      if (where === "post") post.set(s.x.subarray(0, n * d), l * n * d);
    };
    const cleanZ = new Float32Array(L * n * d), cleanPost = new Float32Array(L * n * d), corruptPost = new Float32Array(L * n * d);
    const clean3 = model.forward(cleanIds, settings, n - 1, { tap: keep(cleanZ, cleanPost) }).logits;
    const corrupt = model.forward(corruptIds, settings, n - 1, {
      save: true,
      tap: keep(null, corruptPost)
    }).logits;
    return { clean: clean3, corrupt, cleanZ, cleanPost, corruptPost };
  }
  function headPatched(model, ids, settings, runs, layer, head) {
    const d = model.config.d_model, dh = d / model.config.n_heads, n = ids.length;
    const tap = (l, where, s) => {
      if (l !== layer || where !== "z") return;
      for (let p = 0; p < n; p++) {
        const o = p * d + head * dh;
        s.z.set(runs.cleanZ.subarray(layer * n * d + o, layer * n * d + o + dh), o);
      }
    };
    return model.forward(ids, settings, n - 1, { from: layer, tap }).logits;
  }
  function positionShares(model, ids, settings, runs, share) {
    const { n_layers: L, d_model: d } = model.config, n = ids.length;
    const stream = new Float32Array(n * d);
    const out = [];
    for (let l = 0; l < L; l++) {
      const row = new Array(n).fill(0);
      const corrupt = runs.corruptPost.subarray(l * n * d, (l + 1) * n * d), clean3 = runs.cleanPost.subarray(l * n * d, (l + 1) * n * d);
      for (let p = 0; p < n; p++) {
        let same = true;
        for (let e = p * d; e < p * d + d && same; e++) same = clean3[e] === corrupt[e];
        if (same) continue;
        stream.set(corrupt);
        stream.set(clean3.subarray(p * d, p * d + d), p * d);
        row[p] = share(model.forward(ids, settings, n - 1, { from: l + 1, stream }).logits);
      }
      out.push(row);
    }
    return out;
  }
  function checkedHead(config, patchHead) {
    if (patchHead == null) return null;
    const { layer, head } = patchHead;
    const ok = Number.isInteger(layer) && Number.isInteger(head) && layer >= 0 && head >= 0;
    if (!(ok && layer < config.n_layers && head < config.n_heads)) {
      throw new Error("the head to patch does not exist in this model");
    }
    return { layer, head };
  }
  function patchIds(tokenizer, model, cleanIds, corruptIds, settings, patchHead = null) {
    const config = model.config;
    if (cleanIds.length !== corruptIds.length || !cleanIds.length) {
      throw new Error("the two sentences need the same number of tokens (at least one)");
    }
    const chosen = checkedHead(config, patchHead);
    const runs = baseRuns(model, cleanIds, corruptIds, settings);
    const answer = argmax(runs.clean);
    const top = argmax(runs.corrupt);
    const wrong = top !== answer ? top : argmax(runs.corrupt, answer);
    const ld = (logits2) => Math.fround(logits2[answer] - logits2[wrong]);
    const ldClean = ld(runs.clean), ldCorrupt = ld(runs.corrupt);
    const out = {
      answer,
      wrong,
      answerToken: tokenizer.decode([answer]),
      wrongToken: tokenizer.decode([wrong]),
      ld_clean: ldClean,
      ld_corrupt: ldCorrupt,
      sameGuess: answer === top,
      heads: null,
      positions: null,
      patched: null,
      guesses: null
    };
    if (!(Math.abs(ldClean - ldCorrupt) >= MIN_GAP)) return out;
    const share = (logits2) => (ld(logits2) - ldCorrupt) / (ldClean - ldCorrupt);
    out.heads = [];
    for (let l = 0; l < config.n_layers; l++) {
      const row = [];
      for (let h = 0; h < config.n_heads; h++) {
        row.push(share(headPatched(model, corruptIds, settings, runs, l, h)));
      }
      out.heads.push(row);
    }
    out.positions = positionShares(model, corruptIds, settings, runs, share);
    const flat = out.heads.flat();
    const best3 = argmax(flat);
    const { layer, head } = chosen || {
      layer: Math.floor(best3 / config.n_heads),
      head: best3 % config.n_heads
    };
    const logits = headPatched(model, corruptIds, settings, runs, layer, head);
    const probs = softmax(logits);
    out.patched = { layer, head, ld: ld(logits), guess: tokenizer.decode([argmax(logits)]) };
    out.guesses = predictionRows(tokenizer, softmax(runs.corrupt), probs);
    return out;
  }
  function patchPair(tokenizer, model, clean3, corrupt, settings, patchHead = null) {
    const c = model.config;
    if (!c.causal) {
      throw new Error(
        "patching reads the next-word guess at the last position: pick a next-word model"
      );
    }
    const prep = (text) => tokenizer.prepare(text == null ? "" : String(text), { nCtx: c.n_ctx, maskedWord: false });
    const a = prep(clean3), b = prep(corrupt);
    if (a.ids.length !== b.ids.length || !a.ids.length) {
      throw new Error(
        `the two sentences need the same number of tokens (${a.ids.length} and ${b.ids.length})`
      );
    }
    const out = patchIds(tokenizer, model, a.ids, b.ids, settings, patchHead);
    return { ...out, tokens: a.pieces, corruptTokens: b.pieces };
  }

  // static/engine/ablation.js
  function guessedAt(tokenizer, ids, causal) {
    if (!ids.length) return null;
    if (causal) return ids.length - 1;
    const at = ids.indexOf(tokenizer.maskId);
    return at < 0 ? null : at;
  }
  function sentenceAblation(tokenizer, model, text, settings) {
    const c = model.config;
    text = text == null ? "" : String(text);
    const prep = tokenizer.prepare(text, { nCtx: c.n_ctx, maskedWord: !c.causal });
    const headsOff2 = settings.headsOff || [];
    const on = { ...settings, headsOff: [] };
    const at = guessedAt(tokenizer, prep.ids, c.causal);
    const out = { tokens: prep.pieces, predictAt: at, headsOff: headsOff2, guesses: [], top: null };
    if (at != null) {
      const pOn = softmax(model.forward(prep.ids, on, at).logits);
      const pOff = headsOff2.length ? softmax(model.forward(prep.ids, settings, at).logits) : pOn;
      out.guesses = predictionRows(tokenizer, pOn, pOff).map((r) => ({
        token: r.token,
        on: r.corrupted,
        off: r.patched
      }));
      const before = argmax(pOn), after = argmax(pOff);
      out.top = {
        was: tokenizer.decode([before]),
        wasOn: pOn[before],
        wasOff: pOff[before],
        now: tokenizer.decode([after]),
        nowOff: pOff[after]
      };
    }
    const lossOn = sentenceLoss(tokenizer, model, text, on);
    const lossOff = headsOff2.length ? sentenceLoss(tokenizer, model, text, settings) : lossOn;
    return {
      ...out,
      lossOn: lossOn.loss,
      lossOff: lossOff.loss,
      positions: lossOn.positions,
      how: lossOn.how
    };
  }

  // static/engine/io.js
  var TRIES = 6;
  var BUSY = /* @__PURE__ */ new Set([429, 503]);
  function retryAfter(header) {
    const s = Number(header);
    return Number.isFinite(s) && s > 0 ? Math.min(s, 10) : 1;
  }
  async function fetchBytes(url, { get = fetch, sleep } = {}) {
    const pause = sleep || ((s) => new Promise((done) => setTimeout(done, s * 1e3)));
    for (let tried = 1; ; tried++) {
      const answer = await get(url);
      if (answer.ok) return answer.arrayBuffer();
      if (!BUSY.has(answer.status) || tried >= TRIES) {
        throw new Error(`could not load ${url} (${answer.status})`);
      }
      await pause(retryAfter(answer.headers.get("retry-after")));
    }
  }
  var utf8 = new TextDecoder();
  async function readJSON(url, read = fetchBytes) {
    return JSON.parse(utf8.decode(await read(url)));
  }

  // static/engine/kernel_bytes.js
  var KERNEL = "AGFzbQEAAAABFAJgB39/f39/f38AYAZ/f39/f38AAg8BA2VudgZtZW1vcnkCAAEDAwIAAQcWAgZsaW5lYXIAAAlsaW5lYXJfdG4AAQrIEgLiCgINfw17IAJBAnQhCiAEQQJ0IQsCQANAIAdBAWogAU8NASAAIAcgCmxqIQwgDCAKaiENIAYgByALbGohDiAOIAtqIQ9BACEIAkADQCAIIARPDQEgAyAIIApsaiEQIBAgCmohESARIApqIRIgEiAKaiET/QwAAAAAAAAAAAAAAAAAAAAAIRn9DAAAAAAAAAAAAAAAAAAAAAAhGv0MAAAAAAAAAAAAAAAAAAAAACEb/QwAAAAAAAAAAAAAAAAAAAAAIRz9DAAAAAAAAAAAAAAAAAAAAAAhHf0MAAAAAAAAAAAAAAAAAAAAACEe/QwAAAAAAAAAAAAAAAAAAAAAIR/9DAAAAAAAAAAAAAAAAAAAAAAhIEEAIQkCQANAIAkgCk8NASAMIAlq/QAEACEWIA0gCWr9AAQAIRcgECAJav0ABAAhGCAZIBYgGP3mAf3kASEZIB0gFyAY/eYB/eQBIR0gESAJav0ABAAhGCAaIBYgGP3mAf3kASEaIB4gFyAY/eYB/eQBIR4gEiAJav0ABAAhGCAbIBYgGP3mAf3kASEbIB8gFyAY/eYB/eQBIR8gEyAJav0ABAAhGCAcIBYgGP3mAf3kASEcICAgFyAY/eYB/eQBISAgCUEQaiEJDAALCyAOIAhBAnRqIBkgGv0NAAECAxAREhMICQoLGBkaGyAZIBr9DQQFBgcUFRYXDA0ODxwdHh/95AEiFCAbIBz9DQABAgMQERITCAkKCxgZGhsgGyAc/Q0EBQYHFBUWFwwNDg8cHR4f/eQBIhX9DQABAgMEBQYHEBESExQVFhcgFCAV/Q0ICQoLDA0ODxgZGhscHR4f/eQBIAUEeyAFIAhBAnRq/QAEAAX9DAAAAAAAAAAAAAAAAAAAAAAL/eQB/QsEACAPIAhBAnRqIB0gHv0NAAECAxAREhMICQoLGBkaGyAdIB79DQQFBgcUFRYXDA0ODxwdHh/95AEiFCAfICD9DQABAgMQERITCAkKCxgZGhsgHyAg/Q0EBQYHFBUWFwwNDg8cHR4f/eQBIhX9DQABAgMEBQYHEBESExQVFhcgFCAV/Q0ICQoLDA0ODxgZGhscHR4f/eQBIAUEeyAFIAhBAnRq/QAEAAX9DAAAAAAAAAAAAAAAAAAAAAAL/eQB/QsEACAIQQRqIQgMAAsLIAdBAmohBwwACwsgByABSQRAIAAgByAKbGohDCAGIAcgC2xqIQ5BACEIAkADQCAIIARPDQEgAyAIIApsaiEQIBAgCmohESARIApqIRIgEiAKaiET/QwAAAAAAAAAAAAAAAAAAAAAIRn9DAAAAAAAAAAAAAAAAAAAAAAhGv0MAAAAAAAAAAAAAAAAAAAAACEb/QwAAAAAAAAAAAAAAAAAAAAAIRxBACEJAkADQCAJIApPDQEgDCAJav0ABAAhFiAQIAlq/QAEACEYIBkgFiAY/eYB/eQBIRkgESAJav0ABAAhGCAaIBYgGP3mAf3kASEaIBIgCWr9AAQAIRggGyAWIBj95gH95AEhGyATIAlq/QAEACEYIBwgFiAY/eYB/eQBIRwgCUEQaiEJDAALCyAOIAhBAnRqIBkgGv0NAAECAxAREhMICQoLGBkaGyAZIBr9DQQFBgcUFRYXDA0ODxwdHh/95AEiFCAbIBz9DQABAgMQERITCAkKCxgZGhsgGyAc/Q0EBQYHFBUWFwwNDg8cHR4f/eQBIhX9DQABAgMEBQYHEBESExQVFhcgFCAV/Q0ICQoLDA0ODxgZGhscHR4f/eQBIAUEeyAFIAhBAnRq/QAEAAX9DAAAAAAAAAAAAAAAAAAAAAAL/eQB/QsEACAIQQRqIQgMAAsLCwvhBwIHfwt7IAJBAnQhCSAEQQJ0IQoCQANAIAYgAk8NAUEAIQcCQANAIAdBCGogBEsNAf0MAAAAAAAAAAAAAAAAAAAAACEQ/QwAAAAAAAAAAAAAAAAAAAAAIRH9DAAAAAAAAAAAAAAAAAAAAAAhEv0MAAAAAAAAAAAAAAAAAAAAACET/QwAAAAAAAAAAAAAAAAAAAAAIRT9DAAAAAAAAAAAAAAAAAAAAAAhFf0MAAAAAAAAAAAAAAAAAAAAACEW/QwAAAAAAAAAAAAAAAAAAAAAIRcgACAGQQJ0aiELIAMgB0ECdGohDEEAIQgCQANAIAggAU8NASAM/QAEACEOIAz9AAQQIQ8gCyoCAP0TIQ0gECANIA795gH95AEhECARIA0gD/3mAf3kASERIAsqAgT9EyENIBIgDSAO/eYB/eQBIRIgEyANIA/95gH95AEhEyALKgII/RMhDSAUIA0gDv3mAf3kASEUIBUgDSAP/eYB/eQBIRUgCyoCDP0TIQ0gFiANIA795gH95AEhFiAXIA0gD/3mAf3kASEXIAsgCWohCyAMIApqIQwgCEEBaiEIDAALCyAFIAZBAGogCmwgB0ECdGpqIBD9CwQAIAUgBkEAaiAKbCAHQQJ0amogEf0LBBAgBSAGQQFqIApsIAdBAnRqaiAS/QsEACAFIAZBAWogCmwgB0ECdGpqIBP9CwQQIAUgBkECaiAKbCAHQQJ0amogFP0LBAAgBSAGQQJqIApsIAdBAnRqaiAV/QsEECAFIAZBA2ogCmwgB0ECdGpqIBb9CwQAIAUgBkEDaiAKbCAHQQJ0amogF/0LBBAgB0EIaiEHDAALCwJAA0AgByAETw0B/QwAAAAAAAAAAAAAAAAAAAAAIRD9DAAAAAAAAAAAAAAAAAAAAAAhEv0MAAAAAAAAAAAAAAAAAAAAACEU/QwAAAAAAAAAAAAAAAAAAAAAIRYgACAGQQJ0aiELIAMgB0ECdGohDEEAIQgCQANAIAggAU8NASAM/QAEACEOIAsqAgD9EyENIBAgDSAO/eYB/eQBIRAgCyoCBP0TIQ0gEiANIA795gH95AEhEiALKgII/RMhDSAUIA0gDv3mAf3kASEUIAsqAgz9EyENIBYgDSAO/eYB/eQBIRYgCyAJaiELIAwgCmohDCAIQQFqIQgMAAsLIAUgBkEAaiAKbCAHQQJ0amogEP0LBAAgBSAGQQFqIApsIAdBAnRqaiAS/QsEACAFIAZBAmogCmwgB0ECdGpqIBT9CwQAIAUgBkEDaiAKbCAHQQJ0amogFv0LBAAgB0EEaiEHDAALCyAGQQRqIQYMAAsLCw==";

  // static/engine/kernel.js
  var kernelModule;
  function kernel() {
    if (kernelModule === void 0) {
      try {
        const bytes = Uint8Array.from(atob(KERNEL), (ch) => ch.charCodeAt(0));
        kernelModule = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
      } catch {
        kernelModule = null;
      }
    }
    return kernelModule;
  }
  function arena(floats, simd) {
    const mod = simd && kernel();
    if (!mod) return { linear: null, linearTN: null, take: (count) => new Float32Array(count) };
    const pages = Math.ceil(((floats + 4 * 64) * 4 + 16) / 65536);
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    const { linear: linear2, linear_tn: linearTN } = new WebAssembly.Instance(mod, { env: { memory } }).exports;
    let at = 16;
    return {
      linear: linear2,
      linearTN,
      take(count) {
        const view = new Float32Array(memory.buffer, at, count);
        at += Math.ceil(count * 4 / 16) * 16;
        return view;
      }
    };
  }

  // static/engine/loops.js
  var LN_EPS = 1e-5;
  function erf(x) {
    const z = Math.abs(x), t = 1 / (1 + 0.5 * z);
    const r = t * Math.exp(
      -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
    );
    return x >= 0 ? 1 - r : r - 1;
  }
  function addInto(x, y, count) {
    for (let i = 0; i < count; i++) x[i] += y[i];
  }
  var ERF_STEP = 1024;
  var ERF_MAX = 4;
  var ERF = Float64Array.from(
    { length: 2 * ERF_MAX * ERF_STEP + 2 },
    (_, i) => erf(i / ERF_STEP - ERF_MAX)
  );
  function gelu(a, count) {
    for (let i = 0; i < count; i++) {
      const u = a[i], t = (u * Math.SQRT1_2 + ERF_MAX) * ERF_STEP;
      let e;
      if (t <= 0) e = -1;
      else if (t >= 2 * ERF_MAX * ERF_STEP) e = 1;
      else {
        const j = t | 0, f = t - j;
        e = ERF[j] + f * (ERF[j + 1] - ERF[j]);
      }
      a[i] = 0.5 * u * (1 + e);
    }
  }
  function linear(x, n, dIn, W3, dOut, b, y) {
    let i = 0;
    for (; i + 1 < n; i += 2) {
      const xa = i * dIn, xb = xa + dIn, ya = i * dOut, yb = ya + dOut;
      let o = 0;
      for (; o + 3 < dOut; o += 4) {
        const w0 = o * dIn, w1 = w0 + dIn, w2 = w1 + dIn, w3 = w2 + dIn;
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
        for (let k = 0; k < dIn; k++) {
          const u = x[xa + k], v = x[xb + k];
          const c0 = W3[w0 + k], c1 = W3[w1 + k], c2 = W3[w2 + k], c3 = W3[w3 + k];
          a0 += u * c0;
          a1 += u * c1;
          a2 += u * c2;
          a3 += u * c3;
          b0 += v * c0;
          b1 += v * c1;
          b2 += v * c2;
          b3 += v * c3;
        }
        const e0 = b ? b[o] : 0, e1 = b ? b[o + 1] : 0, e2 = b ? b[o + 2] : 0, e3 = b ? b[o + 3] : 0;
        y[ya + o] = a0 + e0;
        y[ya + o + 1] = a1 + e1;
        y[ya + o + 2] = a2 + e2;
        y[ya + o + 3] = a3 + e3;
        y[yb + o] = b0 + e0;
        y[yb + o + 1] = b1 + e1;
        y[yb + o + 2] = b2 + e2;
        y[yb + o + 3] = b3 + e3;
      }
      for (; o < dOut; o++) {
        linearOne(x, xa, dIn, W3, o, b, y, ya);
        linearOne(x, xb, dIn, W3, o, b, y, yb);
      }
    }
    if (i < n) linearRow(x, i * dIn, dIn, W3, dOut, b, y, i * dOut);
    return y;
  }
  function linearRow(x, xo, dIn, W3, dOut, b, y, yo) {
    let o = 0;
    for (; o + 3 < dOut; o += 4) {
      const w0 = o * dIn, w1 = w0 + dIn, w2 = w1 + dIn, w3 = w2 + dIn;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let k = 0; k < dIn; k++) {
        const a = x[xo + k];
        s0 += a * W3[w0 + k];
        s1 += a * W3[w1 + k];
        s2 += a * W3[w2 + k];
        s3 += a * W3[w3 + k];
      }
      if (b) {
        s0 += b[o];
        s1 += b[o + 1];
        s2 += b[o + 2];
        s3 += b[o + 3];
      }
      y[yo + o] = s0;
      y[yo + o + 1] = s1;
      y[yo + o + 2] = s2;
      y[yo + o + 3] = s3;
    }
    for (; o < dOut; o++) linearOne(x, xo, dIn, W3, o, b, y, yo);
  }
  function linearOne(x, xo, dIn, W3, o, b, y, yo) {
    const wo = o * dIn;
    let s = b ? b[o] : 0;
    for (let k = 0; k < dIn; k++) s += x[xo + k] * W3[wo + k];
    y[yo + o] = s;
  }
  function layerNorm(x, n, d, w, b, y, xhat = null, rstd = null) {
    for (let i = 0; i < n; i++) {
      const o = i * d;
      let mean = 0;
      for (let k = 0; k < d; k++) mean += x[o + k];
      mean /= d;
      let v = 0;
      for (let k = 0; k < d; k++) {
        const c = x[o + k] - mean;
        v += c * c;
      }
      const inv = 1 / Math.sqrt(v / d + LN_EPS);
      if (rstd) rstd[i] = inv;
      for (let k = 0; k < d; k++) {
        const h = (x[o + k] - mean) * inv;
        if (xhat) xhat[o + k] = h;
        y[o + k] = h * w[k] + b[k];
      }
    }
    return y;
  }
  function attendHead(q, k, v, d, n, col, dh, causal, scale, bias, row, patterns, po, z, i0 = 0) {
    for (let i = i0; i < n; i++) {
      const qi = i * d + col, last2 = causal ? i : n - 1, pi = po + i * n;
      scoreRow(q, k, d, qi, col, dh, last2, row);
      let max = -Infinity;
      for (let j = 0; j <= last2; j++) {
        let s = row[j] * scale;
        if (bias !== 0) s -= bias * Math.abs(i - j);
        row[j] = s;
        if (s > max) max = s;
      }
      let sum = 0;
      for (let j = 0; j <= last2; j++) {
        const e = Math.exp(row[j] - max);
        row[j] = e;
        sum += e;
      }
      for (let j = 0; j <= last2; j++) patterns[pi + j] = row[j] / sum;
      if (z !== null) weighRow(patterns, pi, v, d, col, dh, last2, z, qi);
    }
  }
  function scoreRow(q, k, d, qi, col, dh, last2, row) {
    let j = 0;
    for (; j + 3 <= last2; j += 4) {
      const k0 = j * d + col, k1 = k0 + d, k2 = k1 + d, k3 = k2 + d;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let e = 0; e < dh; e++) {
        const a = q[qi + e];
        s0 += a * k[k0 + e];
        s1 += a * k[k1 + e];
        s2 += a * k[k2 + e];
        s3 += a * k[k3 + e];
      }
      row[j] = s0;
      row[j + 1] = s1;
      row[j + 2] = s2;
      row[j + 3] = s3;
    }
    for (; j <= last2; j++) {
      const kj = j * d + col;
      let s = 0;
      for (let e = 0; e < dh; e++) s += q[qi + e] * k[kj + e];
      row[j] = s;
    }
  }
  function weighRow(p, pi, v, d, col, dh, last2, z, qi) {
    const f = Math.fround;
    let e = 0;
    for (; e + 3 < dh; e += 4) {
      let z0 = z[qi + e], z1 = z[qi + e + 1], z2 = z[qi + e + 2], z3 = z[qi + e + 3];
      for (let j = 0, vj = col + e; j <= last2; j++, vj += d) {
        const w = p[pi + j];
        z0 = f(z0 + w * v[vj]);
        z1 = f(z1 + w * v[vj + 1]);
        z2 = f(z2 + w * v[vj + 2]);
        z3 = f(z3 + w * v[vj + 3]);
      }
      z[qi + e] = z0;
      z[qi + e + 1] = z1;
      z[qi + e + 2] = z2;
      z[qi + e + 3] = z3;
    }
    for (; e < dh; e++) {
      let a = z[qi + e];
      for (let j = 0, vj = col + e; j <= last2; j++, vj += d) a = f(a + p[pi + j] * v[vj]);
      z[qi + e] = a;
    }
  }

  // static/engine/prefix.js
  var keyOf = (pass) => [pass.causal, pass.scale, pass.T, [...pass.off].sort((a, b) => a - b).join(",")].join("|");
  var PrefixCache = class {
    constructor(config) {
      const size = config.n_ctx * config.d_model;
      this.k = Array.from({ length: config.n_layers }, () => new Float32Array(size));
      this.v = Array.from({ length: config.n_layers }, () => new Float32Array(size));
      this.ids = null;
      this.key = "";
      this.patterns = null;
    }
    start(ids, pass, at) {
      const key = keyOf(pass), old = this.ids;
      let p = 0;
      if (old && key === this.key) {
        const m = Math.min(old.length, ids.length);
        while (p < m && old[p] === ids[p]) p++;
      }
      p = Math.max(0, Math.min(p, ids.length - 1, at == null ? Infinity : at));
      this.ids = null;
      this.key = key;
      return p;
    }
    reuse(patterns, n, p) {
      if (!p) return;
      const was = this.patterns, m = this.n, count = patterns.length / (n * n);
      for (let g2 = 0; g2 < count; g2++) {
        for (let i = 0; i < p; i++) {
          const from = g2 * m * m + i * m;
          patterns.set(was.subarray(from, from + i + 1), g2 * n * n + i * n);
        }
      }
    }
    finish(ids, patterns) {
      this.ids = Array.from(ids);
      this.n = ids.length;
      this.patterns = patterns.slice();
    }
  };

  // static/engine/model.js
  function alibiSlopes(h) {
    const pow2 = (n) => Array.from({ length: n }, (_, i) => (2 ** (-8 / n)) ** (i + 1));
    if (Number.isInteger(Math.log2(h))) return pow2(h);
    const closest = 2 ** Math.floor(Math.log2(h));
    return pow2(closest).concat(
      pow2(2 * closest).filter((_, i) => i % 2 === 0).slice(0, h - closest)
    );
  }
  var Transformer = class {
    constructor(parsed, options = {}) {
      const c = this.config = parsed.config, t = parsed.tensors;
      if (c.task !== "lm" || c.norm !== "pre" || c.mlp === false) {
        throw new Error("the browser computes the zoo's pre-norm language models only");
      }
      const { d_model: d, d_ff: ff, n_ctx: N } = c;
      const scratch = {
        x: N * d,
        h: N * d,
        q: N * d,
        k: N * d,
        v: N * d,
        z: N * d,
        out: N * d,
        mid: N * ff,
        fin: d,
        logits: c.vocab_size
      };
      let floats = Object.values(scratch).reduce((a, b) => a + b, 0);
      for (const name of Object.keys(t)) floats += t[name].data.length;
      const mem = arena(floats, options.simd !== false);
      this.kernel = mem.linear;
      this.simd = !!mem.linear;
      const placed = /* @__PURE__ */ new Map();
      const get = (name) => {
        if (!t[name]) throw new Error(`the checkpoint has no ${name}`);
        if (!placed.has(name)) placed.set(name, mem.take(t[name].data.length));
        const view = placed.get(name);
        view.set(t[name].data);
        return view;
      };
      this.s = Object.fromEntries(Object.entries(scratch).map(([k, n]) => [k, mem.take(n)]));
      this.row = new Float64Array(N);
      this.dHead = c.d_model / c.n_heads;
      this.W_E = get("W_E.weight");
      this.blocks = Array.from({ length: c.n_layers }, (_, l) => {
        const p = `blocks.${l}.`;
        return {
          ln1w: get(p + "ln1.weight"),
          ln1b: get(p + "ln1.bias"),
          ln2w: get(p + "ln2.weight"),
          ln2b: get(p + "ln2.bias"),
          W_Q: get(p + "attn.W_Q.weight"),
          W_K: get(p + "attn.W_K.weight"),
          W_V: get(p + "attn.W_V.weight"),
          W_O: get(p + "attn.W_O.weight"),
          W_in: get(p + "mlp.W_in.weight"),
          b_in: get(p + "mlp.W_in.bias"),
          W_out: get(p + "mlp.W_out.weight"),
          b_out: get(p + "mlp.W_out.bias")
        };
      });
      this.lnfw = get("ln_final.weight");
      this.lnfb = get("ln_final.bias");
      this.W_U = t["W_U.weight"] ? get("W_U.weight") : this.W_E;
      const pe = c.pos_encoding;
      if (pe === "learned") this.W_pos = get("pos.W_pos.weight");
      if (pe === "sinusoidal") this.sinScale = t["pos.scale"].data[0];
      if (pe === "alibi") this.slopes = alibiSlopes(c.n_heads);
      if (pe === "rotary") {
        const half = this.dHead / 2;
        this.invFreq = Float32Array.from(
          { length: half },
          (_, i) => 1 / c.rotary_base ** (2 * i / this.dHead)
        );
      }
    }
    // [n, d_model] added to the token embeddings (absolute encodings), or null
    positionTable(n) {
      const d = this.config.d_model;
      if (this.W_pos) return this.W_pos.subarray(0, n * d);
      if (this.sinScale === void 0) return null;
      if (!this.sinTable) this.sinTable = this.sinusoids(this.config.n_ctx);
      return this.sinTable.subarray(0, n * d);
    }
    sinusoids(n) {
      const d = this.config.d_model;
      const out = new Float32Array(n * d);
      for (let p = 0; p < n; p++) {
        for (let i = 0; i < d; i += 2) {
          const angle = Math.fround(p / Math.fround(1e4 ** Math.fround(i / d)));
          out[p * d + i] = Math.sin(angle) * this.sinScale;
          if (i + 1 < d) out[p * d + i + 1] = Math.cos(angle) * this.sinScale;
        }
      }
      return out;
    }
    // rotary: each (2i, 2i+1) pair of every head's q or k (rows from .. n-1) rotated by
    // pos * invFreq[i]
    rotate(x, n, from = 0) {
      const { d_model: d, n_heads: H2 } = this.config, dh = this.dHead, half = dh / 2, turns = this.rotaryTable();
      for (let p = from; p < n; p++) {
        for (let i = 0; i < half; i++) {
          const c = turns[2 * (p * half + i)], s = turns[2 * (p * half + i) + 1];
          for (let h = 0; h < H2; h++) {
            const o = p * d + h * dh + 2 * i, x0 = x[o], x1 = x[o + 1];
            x[o] = x0 * c - x1 * s;
            x[o + 1] = x0 * s + x1 * c;
          }
        }
      }
    }
    // [n_ctx, d_head / 2, 2]: cos and sin of the angle fround(p * invFreq[i]), made once (the
    // same doubles rotate() would compute for each call)
    rotaryTable() {
      if (this.turns) return this.turns;
      const half = this.dHead / 2, N = this.config.n_ctx;
      const turns = new Float64Array(2 * N * half);
      for (let p = 0; p < N; p++) {
        for (let i = 0; i < half; i++) {
          const a = Math.fround(p * this.invFreq[i]);
          turns[2 * (p * half + i)] = Math.cos(a);
          turns[2 * (p * half + i) + 1] = Math.sin(a);
        }
      }
      return this.turns = turns;
    }
    // The residual stream x [n, d_model] at the first block's input: the token embeddings,
    // plus the absolute positions' table (rows ``from`` .. n-1).
    embed(ids, x, from = 0) {
      const d = this.config.d_model, n = ids.length;
      for (let p = from; p < n; p++) x.set(this.W_E.subarray(ids[p] * d, ids[p] * d + d), p * d);
      const table = this.positionTable(n);
      if (table) for (let i = from * d; i < n * d; i++) x[i] += table[i];
    }
    // The knobs as one pass uses them: {causal, scaleName, T, scale} (scale holds the 1/T;
    // an ALiBi head's slope is divided by T too), as AttentionSettings.resolve.
    resolve(knobs2) {
      const c = this.config;
      const causal = knobs2.causal == null ? c.causal : !!knobs2.causal;
      const T = knobs2.temperature == null ? 1 : knobs2.temperature;
      const scaleName = knobs2.scale == null ? c.attn_scale : knobs2.scale;
      const factor = {
        d_head: 1 / Math.sqrt(this.dHead),
        d_model: 1 / Math.sqrt(c.d_model),
        none: 1
      };
      return { causal, scaleName, T, scale: factor[scaleName] / T };
    }
    // resume: {save: true} keeps the residual stream at each block's input; {from: l}
    // starts at block l from the stream saved by the last such pass, which must have had the
    // same ids and knobs for the blocks before l (its patterns left 0 there). A ranking
    // (static/engine/losses.js) switches one head off at a time so: the blocks before its
    // layer are the same as with every head on. {from: l, stream} starts at block l from
    // ``stream`` [n, d_model] instead (l may be n_layers: the logits of that stream).
    // {tap: (layer, where, scratch, n) => ...} is called in every block with the scratch
    // (this.s: h, q, k, v, z, out, x, [pos, width] row-major) at "qkv" (h = the block's
    // LayerNorm1 output X, q k v projected), "rotated" (rotary: q and k turned), "z" (every
    // head's output, before W_O: a tap may change it), "out" (z W_O^T) and "post" (x, the
    // residual stream after the block): static/engine/stages.js and patching.js read and
    // patch through it. Without a tap nothing more is done. {only: true} (no tap, save, from
    // or stream): only what is returned is wanted, so the last block computes its output for
    // row ``at`` alone (none when at is null), and under a causal mask the rows before the
    // first token that differs from the last such pass's are that pass's (prefix.js): the
    // same numbers; the scratch's stream is then not whole (logitsAt() of another position
    // is not that pass's). The engine's run and runTyped pass it (a keystroke).
    forward(ids, knobs2, at, resume = {}) {
      const c = this.config, d = c.d_model, n = ids.length;
      const { x } = this.s;
      const from = resume.from || 0, tap = resume.tap, saved = resume.save ? this.savedStream(n) : this.saved;
      if (n > c.n_ctx) throw new Error(`at most ${c.n_ctx} tokens`);
      const pass = { ...this.resolve(knobs2), n, tap, p: 0, kv: null };
      pass.off = new Set((knobs2.headsOff || []).map(([l, h]) => l * c.n_heads + h));
      pass.patterns = new Float32Array(c.n_layers * c.n_heads * n * n);
      const only = resume.only && !tap && !resume.save && !from && !resume.stream;
      if (only && pass.causal && n) this.reusing(ids, pass, at);
      if (resume.stream) x.set(resume.stream.subarray(0, n * d));
      else if (from && !(saved && saved.n === n)) throw new Error("no stream saved to resume from");
      else if (from) x.set(saved.subarray(from * n * d, (from + 1) * n * d));
      else this.embed(ids, x, pass.p);
      this.blocks.forEach((B, l) => {
        if (l < from) return;
        if (resume.save) saved.set(x.subarray(0, n * d), l * n * d);
        if (only && l === c.n_layers - 1) this.lastBlock(B, l, pass, at);
        else this.block(B, l, pass);
      });
      if (pass.kv) pass.kv.finish(ids, pass.patterns);
      return { patterns: pass.patterns, logits: at == null ? null : this.logitsAt(at).slice() };
    }
    // a causal pass with {only: true}: the rows before pass.p are the last such pass's
    // (static/engine/prefix.js); its k and v rows are kept in pass.kv
    reusing(ids, pass, at) {
      if (!this.prefix) this.prefix = new PrefixCache(this.config);
      pass.kv = this.prefix;
      pass.p = this.prefix.start(ids, pass, at);
      this.prefix.reuse(pass.patterns, pass.n, pass.p);
    }
    // LayerNorm1 and q, k, v of rows p .. n-1 into the scratch (rotary: q and k turned); with
    // pass.kv, k and v are copied into its rows too
    qkv(B, l, { n, p, tap, kv }) {
      const d = this.config.d_model, { x, h, q, k, v } = this.s, r = (a) => a.subarray(p * d, n * d);
      layerNorm(r(x), n - p, d, B.ln1w, B.ln1b, r(h));
      this.linear(r(h), n - p, d, B.W_Q, d, null, r(q));
      this.linear(r(h), n - p, d, B.W_K, d, null, r(k));
      this.linear(r(h), n - p, d, B.W_V, d, null, r(v));
      if (tap) tap(l, "qkv", this.s, n);
      if (this.invFreq) {
        this.rotate(q, n, p);
        this.rotate(k, n, p);
        if (tap) tap(l, "rotated", this.s, n);
      }
      if (kv) {
        kv.k[l].set(r(k), p * d);
        kv.v[l].set(r(v), p * d);
      }
    }
    // every head of block l, queries p .. n-1: its pattern into pass.patterns and, when
    // ``zOn``, its output into z (zeroed first; a head switched off writes none); the keys
    // and values of every row are pass.kv's when it reuses, else the scratch's
    attend(l, { n, p, causal, scale, T, off, patterns, kv }, zOn) {
      const { d_model: d, n_heads: H2 } = this.config, dh = this.dHead, { q, z } = this.s, k = kv ? kv.k[l] : this.s.k, v = kv ? kv.v[l] : this.s.v;
      z.fill(0, p * d, n * d);
      for (let hd = 0; hd < H2; hd++) {
        const bias = (this.slopes ? this.slopes[hd] : 0) / T, out = zOn && !off.has(l * H2 + hd) ? z : null;
        const po = (l * H2 + hd) * n * n;
        attendHead(q, k, v, d, n, hd * dh, dh, causal, scale, bias, this.row, patterns, po, out, p);
      }
    }
    // One block on rows p .. n-1 of the residual stream x (in place).
    block(B, l, pass) {
      this.qkv(B, l, pass);
      this.attend(l, pass, true);
      if (pass.tap) pass.tap(l, "z", this.s, pass.n);
      this.rest(B, l, pass.p, pass.n, pass.tap, pass.n);
    }
    // The rest of block l on rows lo .. hi-1 (of n) once z holds the heads' outputs: z W_O^T
    // into the residual stream x, then LayerNorm2 and the MLP into it (each row on its own)
    rest(B, l, lo, hi, tap, n) {
      const { d_model: d, d_ff: ff } = this.config, { x, h, z, out, mid } = this.s, m = hi - lo, r = (a, w = d) => a.subarray(lo * w, hi * w);
      this.linear(r(z), m, d, B.W_O, d, null, r(out));
      if (tap) tap(l, "out", this.s, n);
      addInto(r(x), r(out), m * d);
      layerNorm(r(x), m, d, B.ln2w, B.ln2b, r(h));
      this.linear(r(h), m, d, B.W_in, ff, B.b_in, r(mid, ff));
      gelu(r(mid, ff), m * ff);
      this.linear(r(mid, ff), m, ff, B.W_out, d, B.b_out, r(out));
      addInto(r(x), r(out), m * d);
      if (tap) tap(l, "post", this.s, n);
    }
    // The last block when only the patterns and the logits at ``at`` are wanted: every
    // pattern, then the block's output for row ``at`` alone (the same numbers as block():
    // each row is computed on its own, in the same order)
    lastBlock(B, l, pass, at) {
      const { d_model: d, n_heads: H2 } = this.config, dh = this.dHead, { n, causal, off, patterns, kv } = pass, v = kv ? kv.v[l] : this.s.v;
      this.qkv(B, l, pass);
      this.attend(l, pass, false);
      if (at == null) return;
      const last2 = causal ? at : n - 1;
      for (let hd = 0; hd < H2; hd++) {
        if (off.has(l * H2 + hd)) continue;
        const pi = (l * H2 + hd) * n * n + at * n;
        weighRow(patterns, pi, v, d, hd * dh, dh, last2, this.s.z, at * d + hd * dh);
      }
      this.rest(B, l, at, at + 1, null, n);
    }
    // room for the residual stream at every block's input, [layer, n, d_model]
    savedStream(n) {
      const size = this.config.n_layers * n * this.config.d_model;
      if (!this.saved || this.saved.length < size) this.saved = new Float32Array(size);
      this.saved.n = n;
      return this.saved;
    }
    // The logits [vocab] at position ``p`` of the last forward pass (its residual stream is
    // still in the scratch): a view of the scratch, valid until the next call. The loss
    // (static/engine/losses.js) reads every scored position of one pass so.
    logitsAt(p) {
      const c = this.config, d = c.d_model;
      layerNorm(this.s.x.subarray(p * d, p * d + d), 1, d, this.lnfw, this.lnfb, this.s.fin);
      this.linear(this.s.fin, 1, d, this.W_U, c.vocab_size, null, this.s.logits);
      return this.s.logits;
    }
    // y = x W^T (+ b) on the first ``n`` rows: the kernel when every array is in its memory
    // and the sizes suit it, the plain loops otherwise
    linear(x, n, dIn, W3, dOut, b, y) {
      if (this.kernel && dIn % 4 === 0 && dOut % 4 === 0) {
        this.kernel(x.byteOffset, n, dIn, W3.byteOffset, dOut, b ? b.byteOffset : 0, y.byteOffset);
        return y;
      }
      return linear(x, n, dIn, W3, dOut, b, y);
    }
  };

  // static/engine/safetensors.js
  function halfToFloat(h) {
    const s = h & 32768 ? -1 : 1;
    const e = h >> 10 & 31;
    const f = h & 1023;
    if (e === 0) return s * f * 2 ** -24;
    if (e === 31) return f ? NaN : s * Infinity;
    return s * (1 + f / 1024) * 2 ** (e - 15);
  }
  var HALF = new Float32Array(65536);
  for (let i = 0; i < 65536; i++) HALF[i] = halfToFloat(i);
  function tensorData(buffer, name, t, start) {
    const [from, to] = t.data_offsets;
    const count = t.shape.reduce((a, b) => a * b, 1);
    let data;
    if (t.dtype === "F16") {
      const raw = new Uint16Array(buffer.slice(start + from, start + to));
      data = new Float32Array(count);
      for (let i = 0; i < count; i++) data[i] = HALF[raw[i]];
    } else if (t.dtype === "F32") {
      data = new Float32Array(buffer.slice(start + from, start + to));
    } else {
      throw new Error(`tensor ${name}: dtype ${t.dtype} is not supported`);
    }
    if (data.length !== count) throw new Error(`tensor ${name}: wrong size`);
    return data;
  }
  function parseSafetensors(buffer) {
    const view = new DataView(buffer);
    const n = Number(view.getBigUint64(0, true));
    if (n <= 0 || 8 + n > buffer.byteLength) throw new Error("not a safetensors file");
    const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 8, n)));
    const meta = header.__metadata__ || {};
    if (!meta.explorer_config) throw new Error("the file holds no model configuration");
    const tensors = {};
    for (const [name, t] of Object.entries(header)) {
      if (name === "__metadata__") continue;
      tensors[name] = { shape: t.shape, data: tensorData(buffer, name, t, 8 + n) };
    }
    return { config: JSON.parse(meta.explorer_config), tensors };
  }

  // static/engine/sha256.js
  var K = new Uint32Array([
    1116352408,
    1899447441,
    3049323471,
    3921009573,
    961987163,
    1508970993,
    2453635748,
    2870763221,
    3624381080,
    310598401,
    607225278,
    1426881987,
    1925078388,
    2162078206,
    2614888103,
    3248222580,
    3835390401,
    4022224774,
    264347078,
    604807628,
    770255983,
    1249150122,
    1555081692,
    1996064986,
    2554220882,
    2821834349,
    2952996808,
    3210313671,
    3336571891,
    3584528711,
    113926993,
    338241895,
    666307205,
    773529912,
    1294757372,
    1396182291,
    1695183700,
    1986661051,
    2177026350,
    2456956037,
    2730485921,
    2820302411,
    3259730800,
    3345764771,
    3516065817,
    3600352804,
    4094571909,
    275423344,
    430227734,
    506948616,
    659060556,
    883997877,
    958139571,
    1322822218,
    1537002063,
    1747873779,
    1955562222,
    2024104815,
    2227730452,
    2361852424,
    2428436474,
    2756734187,
    3204031479,
    3329325298
  ]);
  var H0 = [
    1779033703,
    3144134277,
    1013904242,
    2773480762,
    1359893119,
    2600822924,
    528734635,
    1541459225
  ];
  function bytesOf(data) {
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  var rotr = (x, n) => x >>> n | x << 32 - n;
  function block(h, w, view, at) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + 4 * i);
    for (let i = 16; i < 64; i++) {
      const a2 = w[i - 15], b2 = w[i - 2];
      const s0 = rotr(a2, 7) ^ rotr(a2, 18) ^ a2 >>> 3;
      const s1 = rotr(b2, 17) ^ rotr(b2, 19) ^ b2 >>> 10;
      w[i] = w[i - 16] + s0 + w[i - 7] + s1 | 0;
    }
    let [a, b, c, d, e, f, g2, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + (e & f ^ ~e & g2) + K[i] + w[i] | 0;
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + (a & b ^ a & c ^ b & c) | 0;
      k = g2;
      g2 = f;
      f = e;
      e = d + t1 | 0;
      d = c;
      c = b;
      b = a;
      a = t1 + t2 | 0;
    }
    const out = [a, b, c, d, e, f, g2, k];
    for (let i = 0; i < 8; i++) h[i] = h[i] + out[i] | 0;
  }
  function hex(words) {
    return Array.from(words, (x) => (x >>> 0).toString(16).padStart(8, "0")).join("");
  }
  function sha256Plain(data) {
    const bytes = bytesOf(data);
    const n = bytes.length;
    const whole = n - n % 64;
    const h = new Int32Array(H0);
    const w = new Int32Array(64);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at < whole; at += 64) block(h, w, view, at);
    const tail = new Uint8Array(n - whole < 56 ? 64 : 128);
    tail.set(bytes.subarray(whole));
    tail[n - whole] = 128;
    const end = new DataView(tail.buffer);
    end.setUint32(tail.length - 8, Math.floor(n / 536870912));
    end.setUint32(tail.length - 4, n * 8 >>> 0);
    for (let at = 0; at < tail.length; at += 64) block(h, w, end, at);
    return hex(h);
  }
  async function sha256Hex(data) {
    const subtle = globalThis.crypto && globalThis.crypto.subtle;
    if (!subtle) return sha256Plain(data);
    const digest = new Uint8Array(await subtle.digest("SHA-256", bytesOf(data)));
    return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // static/engine/numpy_random.js
  var M32 = 4294967295;
  var MASK64 = (1n << 64n) - 1n;
  var MASK128 = (1n << 128n) - 1n;
  var MULT128 = 0x2360ed051fc65da44385df649fccf645n;
  var INIT_A = 1135663077;
  var MULT_A = 2468251765;
  var INIT_B = 2337405405;
  var MULT_B = 1492356589;
  var MIX_MULT_L = 3389127133;
  var MIX_MULT_R = 1232336661;
  var POOL = 4;
  var mul32 = (a, b) => Math.imul(a, b) >>> 0;
  var xshift = (v) => (v ^ v >>> 16) >>> 0;
  function seedWords(seed) {
    let n = BigInt(seed);
    if (n < 0n) throw new Error("the seed must be a non-negative integer");
    const words = [];
    do {
      words.push(Number(n & 0xffffffffn));
      n >>= 32n;
    } while (n > 0n);
    return words;
  }
  function seedPool(seed) {
    const entropy = seedWords(seed);
    let hashConst = INIT_A;
    const hashmix = (value) => {
      value = (value ^ hashConst) >>> 0;
      hashConst = mul32(hashConst, MULT_A);
      return xshift(mul32(value, hashConst));
    };
    const mix = (x, y) => xshift(mul32(MIX_MULT_L, x) - mul32(MIX_MULT_R, y) >>> 0);
    const pool = [];
    for (let i = 0; i < POOL; i++) pool.push(hashmix(i < entropy.length ? entropy[i] : 0));
    for (let src = 0; src < POOL; src++) {
      for (let dst = 0; dst < POOL; dst++) {
        if (src !== dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
      }
    }
    for (let src = POOL; src < entropy.length; src++) {
      for (let dst = 0; dst < POOL; dst++) pool[dst] = mix(pool[dst], hashmix(entropy[src]));
    }
    return pool;
  }
  function generateState(pool, n64) {
    let hashConst = INIT_B;
    const words = [];
    for (let i = 0; i < 2 * n64; i++) {
      const v = (pool[i % pool.length] ^ hashConst) >>> 0;
      hashConst = mul32(hashConst, MULT_B);
      words.push(xshift(mul32(v, hashConst)));
    }
    const out = [];
    for (let i = 0; i < n64; i++) {
      out.push(BigInt(words[2 * i]) | BigInt(words[2 * i + 1]) << 32n);
    }
    return out;
  }
  function defaultRng(seed = 0) {
    const [s0, s1, i0, i1] = generateState(seedPool(seed), 4);
    const initState = s0 << 64n | s1;
    const initSeq = i0 << 64n | i1;
    const inc = (initSeq << 1n | 1n) & MASK128;
    let state3 = 0n;
    const step = () => state3 = state3 * MULT128 + inc & MASK128;
    step();
    state3 = state3 + initState & MASK128;
    step();
    let spare = null;
    function nextUint64() {
      step();
      const x = (state3 >> 64n ^ state3) & MASK64;
      const rot = state3 >> 122n;
      return (x >> rot | x << (64n - rot & 63n)) & MASK64;
    }
    function nextUint32() {
      if (spare != null) {
        const v = spare;
        spare = null;
        return v;
      }
      const next = nextUint64();
      spare = Number(next >> 32n);
      return Number(next & 0xffffffffn);
    }
    function interval(max) {
      if (max === 0) return 0;
      let mask2 = max;
      for (const s of [1, 2, 4, 8, 16]) mask2 = (mask2 | mask2 >>> s) >>> 0;
      let value;
      do
        value = (nextUint32() & mask2) >>> 0;
      while (value > max);
      return value;
    }
    function permutation(n) {
      if (n > M32) throw new Error("too many items to shuffle");
      const a = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i >= 1; i--) {
        const j = interval(i);
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    }
    return { nextUint32, nextUint64, permutation };
  }

  // static/engine/shuffle.js
  var SPACES = /* @__PURE__ */ new Set([
    9,
    10,
    11,
    12,
    13,
    28,
    29,
    30,
    31,
    32,
    133,
    160,
    5760,
    8192,
    8193,
    8194,
    8195,
    8196,
    8197,
    8198,
    8199,
    8200,
    8201,
    8202,
    8232,
    8233,
    8239,
    8287,
    12288
  ]);
  function wordStarts(pieces) {
    const out = [];
    pieces.forEach((p, i) => {
      if (i === 0 || p.length > 0 && SPACES.has(p.codePointAt(0))) out.push(i);
    });
    return out;
  }
  function wordPermutation(pieces, seed = 0) {
    const starts = [...wordStarts(pieces), pieces.length];
    const words = [];
    for (let w = 0; w + 1 < starts.length; w++) {
      words.push(Array.from({ length: starts[w + 1] - starts[w] }, (_, i) => starts[w] + i));
    }
    if (words.length < 2) return null;
    const rng = defaultRng(seed);
    let order = null;
    for (let tries = 0; tries < 50; tries++) {
      order = rng.permutation(words.length);
      if (order.some((w, i) => w !== i)) break;
    }
    return order.flatMap((w) => words[w]);
  }
  function headOf(patterns, H2, n, layer, head) {
    const o = (layer * H2 + head) * n * n;
    return Array.from(
      { length: n },
      (_, q) => Array.from(patterns.subarray(o + q * n, o + q * n + n))
    );
  }
  function topAt(model, n) {
    const out = [];
    for (let p = 0; p < n; p++) {
      const logits = model.logitsAt(p);
      let best3 = 0;
      for (let i = 1; i < logits.length; i++) if (logits[i] > logits[best3]) best3 = i;
      out.push(best3);
    }
    return out;
  }
  function shuffleIds(model, ids, pieces, settings, layer = 0, head = 0, seed = 0) {
    const c = model.config, H2 = c.n_heads, n = ids.length;
    const clamp = (x, top) => Math.min(Math.max(Math.trunc(Number(x)) || 0, 0), top - 1);
    layer = clamp(layer, c.n_layers);
    head = clamp(head, H2);
    const perm = n ? wordPermutation(pieces, seed) : null;
    const result = { tokens: [...pieces], shuffledTokens: [...pieces], perm, layer, head };
    Object.assign(result, { original: null, shuffled: null, restored: null });
    Object.assign(result, { maxDiffHead: 0, maxDiffAll: 0, topChanged: 0 });
    if (!perm) return result;
    result.shuffledTokens = perm.map((i) => pieces[i]);
    const knobs2 = { ...settings, causal: false };
    const orig = model.forward(ids, knobs2, null).patterns;
    const topOrig = topAt(model, n);
    const shuf = model.forward(
      perm.map((i) => ids[i]),
      knobs2,
      null
    ).patterns;
    const topShuf = topAt(model, n);
    const inverse = new Array(n);
    perm.forEach((orig2, j) => inverse[orig2] = j);
    let maxAll = 0, maxHead = 0;
    const restored = new Float32Array(orig.length);
    for (let lh = 0; lh < c.n_layers * H2; lh++) {
      const o = lh * n * n;
      for (let q = 0; q < n; q++) {
        for (let k = 0; k < n; k++) {
          const v = shuf[o + inverse[q] * n + inverse[k]];
          restored[o + q * n + k] = v;
          const d = Math.abs(orig[o + q * n + k] - v);
          if (d > maxAll) maxAll = d;
          if (lh === layer * H2 + head && d > maxHead) maxHead = d;
        }
      }
    }
    result.original = headOf(orig, H2, n, layer, head);
    result.shuffled = headOf(shuf, H2, n, layer, head);
    result.restored = headOf(restored, H2, n, layer, head);
    result.maxDiffHead = maxHead;
    result.maxDiffAll = maxAll;
    result.topChanged = topOrig.filter((t, i) => t !== topShuf[inverse[i]]).length;
    return result;
  }
  function sentenceShuffle(tokenizer, model, text, settings, layer, head, seed = 0) {
    const c = model.config;
    const prep = tokenizer.prepare(text == null ? "" : String(text), {
      nCtx: c.n_ctx,
      maskedWord: !c.causal
    });
    return shuffleIds(model, prep.ids, prep.pieces, settings, layer, head, seed);
  }

  // static/engine/snapshots.js
  function evenSpread(n, causal) {
    if (n < 2) return 0;
    if (!causal) return 1 / n;
    let sum = 0;
    for (let i = 2; i <= n; i++) sum += 1 / i;
    return sum / (n - 1);
  }
  function doubled(ids, nCtx) {
    if (ids.length < 3 || 2 * ids.length > nCtx) return null;
    return [...ids, ...ids];
  }
  function perHead(L, H2, n, f) {
    const out = [];
    for (let l = 0; l < L; l++) {
      const row = [];
      for (let h = 0; h < H2; h++) row.push(f((l * H2 + h) * n * n));
      out.push(row);
    }
    return out;
  }
  function previousShare(patterns, L, H2, n) {
    return perHead(L, H2, n, (o) => {
      if (n < 2) return 0;
      let sum = 0;
      for (let i = 1; i < n; i++) sum += patterns[o + i * n + i - 1];
      return sum / (n - 1);
    });
  }
  function copyScoresOf(patterns, L, H2, half) {
    const n = 2 * half;
    return perHead(L, H2, n, (o) => {
      let sum = 0;
      for (let q = half + 1; q < n; q++) sum += patterns[o + q * n + q - half + 1];
      return sum / (half - 1);
    });
  }
  function best(table) {
    let top = { layer: 0, head: 0, value: -Infinity };
    table.forEach(
      (row, l) => row.forEach((v, h) => {
        if (v > top.value) top = { layer: l, head: h, value: v };
      })
    );
    return top;
  }
  function snapshotScores(t, model, text, settings) {
    const c = model.config;
    const prep = t.prepare(text == null ? "" : String(text), {
      nCtx: c.n_ctx,
      maskedWord: !c.causal
    });
    const { ids } = prep;
    const n = ids.length;
    const L = c.n_layers, H2 = c.n_heads;
    const patterns = n ? model.forward(ids, settings, null).patterns : new Float32Array(0);
    const prevShare = previousShare(patterns, L, H2, n);
    const top = n >= 2 ? best(prevShare) : { layer: 0, head: 0, value: 0 };
    const causal = settings.causal == null ? c.causal : settings.causal;
    const rep = c.causal ? doubled(ids, c.n_ctx) : null;
    let copyScores = null, copy = null;
    if (rep) {
      copyScores = copyScoresOf(model.forward(rep, settings, null).patterns, L, H2, n);
      const b = best(copyScores);
      copy = { layer: b.layer, head: b.head, score: b.value };
    }
    return {
      tokens: prep.pieces,
      n,
      prevShare,
      previous: { layer: top.layer, head: top.head, share: top.value },
      baseline: evenSpread(n, causal),
      copyScores,
      copy
    };
  }

  // static/engine/stages.js
  var PER_HEAD = ["batch", "head", "pos", "d_head"];
  var SQUARE = ["batch", "head", "query pos", "key pos"];
  var WIDE = ["batch", "pos", "d_model"];
  function g(x, digits) {
    const shift = 10 ** (digits - 1 - Math.floor(Math.log10(Math.abs(x))));
    const scaled = x * shift;
    const down = Math.floor(scaled);
    if (scaled - down === 0.5 && down % 2 === 0) return String(down / shift);
    return String(Number(x.toPrecision(digits)));
  }
  function scaleText(config, r) {
    let text;
    if (r.scaleName === "d_head") {
      const dh = config.d_model / config.n_heads;
      text = `× 1/√d_head = 1/√${dh} ≈ ${(1 / Math.sqrt(dh)).toFixed(4)}`;
    } else if (r.scaleName === "d_model") {
      text = `× 1/√d_model = 1/√${config.d_model} ≈ ${(1 / Math.sqrt(config.d_model)).toFixed(4)}`;
    } else text = "× 1 (no scaling)";
    if (r.T !== 1) text += `, ÷ temperature ${g(r.T, 6)} → × ${r.scale.toFixed(4)} in all`;
    return text;
  }
  function scaledText(model, r, head) {
    if (!model.slopes) return `S ${scaleText(model.config, r)}`;
    const slope = g(Math.fround(model.slopes[head]), 4);
    const bias = `ALiBi bias −${slope}·|i − j| (this head's slope ${slope})`;
    const plain = scaleText(model.config, { ...r, T: 1 });
    if (r.T === 1) return `S ${plain} + ${bias}`;
    return `(S ${plain} + ${bias}) ÷ temperature ${g(r.T, 6)}`;
  }
  function columns(a, n, stride, col, width) {
    const out = new Float32Array(n * width);
    for (let p = 0; p < n; p++)
      out.set(a.subarray(p * stride + col, p * stride + col + width), p * width);
    return out;
  }
  function squares(qh, kh, n, dh, r, slope) {
    const scores = new Float32Array(n * n), scaled = new Float32Array(n * n), masked = new Float32Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let e = 0; e < dh; e++) s += qh[i * dh + e] * kh[j * dh + e];
        const o = i * n + j;
        scores[o] = s;
        scaled[o] = scores[o] * r.scale - slope / r.T * Math.abs(i - j);
        masked[o] = r.causal && j > i ? -Infinity : scaled[o];
      }
    }
    return { scores, scaled, masked };
  }
  function texts(model, r, layer, head) {
    const c = model.config, nh = c.n_heads, dh = c.d_model / nh, [c0, c1] = [head * dh, (head + 1) * dh - 1];
    const proj = (big2) => `${big2} = X · W_${big2}ᵀ (one wide projection, ${c.d_model} columns, split into ${nh} heads of ${dh}); head ${head} keeps columns ${c0}–${c1}`;
    const turned = (role) => `each pair of dimensions (2i, 2i+1) of ${role} turned by position × θᵢ`;
    const qk = model.invFreq ? "rotated q · rotated kᵀ" : "Q · Kᵀ";
    const side2 = nh === 1 ? "the one head's Z" : `all ${nh} heads' Z side by side`;
    return {
      x: [
        "Block input X",
        `X = LayerNorm₁(residual stream) — what the projections read (layer ${layer})`
      ],
      q: [`Q for head ${head}`, proj("Q")],
      k: [`K for head ${head}`, proj("K")],
      v: [`V for head ${head}`, proj("V")],
      rot_q: ["q after rotary", turned("q")],
      rot_k: ["k after rotary", turned("k")],
      scores: ["Raw scores Q·Kᵀ", `S = ${qk}: one dot product per (query, key)`],
      scaled: ["Scaled scores", scaledText(model, r, head)],
      masked: [
        "Masked scores",
        r.causal ? "causal mask: a query may not see later keys, their scores become −∞" : "no mask: every query sees every key (nothing set to −∞)"
      ],
      pattern: [
        "Attention pattern",
        "A = softmax(masked scores) along each row: every row sums to 1, −∞ becomes exactly 0"
      ],
      z: [`Head ${head} output`, "Z = A · V: each row is a weighted average of the value rows"],
      concat: [
        "Heads concatenated",
        `${side2}: [pos, heads × d_head] = [pos, ${c.d_model}]; head ${head} is columns ${c0}–${c1}`
      ],
      out: [
        "Output projection",
        "out = concat · W_Oᵀ: mixes the heads back into the residual stream"
      ]
    };
  }
  function stageProbe(model, settings, layer, head) {
    const c = model.config, d = c.d_model, H2 = c.n_heads, dh = d / H2;
    const clamp = (x, top) => Math.min(Math.max(Math.trunc(Number(x)) || 0, 0), top - 1);
    layer = clamp(layer, c.n_layers);
    head = clamp(head, H2);
    const col = head * dh;
    const got = {};
    const tap = (l, where, s, n) => {
      if (l !== layer) return;
      if (where === "qkv") {
        got.x = s.h.slice(0, n * d);
        for (const role of ["q", "k", "v"]) got[role] = columns(s[role], n, d, col, dh);
      } else if (where === "rotated") {
        got.rot_q = columns(s.q, n, d, col, dh);
        got.rot_k = columns(s.k, n, d, col, dh);
      } else if (where === "z") {
        got.z = columns(s.z, n, d, col, dh);
        got.concat = s.z.slice(0, n * d);
      } else if (where === "out") got.out = s.out.slice(0, n * d);
    };
    return {
      resume: { tap },
      layer,
      head,
      // the stages, from what the tap read and the pass's patterns [layer, head, q, k]
      result(patterns, n) {
        if (!n) return { layer, head, stages: {} };
        return { layer, head, stages: build(model, settings, layer, head, got, patterns, n) };
      }
    };
  }
  function build(model, settings, layer, head, got, patterns, n) {
    const c = model.config, H2 = c.n_heads, dh = c.d_model / H2, r = model.resolve(settings);
    const slope = model.slopes ? model.slopes[head] : 0;
    const rotary = !!model.invFreq;
    const sq = squares(rotary ? got.rot_q : got.q, rotary ? got.rot_k : got.k, n, dh, r, slope);
    const o = (layer * H2 + head) * n * n;
    const values = { ...got, ...sq, pattern: patterns.slice(o, o + n * n) };
    const blocked = Array.from(
      { length: n },
      (_, i) => Array.from({ length: n }, (_2, j) => r.causal && j > i)
    );
    const words = texts(model, r, layer, head);
    const keys = ["x", "q", "k", "v", ...rotary ? ["rot_q", "rot_k"] : []];
    keys.push("scores", "scaled", "masked", "pattern", "z", "concat", "out");
    const stages = {};
    keys.forEach((key, i) => {
      const wide = key === "x" || key === "concat" || key === "out";
      const square = ["scores", "scaled", "masked", "pattern"].includes(key);
      const dims = wide ? ["pos", "d_model"] : square ? ["query pos", "key pos"] : ["pos", "d_head"];
      const shape = [n, wide ? c.d_model : square ? n : dh];
      const stage = {
        key,
        step: String(i + 1),
        title: words[key][0],
        formula: words[key][1],
        hook: `blocks.${layer}.attn.hook_${key}`,
        captured: wide ? [1, n, c.d_model] : [1, H2, n, square ? n : dh],
        capturedDims: wide ? WIDE : square ? SQUARE : PER_HEAD,
        values: values[key],
        shape,
        dims,
        shapeText: `[${shape.join(", ")}]  (${dims.join(", ")})`,
        square
      };
      if (key === "masked" || key === "pattern") stage.blocked = blocked;
      if (key === "concat") stage.headColumns = [head * dh, (head + 1) * dh];
      stages[key] = stage;
    });
    return stages;
  }
  function nestedStages(detail) {
    const stages = {};
    for (const [key, s] of Object.entries(detail.stages)) {
      const [rows, cols] = s.shape;
      const values = Array.from(
        { length: rows },
        (_, i) => Array.from(s.values.subarray(i * cols, (i + 1) * cols))
      );
      stages[key] = { ...s, values };
    }
    return { ...detail, stages };
  }

  // static/engine/unicode_classes.js
  var WS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  var LETTERS = "41-5a 61-7a aa b5 ba c0-d6 d8-f6 f8-2c1 2c6-2d1 2e0-2e4 2ec 2ee 370-374 376-377 37a-37d 37f 386 388-38a 38c 38e-3a1 3a3-3f5 3f7-481 48a-52f 531-556 559 560-588 5d0-5ea 5ef-5f2 620-64a 66e-66f 671-6d3 6d5 6e5-6e6 6ee-6ef 6fa-6fc 6ff 710 712-72f 74d-7a5 7b1 7ca-7ea 7f4-7f5 7fa 800-815 81a 824 828 840-858 860-86a 870-887 889-88e 8a0-8c9 904-939 93d 950 958-961 971-980 985-98c 98f-990 993-9a8 9aa-9b0 9b2 9b6-9b9 9bd 9ce 9dc-9dd 9df-9e1 9f0-9f1 9fc a05-a0a a0f-a10 a13-a28 a2a-a30 a32-a33 a35-a36 a38-a39 a59-a5c a5e a72-a74 a85-a8d a8f-a91 a93-aa8 aaa-ab0 ab2-ab3 ab5-ab9 abd ad0 ae0-ae1 af9 b05-b0c b0f-b10 b13-b28 b2a-b30 b32-b33 b35-b39 b3d b5c-b5d b5f-b61 b71 b83 b85-b8a b8e-b90 b92-b95 b99-b9a b9c b9e-b9f ba3-ba4 ba8-baa bae-bb9 bd0 c05-c0c c0e-c10 c12-c28 c2a-c39 c3d c58-c5a c5d c60-c61 c80 c85-c8c c8e-c90 c92-ca8 caa-cb3 cb5-cb9 cbd cdd-cde ce0-ce1 cf1-cf2 d04-d0c d0e-d10 d12-d3a d3d d4e d54-d56 d5f-d61 d7a-d7f d85-d96 d9a-db1 db3-dbb dbd dc0-dc6 e01-e30 e32-e33 e40-e46 e81-e82 e84 e86-e8a e8c-ea3 ea5 ea7-eb0 eb2-eb3 ebd ec0-ec4 ec6 edc-edf f00 f40-f47 f49-f6c f88-f8c 1000-102a 103f 1050-1055 105a-105d 1061 1065-1066 106e-1070 1075-1081 108e 10a0-10c5 10c7 10cd 10d0-10fa 10fc-1248 124a-124d 1250-1256 1258 125a-125d 1260-1288 128a-128d 1290-12b0 12b2-12b5 12b8-12be 12c0 12c2-12c5 12c8-12d6 12d8-1310 1312-1315 1318-135a 1380-138f 13a0-13f5 13f8-13fd 1401-166c 166f-167f 1681-169a 16a0-16ea 16f1-16f8 1700-1711 171f-1731 1740-1751 1760-176c 176e-1770 1780-17b3 17d7 17dc 1820-1878 1880-1884 1887-18a8 18aa 18b0-18f5 1900-191e 1950-196d 1970-1974 1980-19ab 19b0-19c9 1a00-1a16 1a20-1a54 1aa7 1b05-1b33 1b45-1b4c 1b83-1ba0 1bae-1baf 1bba-1be5 1c00-1c23 1c4d-1c4f 1c5a-1c7d 1c80-1c8a 1c90-1cba 1cbd-1cbf 1ce9-1cec 1cee-1cf3 1cf5-1cf6 1cfa 1d00-1dbf 1e00-1f15 1f18-1f1d 1f20-1f45 1f48-1f4d 1f50-1f57 1f59 1f5b 1f5d 1f5f-1f7d 1f80-1fb4 1fb6-1fbc 1fbe 1fc2-1fc4 1fc6-1fcc 1fd0-1fd3 1fd6-1fdb 1fe0-1fec 1ff2-1ff4 1ff6-1ffc 2071 207f 2090-209c 2102 2107 210a-2113 2115 2119-211d 2124 2126 2128 212a-212d 212f-2139 213c-213f 2145-2149 214e 2183-2184 2c00-2ce4 2ceb-2cee 2cf2-2cf3 2d00-2d25 2d27 2d2d 2d30-2d67 2d6f 2d80-2d96 2da0-2da6 2da8-2dae 2db0-2db6 2db8-2dbe 2dc0-2dc6 2dc8-2dce 2dd0-2dd6 2dd8-2dde 2e2f 3005-3006 3031-3035 303b-303c 3041-3096 309d-309f 30a1-30fa 30fc-30ff 3105-312f 3131-318e 31a0-31bf 31f0-31ff 3400-4dbf 4e00-a48c a4d0-a4fd a500-a60c a610-a61f a62a-a62b a640-a66e a67f-a69d a6a0-a6e5 a717-a71f a722-a788 a78b-a7cd a7d0-a7d1 a7d3 a7d5-a7dc a7f2-a801 a803-a805 a807-a80a a80c-a822 a840-a873 a882-a8b3 a8f2-a8f7 a8fb a8fd-a8fe a90a-a925 a930-a946 a960-a97c a984-a9b2 a9cf a9e0-a9e4 a9e6-a9ef a9fa-a9fe aa00-aa28 aa40-aa42 aa44-aa4b aa60-aa76 aa7a aa7e-aaaf aab1 aab5-aab6 aab9-aabd aac0 aac2 aadb-aadd aae0-aaea aaf2-aaf4 ab01-ab06 ab09-ab0e ab11-ab16 ab20-ab26 ab28-ab2e ab30-ab5a ab5c-ab69 ab70-abe2 ac00-d7a3 d7b0-d7c6 d7cb-d7fb f900-fa6d fa70-fad9 fb00-fb06 fb13-fb17 fb1d fb1f-fb28 fb2a-fb36 fb38-fb3c fb3e fb40-fb41 fb43-fb44 fb46-fbb1 fbd3-fd3d fd50-fd8f fd92-fdc7 fdf0-fdfb fe70-fe74 fe76-fefc ff21-ff3a ff41-ff5a ff66-ffbe ffc2-ffc7 ffca-ffcf ffd2-ffd7 ffda-ffdc 10000-1000b 1000d-10026 10028-1003a 1003c-1003d 1003f-1004d 10050-1005d 10080-100fa 10280-1029c 102a0-102d0 10300-1031f 1032d-10340 10342-10349 10350-10375 10380-1039d 103a0-103c3 103c8-103cf 10400-1049d 104b0-104d3 104d8-104fb 10500-10527 10530-10563 10570-1057a 1057c-1058a 1058c-10592 10594-10595 10597-105a1 105a3-105b1 105b3-105b9 105bb-105bc 105c0-105f3 10600-10736 10740-10755 10760-10767 10780-10785 10787-107b0 107b2-107ba 10800-10805 10808 1080a-10835 10837-10838 1083c 1083f-10855 10860-10876 10880-1089e 108e0-108f2 108f4-108f5 10900-10915 10920-10939 10980-109b7 109be-109bf 10a00 10a10-10a13 10a15-10a17 10a19-10a35 10a60-10a7c 10a80-10a9c 10ac0-10ac7 10ac9-10ae4 10b00-10b35 10b40-10b55 10b60-10b72 10b80-10b91 10c00-10c48 10c80-10cb2 10cc0-10cf2 10d00-10d23 10d4a-10d65 10d6f-10d85 10e80-10ea9 10eb0-10eb1 10ec2-10ec4 10f00-10f1c 10f27 10f30-10f45 10f70-10f81 10fb0-10fc4 10fe0-10ff6 11003-11037 11071-11072 11075 11083-110af 110d0-110e8 11103-11126 11144 11147 11150-11172 11176 11183-111b2 111c1-111c4 111da 111dc 11200-11211 11213-1122b 1123f-11240 11280-11286 11288 1128a-1128d 1128f-1129d 1129f-112a8 112b0-112de 11305-1130c 1130f-11310 11313-11328 1132a-11330 11332-11333 11335-11339 1133d 11350 1135d-11361 11380-11389 1138b 1138e 11390-113b5 113b7 113d1 113d3 11400-11434 11447-1144a 1145f-11461 11480-114af 114c4-114c5 114c7 11580-115ae 115d8-115db 11600-1162f 11644 11680-116aa 116b8 11700-1171a 11740-11746 11800-1182b 118a0-118df 118ff-11906 11909 1190c-11913 11915-11916 11918-1192f 1193f 11941 119a0-119a7 119aa-119d0 119e1 119e3 11a00 11a0b-11a32 11a3a 11a50 11a5c-11a89 11a9d 11ab0-11af8 11bc0-11be0 11c00-11c08 11c0a-11c2e 11c40 11c72-11c8f 11d00-11d06 11d08-11d09 11d0b-11d30 11d46 11d60-11d65 11d67-11d68 11d6a-11d89 11d98 11ee0-11ef2 11f02 11f04-11f10 11f12-11f33 11fb0 12000-12399 12480-12543 12f90-12ff0 13000-1342f 13441-13446 13460-143fa 14400-14646 16100-1611d 16800-16a38 16a40-16a5e 16a70-16abe 16ad0-16aed 16b00-16b2f 16b40-16b43 16b63-16b77 16b7d-16b8f 16d40-16d6c 16e40-16e7f 16f00-16f4a 16f50 16f93-16f9f 16fe0-16fe1 16fe3 17000-187f7 18800-18cd5 18cff-18d08 1aff0-1aff3 1aff5-1affb 1affd-1affe 1b000-1b122 1b132 1b150-1b152 1b155 1b164-1b167 1b170-1b2fb 1bc00-1bc6a 1bc70-1bc7c 1bc80-1bc88 1bc90-1bc99 1d400-1d454 1d456-1d49c 1d49e-1d49f 1d4a2 1d4a5-1d4a6 1d4a9-1d4ac 1d4ae-1d4b9 1d4bb 1d4bd-1d4c3 1d4c5-1d505 1d507-1d50a 1d50d-1d514 1d516-1d51c 1d51e-1d539 1d53b-1d53e 1d540-1d544 1d546 1d54a-1d550 1d552-1d6a5 1d6a8-1d6c0 1d6c2-1d6da 1d6dc-1d6fa 1d6fc-1d714 1d716-1d734 1d736-1d74e 1d750-1d76e 1d770-1d788 1d78a-1d7a8 1d7aa-1d7c2 1d7c4-1d7cb 1df00-1df1e 1df25-1df2a 1e030-1e06d 1e100-1e12c 1e137-1e13d 1e14e 1e290-1e2ad 1e2c0-1e2eb 1e4d0-1e4eb 1e5d0-1e5ed 1e5f0 1e7e0-1e7e6 1e7e8-1e7eb 1e7ed-1e7ee 1e7f0-1e7fe 1e800-1e8c4 1e900-1e943 1e94b 1ee00-1ee03 1ee05-1ee1f 1ee21-1ee22 1ee24 1ee27 1ee29-1ee32 1ee34-1ee37 1ee39 1ee3b 1ee42 1ee47 1ee49 1ee4b 1ee4d-1ee4f 1ee51-1ee52 1ee54 1ee57 1ee59 1ee5b 1ee5d 1ee5f 1ee61-1ee62 1ee64 1ee67-1ee6a 1ee6c-1ee72 1ee74-1ee77 1ee79-1ee7c 1ee7e 1ee80-1ee89 1ee8b-1ee9b 1eea1-1eea3 1eea5-1eea9 1eeab-1eebb 20000-2a6df 2a700-2b739 2b740-2b81d 2b820-2cea1 2ceb0-2ebe0 2ebf0-2ee5d 2f800-2fa1d 30000-3134a 31350-323af";
  var NUMBERS = "30-39 b2-b3 b9 bc-be 660-669 6f0-6f9 7c0-7c9 966-96f 9e6-9ef 9f4-9f9 a66-a6f ae6-aef b66-b6f b72-b77 be6-bf2 c66-c6f c78-c7e ce6-cef d58-d5e d66-d78 de6-def e50-e59 ed0-ed9 f20-f33 1040-1049 1090-1099 1369-137c 16ee-16f0 17e0-17e9 17f0-17f9 1810-1819 1946-194f 19d0-19da 1a80-1a89 1a90-1a99 1b50-1b59 1bb0-1bb9 1c40-1c49 1c50-1c59 2070 2074-2079 2080-2089 2150-2182 2185-2189 2460-249b 24ea-24ff 2776-2793 2cfd 3007 3021-3029 3038-303a 3192-3195 3220-3229 3248-324f 3251-325f 3280-3289 32b1-32bf a620-a629 a6e6-a6ef a830-a835 a8d0-a8d9 a900-a909 a9d0-a9d9 a9f0-a9f9 aa50-aa59 abf0-abf9 ff10-ff19 10107-10133 10140-10178 1018a-1018b 102e1-102fb 10320-10323 10341 1034a 103d1-103d5 104a0-104a9 10858-1085f 10879-1087f 108a7-108af 108fb-108ff 10916-1091b 109bc-109bd 109c0-109cf 109d2-109ff 10a40-10a48 10a7d-10a7e 10a9d-10a9f 10aeb-10aef 10b58-10b5f 10b78-10b7f 10ba9-10baf 10cfa-10cff 10d30-10d39 10d40-10d49 10e60-10e7e 10f1d-10f26 10f51-10f54 10fc5-10fcb 11052-1106f 110f0-110f9 11136-1113f 111d0-111d9 111e1-111f4 112f0-112f9 11450-11459 114d0-114d9 11650-11659 116c0-116c9 116d0-116e3 11730-1173b 118e0-118f2 11950-11959 11bf0-11bf9 11c50-11c6c 11d50-11d59 11da0-11da9 11f50-11f59 11fc0-11fd4 12400-1246e 16130-16139 16a60-16a69 16ac0-16ac9 16b50-16b59 16b5b-16b61 16d70-16d79 16e80-16e96 1ccf0-1ccf9 1d2c0-1d2d3 1d2e0-1d2f3 1d360-1d378 1d7ce-1d7ff 1e140-1e149 1e2f0-1e2f9 1e4f0-1e4f9 1e5f1-1e5fa 1e8c7-1e8cf 1e950-1e959 1ec71-1ecab 1ecad-1ecaf 1ecb1-1ecb4 1ed01-1ed2d 1ed2f-1ed3d 1f100-1f10c 1fbf0-1fbf9";

  // static/engine/pretokenize.js
  var MASK_MARKER = /\[mask\]|<mask>|_{3,}/giu;
  var LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
  var preToken = null;
  function rangesClass(ranges) {
    return ranges.split(" ").map(
      (r) => r.split("-").map((h) => `\\u{${h}}`).join("-")
    ).join("");
  }
  function preTokenRegex() {
    if (preToken === null) {
      const L = rangesClass(LETTERS);
      const N = rangesClass(NUMBERS);
      preToken = new RegExp(
        `'s|'t|'re|'ve|'m|'ll|'d| ?[${L}]+| ?[${N}]+| ?[^${WS}${L}${N}]+|[${WS}]+(?![^${WS}])|[${WS}]+`,
        "gu"
      );
    }
    return preToken;
  }
  function clean(text) {
    return typeof text.toWellFormed === "function" ? text.toWellFormed() : text.replace(LONE_SURROGATE, "�");
  }
  function utf8Length(codePoint) {
    return codePoint < 128 ? 1 : codePoint < 2048 ? 2 : codePoint < 65536 ? 3 : 4;
  }
  function codePointOffsets(s) {
    const offsets = [];
    for (let i = 0; i < s.length; i++) {
      offsets.push(i);
      const c = s.charCodeAt(i);
      if (c >= 55296 && c <= 56319 && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 56320 && d <= 57343) i++;
      }
    }
    offsets.push(s.length);
    return offsets;
  }
  function splitSpecials(text, specials) {
    const parts = [];
    let pos = 0;
    while (pos < text.length) {
      let at = -1;
      let hit = null;
      for (const s of specials) {
        const i = text.indexOf(s.content, pos);
        if (i >= 0 && (at < 0 || i < at || i === at && s.content.length > hit.content.length)) {
          at = i;
          hit = s;
        }
      }
      if (hit === null) break;
      if (at > pos) parts.push({ text: text.slice(pos, at), special: null });
      parts.push({ text: hit.content, special: hit });
      pos = at + hit.content.length;
    }
    if (pos < text.length) parts.push({ text: text.slice(pos), special: null });
    return parts;
  }
  function splitMarkers(text) {
    const segments = [];
    let from = 0;
    for (const m of text.matchAll(MASK_MARKER)) {
      segments.push({ from, to: m.index, markerEnd: m.index + m[0].length });
      from = m.index + m[0].length;
    }
    segments.push({ from, to: text.length, markerEnd: null });
    return segments;
  }

  // static/engine/bpe.js
  var BYTE_CHAR = new Array(256);
  var CHAR_BYTE = /* @__PURE__ */ new Map();
  var shifted = 0;
  for (let b = 0; b < 256; b++) {
    const printable = b >= 33 && b <= 126 || b >= 161 && b <= 172 || b >= 174;
    BYTE_CHAR[b] = String.fromCharCode(printable ? b : 256 + shifted++);
    CHAR_BYTE.set(BYTE_CHAR[b], b);
  }
  var utf82 = new TextEncoder();
  function bpe(symbols, ranks) {
    while (symbols.length > 1) {
      let best3 = Infinity;
      let at = -1;
      for (let i = 0; i + 1 < symbols.length; i++) {
        const r = ranks.get(symbols[i] + " " + symbols[i + 1]);
        if (r !== void 0 && r < best3) {
          best3 = r;
          at = i;
        }
      }
      if (at < 0) break;
      symbols.splice(at, 2, symbols[at] + symbols[at + 1]);
    }
    return symbols;
  }
  function byteChars(word) {
    return Array.from(utf82.encode(word), (b) => BYTE_CHAR[b]);
  }
  function wordSpans(word, symbols) {
    const charEnds = [];
    let bytes = 0;
    for (const ch of word) charEnds.push(bytes += utf8Length(ch.codePointAt(0)));
    const spans = [];
    let byte = 0;
    let char = 0;
    for (const symbol of symbols) {
      while (charEnds[char] <= byte) char++;
      const start = char;
      byte += symbol.length;
      while (charEnds[char] < byte) char++;
      spans.push(start, char + 1);
    }
    return { spans, n: charEnds.length };
  }
  function tokenBytes(token) {
    const mapped = [];
    for (const ch of token) {
      const b = CHAR_BYTE.get(ch);
      if (b === void 0) return Array.from(utf82.encode(token));
      mapped.push(b);
    }
    return mapped;
  }

  // static/engine/tokenizer.js
  var MAX_CHARS = 1e3;
  var MASK_LABEL = "[mask]";
  var SPECIALS = ["<|endoftext|>", "<pad>", "<mask>"];
  var CACHE_LIMIT = 2e4;
  var utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  function checkConfig(obj) {
    const m = obj && obj.model;
    const pre = obj && obj.pre_tokenizer;
    const problems = [];
    if (!m || m.type !== "BPE" || !m.vocab || !m.merges) problems.push("model is not a BPE");
    else if (m.dropout || m.continuing_subword_prefix || m.end_of_word_suffix || m.byte_fallback || m.ignore_merges)
      problems.push("BPE options not supported");
    if (!pre || pre.type !== "ByteLevel" || pre.add_prefix_space || pre.use_regex === false) {
      problems.push("pre_tokenizer is not ByteLevel(add_prefix_space=false, use_regex)");
    }
    if (obj && (obj.normalizer || obj.post_processor)) problems.push("normalizer/post_processor");
    if ((obj && obj.added_tokens || []).some((t) => t.lstrip || t.rstrip || t.single_word)) {
      problems.push("added tokens with lstrip, rstrip or single_word");
    }
    if (!obj || !obj.decoder || obj.decoder.type !== "ByteLevel") problems.push("decoder");
    if (problems.length) throw new Error("tokenizer.json not supported: " + problems.join("; "));
  }
  var Tokenizer = class {
    constructor(obj) {
      checkConfig(obj);
      this.vocab = new Map(Object.entries(obj.model.vocab));
      this.idToToken = [];
      for (const [token, id] of this.vocab) this.idToToken[id] = token;
      this.ranks = /* @__PURE__ */ new Map();
      obj.model.merges.forEach((merge, rank) => {
        const key = Array.isArray(merge) ? merge.join(" ") : merge;
        if (!this.ranks.has(key)) this.ranks.set(key, rank);
      });
      this.specials = (obj.added_tokens || []).map((t) => ({
        content: t.content,
        id: t.id,
        n: Array.from(t.content).length
      }));
      for (const t of obj.added_tokens || []) this.idToToken[t.id] = t.content;
      const ids = SPECIALS.map((s) => (this.specials.find((t) => t.content === s) || {}).id);
      if (ids.join() !== "0,1,2") {
        throw new Error(`special tokens must have ids 0, 1, 2, got ${ids.join(", ")}`);
      }
      [this.eotId, this.padId, this.maskId] = ids;
      this.cache = /* @__PURE__ */ new Map();
    }
    /* BPE of one pre-token, remembered. */
    word(word) {
      let hit = this.cache.get(word);
      if (hit !== void 0) return hit;
      const symbols = bpe(byteChars(word), this.ranks);
      hit = { ids: symbols.map((s) => this.vocab.get(s)), ...wordSpans(word, symbols) };
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(word, hit);
      return hit;
    }
    /* ids of a cleaned text, and with `spans` (an array) each token's [start, end) in code
       points pushed flat onto it, as `tokenizers` reports offsets. */
    scan(text, spans) {
      const ids = [];
      let cp = 0;
      for (const part of splitSpecials(text, this.specials)) {
        if (part.special !== null) {
          ids.push(part.special.id);
          if (spans) spans.push(cp, cp + part.special.n);
          cp += part.special.n;
          continue;
        }
        for (const match of part.text.matchAll(preTokenRegex())) {
          const w = this.word(match[0]);
          for (const id of w.ids) ids.push(id);
          if (spans) for (const x of w.spans) spans.push(cp + x);
          cp += w.n;
        }
      }
      return ids;
    }
    /* The pre-tokenizer's words of `text` (no special tokens split out) as a flat list of
       [start, end) in code points: what `tokenizers`' pre_tokenize_str reports (tests). */
    preTokenSpans(text) {
      const spans = [];
      let cp = 0;
      for (const match of clean(String(text)).matchAll(preTokenRegex())) {
        const n = this.word(match[0]).n;
        spans.push(cp, cp + n);
        cp += n;
      }
      return spans;
    }
    /* Token ids: Python Tokenizer.encode. */
    encode(text) {
      return this.scan(clean(String(text)));
    }
    /* [{id, piece, start, end}]: Python Tokenizer.token_pieces (a character split over byte
       tokens shows on its first token; the following ones get "" and an empty span). */
    pieces(text) {
      text = clean(String(text));
      const spans = [];
      const ids = this.scan(text, spans);
      const at = codePointOffsets(text);
      let covered = 0;
      return ids.map((id, i) => {
        const start = Math.max(spans[2 * i], covered);
        const end = Math.max(spans[2 * i + 1], covered);
        covered = end;
        return { id, piece: text.slice(at[start], at[end]), start, end };
      });
    }
    /* Text for ids: Python Tokenizer.decode (special tokens kept; unknown ids left out, as
       `tokenizers` does; bytes that are no valid UTF-8 become U+FFFD). */
    decode(ids) {
      const bytes = [];
      for (const id of ids) {
        const token = this.idToToken[id];
        if (token !== void 0) for (const b of tokenBytes(token)) bytes.push(b);
      }
      return utf8Decoder.decode(new Uint8Array(bytes));
    }
    /* Python explorer.analysis.run.prepare's facts: the MAX_CHARS cut (code points), trailing
       spaces left out, mask markers when `maskedWord`, the `nCtx` token cut. Never throws on
       user text. Returns {ids, pieces, cutTokens, keptChars (or null), cutChars, text (what
       was read)}. */
    prepare(text, { nCtx, maskedWord = false } = {}) {
      if (!Number.isInteger(nCtx) || nCtx < 1) throw new Error("nCtx must be a positive integer");
      text = text === null || text === void 0 ? "" : String(text);
      const head = codePointOffsets(text.slice(0, 2 * MAX_CHARS + 2));
      const cutChars = head.length - 1 > MAX_CHARS;
      if (cutChars) text = text.slice(0, head[MAX_CHARS]);
      let end = text.length;
      while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
      text = text.slice(0, end);
      const at = codePointOffsets(text);
      const cpOf = new Map(at.map((u, i) => [u, i]));
      const ids = [];
      const pieces = [];
      const ends = [];
      const segments = maskedWord ? splitMarkers(text) : [{ from: 0, to: text.length }];
      segments.forEach((seg, i) => {
        if (i > 0) {
          ids.push(this.maskId);
          pieces.push(MASK_LABEL);
          ends.push(cpOf.get(segments[i - 1].markerEnd));
        }
        const base = cpOf.get(seg.from);
        for (const p of this.pieces(text.slice(seg.from, seg.to))) {
          ids.push(p.id);
          pieces.push(p.piece);
          ends.push(base + p.end);
        }
      });
      const cutTokens = ids.length > nCtx;
      let keptChars = null;
      if (cutTokens) {
        keptChars = ends[nCtx - 1];
        ids.length = nCtx;
        pieces.length = nCtx;
        text = text.slice(0, at[keptChars]);
      }
      return { ids, pieces, cutTokens, keptChars, cutChars, text };
    }
  };
  function fromJSON(obj) {
    return new Tokenizer(obj);
  }
  async function load(url, read = fetchBytes) {
    return new Tokenizer(await readJSON(url, read));
  }

  // static/engine/engine.js
  var SCALES = ["d_head", "d_model", "none"];
  var MODEL = /^(causal-h[1248]-(none|sinusoidal|learned|rotary|alibi)|bidir-h4-rotary)$/;
  var SNAPSHOT = /^step_\d{1,9}\.safetensors$/;
  function checked(knobs2, config) {
    const k = knobs2 || {};
    if (k.causal != null && typeof k.causal !== "boolean") {
      throw new Error("causal must be true, false or null");
    }
    if (k.scale != null && !SCALES.includes(k.scale)) {
      throw new Error(`scale must be one of ${SCALES.join(", ")}`);
    }
    const temperature2 = k.temperature == null ? 1 : Number(k.temperature);
    if (!Number.isFinite(temperature2) || temperature2 <= 0) {
      throw new Error("temperature must be a positive finite number");
    }
    const headsOff2 = (k.heads_off || []).map((pair) => {
      const [l, h] = Array.isArray(pair) ? pair.map(Number) : [NaN, NaN];
      const inModel = Number.isInteger(l) && Number.isInteger(h) && l >= 0 && h >= 0;
      if (!(inModel && l < config.n_layers && h < config.n_heads)) {
        throw new Error("a head switched off does not exist in this model");
      }
      return [l, h];
    });
    return { causal: k.causal, scale: k.scale, temperature: temperature2, headsOff: headsOff2 };
  }
  function topGuesses(t, logits, count = 3) {
    let max = -Infinity;
    for (let i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
    let sum = 0;
    const p = new Float64Array(logits.length);
    for (let i = 0; i < logits.length; i++) {
      p[i] = Math.exp(logits[i] - max);
      sum += p[i];
    }
    const best3 = [];
    for (let i = 0; i < p.length; i++) {
      if (best3.length < count || p[i] > p[best3[best3.length - 1]]) {
        best3.push(i);
        best3.sort((a, b) => p[b] - p[a] || a - b);
        if (best3.length > count) best3.pop();
      }
    }
    return best3.map((i) => ({ id: i, token: t.decode([i]), p: p[i] / sum }));
  }
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
  function forward(t, model, text, settings, resume) {
    const c = model.config;
    const maskedWord = !c.causal;
    const prep = t.prepare(text == null ? "" : String(text), { nCtx: c.n_ctx, maskedWord });
    const ids = prep.ids;
    const n = ids.length;
    let at = null;
    if (n && !maskedWord) at = n - 1;
    else if (n && ids.includes(t.maskId)) at = ids.indexOf(t.maskId);
    const out = n ? model.forward(ids, settings, at, resume || { only: true }) : { patterns: new Float32Array(0), logits: null };
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
      config: c
    };
  }
  async function verified(read, url, file, want) {
    const bytes = await read(url);
    if (want && await sha256Hex(bytes) !== String(want).toLowerCase()) {
      const what = file.endsWith(".safetensors") ? "model" : "tokenizer";
      throw new Error(
        `The ${what} file ${file} is damaged (its checksum does not match): download the page again.`
      );
    }
    return bytes;
  }
  function fileSource() {
    let base = "./";
    let urls = {};
    let read = fetchBytes;
    let hashes = {};
    return {
      configure(options) {
        if (options.base != null) base = String(options.base);
        if (options.urls) urls = { ...options.urls };
        if (options.read) read = options.read;
        if (options.hashes) hashes = { ...options.hashes };
      },
      url: (file, key) => urls[key] || base + file,
      reader: (file) => (url) => verified(read, url, file, hashes[file])
    };
  }
  function once(models, key, make8) {
    if (!models.has(key)) {
      const made2 = make8();
      made2.catch(() => models.delete(key));
      models.set(key, made2);
    }
    return models.get(key);
  }
  function snapshotLoader(source, load3, models, simd) {
    return function loadSnapshot(name, file) {
      if (!SNAPSHOT.test(String(file))) {
        return Promise.reject(new Error("The browser has no training snapshot of that name."));
      }
      const key = `snapshots/${name}/${file}`;
      return once(models, key, () => {
        const bytes = source.reader(key)(source.url(key, key));
        return Promise.all([bytes, load3(name)]).then(([b, final]) => {
          const m = new Transformer(parseSafetensors(b), { simd: simd() });
          if (JSON.stringify(m.config) !== JSON.stringify(final.config)) {
            throw new Error(`The training snapshot ${file} is not of ${name}.`);
          }
          return m;
        });
      });
    };
  }
  function createEngine() {
    const source = fileSource();
    let simd = true;
    let tokenizer = null;
    let tokenizerReady = false;
    const models = /* @__PURE__ */ new Map();
    const ready2 = /* @__PURE__ */ new Set();
    function configure(options = {}) {
      source.configure(options);
      if (options.simd != null) simd = !!options.simd;
    }
    function tok() {
      if (!tokenizer) {
        const file = "tokenizer.json";
        tokenizer = load(source.url(file, file), source.reader(file));
        tokenizer.then(
          () => tokenizerReady = true,
          () => tokenizer = null
          // a failed load may be tried again
        );
      }
      return tokenizer;
    }
    function load3(name) {
      if (!MODEL.test(String(name))) {
        return Promise.reject(new Error("The browser has no model of that name."));
      }
      return once(models, name, () => {
        const file = `${name}.safetensors`;
        const bytes = source.reader(file)(source.url(file, name));
        const made2 = bytes.then((b) => new Transformer(parseSafetensors(b), { simd }));
        made2.then(
          () => ready2.add(name),
          () => {
          }
        );
        tok();
        return made2;
      });
    }
    const snapshot2 = snapshotLoader(source, load3, models, () => simd);
    const modelOf = (k) => k && k.snapshot != null ? snapshot2(k.model, k.snapshot) : load3(k && k.model);
    function loaded(name) {
      return ready2.has(name) && tokenizerReady;
    }
    async function runTyped(text, knobs2) {
      const name = knobs2 && knobs2.model;
      const [t, model] = await Promise.all([tok(), modelOf(knobs2)]);
      ready2.add(name);
      const settings = checked(knobs2, model.config);
      if (!(knobs2 && knobs2.detail)) return forward(t, model, text, settings);
      const probe = stageProbe(model, settings, knobs2.layer, knobs2.head);
      const r = forward(t, model, text, settings, probe.resume);
      return { ...r, detail: probe.result(r.patterns, r.n) };
    }
    async function run(text, knobs2) {
      const r = await runTyped(text, knobs2);
      const patterns = nested(r.patterns, r.layers, r.heads, r.n);
      const out = { ...r, patterns, guesses: r.guesses.map(({ token, p }) => ({ token, p })) };
      if (r.detail) out.detail = nestedStages(r.detail);
      return out;
    }
    async function need(knobs2) {
      const [t, model] = await Promise.all([tok(), modelOf(knobs2)]);
      return [t, model, checked(knobs2, model.config)];
    }
    return { configure, load: load3, loaded, run, runTyped, ...measures(need) };
  }
  function measures(need) {
    return {
      // The sentence's loss under the knobs, heads off included (static/engine/losses.js).
      async loss(text, knobs2) {
        const [t, model, settings] = await need(knobs2);
        return sentenceLoss(t, model, text, settings);
      },
      // Every head ranked by the loss rise when it alone is off (the knobs' heads_off ignored).
      async rank(text, knobs2) {
        const [t, model, settings] = await need(knobs2);
        return sentenceRanking(t, model, text, settings);
      },
      // Activation patching from clean into corrupt (static/engine/patching.js);
      // knobs.patchHead {layer, head}: the head whose patched guesses come back (else the best).
      async patch(clean3, corrupt, knobs2) {
        const [t, model, settings] = await need(knobs2);
        return patchPair(t, model, clean3, corrupt, settings, knobs2.patchHead);
      },
      // The Ablate view's guesses and loss with knobs.heads_off switched off, and without.
      async ablate(text, knobs2) {
        const [t, model, settings] = await need(knobs2);
        return sentenceAblation(t, model, text, settings);
      },
      // The word-shuffle test on one head (knobs.layer, knobs.head), numpy's seed knobs.seed.
      async shuffle(text, knobs2) {
        const [t, model, settings] = await need(knobs2);
        return sentenceShuffle(t, model, text, settings, knobs2.layer, knobs2.head, knobs2.seed || 0);
      },
      // The Through training view's numbers on knobs.snapshot (static/engine/snapshots.js).
      async snapshot(text, knobs2) {
        const [t, model, settings] = await need(knobs2);
        return snapshotScores(t, model, text, settings);
      }
    };
  }

  // static/engine/labels.js
  var NAMES = {
    160: "NBSP",
    173: "SHY",
    847: "CGJ",
    1564: "ALM",
    6158: "MVS",
    8203: "ZWSP",
    8204: "ZWNJ",
    8205: "ZWJ",
    8206: "LRM",
    8207: "RLM",
    8234: "LRE",
    8235: "RLE",
    8236: "PDF",
    8237: "LRO",
    8238: "RLO",
    8239: "NNBSP",
    8232: "LS",
    8233: "PS",
    8288: "WJ",
    8294: "LRI",
    8295: "RLI",
    8296: "FSI",
    8297: "PDI",
    65038: "VS15",
    65039: "VS16",
    65279: "BOM"
  };
  var BLANK_LOOKING = /* @__PURE__ */ new Set([4447, 4448, 10240, 12644, 65440, 847]);
  var SO = 1;
  var HIDDEN = 2;
  var FMT = 3;
  var VISIBLE = 4;
  var MARK = 5;
  var OWN = [
    null,
    /^\p{So}$/u,
    /^[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]$/u,
    /^[\p{Zs}\p{Cf}]$/u,
    /^[\p{L}\p{N}\p{P}\p{S}]$/u,
    /^\p{M}$/u
  ];
  function runOf(runs, cp) {
    let lo = 0, hi = runs.length / 3 - 1;
    while (lo <= hi) {
      const mid = lo + hi >> 1, s = runs[mid * 3], e = runs[mid * 3 + 1];
      if (cp < s) hi = mid - 1;
      else if (cp > e) lo = mid + 1;
      else return runs[mid * 3 + 2];
    }
    return null;
  }
  var cat = (ch, want, ranges) => {
    if (!ranges) return OWN[want].test(ch);
    const c = runOf(ranges, ch.codePointAt(0)) || 0;
    return want === VISIBLE ? c === VISIBLE || c === SO : c === want;
  };
  var hex2 = (cp) => cp.toString(16).toUpperCase().padStart(4, "0");
  var marker = (cp) => "⟨" + (NAMES[cp] || "U+" + hex2(cp)) + "⟩";
  var isVS = (cp) => cp >= 65024 && cp <= 65039 || cp >= 917760 && cp <= 917999 || cp >= 6155 && cp <= 6159;
  var points = (s) => Array.from(s);
  function pictographBefore(chars, i, ranges) {
    let j = i - 1;
    while (j >= 0) {
      const cp = chars[j].codePointAt(0);
      if (cp === 65039 || cp >= 127995 && cp < 128e3) j--;
      else break;
    }
    return j >= 0 && cat(chars[j], SO, ranges);
  }
  function keepsEmoji(chars, i, cp, ranges) {
    if (cp === 8205) {
      return pictographBefore(chars, i, ranges) && i + 1 < chars.length && cat(chars[i + 1], SO, ranges);
    }
    if (isVS(cp)) {
      return i > 0 && cat(chars[i - 1], VISIBLE, ranges) && !BLANK_LOOKING.has(chars[i - 1].codePointAt(0));
    }
    if (cp >= 917536 && cp < 917632) {
      return chars.slice(0, i).some((c) => c.codePointAt(0) === 127988);
    }
    return false;
  }
  function showChar(chars, i, ranges) {
    const ch = chars[i], cp = ch.codePointAt(0);
    if (ch === " ") return "␣";
    if (ch === "\n") return "↵";
    if (ch === "	") return "⇥";
    if (cp < 32) return String.fromCodePoint(9216 + cp);
    if (cp === 127) return "␡";
    if (cp < 128) return ch;
    if (cat(ch, HIDDEN, ranges) || BLANK_LOOKING.has(cp)) return marker(cp);
    if (cat(ch, FMT, ranges) || isVS(cp)) return keepsEmoji(chars, i, cp, ranges) ? ch : marker(cp);
    return ch;
  }
  function displayToken(text, ranges = null) {
    if (!text) return "∅";
    const chars = points(text);
    let shown3 = "";
    for (let i = 0; i < chars.length; i++) shown3 += showChar(chars, i, ranges);
    const first = chars[0];
    if (cat(first, MARK, ranges) && !isVS(first.codePointAt(0))) shown3 = "◌" + shown3;
    return shown3;
  }
  function plainLabel(token, maxChars = 8, ranges = null) {
    const shown3 = points(displayToken(token, ranges));
    return shown3.length <= maxChars ? shown3.join("") : shown3.slice(0, maxChars - 1).join("") + "…";
  }

  // static/engine/captions.js
  var fill = (template, values) => template.replace(/\{(\w+)\}/g, (m, k) => k in values ? values[k] : m);
  var EN_US = new Intl.NumberFormat("en-US");
  function plural2(t, n, word) {
    const [one, many] = t.plural[word];
    return EN_US.format(n) + " " + (n === 1 ? one : many);
  }
  var fmtG = (x) => String(Number(x.toPrecision(6)));
  function interventions(t, config, knobs2) {
    const iv = t.interventions, out = [];
    const causal = knobs2.causal == null ? config.causal : knobs2.causal;
    const scale = knobs2.scale == null ? config.attn_scale : knobs2.scale;
    if (causal !== config.causal) out.push(iv.causal[String(causal)]);
    if (scale !== config.attn_scale) out.push(iv.scale[config.attn_scale + ">" + scale]);
    if (knobs2.temperature !== 1) out.push(fill(iv.temperature, { t: fmtG(knobs2.temperature) }));
    if (knobs2.heads_off.length) {
      const keys = [...new Set(knobs2.heads_off.map(([l, h]) => l * 1e6 + h))].sort((a, b) => a - b);
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
      if (cp < 128) continue;
      const kind = kindOf(t, cp);
      if (kind && !kinds.includes(kind)) kinds.push(kind);
    }
    let chars = 0, tokens = 0;
    for (let i = 1; i < pieces.length; i++) {
      if (pieces[i] !== "") continue;
      tokens += 1;
      if (pieces[i - 1] !== "") {
        chars += 1;
        tokens += 1;
      }
    }
    if (!kinds.length && !chars) return null;
    const n = t.notices;
    let notice = fill(n.unfamiliar, {
      what: kinds.length ? kinds.join(n.what_join) : n.what_default
    });
    if (chars) {
      notice += fill(n.unfamiliar_bytes, {
        chars: plural2(t, chars, "character"),
        tokens: plural2(t, tokens, "byte token")
      });
    }
    return notice;
  }
  function notices(t, r, read) {
    const n = t.notices, out = [];
    if (r.cutTokens) {
      out.push(
        fill(n.cut_tokens, { n_ctx: r.config.n_ctx, kept: plural2(t, r.keptChars, "character") })
      );
    } else if (r.cutChars) out.push(n.cut_chars);
    const u = unfamiliar(t, read, r.tokens);
    if (u) out.push(u);
    if (r.maskMissing) out.push(n.mask_hint);
    return out;
  }
  var plainStatus = (md) => md.replace(/[*`]/g, "").replace(/\s*\n+\s*/g, " ").trim();

  // static/engine/payload.js
  function knobsOf(t, c, opts) {
    const k = t.controls;
    const { objective, heads, pos, mask: mask2, scaling: scaling2, temperature: temperature2, layer, head, theme: theme2 } = c;
    if (objective === k.lab || !(objective in k.objectives)) return null;
    const name = ((k.models[objective] || {})[String(Number(heads))] || {})[pos];
    if (!name || !(mask2 in k.masks) || !(scaling2 in k.scales)) return null;
    const temp2 = Number(temperature2);
    if (!Number.isFinite(temp2)) return null;
    const [low, high] = k.temperature_range;
    return {
      model: name,
      causal: k.masks[mask2],
      scale: k.scales[scaling2],
      temperature: Math.min(Math.max(temp2, low), high),
      heads_off: opts && opts.heads_off || [],
      ...opts && opts.snapshot ? { snapshot: String(opts.snapshot) } : {},
      // a training one
      layer: Math.trunc(Number(layer)) || 0,
      head: Math.trunc(Number(head)) || 0,
      theme: theme2 === "dark" ? "dark" : "light",
      // echoed as grid_payload echoes them (Controls.named(): the values as parsed)
      controls: {
        objective: String(objective),
        heads: Math.trunc(Number(heads)),
        pos: String(pos),
        mask: String(mask2),
        scaling: String(scaling2),
        temperature: temp2,
        layer: Math.trunc(Number(layer)) || 0,
        head: Math.trunc(Number(head)) || 0,
        theme: theme2 === "dark" ? "dark" : "light"
      }
    };
  }
  function mosaic(patterns, L, H2, n) {
    const z = new Uint8Array(L * n * H2 * n), row = H2 * n;
    for (let l = 0; l < L; l++)
      for (let h = 0; h < H2; h++) {
        const o = (l * H2 + h) * n * n;
        for (let q = 0; q < n; q++)
          for (let k = 0; k < n; k++) {
            const v = Math.fround(Math.min(Math.max(patterns[o + q * n + k], 0), 1) * 100);
            let r = Math.round(v);
            if (r - v === 0.5 && r % 2 === 1) r -= 1;
            z[(l * n + q) * row + h * n + k] = r;
          }
      }
    let bin = "";
    for (let i = 0; i < z.length; i += 8192)
      bin += String.fromCharCode.apply(null, z.subarray(i, i + 8192));
    return btoa(bin);
  }
  var RETRY_MS = 6e4;
  var NOT_YET = {};
  function payloadOf(t, text, knobs2, r, opts) {
    const c = r.config;
    const n = r.n;
    let caption = plural2(t, n, "token");
    const iv = interventions(t, c, knobs2);
    if (iv.length) caption += t.caption.experiment + iv.join(t.caption.join);
    let read = points(text).slice(0, MAX_CHARS).join("").replace(/ +$/, "");
    if (r.cutTokens) read = points(read).slice(0, r.keptChars).join("");
    for (const notice of notices(t, r, read)) caption += t.caption.notice + plainStatus(notice);
    const layer = Math.min(Math.max(knobs2.layer, 0), c.n_layers - 1);
    const head = Math.min(Math.max(knobs2.head, 0), c.n_heads - 1);
    const label3 = (s, max) => plainLabel(s, max, t.label_ranges);
    const off = knobs2.heads_off.length ? { off: knobs2.heads_off.map(([l, h]) => [Number(l), Number(h)]) } : {};
    return {
      ok: true,
      text,
      controls: knobs2.controls,
      tokens: r.tokens.map((s) => label3(s, t.grid_label_chars)),
      layers: r.layers,
      heads: r.heads,
      n,
      z: mosaic(r.patterns, r.layers, r.heads, n),
      selected: [layer, head],
      colors: opts.colors || (t.colors || {})[knobs2.theme],
      guesses: r.guesses.map((g2) => [label3(g2.token, 24), Math.round(g2.p * 1e4) / 1e4]),
      where: c.causal ? "next word" : "[mask]",
      caption,
      ...off
    };
  }
  function createPayload(engine2, read = fetchBytes) {
    let texts2 = null;
    let textsUrl = "engine_texts.json";
    let loading = null;
    const failed3 = /* @__PURE__ */ new Map();
    async function getTexts() {
      if (texts2) return texts2;
      if (!loading) {
        loading = readJSON(textsUrl, read).then((t) => texts2 = t);
        loading.catch(() => loading = null);
      }
      return loading;
    }
    async function ready2(name, fetchIt) {
      if (engine2.loaded(name)) return true;
      if (Date.now() - (failed3.get(name) || -Infinity) < RETRY_MS) return false;
      try {
        const loading2 = engine2.load(name);
        loading2.catch(() => failed3.set(name, Date.now()));
        const raced = fetchIt ? loading2 : Promise.race([loading2, Promise.resolve(NOT_YET)]);
        return await raced !== NOT_YET;
      } catch {
        return false;
      }
    }
    async function gridPayload2(text, controls, opts = {}) {
      const t = await getTexts();
      const knobs2 = knobsOf(t, controls || {}, opts);
      if (!knobs2 || !await ready2(knobs2.model, opts.fetch)) return null;
      text = text == null ? "" : String(text);
      if (!text.trim()) {
        return { ok: false, text, controls: knobs2.controls, caption: plainStatus(t.empty_state) };
      }
      return payloadOf(t, text, knobs2, await engine2.runTyped(text, knobs2), opts);
    }
    const ranges = () => texts2 && texts2.label_ranges || null;
    return {
      setTexts: (obj) => void (texts2 = obj),
      configure: (o = {}) => void (o.textsUrl && (textsUrl = String(o.textsUrl))),
      texts: getTexts,
      gridPayload: gridPayload2,
      displayToken: (s) => displayToken(s, ranges()),
      plainLabel: (s, max) => plainLabel(s, max, ranges()),
      knobsOf: (c, o) => texts2 && knobsOf(texts2, c, o)
    };
  }

  // static/engine/index.js
  var CONFIG_ID = "ae-engine-config";
  var READY_EVENT = "ae-engine-ready";
  function attach() {
    const AE2 = globalThis.AttentionExplorer = globalThis.AttentionExplorer || {};
    if (AE2.engine) return AE2;
    const engine2 = createEngine();
    const payload2 = createPayload(engine2);
    const { gridPayload: gridPayload2, ...payloadApi } = payload2;
    return Object.assign(AE2, {
      tokenizer: {
        fromJSON,
        load,
        MAX_CHARS,
        Tokenizer
      },
      model: { parseSafetensors, Transformer, alibiSlopes },
      engine: engine2,
      payload: payloadApi,
      gridPayload: gridPayload2
    });
  }
  function configureFromPage(AE2) {
    const element = globalThis.document && document.getElementById(CONFIG_ID);
    if (!element) return;
    const config = JSON.parse(element.textContent);
    AE2.engine.configure({ urls: config.urls, hashes: config.hashes });
    AE2.payload.configure({ textsUrl: config.texts });
    AE2.gridInBrowser = true;
    const idle = globalThis.requestIdleCallback || ((f) => setTimeout(f, 200));
    idle(() => {
      AE2.engine.runTyped("", { model: config.model }).catch(() => {
      });
      AE2.payload.texts().catch(() => {
      });
    });
  }
  var AE = attach();
  if (!AE.engineReady) {
    configureFromPage(AE);
    AE.engineReady = Promise.resolve(AE);
    if (globalThis.dispatchEvent) globalThis.dispatchEvent(new Event(READY_EVENT));
  }
  var { engine, payload, gridPayload } = AE;

  // static/grid_draw.js
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif';
  var MARGIN = { top: 20, right: 28, gap: 4, tokensLeft: 70, tokensBottom: 62 };
  var MAX_PANEL = 240;
  var MIN_LABELLED_CELL = 9;
  function rgb(hex3) {
    return [1, 3, 5].map((i) => parseInt(hex3.slice(i, i + 2), 16));
  }
  function palette(scale) {
    const out = new Uint8ClampedArray(101 * 3);
    for (let v = 0; v <= 100; v++) {
      const t = v / 100;
      let i = 0;
      while (i < scale.length - 2 && t > scale[i + 1][0]) i++;
      const [t0, c0] = scale[i], [t1, c1] = scale[i + 1];
      const f = t1 > t0 ? Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : 0;
      const a = rgb(c0), b = rgb(c1);
      for (let k = 0; k < 3; k++) out[v * 3 + k] = Math.round(a[k] + f * (b[k] - a[k]));
    }
    return out;
  }
  function focusColours(paper) {
    const [r, g2, b] = rgb(paper);
    const dark2 = 0.2126 * r + 0.7152 * g2 + 0.0722 * b < 128;
    return { outer: dark2 ? "#93c5fd" : "#1d4ed8", inner: paper };
  }
  function decode(b64) {
    const s = atob(b64), out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  function layout(p, width, opts = {}) {
    const maxPanel = opts.maxPanel || MAX_PANEL;
    const [least, most] = opts.font || [9, 13];
    const fit = (left, bottom) => {
      const across = (width - left - MARGIN.right - MARGIN.gap * (p.heads - 1)) / p.heads;
      let size = Math.min(maxPanel, across);
      if (opts.height) {
        const room = opts.height - MARGIN.top - bottom - 4 - MARGIN.gap * (p.layers - 1);
        size = Math.min(size, room / p.layers);
      }
      return { left, bottom, size: Math.max(8, Math.floor(size)) };
    };
    const fontFor = (g3) => Math.max(least, Math.min(most, Math.floor(g3.size / p.n * 0.9)));
    let g2 = fit(MARGIN.tokensLeft, MARGIN.tokensBottom);
    if (opts.thin) {
      const grow = fontFor(g2) / 13;
      g2 = fit(Math.round(MARGIN.tokensLeft * grow), Math.round(MARGIN.tokensBottom * grow));
      g2.tokens = g2.size >= 4 * least;
    } else {
      g2.tokens = g2.size / p.n >= MIN_LABELLED_CELL;
    }
    if (!g2.tokens) g2 = { ...fit(0, 0), tokens: false };
    const cell2 = g2.size / p.n;
    g2.font = fontFor(g2);
    g2.every = opts.thin ? Math.max(1, Math.ceil(g2.font * 1.15 / cell2)) : 1;
    g2.everyKey = opts.thin ? Math.max(1, Math.ceil(g2.font * 1.15 / (cell2 * 0.866))) : 1;
    g2.nameFont = opts.font ? Math.max(11, least) : 11;
    g2.top = MARGIN.top;
    g2.height = g2.top + p.layers * g2.size + MARGIN.gap * (p.layers - 1) + g2.bottom + 4;
    g2.x = (h) => g2.left + h * (g2.size + MARGIN.gap);
    g2.y = (l) => g2.top + l * (g2.size + MARGIN.gap);
    return g2;
  }
  function drawTokens(ctx, p, g2) {
    const n = p.n, cell2 = g2.size / n;
    ctx.font = g2.font + "px " + FONT;
    ctx.textAlign = "right";
    for (let l = 0; l < p.layers; l++) {
      for (let q = 0; q < n; q += g2.every) {
        ctx.fillText(p.tokens[q], g2.left - 4, g2.y(l) + (q + 0.5) * cell2, g2.left - 6);
      }
    }
    const bottom = g2.y(p.layers - 1) + g2.size + 4;
    for (let h = 0; h < p.heads; h++) {
      for (let k = 0; k < n; k += g2.everyKey) {
        ctx.save();
        ctx.translate(g2.x(h) + (k + 0.5) * cell2, bottom);
        ctx.rotate(-Math.PI / 3);
        ctx.fillText(p.tokens[k], 0, 0, g2.bottom);
        ctx.restore();
      }
    }
  }
  function drawNames(ctx, p, g2, colours) {
    ctx.fillStyle = colours.font;
    ctx.font = (g2.nameFont || 11) + "px " + FONT;
    ctx.textAlign = "center";
    ctx.textBaseline = "bottom";
    const [l0, h0] = p.at || [0, 0];
    for (let h = 0; h < p.heads; h++) {
      ctx.fillText("H" + (h0 + h), g2.x(h) + g2.size / 2, g2.top - 4);
    }
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    const right = g2.x(p.heads - 1) + g2.size + 6;
    for (let l = 0; l < p.layers; l++) ctx.fillText("L" + (l0 + l), right, g2.y(l) + g2.size / 2);
  }
  function offPanels(p) {
    const [l0, h0] = p.at || [0, 0];
    const seen = /* @__PURE__ */ new Set(), out = [];
    for (const pair of p.off || []) {
      const l = Number(pair[0]) - l0, h = Number(pair[1]) - h0;
      if (!(l >= 0 && l < p.layers && h >= 0 && h < p.heads) || seen.has(l * 1e6 + h)) continue;
      seen.add(l * 1e6 + h);
      out.push([l, h]);
    }
    return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  }
  function drawOff(ctx, g2, [l, h], paper) {
    const x = g2.x(h), y = g2.y(l), s = g2.size;
    const [r, gr, b] = rgb(paper);
    const dark2 = 0.2126 * r + 0.7152 * gr + 0.0722 * b < 128;
    ctx.save();
    ctx.beginPath();
    ctx.rect(x, y, s, s);
    ctx.clip();
    ctx.fillStyle = dark2 ? "rgba(20,20,20,0.65)" : "rgba(110,110,110,0.6)";
    ctx.fillRect(x, y, s, s);
    ctx.strokeStyle = "rgba(255,255,255,0.45)";
    ctx.lineWidth = Math.max(1, s / 60);
    const step = Math.max(6, s / 10);
    ctx.beginPath();
    for (let d = step / 2; d < 2 * s; d += step) {
      ctx.moveTo(x + d, y);
      ctx.lineTo(x + d - s, y + s);
    }
    ctx.stroke();
    if (s >= 18) {
      const size = Math.round(Math.min(22, Math.max(10, s / 5)));
      ctx.font = "bold " + size + "px " + FONT;
      const w = ctx.measureText("off").width + size * 0.8, hgt = size * 1.4;
      ctx.fillStyle = "rgba(17,24,39,0.9)";
      ctx.fillRect(x + (s - w) / 2, y + (s - hgt) / 2, w, hgt);
      ctx.fillStyle = "#ffffff";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText("off", x + s / 2, y + s / 2);
    }
    ctx.restore();
  }
  function drawRing(ctx, g2, [cl, ch], paper) {
    const ring = focusColours(paper);
    const x = g2.x(ch), y = g2.y(cl), s = g2.size, outer = Math.min(4, s / 6);
    const inner = Math.min(2, s / 12);
    ctx.lineWidth = outer;
    ctx.strokeStyle = ring.outer;
    ctx.strokeRect(x + outer / 2, y + outer / 2, s - outer, s - outer);
    ctx.lineWidth = inner;
    ctx.strokeStyle = ring.inner;
    ctx.strokeRect(
      x + outer + inner / 2,
      y + outer + inner / 2,
      s - 2 * outer - inner,
      s - 2 * outer - inner
    );
  }

  // static/live_grid.js
  var BUSY2 = "⏳ The server is busy: trying again…";
  var BUSY_OLDER = "⏳ The server is busy: the grid below is for an older sentence. Trying again…";
  var SERVER_WORDS = (error, older) => older ? BUSY_OLDER : BUSY2;
  var SHOWN = /* @__PURE__ */ Symbol.for("AttentionExplorer.grid.shown");
  function request(knobs2) {
    const { text, ...controls } = knobs2 || {};
    return { text: text == null ? "" : String(text), controls };
  }
  function panel(p, layer, head) {
    const s = atob(p.z), n = p.n, width = p.heads * n;
    let z = "";
    for (let q = 0; q < n; q++) z += s.substr((layer * n + q) * width + head * n, n);
    return { ...p, layers: 1, heads: 1, z: btoa(z), selected: [0, 0], at: [layer, head] };
  }
  function state(canvas) {
    const c = typeof canvas === "string" ? document.querySelector(canvas) : canvas;
    return c ? c[SHOWN] : void 0;
  }
  var Grid = class {
    constructor(element, { data = null, colors: colors2 = null, onOpen = null, noAnswer: noAnswer2 = null, sizing = null } = {}) {
      this.element = element;
      this.sizing = sizing;
      this.data = data;
      this.colors = colors2;
      this.onOpen = onOpen || (() => {
      });
      this.noAnswer = noAnswer2 || SERVER_WORDS;
      this.canvas = element.querySelector("canvas");
      this.caption = element.querySelector(".ae-grid-caption");
      this.guesses = element.querySelector(".ae-grid-guesses");
      this.tip = element.querySelector(".ae-grid-tip");
      this.mosaic = globalThis.document.createElement("canvas");
      this.shown = null;
      this.cells = null;
      this.geom = null;
      this.drawn = 0;
      this.cursor = null;
      this.listen();
      new ResizeObserver(() => this.redraw()).observe(element);
    }
    coloursOf(p) {
      const c = typeof this.colors === "function" ? this.colors(p) : this.colors;
      return c || p.colors;
    }
    paintMosaic(p) {
      const w = p.heads * p.n, h = p.layers * p.n, colours = palette(this.coloursOf(p).scale);
      const cells2 = this.cells = decode(p.z);
      const img = new ImageData(w, h), d = img.data;
      for (let i = 0; i < cells2.length; i++) {
        const c = Math.min(cells2[i], 100) * 3;
        d[4 * i] = colours[c];
        d[4 * i + 1] = colours[c + 1];
        d[4 * i + 2] = colours[c + 2];
        d[4 * i + 3] = 255;
      }
      this.mosaic.width = w;
      this.mosaic.height = h;
      this.mosaic.getContext("2d").putImageData(img, 0, 0);
    }
    draw(p) {
      this.shown = p;
      if (!p) return;
      this.caption.textContent = p.caption || "";
      this.guesses.textContent = p.ok && p.guesses && p.guesses.length ? "Guesses for the " + p.where + ": " + p.guesses.map(([t, q]) => "“" + t + "” " + Math.round(q * 100) + "%").join("  ") : "";
      if (!p.ok) {
        this.canvas.hidden = true;
        this.geom = null;
        this.cells = null;
        this.tip.hidden = true;
        this.drawn += 1;
        this.canvas[SHOWN] = { drawn: this.drawn, ok: false };
        return;
      }
      this.canvas.hidden = false;
      if (this.cursor) {
        this.cursor = [Math.min(this.cursor[0], p.layers - 1), Math.min(this.cursor[1], p.heads - 1)];
      }
      this.paintMosaic(p);
      this.redraw();
    }
    redraw() {
      const p = this.shown, canvas = this.canvas;
      if (!p || !p.ok) return;
      const width = Math.max(200, this.element.clientWidth || 600), colours = this.coloursOf(p);
      const g2 = layout(p, width, this.sizing && this.sizing(p) || void 0), n = p.n, dpr = globalThis.devicePixelRatio || 1;
      canvas.style.width = width + "px";
      canvas.style.height = g2.height + "px";
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(g2.height * dpr);
      const ctx = canvas.getContext("2d");
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.fillStyle = colours.paper;
      ctx.fillRect(0, 0, width, g2.height);
      ctx.imageSmoothingEnabled = false;
      for (let l = 0; l < p.layers; l++) {
        for (let h = 0; h < p.heads; h++) {
          ctx.drawImage(this.mosaic, h * n, l * n, n, n, g2.x(h), g2.y(l), g2.size, g2.size);
        }
      }
      const off = offPanels(p);
      for (const at of off) drawOff(ctx, g2, at, colours.paper);
      drawNames(ctx, p, g2, colours);
      ctx.fillStyle = colours.muted;
      if (g2.tokens) drawTokens(ctx, p, g2);
      const [sl, sh] = p.selected;
      ctx.strokeStyle = colours.accent;
      ctx.lineWidth = 2.5;
      ctx.strokeRect(g2.x(sh) - 1.5, g2.y(sl) - 1.5, g2.size + 3, g2.size + 3);
      if (this.cursor) drawRing(ctx, g2, this.cursor, colours.paper);
      this.remember(p, g2, off);
    }
    // What the canvas now shows: its label (for a screen reader) and state()'s record.
    remember(p, g2, off) {
      const [l0, h0] = p.at || [0, 0], n = p.n;
      const offHeads = off.map(([l, h]) => [l0 + l, h0 + h]);
      const offNames = offHeads.map(([l, h]) => `L${l} H${h}`).join(", ");
      this.canvas.setAttribute(
        "aria-label",
        `Attention of every head: ${p.layers} layers × ${p.heads} heads, ${n} tokens. ` + (offNames ? `Switched off: ${offNames}. ` : "") + "Click a square, or use the arrow keys and Enter, to open it large."
      );
      this.geom = g2;
      this.drawn += 1;
      this.canvas[SHOWN] = {
        drawn: this.drawn,
        ok: true,
        layers: p.layers,
        heads: p.heads,
        n,
        tokens: p.tokens,
        cells: this.cells,
        selected: p.selected,
        off: offHeads,
        geom: {
          left: g2.left,
          top: g2.top,
          size: g2.size,
          gap: MARGIN.gap,
          font: g2.tokens ? g2.font : 0,
          every: g2.every,
          everyKey: g2.everyKey
        }
      };
    }
    // (layer, head, query, key) under a point of the canvas (css px), or null.
    hit(x, y) {
      const p = this.shown, g2 = this.geom;
      if (!p || !g2) return null;
      const h = Math.floor((x - g2.left) / (g2.size + MARGIN.gap));
      const l = Math.floor((y - g2.top) / (g2.size + MARGIN.gap));
      if (h < 0 || h >= p.heads || l < 0 || l >= p.layers) return null;
      const dx = x - g2.x(h), dy = y - g2.y(l);
      if (dx < 0 || dy < 0 || dx >= g2.size || dy >= g2.size) return null;
      return [l, h, Math.floor(dy / g2.size * p.n), Math.floor(dx / g2.size * p.n)];
    }
    // The tip at (left, top) of the canvas (css px), inside the grid's box.
    say(text, left, top) {
      const tip = this.tip, canvas = this.canvas;
      tip.textContent = text;
      tip.hidden = false;
      const most = Math.max(0, this.element.clientWidth - tip.offsetWidth);
      tip.style.left = Math.min(canvas.offsetLeft + left, most) + "px";
      tip.style.top = canvas.offsetTop + top + "px";
    }
    hover(ev) {
      const at = this.hit(ev.offsetX, ev.offsetY);
      this.canvas.style.cursor = at ? "pointer" : "default";
      if (!at) {
        this.tip.hidden = true;
        return;
      }
      const [l, h, q, k] = at, p = this.shown, [l0, h0] = p.at || [0, 0];
      const w = this.cells[(l * p.n + q) * p.heads * p.n + h * p.n + k];
      const isOff = offPanels(p).some(([ol, oh]) => ol === l && oh === h);
      const text = `L${l0 + l} H${h0 + h}${isOff ? " (switched off)" : ""} · query ${q} ${p.tokens[q]} → key ${k} ${p.tokens[k]}: ${w}%`;
      this.say(text, ev.offsetX + 12, ev.offsetY + 14);
    }
    // The keyboard: Tab to the grid, arrows move the ring, Enter opens that head.
    key(ev) {
      const p = this.shown, g2 = this.geom;
      if (!p || !p.ok || !this.cursor) return;
      const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (step[ev.key]) {
        const [dl, dh] = step[ev.key], c = this.cursor;
        this.cursor = [
          Math.min(p.layers - 1, Math.max(0, c[0] + dl)),
          Math.min(p.heads - 1, Math.max(0, c[1] + dh))
        ];
        this.say(
          "L" + this.cursor[0] + " H" + this.cursor[1] + ": Enter opens it large",
          g2.x(this.cursor[1]) + 4,
          g2.y(this.cursor[0]) + g2.size - 8
        );
        this.redraw();
      } else if (ev.key === "Enter" || ev.key === " ") {
        this.onOpen(this.cursor[0], this.cursor[1]);
      } else {
        return;
      }
      ev.preventDefault();
    }
    listen() {
      const canvas = this.canvas;
      canvas.addEventListener("mousemove", (ev) => this.hover(ev));
      canvas.addEventListener("mouseleave", () => {
        this.tip.hidden = true;
      });
      canvas.addEventListener("click", (ev) => {
        const at = this.hit(ev.offsetX, ev.offsetY);
        if (at) this.onOpen(at[0], at[1]);
      });
      canvas.tabIndex = 0;
      canvas.addEventListener("focus", () => {
        if (this.shown && this.shown.ok) {
          this.cursor = [...this.shown.selected];
          this.redraw();
        }
      });
      canvas.addEventListener("blur", () => {
        this.cursor = null;
        this.tip.hidden = true;
        this.redraw();
      });
      canvas.addEventListener("keydown", (ev) => this.key(ev));
    }
    // One update asked by a live loop (static/live.js's, or a page's own): ask `data` for
    // the grid of ctx.knobs and draw it. Not an answer: null, a throw (Gradio's server.*
    // resolves to undefined when its POST fails, other versions throw) or {ok: false,
    // retry: true} (busy). Then the grid on screen stays, its caption says so in noAnswer's
    // words (the app's: for an older sentence), and false goes back: the loop asks again.
    // {ok: false} without retry (nothing typed, no such model) is an answer. Drawn only if
    // ctx.fresh(): else a newer change is on its way, and the loop asks again anyway.
    async update(ctx) {
      let answer = null, error;
      try {
        answer = this.data ? await this.data(request(ctx && ctx.knobs), ctx) : null;
      } catch (e) {
        answer = null;
        error = e;
      }
      const ok = !!answer && typeof answer === "object" && !(answer.ok === false && answer.retry);
      if (!ctx || !ctx.fresh || ctx.fresh()) {
        if (ok) this.draw(answer);
        else {
          const text = this.noAnswer(error, !!(this.shown && this.shown.ok));
          if (this.caption.textContent !== text) this.caption.textContent = text;
        }
      }
      return ok;
    }
  };
  function mount(element, options) {
    return new Grid(element, options);
  }
  var grid = { mount, request, panel, state };

  // static/projector.js
  var YES = ["1", "true", "yes", "on"];
  var NO = ["0", "false", "no", "off"];
  function projectorMode(onChange = () => {
  }) {
    const root = document.documentElement;
    const asked = (new URLSearchParams(window.location.search).get("projector") || "").toLowerCase();
    const shortWide = window.innerHeight <= 560 && window.innerWidth >= 760;
    if (YES.includes(asked) || shortWide && !NO.includes(asked)) {
      root.classList.add("ae-projector");
    }
    const on = () => root.classList.contains("ae-projector");
    function sync() {
      document.querySelectorAll(".ae-projector-switch").forEach((b) => {
        b.setAttribute("aria-pressed", String(on()));
        b.textContent = on() ? "Normal screen" : "Big screen";
      });
    }
    function set(value) {
      root.classList.toggle("ae-projector", value);
      const url = new URL(window.location.href);
      if (value) url.searchParams.set("projector", "1");
      else if (shortWide) url.searchParams.set("projector", "0");
      else url.searchParams.delete("projector");
      window.history.replaceState(window.history.state, "", url);
      sync();
      onChange(value);
    }
    return { on, set, sync };
  }

  // static/site/page_config.js
  var CONFIG = JSON.parse(document.getElementById("ae-config").textContent);
  var $ = (id) => document.getElementById(id);
  var dark = window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;
  var theme = dark ? "dark" : "light";
  var colors = CONFIG.colors[theme];
  var FROM_FILE = location.protocol === "file:";
  var SERVE_FOLDER = "⚠️ This page was opened as a file, and a browser does not let such a page read the models beside it. Serve its folder instead: in a terminal in this folder run python -m http.server -d . 8000 then open http://localhost:8000/";
  function el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k.includes("-")) e.setAttribute(k, v);
      else e[k] = v;
    }
    e.append(...children.filter((c) => c != null));
    return e;
  }
  function svgEl(tag, attrs = {}, text = null) {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "style") Object.assign(e.style, v);
      else e.setAttribute(k, String(v));
    }
    if (text != null) e.textContent = text;
    return e;
  }
  function warning(message) {
    const m = String(message || "Something went wrong.").replace(/^⚠️\s*/, "");
    return /^(✏️|ℹ️|⏳)/u.test(m) ? m : "⚠️ " + m;
  }

  // static/site/big_screen.js
  var WIDE_ENOUGH = 700;
  var LABEL_FONT = [14, 20];
  var mode = null;
  var big = () => !!mode && mode.on() && window.innerWidth >= WIDE_ENOUGH;
  function largeSizing() {
    if (!big()) return null;
    const box2 = $("large"), canvas = box2.querySelector("canvas");
    const top = canvas && !canvas.hidden ? canvas.getBoundingClientRect().top : box2.getBoundingClientRect().top + 90;
    const height = Math.max(300, window.innerHeight - (top + window.scrollY) - 8);
    return { height, maxPanel: 4e3, font: LABEL_FONT, thin: true };
  }
  function bringIntoView(id) {
    const box2 = $(id);
    if (!box2 || box2.hidden) return;
    const r = box2.getBoundingClientRect();
    const off = r.top < 0 || r.top > window.innerHeight - Math.min(r.height, 200);
    if (off) window.scrollBy({ top: r.top - 8, behavior: "instant" });
  }
  function initBigScreen({ redraw, open: open2 }) {
    const explore2 = () => $("tab-explore").getAttribute("aria-pressed") === "true";
    mode = projectorMode((on) => {
      if (on && explore2() && $("large").hidden) open2();
      redraw();
    });
    mode.sync();
    document.addEventListener("click", (ev) => {
      const t = ev.target instanceof Element ? ev.target : null;
      if (t && t.closest(".ae-projector-switch")) mode.set(!mode.on());
    });
    let pending = 0;
    window.addEventListener("resize", () => {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(redraw);
    });
    const step = new URLSearchParams(window.location.search).has("step");
    if (mode.on() && !step && $("large").hidden) open2();
  }

  // static/site/model_fit.js
  var kindWord = (objective) => String(objective).split(" (")[0].replace(/ /g, "-");
  var said = (h, p) => `${h} ${Number(h) === 1 ? "head" : "heads"}, ${p}`;
  function fitModel(config, knobs2) {
    const { models, objectives, heads: allHeads, positional } = config;
    const kind = objectives[knobs2.objective];
    const have = new Set(models);
    const trained = [];
    for (const h of allHeads) {
      for (const p of positional) if (have.has(`${kind}-h${h}-${p}`)) trained.push([h, p]);
    }
    const heads = Number(knobs2.heads), pos = String(knobs2.pos);
    if (!trained.length) {
      return { heads, pos, headsOffered: [...allHeads], posOffered: [...positional], note: "" };
    }
    const exists = (h, p) => trained.some(([th, tp]) => th === h && tp === p);
    let to = [heads, pos];
    if (!exists(heads, pos)) {
      to = trained.find(([h]) => h === heads) || trained.find(([, p]) => p === pos) || trained[0];
    }
    const word = kindWord(knobs2.objective);
    let note = "";
    if (trained.length === 1) {
      note = `Only one ${word} model was trained (${said(...to)}): Heads and Positional encoding are set to it while it is chosen.`;
    } else if (to[0] !== heads || to[1] !== pos) {
      note = `No ${word} model was trained with ${said(heads, pos)}: the knobs moved to ${said(...to)}.`;
    }
    return {
      heads: to[0],
      pos: to[1],
      headsOffered: [...new Set(trained.map(([h]) => h))],
      posOffered: trained.filter(([h]) => h === to[0]).map(([, p]) => p),
      note
    };
  }

  // static/site/knobs.js
  var KNOBS = ["objective", "heads", "pos", "mask", "scaling", "temperature"];
  var state2 = { layer: 0, head: 0, headsOff: /* @__PURE__ */ new Set(), model: null, payload: null };
  var box = () => $("sentence-box");
  var temp = () => $("temperature");
  function fill2(select, choices2) {
    for (const c of choices2) {
      const o = document.createElement("option");
      o.value = String(c);
      o.textContent = String(c);
      select.appendChild(o);
    }
  }
  function fillKnobs() {
    fill2($("objective"), Object.keys(CONFIG.objectives));
    fill2($("heads"), CONFIG.heads);
    fill2($("pos"), CONFIG.positional);
    fill2($("mask"), CONFIG.mask);
    fill2($("scaling"), CONFIG.scaling);
    fill2($("examples"), ["(pick an example)", ...CONFIG.examples]);
    [temp().min, temp().max] = CONFIG.temperature.map(String);
    const note = document.createElement("p");
    note.id = "model-note";
    note.className = "ae-model-note";
    note.setAttribute("role", "status");
    note.hidden = true;
    document.querySelector("#knobs .ae-knobs").after(note);
  }
  function fitKnobs() {
    const f = fitModel(
      {
        models: CONFIG.models,
        objectives: CONFIG.objectives,
        heads: CONFIG.heads,
        positional: CONFIG.positional
      },
      { objective: $("objective").value, heads: $("heads").value, pos: $("pos").value }
    );
    $("heads").value = String(f.heads);
    $("pos").value = f.pos;
    for (const o of $("heads").options) o.disabled = !f.headsOffered.includes(Number(o.value));
    for (const o of $("pos").options) o.disabled = !f.posOffered.includes(o.value);
    const note = $("model-note");
    if (note.textContent !== f.note) note.textContent = f.note;
    note.hidden = !f.note;
  }
  function showTemperature() {
    $("temperature-value").textContent = Number(temp().value).toFixed(1);
  }
  function setControls(c) {
    for (const k of KNOBS) $(k).value = String(c[k]);
    fitKnobs();
    showTemperature();
    state2.layer = c.layer;
    state2.head = c.head;
  }
  function setText(text) {
    box().value = text;
  }
  function knobs() {
    return {
      text: box().value,
      objective: $("objective").value,
      heads: Number($("heads").value),
      pos: $("pos").value,
      mask: $("mask").value,
      scaling: $("scaling").value,
      temperature: Number(temp().value),
      layer: state2.layer,
      head: state2.head,
      theme
    };
  }
  function modelName(k = knobs()) {
    return CONFIG.objectives[k.objective] + "-h" + k.heads + "-" + k.pos;
  }
  function headsOff() {
    return [...state2.headsOff].map((s) => s.split(",").map(Number));
  }
  function clearHeadsOff() {
    state2.headsOff.clear();
    for (const input of $("heads-off-boxes").querySelectorAll("input")) input.checked = false;
    $("heads-off-boxes").dataset.shape = "";
  }
  function headBoxes(p) {
    const holder = $("heads-off-boxes"), shape = p.layers + "x" + p.heads;
    if (holder.dataset.shape === shape) return;
    holder.dataset.shape = shape;
    holder.textContent = "";
    state2.headsOff.clear();
    for (let l = 0; l < p.layers; l++) {
      const row = document.createElement("div");
      for (let h = 0; h < p.heads; h++) {
        const label3 = document.createElement("label"), input = document.createElement("input");
        input.type = "checkbox";
        input.dataset.head = l + "," + h;
        label3.append(input, " L" + l + " H" + h);
        row.appendChild(label3);
      }
      holder.appendChild(row);
    }
  }
  function toggleHead(l, h) {
    const input = $("heads-off-boxes").querySelector(`input[data-head='${l},${h}']`);
    if (input) input.click();
  }
  function wireKnobs(changed) {
    box().addEventListener("input", changed);
    for (const k of KNOBS) {
      $(k).addEventListener("input", () => {
        if (k === "objective" || k === "heads" || k === "pos") fitKnobs();
        showTemperature();
        changed();
      });
    }
    $("examples").addEventListener("change", (ev) => {
      if (ev.target.selectedIndex > 0) {
        box().value = ev.target.value;
        changed();
      }
    });
    $("heads-off-boxes").addEventListener("change", (ev) => {
      const key = ev.target.dataset.head;
      if (!key) return;
      if (ev.target.checked) state2.headsOff.add(key);
      else state2.headsOff.delete(key);
      changed();
    });
  }

  // static/site/offline.js
  var now = { state: "off", models: [], bytes: 0 };
  var started = false;
  function offlineState() {
    return { ...now, models: [...now.models] };
  }
  function say(text) {
    $("offline").textContent = text;
    $("offline").hidden = !text;
  }
  function megabytes(bytes) {
    return (bytes / (1024 * 1024)).toFixed(1) + " MB";
  }
  function saidSaved(s) {
    const lesson = CONFIG.lessonModels;
    const more = s.models.filter((m) => !lesson.includes(m));
    const snapshots = CONFIG.snapshots.list.length;
    const training = snapshots ? `, ${snapshots} training snapshots and` : " and";
    return `Saved for offline use (${megabytes(s.bytes)}): the page${training} the ${lesson.length} models the nine steps use` + (more.length ? ", and " + more.join(", ") : "") + ". Any other model is saved once you open it while connected.";
  }
  function ask(worker) {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (e) => resolve(e.data);
      worker.postMessage({ type: "status" }, [channel.port2]);
    });
  }
  async function refresh() {
    const reg = await navigator.serviceWorker.ready;
    const s = await ask(reg.active);
    Object.assign(now, { state: "saved", models: s.models, bytes: s.bytes });
    say(saidSaved(now));
  }
  function watch(worker) {
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      if (worker.state !== "redundant" || now.state !== "saving") return;
      now.state = "failed";
      say(
        "Not saved for offline use yet: the download stopped. Open the page again while connected."
      );
    });
  }
  function saveForOffline() {
    if (started) return;
    started = true;
    if (FROM_FILE || !window.isSecureContext || !("serviceWorker" in navigator)) return;
    now.state = "saving";
    say("⏳ Saving the nine steps for offline use…");
    const again2 = () => refresh().catch(() => {
    });
    navigator.serviceWorker.addEventListener("message", (e) => {
      if (e.data && e.data.type === "saved") again2();
    });
    navigator.serviceWorker.addEventListener("controllerchange", again2);
    navigator.serviceWorker.register("sw.js").then((reg) => {
      watch(reg.installing);
      return refresh();
    }).catch(() => {
      now.state = "failed";
      say("");
    });
  }
  async function notSaved(name) {
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return false;
    const saved = await caches.match("models/" + name + ".safetensors").catch(() => null);
    return !saved;
  }

  // static/site/loop.js
  var views = [];
  var running = false;
  var again = false;
  function addView(view) {
    views.push(view);
  }
  function snapshot() {
    const extra = views.filter((v) => v.active() && v.key).map((v) => v.key());
    return JSON.stringify([knobs(), headsOff(), extra]);
  }
  async function kick() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const snap = snapshot();
        const ctx = { knobs: knobs(), headsOff: headsOff(), fresh: () => snapshot() === snap };
        for (const view of views) if (view.active()) await view.update(ctx);
      } while (again);
    } catch (e) {
      $("where").textContent = warning(e && e.message);
    } finally {
      running = false;
    }
  }
  async function loadModel(name) {
    try {
      await engine.runTyped("", { model: name });
    } catch (e) {
      const why = await whyNotLoaded(name, e);
      $("where").textContent = "⚠️ " + why;
      throw new Error(why);
    }
  }
  async function whyNotLoaded(name, e) {
    if (e && /is damaged/.test(e.message)) return e.message;
    if (await notSaved(name)) {
      return "The model " + name + " is not saved for offline use: open it once while connected.";
    }
    return "Could not load the model " + name + " into your browser: check the connection, then change the sentence or a knob to try again.";
  }
  async function ready(name) {
    if (FROM_FILE) throw new Error(SERVE_FOLDER);
    if (!CONFIG.models.includes(name)) throw new Error(CONFIG.missing[name]);
    if (name !== state2.model) {
      state2.model = name;
      clearHeadsOff();
      again = true;
    }
    if (!engine.loaded(name)) {
      $("where").textContent = "⏳ Loading the model " + name + " into your browser…";
      await loadModel(name);
    }
    $("where").textContent = "Computed in your browser (" + name + ").";
  }
  async function payloadFor(text, controls) {
    const name = modelName();
    if (FROM_FILE) return { ok: false, caption: SERVE_FOLDER };
    if (!CONFIG.models.includes(name)) return { ok: false, caption: CONFIG.missing[name] };
    await ready(name);
    const p = await gridPayload(text, controls, { colors, heads_off: headsOff(), theme });
    return p || { ok: false, caption: "⚠️ The browser cannot compute this view." };
  }
  async function engineKnobs(ctx, opts = {}) {
    const { text, ...controls } = ctx.knobs;
    if (!String(text).trim()) throw new Error(CONFIG.engineTexts.empty_state);
    const k = payload.knobsOf(controls, { heads_off: opts.headsOff || [] });
    if (!k) throw new Error("The browser cannot compute this view.");
    await ready(k.model);
    return k;
  }
  function noAnswer(error) {
    return warning(
      error && error.message ? error.message : "The browser could not compute this view."
    );
  }

  // static/site/grids.js
  var style = document.createElement("style");
  style.textContent = CONFIG.gridCss;
  document.head.appendChild(style);
  function mountGrid(holder, view, options = {}) {
    const element = document.createElement("div");
    element.className = "ae-grid-box";
    element.innerHTML = CONFIG.gridHtml[view];
    holder.appendChild(element);
    return mount(element, { noAnswer, ...options });
  }
  function oneHead(p, l, h) {
    if (!p || !p.ok) return p;
    return { ...panel(p, l, h), caption: "Layer " + l + ", head " + h + " · " + p.caption };
  }
  function matrixPayload(rows, tokens, at, caption) {
    const chars = CONFIG.engineTexts.grid_label_chars;
    return {
      ok: true,
      layers: 1,
      heads: 1,
      n: tokens.length,
      tokens: tokens.map((t) => payload.plainLabel(t, chars)),
      z: mosaic(Float32Array.from(rows.flat()), 1, 1, tokens.length),
      // as a run's grid
      selected: [0, 0],
      at,
      colors,
      guesses: [],
      where: "",
      caption
    };
  }

  // static/site/words.js
  function percent(p) {
    return Math.round(p * 100) + "%";
  }
  function headsLabel(heads) {
    return [...heads].sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([l, h]) => "L" + l + " H" + h).join(", ");
  }
  function quoted(token, display = (s) => s) {
    return "“" + display(token) + "”";
  }
  function guessChange(top, heads, display) {
    const off = headsLabel(heads);
    const was = quoted(top.was, display);
    if (top.was === top.now) {
      return `Top guess still ${was}: ${percent(top.wasOn)} → ${percent(top.wasOff)} with ${off} off.`;
    }
    return `Top guess ${was}: ${percent(top.wasOn)} → ${percent(top.wasOff)} with ${off} off; now ${quoted(top.now, display)} is the top guess, at ${percent(top.nowOff)}.`;
  }
  var TINY = 1e-4;
  function plainNumber(value, digits = 2) {
    const v = Math.abs(Number(value));
    if (v === 0) return "0";
    if (!Number.isFinite(v)) return Number.isNaN(v) ? "not a number" : "∞";
    if (v < TINY) return "less than 0.0001";
    if (v >= 10 ** digits) return Math.round(v).toLocaleString("en-US");
    return String(Number(v.toPrecision(digits)));
  }
  function shuffleReading(said2, r) {
    if (!r.perm) return [said2.none, ""];
    const reading = r.maxDiffAll < said2.bar ? said2.same : said2.changed.replace("{diff}", r.maxDiffAll.toFixed(3));
    const numbers = `Largest difference for layer ${r.layer}, head ${r.head}: ${plainNumber(r.maxDiffHead)}; over every head: ${plainNumber(r.maxDiffAll)}. The top guess changed at ${r.topChanged} of ${r.tokens.length} tokens (compared token by token).`;
    return [reading, numbers];
  }
  function shuffledWords(r) {
    const starts = new Set(wordStarts(r.tokens));
    return r.perm.map((i, j) => (j > 0 && starts.has(i) && !/^\s/u.test(r.tokens[i]) ? " " : "") + r.tokens[i]).join("").trim();
  }
  function patchReading(r, display) {
    const cells2 = r.heads.flatMap((row, l) => row.map((share, h) => ({ l, h, share })));
    cells2.sort((a, b) => b.share - a.share || a.l - b.l || a.h - b.h);
    const [top, next] = cells2;
    const name = (c) => "L" + c.l + " H" + c.h;
    return `Top cell: ${name(top)} restores ${percent(top.share)} of the difference between the scores of ${quoted(r.answerToken, display)} and ${quoted(r.wrongToken, display)}` + (next ? `; next comes ${name(next)} with ${percent(next.share)}.` : ".");
  }
  function noShares(r, display) {
    return `No shares: your sentence prefers ${quoted(r.answerToken, display)} over ${quoted(r.wrongToken, display)} by ${r.ld_clean.toFixed(2)} and the copy by ${r.ld_corrupt.toFixed(2)}, less than 1 apart, so sharing that difference out would divide by almost nothing. Change a word the guess depends on more.`;
  }

  // static/site/fig_ablate.js
  var ROWS = 5;
  var RANKED = 6;
  function guessRow(g2, off) {
    const bar = (p, cls) => el("span", { className: "ae-bar " + cls, style: `width:${p * 100}%` });
    const numbers = off ? [percent(g2.on), " → ", el("strong", {}, percent(g2.off))] : [percent(g2.on)];
    return el(
      "li",
      {},
      el("span", { className: "ae-token" }, "“" + payload.displayToken(g2.token) + "”"),
      el(
        "span",
        { className: "ae-bars" },
        bar(g2.on, "ae-before"),
        off ? bar(g2.off, "ae-after") : null
      ),
      el("span", { className: "ae-nums" }, ...numbers)
    );
  }
  function rankingTable(rank, off) {
    const offKeys = new Set(off.map(([l, h]) => l + "," + h));
    const head = el(
      "tr",
      {},
      ...["rank", "head", "loss rise", "loss without it"].map((t) => el("th", {}, t))
    );
    const rows = rank.heads.slice(0, RANKED).map(
      (r, i) => el(
        "tr",
        { "data-head": r.layer + "," + r.head },
        el("td", {}, String(i + 1)),
        el(
          "td",
          {},
          "L" + r.layer + " H" + r.head + (offKeys.has(r.layer + "," + r.head) ? " (off)" : "")
        ),
        el("td", {}, (r.delta >= 0 ? "+" : "") + r.delta.toFixed(3)),
        el("td", {}, r.loss.toFixed(3))
      )
    );
    return [el("thead", {}, head), el("tbody", {}, ...rows)];
  }
  function lossLine(a) {
    if (a.lossOn == null) return "⚠️ " + a.how;
    if (!a.headsOff.length) return `Loss (${a.how}): ${a.lossOn.toFixed(3)} with every head on.`;
    const rise = a.lossOff - a.lossOn;
    return `Loss (${a.how}): all heads on ${a.lossOn.toFixed(3)} → with ${headsLabel(a.headsOff)} off ${a.lossOff.toFixed(3)} (${rise >= 0 ? "+" : ""}${rise.toFixed(3)}).`;
  }
  function build2(holder) {
    const parts = {
      title: el("h3", {}),
      rows: el("ol", { id: "ablate-predictions", className: "ae-guess-rows" }),
      change: el("p", { id: "ablate-status" }),
      loss: el("p", { className: "ae-muted" }),
      table: el("table", { id: "ablate-ranking", className: "ae-table" }),
      rankIntro: el("p", { className: "ae-muted" })
    };
    parts.element = el(
      "div",
      { className: "ae-figure", id: "ablate-figure" },
      parts.title,
      parts.rows,
      parts.change,
      parts.loss,
      el("h3", {}, "Which heads matter for this sentence: each switched off alone"),
      parts.table,
      parts.rankIntro
    );
    holder.appendChild(parts.element);
    return parts;
  }
  function draw(parts, a, rank) {
    const off = a.headsOff.length > 0;
    parts.title.textContent = off ? "Guesses: before → after" : "Guesses, all heads on";
    parts.rows.replaceChildren(...a.guesses.slice(0, ROWS).map((g2) => guessRow(g2, off)));
    parts.change.textContent = !a.top ? "" : off ? guessChange(a.top, a.headsOff, payload.displayToken) : "Tick a head under Switch heads off, or click its square in the grid, to switch it off.";
    parts.loss.textContent = lossLine(a);
    parts.table.replaceChildren(...rank.base == null ? [] : rankingTable(rank, a.headsOff));
    parts.rankIntro.textContent = rank.base == null ? "⚠️ " + rank.how : `Loss = ${rank.how}; with every head on it is ${rank.base.toFixed(3)}. A big rise when a head is removed = the model needed that head here.`;
  }
  function failed(parts, e) {
    parts.rows.replaceChildren();
    parts.table.replaceChildren();
    parts.change.textContent = warning(e.message);
    parts.loss.textContent = parts.rankIntro.textContent = "";
  }
  function make(holder, { engineKnobs: engineKnobs2, record: record2 }) {
    const parts = build2(holder);
    let ranked = { key: null, rank: null };
    async function update2(ctx) {
      try {
        const k = await engineKnobs2(ctx, { headsOff: ctx.headsOff });
        const text = ctx.knobs.text;
        const a = await engine.ablate(text, k);
        const key = JSON.stringify([text, k.model, k.causal, k.scale, k.temperature]);
        if (ranked.key !== key) ranked = { key, rank: await engine.rank(text, k) };
        if (!ctx.fresh()) return;
        draw(parts, a, ranked.rank);
        const { base, heads } = ranked.rank;
        const { headsOff: headsOff2, guesses, top, lossOn, lossOff } = a;
        const ranking = heads.slice(0, RANKED);
        record2({ ok: true, headsOff: headsOff2, guesses, top, lossOn, lossOff, base, ranking });
      } catch (e) {
        if (!ctx.fresh()) return;
        failed(parts, e);
        record2({ ok: false, error: e.message });
      }
    }
    return { element: parts.element, update: update2 };
  }

  // static/site/fig_compare.js
  function side(id) {
    const title = el("h3", {});
    const holder = el("div", { className: "ae-panel", id }, title);
    return { title, holder, grid: mountGrid(holder, "head") };
  }
  function make2(holder, { engineKnobs: engineKnobs2, record: record2, step }) {
    const left = side("cmp-left"), right = side("cmp-right");
    const note = el("p", { className: "ae-muted" });
    const element = el(
      "div",
      { className: "ae-figure", id: "compare-figure" },
      el("div", { className: "ae-panels ae-two" }, left.holder, right.holder),
      note
    );
    holder.appendChild(element);
    async function draw4(s, ctx) {
      const { text, ...controls } = ctx.knobs;
      const p = await gridPayload(text, controls, { colors, theme, fetch: true });
      if (!p || !p.ok) throw new Error(p && p.caption || "The browser cannot compute this view.");
      s.pending = oneHead(p, ...p.selected);
      return p;
    }
    async function update2(ctx) {
      const scaling2 = step() && step().own.scaling || "none";
      try {
        await engineKnobs2(ctx);
        const mine = { ...ctx, knobs: { ...ctx.knobs, scaling: scaling2 } };
        const [a, b] = [await draw4(left, ctx), await draw4(right, mine)];
        if (!ctx.fresh()) return;
        left.title.textContent = "Scaling: " + ctx.knobs.scaling;
        right.title.textContent = "Scaling: " + scaling2;
        left.grid.draw(left.pending);
        right.grid.draw(right.pending);
        note.textContent = "";
        record2({
          ok: true,
          head: a.selected,
          scalings: [ctx.knobs.scaling, scaling2],
          captions: [a.caption, b.caption]
        });
      } catch (e) {
        if (!ctx.fresh()) return;
        note.textContent = warning(e.message);
        record2({ ok: false, error: e.message });
      }
    }
    return { element, update: update2 };
  }

  // static/site/fig_lab_chart.js
  var WIDTH = { least: 300, most: 760, before: 640 };
  var W = WIDTH.before;
  var PANEL = { left: 44, right: 10, top: 22, height: 120, gap: 40 };
  var LOWER_TOP = PANEL.top + PANEL.height + PANEL.gap;
  var H = LOWER_TOP + PANEL.height + 24;
  var WORDS = CONFIG.lab;
  var C = WORDS.colors[theme];
  var HEAD_COLOURS = [3, 4, 5, 6].map((i) => C.heads[i]);
  function headColour(l, h, heads) {
    return HEAD_COLOURS[(l * heads + h) % HEAD_COLOURS.length];
  }
  function scales(steps, top) {
    const x = (s) => PANEL.left + s / Math.max(steps, 1) * (W - PANEL.left - PANEL.right);
    const yLoss = (v) => PANEL.top + PANEL.height * (1 - Math.min(v, top) / top);
    const yScore = (v) => LOWER_TOP + PANEL.height * (1 - Math.max(0, Math.min(1, v)));
    return { x, yLoss, yScore };
  }
  function line(points2, colour, dash = null, width = 2) {
    const attrs = { points: points2.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ") };
    Object.assign(attrs, { fill: "none", stroke: colour, "stroke-width": width });
    if (dash) attrs["stroke-dasharray"] = dash;
    return svgEl("polyline", attrs);
  }
  function label(x, y, text, anchor = "end", colour = C.font) {
    return svgEl("text", { x, y, "text-anchor": anchor, fill: colour, "font-size": 12 }, text);
  }
  function frame(g2, s, steps, top) {
    const right = W - PANEL.right;
    for (const [y0, title] of [
      [PANEL.top, "Loss: second copy, fresh tokens"],
      [LOWER_TOP, "Every head's score, by training step"]
    ]) {
      const box2 = { x: PANEL.left, y: y0, width: right - PANEL.left, height: PANEL.height };
      g2.append(svgEl("rect", { ...box2, fill: "none", stroke: C.grid }));
      g2.append(label(PANEL.left, y0 - 6, title, "start"));
    }
    g2.append(label(PANEL.left - 4, s.yLoss(0) + 4, "0"));
    g2.append(label(PANEL.left - 4, s.yLoss(top) + 10, top.toFixed(1)));
    for (const v of [0, 0.5, 1]) g2.append(label(PANEL.left - 4, s.yScore(v) + 4, v * 100 + "%"));
    g2.append(label(PANEL.left, H - 6, "step 0", "start", C.muted));
    g2.append(label(right, H - 6, "step " + steps, "end", C.muted));
    const chance = WORDS.chance, bar = WORDS.formedBar;
    g2.append(
      line(
        [
          [PANEL.left, s.yLoss(chance)],
          [right, s.yLoss(chance)]
        ],
        C.muted,
        "6 4",
        1.5
      )
    );
    g2.append(
      line(
        [
          [PANEL.left, s.yScore(bar)],
          [right, s.yScore(bar)]
        ],
        C.font,
        "2 3",
        1.5
      )
    );
    g2.append(label(right - 2, s.yScore(bar) - 4, `bar: formed (${bar * 100}%)`, "end", C.muted));
  }
  function formedMark(g2, s, formedAt, steps) {
    const x = s.x(formedAt), early = formedAt < steps / 2;
    g2.append(
      line(
        [
          [x, PANEL.top],
          [x, LOWER_TOP + PANEL.height]
        ],
        C.accent,
        "3 3",
        2
      )
    );
    const words = label(x + (early ? 4 : -4), LOWER_TOP - 22, "formed at step " + formedAt);
    words.setAttribute("text-anchor", early ? "start" : "end");
    words.setAttribute("fill", C.accent);
    words.setAttribute("class", "ae-lab-formed-mark");
    g2.append(words);
  }
  function curves(g2, s, events, layers, heads) {
    const at = (key) => events.map((e) => [s.x(e.step), s.yLoss(e[key])]);
    g2.append(line(at("loss_copy"), C.heads[0]), line(at("loss_fresh"), C.heads[1]));
    for (let l = 0; l < layers; l++) {
      for (let h = 0; h < heads; h++) {
        const colour = headColour(l, h, heads);
        const of = (key) => events.map((e) => [s.x(e.step), s.yScore(e[key][l][h])]);
        g2.append(line(of("induction"), colour), line(of("previous_token"), colour, "5 3"));
      }
    }
  }
  function legendItems(layers, heads) {
    const item = (colour, text, dash) => {
      const swatch = el("span", { className: "ae-lab-swatch" + (dash ? " ae-lab-dashed" : "") });
      swatch.style.borderTopColor = colour;
      return el("li", {}, swatch, text);
    };
    const items = [
      item(C.heads[0], "loss: second copy"),
      item(C.heads[1], "loss: fresh tokens"),
      item(C.muted, "chance", true)
    ];
    for (let l = 0; l < layers; l++) {
      for (let h = 0; h < heads; h++) items.push(item(headColour(l, h, heads), `L${l} H${h}`));
    }
    items.push(item(C.font, "solid: induction score"), item(C.font, "previous-token score", true));
    return items;
  }
  function makeChart() {
    const root = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "ae-lab-chart" });
    root.setAttribute("aria-label", "The run's losses and every head's scores, by step");
    const legend = el("ul", { className: "ae-lab-legend" });
    const element = el("div", { className: "ae-lab-chart-box", id: "lab-chart" }, legend);
    element.prepend(root);
    function draw4(events, { steps, layers, heads, formedAt = null }) {
      const box2 = element.clientWidth || WIDTH.before;
      W = Math.max(WIDTH.least, Math.min(WIDTH.most, box2));
      root.setAttribute("viewBox", `0 0 ${W} ${H}`);
      const top = Math.max(WORDS.chance * 1.15, ...events.map((e) => e.loss_copy || 0));
      const s = scales(steps, top);
      const g2 = svgEl("g");
      frame(g2, s, steps, top);
      if (events.length) curves(g2, s, events, layers, heads);
      if (formedAt != null) formedMark(g2, s, formedAt, steps);
      root.replaceChildren(g2);
      legend.replaceChildren(...legendItems(layers, heads));
    }
    return { element, draw: draw4 };
  }

  // static/site/fig_lab_heads.js
  var WORDS2 = CONFIG.lab;
  var SCALE = palette(colors.scale);
  function best2(scores) {
    let at = [0, 0];
    scores.forEach(
      (row, l) => row.forEach((v, h) => {
        if (v > scores[at[0]][at[1]]) at = [l, h];
      })
    );
    return at;
  }
  function paint(canvas, pattern) {
    const n = pattern.length;
    canvas.width = canvas.height = n;
    const ctx = canvas.getContext("2d");
    const image = ctx.createImageData(n, n);
    for (let q = 0; q < n; q++) {
      for (let k = 0; k < n; k++) {
        const v = Math.max(0, Math.min(100, pattern[q][k])), i = (q * n + k) * 4;
        image.data.set([SCALE[v * 3], SCALE[v * 3 + 1], SCALE[v * 3 + 2], 255], i);
      }
    }
    ctx.putImageData(image, 0, 0);
  }
  function headBox(event, l, h, heads, outlined) {
    const canvas = el("canvas", { className: "ae-lab-head" });
    paint(canvas, event.probe[l][h]);
    const score = Math.round(event.induction[l][h] * 100);
    canvas.setAttribute(
      "aria-label",
      `L${l} H${h}: induction ${score}%, previous token ${Math.round(event.previous_token[l][h] * 100)}%`
    );
    const name = el("span", {}, `L${l} H${h} · ${score}%`);
    name.style.color = headColour(l, h, heads);
    return el(
      "figure",
      { className: "ae-lab-head-box" + (outlined ? " ae-lab-best" : "") },
      canvas,
      el("figcaption", {}, name)
    );
  }
  function makeHeads() {
    const caption = el("p", { className: "ae-lab-caption" });
    const rows = el("div", { className: "ae-lab-heads-rows" });
    const element = el("div", { className: "ae-lab-heads", id: "lab-heads" }, caption, rows);
    function draw4(event, layers, heads) {
      if (!event || !event.probe) return;
      const [bl, bh] = best2(event.induction);
      caption.textContent = WORDS2.caption.replace("{step}", String(event.step)).replace("{layer}", String(bl)).replace("{head}", String(bh));
      const row = (l) => el(
        "div",
        { className: "ae-lab-heads-row" },
        ...Array.from(
          { length: heads },
          (_, h) => headBox(event, l, h, heads, l === bl && h === bh)
        )
      );
      rows.replaceChildren(...Array.from({ length: layers }, (_, l) => row(l)));
    }
    function clear() {
      caption.textContent = "";
      rows.replaceChildren();
    }
    return { element, draw: draw4, clear };
  }

  // static/site/fig_lab_run.js
  var WORKER_URL = "lab_worker.js";
  var NAMES2 = { steps: "max_steps" };
  var ALLOWED = ["layers", "heads", "pos", "mlp", "norm", "lr", "seed", "steps", "max_steps"];
  var UPDATE_EVERY = 5;
  function trainerSettings(settings = {}) {
    const out = { update_every: UPDATE_EVERY };
    for (const [k, v] of Object.entries(settings)) {
      if (!ALLOWED.includes(k)) throw new Error(`the Lab has no setting "${k}"`);
      out[NAMES2[k] || k] = v;
    }
    return out;
  }
  function withShortNames(summary2) {
    return {
      ...summary2,
      formed_step: summary2.formed_at_step,
      best_previous: summary2.best_previous_token
    };
  }
  function train(settings, { onEvent = () => {
  }, signal = null, withProbe = false } = {}) {
    return new Promise((resolve, reject) => {
      let worker, asked;
      try {
        asked = trainerSettings(settings);
        worker = new Worker(WORKER_URL);
      } catch (err) {
        reject(err);
        return;
      }
      const stop = () => worker.postMessage({ kind: "stop" });
      const end = () => {
        worker.terminate();
        if (signal) signal.removeEventListener("abort", stop);
      };
      worker.onmessage = ({ data }) => {
        if (data.kind === "error") {
          end();
          reject(new Error(data.message));
          return;
        }
        const event = data.kind === "done" ? withShortNames(data) : data;
        try {
          onEvent(event);
        } finally {
          if (data.kind === "done") {
            end();
            resolve(event);
          }
        }
      };
      worker.onerror = (e) => {
        end();
        reject(new Error(e.message || "the Lab's trainer could not start"));
      };
      if (signal) signal.addEventListener("abort", stop);
      worker.postMessage({ kind: "train", settings: asked, withProbe });
      if (signal && signal.aborted) stop();
    });
  }
  AE.lab = { train };

  // static/site/fig_lab_table.js
  var KEY = "attention-explorer lab runs";
  var KEEP = 50;
  var WORDS3 = CONFIG.lab.table;
  var POSITIONS = ["none", "sinusoidal", "learned", "rotary", "alibi"];
  var num = (v) => Number.isFinite(Number(v)) ? Number(v) : null;
  function clean2(r) {
    if (!r || typeof r !== "object" || !POSITIONS.includes(r.pos)) return null;
    const row = { pos: r.pos, mlp: r.mlp === true, norm: r.norm === true, formed: r.formed === true };
    for (const k of ["layers", "heads", "lr", "seed", "steps", "best_induction"]) row[k] = num(r[k]);
    for (const k of ["best_previous_token", "seconds", "formed_at_step"]) row[k] = num(r[k]);
    const needed = ["layers", "heads", "lr", "seed", "steps", "best_induction"];
    return needed.some((k) => row[k] == null) ? null : row;
  }
  function load2() {
    try {
      const rows = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(rows) ? rows.map(clean2).filter(Boolean).slice(-KEEP) : [];
    } catch {
      return [];
    }
  }
  function save(rows) {
    try {
      localStorage.setItem(KEY, JSON.stringify(rows.slice(-KEEP)));
    } catch {
    }
  }
  var pct = (v) => v == null ? "–" : Math.round(v * 100) + "%";
  function cells(r) {
    const formed = r.formed ? el("strong", {}, WORDS3.yes.replace("{step}", String(r.formed_at_step))) : WORDS3.no;
    return [
      `${r.layers} × ${r.heads}`,
      r.pos,
      r.mlp ? "yes" : "no",
      r.norm ? "yes" : "no",
      String(r.lr),
      String(r.seed),
      String(r.steps),
      formed,
      pct(r.best_induction),
      pct(r.best_previous_token),
      r.seconds == null ? "–" : r.seconds.toFixed(0) + " s"
    ];
  }
  function makeTable() {
    let rows = load2();
    const body = el("tbody");
    const headings = [...WORDS3.headings, "time here"].map((h) => el("th", { scope: "col" }, h));
    const table = el(
      "table",
      { className: "ae-lab-table" },
      el("thead", {}, el("tr", {}, ...headings)),
      body
    );
    const empty = el("p", { className: "ae-muted" }, WORDS3.empty);
    const element = el("div", { className: "ae-lab-table-box", id: "lab-table" }, empty, table);
    function render() {
      empty.hidden = rows.length > 0;
      table.hidden = rows.length === 0;
      body.replaceChildren(
        ...[...rows].reverse().map((r) => el("tr", {}, ...cells(r).map((c) => el("td", {}, c))))
      );
    }
    function add(summary2) {
      const s = summary2.settings;
      const row = clean2({
        ...s,
        steps: summary2.steps,
        formed: summary2.formed,
        formed_at_step: summary2.formed_at_step,
        best_induction: summary2.best_induction,
        best_previous_token: summary2.best_previous_token,
        seconds: summary2.wall_s
      });
      if (!row) return;
      rows = [...load2(), row].slice(-KEEP);
      save(rows);
      render();
    }
    render();
    return { element, add, rows: () => rows };
  }

  // static/site/fig_lab.js
  var WORDS4 = CONFIG.lab;
  var HEADS = 2;
  var pct2 = (v) => Math.round(v * 100) + "%";
  var fill3 = (template, values) => template.replace(/\{(\w+)\}/g, (m, k) => k in values ? String(values[k]) : m);
  function bestOf(scores) {
    let at = [0, 0, -Infinity];
    scores.forEach((row, l) => row.forEach((v, h) => v > at[2] && (at = [l, h, v])));
    return at;
  }
  function statusHtml(last2, layers, state3, summary2 = null) {
    const [l, h, score] = bestOf(last2.induction), [pl, ph, ps] = bestOf(last2.previous_token);
    let text = fill3(WORDS4.status[layers], {
      step: last2.step,
      seconds: last2.seconds.toFixed(1),
      lossCopy: last2.loss_copy.toFixed(2),
      lossFresh: last2.loss_fresh.toFixed(2),
      layer: l,
      head: h,
      score: pct2(score),
      pLayer: pl,
      pHead: ph,
      pScore: pct2(ps)
    });
    if (last2.formed_at_step != null)
      text = fill3(WORDS4.formed, { formed: last2.formed_at_step }) + text;
    if (state3 === "stopped") text = WORDS4.stopped + text;
    else if (state3 === "done" && summary2 && !summary2.formed) {
      text += fill3(WORDS4.noHead[layers], { steps: summary2.steps });
    }
    return text;
  }
  function numberBox(id, [low, high], value) {
    return el("input", { type: "number", id, min: low, max: high, step: 1, value, required: true });
  }
  function settingsBox() {
    const [low, high] = WORDS4.choices.steps;
    const layers = WORDS4.choices.layers.map(
      (n) => el("label", {}, el("input", { type: "radio", name: "lab-layers", value: n }), " " + n)
    );
    const boxes = {
      seed: numberBox("lab-seed", WORDS4.choices.seed, 0),
      steps: numberBox("lab-steps", [low, high], WORDS4.choices.defaultSteps),
      train: el("button", { type: "button", id: "lab-train", className: "ae-primary" }, "Train"),
      stop: el("button", { type: "button", id: "lab-stop", disabled: true }, "Stop")
    };
    const element = el(
      "div",
      { className: "ae-lab-settings" },
      el("fieldset", { id: "lab-layers" }, el("legend", {}, "Layers"), ...layers),
      el("label", {}, "Seed ", boxes.seed),
      el("label", {}, "Training steps ", boxes.steps),
      el("span", { className: "ae-lab-buttons" }, boxes.train, boxes.stop)
    );
    return { element, ...boxes };
  }
  function chosenLayers(box2) {
    const checked2 = box2.element.querySelector("input[name=lab-layers]:checked");
    return Number(checked2 && checked2.value) || 2;
  }
  function readSettings(box2) {
    const layers = chosenLayers(box2);
    const seed = Number(box2.seed.value), steps = Number(box2.steps.value);
    const [low, high] = WORDS4.choices.steps, [s0, s1] = WORDS4.choices.seed;
    if (!WORDS4.choices.layers.includes(layers)) return "Choose 1 or 2 layers.";
    if (!Number.isInteger(seed) || seed < s0 || seed > s1)
      return `The seed is a whole number from ${s0} to ${s1}.`;
    if (!Number.isInteger(steps) || steps < low || steps > high) {
      return `Training steps: a whole number from ${low} to ${high}.`;
    }
    return { layers, heads: HEADS, seed, steps };
  }
  function makeView(parts, record2) {
    const { box: box2, status, chart, heads } = parts;
    const run = { state: "ready", events: [], last: null, settings: null, summary: null };
    let pending = false;
    function draw4() {
      pending = false;
      const s = run.settings || { layers: chosenLayers(box2), steps: Number(box2.steps.value) };
      const formedAt = run.last ? run.last.formed_at_step : null;
      chart.draw(run.events, { steps: s.steps, layers: s.layers, heads: HEADS, formedAt });
      if (run.last) {
        status.innerHTML = statusHtml(run.last, s.layers, run.state, run.summary);
        heads.draw(run.last, s.layers, HEADS);
      }
      const { state: state3, events, summary: summary2 } = run;
      const step = run.last && run.last.step;
      record2({ ok: state3 !== "failed", state: state3, events: events.length, step, formedAt, summary: summary2 });
    }
    const later = () => {
      if (!pending) requestAnimationFrame(draw4);
      pending = true;
    };
    function onEvent(e) {
      if (e.kind === "done") {
        run.summary = e;
        run.state = e.stopped ? "stopped" : "done";
        if (!e.stopped) parts.table.add(e);
      } else {
        const { probe, ...point2 } = e;
        run.events.push(point2);
        run.last = probe ? e : point2;
      }
      later();
    }
    return { run, draw: draw4, later, onEvent };
  }
  function wireButtons(parts, view, record2) {
    const { box: box2, status, heads } = parts;
    let controller = null;
    async function start() {
      const settings = readSettings(box2);
      if (typeof settings === "string") {
        status.textContent = warning(settings);
        return;
      }
      controller = new AbortController();
      Object.assign(view.run, { state: "running", events: [], last: null, settings, summary: null });
      heads.clear();
      status.textContent = "⏳ …";
      box2.train.disabled = true;
      box2.stop.disabled = false;
      view.later();
      try {
        await train(settings, { onEvent: view.onEvent, signal: controller.signal, withProbe: true });
      } catch (err) {
        view.run.state = "failed";
        status.textContent = FROM_FILE ? SERVE_FOLDER : warning(err.message);
        record2({ ok: false, state: "failed", error: err.message });
      } finally {
        controller = null;
        box2.train.disabled = false;
        box2.stop.disabled = true;
      }
    }
    box2.train.addEventListener("click", start);
    box2.stop.addEventListener("click", () => controller && controller.abort());
    box2.element.addEventListener("change", () => !controller && !view.run.last && view.draw());
    return { running: () => !!controller };
  }
  function make3(holder, { record: record2, step }) {
    const parts = {
      box: settingsBox(),
      status: el("p", { id: "lab-status", className: "ae-lab-status", "aria-live": "polite" }),
      chart: makeChart(),
      heads: makeHeads(),
      table: makeTable()
    };
    const element = el(
      "div",
      { className: "ae-figure ae-lab", id: "lab-figure" },
      el("p", { className: "ae-lab-where" }, WORDS4.where),
      parts.box.element,
      parts.status,
      // side by side where the screen is wide enough (site.css)
      el("div", { className: "ae-lab-views" }, parts.chart.element, parts.heads.element),
      parts.table.element
    );
    holder.appendChild(element);
    const view = makeView(parts, record2);
    const buttons = wireButtons(parts, view, record2);
    function show2() {
      if (buttons.running()) return;
      const own = step() && step().own || {};
      const layers = String(own.layers || 2);
      for (const r of parts.box.element.querySelectorAll("input[name=lab-layers]")) {
        r.checked = r.value === layers;
      }
      if (!view.run.last) parts.status.innerHTML = WORDS4.ready;
      view.draw();
    }
    return { element, update: () => {
    }, show: show2 };
  }

  // static/site/fig_losses.js
  var { mask, scaling, temperature } = CONFIG.defaults;
  var AS_TRAINED = { mask, scaling, temperature };
  function make4(holder, { engineKnobs: engineKnobs2, record: record2 }) {
    const intro = el("p", {});
    const list = el("ol", { id: "losses", className: "ae-losses" });
    const element = el("div", { className: "ae-figure", id: "losses-figure" }, intro, list);
    holder.appendChild(element);
    function row(what, loss) {
      return el("li", {}, what + ": ", el("strong", {}, loss == null ? "–" : loss.toFixed(2)));
    }
    async function update2(ctx) {
      try {
        const now2 = await engineKnobs2(ctx, { headsOff: ctx.headsOff });
        const trainedCtx = { ...ctx, knobs: { ...ctx.knobs, ...AS_TRAINED } };
        const trained = await engineKnobs2(trainedCtx);
        const large2 = [now2.layer, now2.head];
        const text = ctx.knobs.text;
        const [a, b, c] = [
          await engine.loss(text, trained),
          await engine.loss(text, now2),
          await engine.loss(text, { ...now2, heads_off: [...now2.heads_off, large2] })
        ];
        if (!ctx.fresh()) return;
        intro.textContent = a.loss == null ? warning(a.how) : `This sentence's loss (${a.how}; lower = easier to guess):`;
        list.replaceChildren(
          row("as trained", a.loss),
          row(`with the knobs now (causal mask: ${ctx.knobs.mask})`, b.loss),
          row(`and the large head, L${large2[0]} H${large2[1]}, off too`, c.loss)
        );
        record2({ ok: true, trained: a.loss, now: b.loss, largeOff: c.loss, large: large2 });
      } catch (e) {
        if (!ctx.fresh()) return;
        intro.textContent = warning(e.message);
        list.replaceChildren();
        record2({ ok: false, error: e.message });
      }
    }
    return { element, update: update2 };
  }

  // static/site/fig_patch.js
  var COLOURS = palette(colors.scale);
  var GUESSES = 5;
  function cell(share, l, h, chosen, choose) {
    const v = Math.round(Math.min(Math.max(share, 0), 1) * 100);
    const [r, g2, b] = [0, 1, 2].map((i) => COLOURS[v * 3 + i]);
    const light = 0.2126 * r + 0.7152 * g2 + 0.0722 * b > 140;
    const button = el(
      "button",
      {
        type: "button",
        "aria-pressed": String(chosen),
        "aria-label": `L${l} H${h}: ${percent(share)}`
      },
      percent(share)
    );
    button.style.background = `rgb(${r}, ${g2}, ${b})`;
    button.style.color = light ? "#111" : "#fff";
    button.addEventListener("click", () => choose(l, h));
    return el("td", { "data-head": l + "," + h }, button);
  }
  function heatmap(r, choose) {
    const heads = r.heads[0].length;
    const top = el(
      "tr",
      {},
      el("th", {}),
      ...Array.from({ length: heads }, (_, h) => el("th", {}, "H" + h))
    );
    const rows = r.heads.map(
      (row, l) => el(
        "tr",
        {},
        el("th", {}, "L" + l),
        ...row.map(
          (share, h) => cell(share, l, h, r.patched.layer === l && r.patched.head === h, choose)
        )
      )
    );
    return el("table", { className: "ae-heatmap" }, el("thead", {}, top), el("tbody", {}, ...rows));
  }
  function guessRows(r) {
    return r.guesses.slice(0, GUESSES).map(
      (g2) => el(
        "li",
        {},
        el("span", { className: "ae-token" }, "“" + payload.displayToken(g2.token) + "”"),
        el(
          "span",
          { className: "ae-nums" },
          percent(g2.corrupted),
          " → ",
          el("strong", {}, percent(g2.patched))
        )
      )
    );
  }
  function build3(holder) {
    const box2 = el("textarea", { id: "corrupt-box", rows: 2, maxLength: 1e4, spellcheck: false });
    const label3 = el("label", { htmlFor: "corrupt-box" }, "The copy, one word changed");
    const parts = {
      box: box2,
      pair: el("div", { id: "patch-pair" }, label3, box2),
      status: el("p", { id: "patch-status", className: "ae-muted" }),
      heads: el("div", { id: "patch-heads" }),
      reading: el("p", { id: "patch-reading" }),
      guessTitle: el("h3", {}),
      guessList: el("ol", { className: "ae-guess-rows ae-no-bars" })
    };
    parts.guesses = el("div", { id: "patch-guesses" }, parts.guessTitle, parts.guessList);
    const { pair, status, heads, reading, guesses } = parts;
    parts.element = el(
      "div",
      { className: "ae-figure", id: "patch-figure" },
      pair,
      status,
      heads,
      reading,
      guesses
    );
    holder.appendChild(parts.element);
    return parts;
  }
  function draw2(parts, r, choose) {
    const show2 = payload.displayToken;
    parts.status.textContent = `The guess for your sentence is “${show2(r.answerToken)}”; for the copy the competitor is “${show2(r.wrongToken)}”.`;
    const shares = r.heads != null;
    parts.heads.replaceChildren(...shares ? [heatmap(r, choose)] : []);
    parts.reading.textContent = shares ? patchReading(r, show2) : noShares(r, show2);
    parts.guesses.hidden = !shares;
    if (!shares) return;
    const { layer, head } = r.patched;
    parts.guessTitle.textContent = `Guesses: the copy → with L${layer} H${head} patched`;
    parts.guessList.replaceChildren(...guessRows(r));
  }
  function failed2(parts, e) {
    parts.heads.replaceChildren();
    parts.status.textContent = warning(e.message);
    parts.reading.textContent = "";
    parts.guesses.hidden = true;
  }
  function make5(holder, { engineKnobs: engineKnobs2, record: record2, step, kick: kick2 }) {
    const parts = build3(holder);
    let chosen = null;
    parts.box.addEventListener("input", () => (chosen = null, kick2()));
    const choose = (layer, head) => (chosen = { layer, head }, kick2());
    async function update2(ctx) {
      try {
        const k = await engineKnobs2(ctx);
        if (chosen && chosen.head >= Number(ctx.knobs.heads)) chosen = null;
        const r = await engine.patch(ctx.knobs.text, parts.box.value, { ...k, patchHead: chosen });
        if (!ctx.fresh()) return;
        draw2(parts, r, choose);
        const { heads, patched, guesses, answerToken: answer, wrongToken: wrong } = r;
        record2({ ok: true, heads, patched, guesses, answer, wrong });
      } catch (e) {
        if (!ctx.fresh()) return;
        failed2(parts, e);
        record2({ ok: false, error: e.message });
      }
    }
    function show2() {
      parts.box.value = step() && step().own.corrupt || parts.box.value;
      chosen = null;
      $("sentence-label").textContent = "Your sentence";
    }
    const hide = () => $("sentence-label").textContent = "Sentence";
    return { element: parts.element, update: update2, key: () => [parts.box.value, chosen], show: show2, hide };
  }

  // static/site/fig_shuffle.js
  function panel2(id, title) {
    const holder = el("div", { className: "ae-panel", id }, el("h3", {}, title));
    return { holder, grid: mountGrid(holder, "head") };
  }
  function build4(holder) {
    const parts = {
      order: el("p", { id: "pe-shuffle-order" }),
      diff: panel2("pe-shuffle-difference", "Difference"),
      original: panel2("pe-shuffle-original", "Your sentence"),
      shuffled: panel2("pe-shuffle-shuffled", "Words shuffled"),
      summary: el("div", { id: "pe-shuffle-summary" })
    };
    const { order, diff, original, shuffled, summary: summary2 } = parts;
    parts.panels = el(
      "div",
      { className: "ae-panels" },
      diff.holder,
      original.holder,
      shuffled.holder
    );
    parts.element = el(
      "div",
      { className: "ae-figure", id: "shuffle-figure" },
      order,
      parts.panels,
      summary2
    );
    holder.appendChild(parts.element);
    return parts;
  }
  function drawPanels({ order, diff, original, shuffled }, r) {
    const at = [r.layer, r.head], where = `layer ${r.layer}, head ${r.head}, mask off`;
    const gap = r.original.map((row, q) => row.map((v, k) => Math.abs(v - r.restored[q][k])));
    const largest = Math.max(0, ...gap.flat());
    const what = "Your sentence − shuffled (put back in your order), its size; largest ";
    diff.grid.draw(matrixPayload(gap, r.tokens, at, what + plainNumber(largest)));
    original.grid.draw(matrixPayload(r.original, r.tokens, at, "As typed · " + where));
    const read = "The same words in a new order, as the model read them";
    shuffled.grid.draw(matrixPayload(r.shuffled, r.shuffledTokens, at, read));
    order.textContent = "Shuffled: " + shuffledWords(r);
  }
  function draw3(parts, r) {
    parts.panels.hidden = !r.perm;
    if (r.perm) drawPanels(parts, r);
    else parts.order.textContent = "";
    const lines = shuffleReading(CONFIG.shuffleWords, r);
    parts.summary.replaceChildren(...lines.filter(Boolean).map((t) => el("p", {}, t)));
  }
  function make6(holder, { engineKnobs: engineKnobs2, record: record2 }) {
    const parts = build4(holder);
    async function update2(ctx) {
      try {
        const k = await engineKnobs2(ctx);
        const r = await engine.shuffle(ctx.knobs.text, { ...k, seed: 0 });
        if (!ctx.fresh()) return;
        draw3(parts, r);
        const { perm, layer, head, maxDiffHead, maxDiffAll, topChanged, shuffledTokens } = r;
        record2({ ok: true, perm, layer, head, maxDiffHead, maxDiffAll, topChanged, shuffledTokens });
      } catch (e) {
        if (!ctx.fresh()) return;
        parts.panels.hidden = true;
        parts.order.textContent = "";
        parts.summary.replaceChildren(el("p", {}, warning(e.message)));
        record2({ ok: false, error: e.message });
      }
    }
    return { element: parts.element, update: update2 };
  }

  // static/site/snapshot_chart.js
  var W2 = 640;
  var LEFT = 52;
  var RIGHT = 14;
  var UPPER = [16, 104];
  var LOWER = [150, 262];
  var COPY_COLOR = "#d97706";
  function label2(x, y, text, anchor = "end") {
    const style2 = { fill: "var(--muted)", fontSize: "15px" };
    return svgEl("text", { x, y, "text-anchor": anchor, style: style2 }, text);
  }
  function tokensLabel(v) {
    if (v >= 1e6) return v / 1e6 + "M";
    if (v >= 1e3) return v / 1e3 + "k";
    return String(v);
  }
  function xScale(snapshots) {
    const logs = snapshots.map((s) => Math.log10(Math.max(s.tokens, 1)));
    const lo = Math.min(...logs), hi = Math.max(...logs);
    const span = hi - lo || 1;
    const x = (tokens) => LEFT + (Math.log10(Math.max(tokens, 1)) - lo) / span * (W2 - LEFT - RIGHT);
    return { x, lo, hi };
  }
  function axes(g2, { x, lo, hi }, lossRange) {
    const line2 = { stroke: "var(--line)", strokeWidth: "1" };
    for (const [top, bottom] of [UPPER, LOWER]) {
      g2.append(svgEl("line", { x1: LEFT, x2: W2 - RIGHT, y1: bottom, y2: bottom, style: line2 }));
      g2.append(svgEl("line", { x1: LEFT, x2: LEFT, y1: top, y2: bottom, style: line2 }));
    }
    for (let p = Math.ceil(lo); p <= Math.floor(hi); p++) {
      g2.append(label2(x(10 ** p), LOWER[1] + 16, tokensLabel(10 ** p), "middle"));
    }
    g2.append(label2((LEFT + W2 - RIGHT) / 2, LOWER[1] + 38, "training tokens seen", "middle"));
    for (const v of [0, 0.5, 1]) {
      const y = LOWER[1] - v * (LOWER[1] - LOWER[0]);
      g2.append(label2(LEFT - 6, y + 4, Math.round(v * 100) + "%"));
    }
    const [a, b] = lossRange;
    g2.append(label2(LEFT - 6, UPPER[0] + 4, b.toFixed(1)));
    g2.append(label2(LEFT - 6, UPPER[1] + 4, a.toFixed(1)));
    g2.append(label2(LEFT, UPPER[0] - 4, "Loss (training)", "start"));
    g2.append(label2(LEFT, LOWER[0] - 6, "Best head's weight", "start"));
  }
  function curve(g2, xs, ys, upto, color, dash, name) {
    const points2 = [];
    for (let i = 0; i <= upto; i++) if (ys[i] != null) points2.push([xs[i], ys[i], i]);
    if (!points2.length) return 0;
    const style2 = { stroke: color, strokeWidth: "2.5", fill: "none" };
    if (dash) style2.strokeDasharray = dash;
    g2.append(
      svgEl("polyline", { points: points2.map((p) => p.slice(0, 2).join(",")).join(" "), style: style2 })
    );
    for (const [x, y, i] of points2) {
      const r = i === upto ? 5.5 : 3.5;
      g2.append(svgEl("circle", { cx: x, cy: y, r, "data-curve": name, style: { fill: color } }));
    }
    return points2.length;
  }
  function makeChart2() {
    const element = svgEl("svg", {
      id: "snapshot-chart",
      viewBox: `0 0 ${W2} ${LOWER[1] + 46}`,
      role: "img",
      style: { width: "100%", maxWidth: W2 + "px", height: "auto", display: "block" }
    });
    const title = svgEl("title");
    function draw4({ snapshots, current: current2, prev, copy, baseline }) {
      const scale = xScale(snapshots);
      const losses = snapshots.map((s) => s.train_loss).filter((v) => v != null);
      const lossRange = [Math.floor(Math.min(...losses, 0)), Math.ceil(Math.max(...losses, 1))];
      const g2 = svgEl("g");
      axes(g2, scale, lossRange);
      const xs = snapshots.map((s) => scale.x(s.tokens));
      const yLoss = (v) => v == null ? null : UPPER[1] - (v - lossRange[0]) / (lossRange[1] - lossRange[0]) * 88;
      const yWeight = (v) => v == null ? null : LOWER[1] - v * (LOWER[1] - LOWER[0]);
      const here = { stroke: "var(--accent)", strokeWidth: "1.5", strokeDasharray: "2 3" };
      g2.append(
        svgEl("line", { x1: xs[current2], x2: xs[current2], y1: UPPER[0], y2: LOWER[1], style: here })
      );
      const even = { stroke: "var(--muted)", strokeWidth: "1.5", strokeDasharray: "8 5" };
      const yb = yWeight(baseline);
      g2.append(
        svgEl("line", { x1: LEFT, x2: W2 - RIGHT, y1: yb, y2: yb, "data-curve": "even", style: even })
      );
      curve(
        g2,
        xs,
        snapshots.map((s) => yLoss(s.train_loss)),
        current2,
        "var(--fg)",
        null,
        "loss"
      );
      const drawn = {
        prev: curve(g2, xs, prev.map(yWeight), current2, "var(--accent)", null, "prev"),
        copy: copy ? curve(g2, xs, copy.map(yWeight), current2, COPY_COLOR, "2 5", "copy") : 0
      };
      title.textContent = "Training loss above; below, the best head's share on the previous word (solid) and its weight on the copy (dotted), up to the chosen snapshot.";
      element.replaceChildren(title, g2);
      return drawn;
    }
    return { element, draw: draw4, copyColor: COPY_COLOR };
  }

  // static/site/fig_snapshots.js
  var { model: MODEL2, list: SNAPSHOTS } = CONFIG.snapshots;
  var MODEL_KNOBS = ["objective", "heads", "pos"];
  var number = (v) => Number(v).toLocaleString("en-US");
  function snapshotWords(i) {
    const n = SNAPSHOTS.length;
    return n > 1 ? `Snapshot ${i} (0 = first, ${n - 1} = last)` : `Snapshot ${i}`;
  }
  function statusLine(i) {
    const s = SNAPSHOTS[i];
    const loss = s.train_loss == null ? "" : ` · training loss ${s.train_loss.toFixed(2)}`;
    return `${snapshotWords(i)} of ${MODEL2}: step ${number(s.step)} · ${number(s.tokens)} training tokens seen${loss}`;
  }
  function previousLine(r) {
    const p = r.previous;
    return `Most previous-token-like head now: L${p.layer} H${p.head}, ${percent(p.share)} of its attention on the word just before (spreading evenly would give ${percent(r.baseline)}).`;
  }
  function copyLine(r) {
    if (!r.copy) return "Copying: this sentence is too short or too long to be said twice here.";
    const c = r.copy;
    return `Copying now: on your sentence said twice, the best head, L${c.layer} H${c.head}, puts ${percent(c.score)} of its attention on the word that came next last time.`;
  }
  function summary(prev, copy) {
    const rise = (ys) => {
      const top = Math.max(...ys.filter((v) => v != null));
      const i = ys.findIndex((v) => v != null && v >= top / 2);
      return `reaches half of its highest (${percent(top)}) at step ${number(SNAPSHOTS[i].step)}`;
    };
    return `Across all ${SNAPSHOTS.length} snapshots: the solid previous-word curve ${rise(prev)}; the dotted copy curve ${copy ? rise(copy) : "has no value for this sentence"}.`;
  }
  function build5(holder) {
    const slider = el("input", {
      type: "range",
      id: "snapshot-slider",
      min: "0",
      max: String(Math.max(SNAPSHOTS.length - 1, 0)),
      step: "1",
      value: "0",
      style: "width: min(100%, 28rem); vertical-align: middle"
    });
    const parts = {
      slider,
      status: el("p", { id: "snapshot-status" }),
      previous: el("p", { id: "snapshot-previous" }),
      copy: el("p", { id: "snapshot-copy" }),
      gridBox: el("div", { className: "ae-panel", id: "snapshot-grid" }),
      chart: makeChart2(),
      summary: el("p", { id: "snapshots-summary" }),
      note: el("p", { className: "ae-muted" })
    };
    const swatch = (color, line2) => el("span", { style: `color:${color};font-weight:700` }, line2);
    const legend = el(
      "p",
      { className: "ae-muted", id: "snapshot-legend" },
      swatch("var(--accent)", "━ "),
      "previous word: the best head's share on the word just before · ",
      swatch(parts.chart.copyColor, "┅ "),
      "copy: the best head's weight on the word that came next, the sentence said twice · ",
      swatch("var(--muted)", "╌ "),
      "spreading evenly"
    );
    parts.element = el(
      "div",
      { className: "ae-figure", id: "snapshots-figure" },
      el("label", { htmlFor: "snapshot-slider" }, "Training snapshot "),
      slider,
      parts.status,
      parts.previous,
      parts.copy,
      el("h3", {}, "Across training"),
      parts.chart.element,
      legend,
      parts.summary,
      parts.note,
      el("h3", {}, "Every head at this snapshot"),
      parts.gridBox
    );
    holder.appendChild(parts.element);
    parts.grid = mountGrid(parts.gridBox, "explore");
    return parts;
  }
  async function drawAll(parts, ctx, i, scores) {
    const defaults = Object.fromEntries(MODEL_KNOBS.map((k2) => [k2, CONFIG.defaults[k2]]));
    const mine = { ...ctx, knobs: { ...ctx.knobs, ...defaults } };
    const { text, ...controls } = mine.knobs;
    const k = await parts.engineKnobs(mine);
    const now2 = await scores(text, k, i);
    const opts = { colors, theme, fetch: true, snapshot: SNAPSHOTS[i].file };
    const p = await gridPayload(text, controls, opts);
    if (!p || !p.ok) throw new Error(p && p.caption || "The browser cannot compute this view.");
    if (!ctx.fresh()) return null;
    parts.status.textContent = statusLine(i);
    parts.previous.textContent = previousLine(now2);
    parts.copy.textContent = copyLine(now2);
    parts.grid.draw(p);
    const all = [];
    for (let j = 0; j < SNAPSHOTS.length; j++) all.push(await scores(text, k, j));
    if (!ctx.fresh()) return null;
    const prev = all.map((r) => r.previous.share);
    const copy = now2.copy ? all.map((r) => r.copy ? r.copy.score : null) : null;
    const { baseline } = now2;
    const points2 = parts.chart.draw({ snapshots: SNAPSHOTS, current: i, prev, copy, baseline });
    parts.summary.textContent = summary(prev, copy);
    const others = MODEL_KNOBS.some((key) => ctx.knobs[key] !== CONFIG.defaults[key]);
    parts.note.textContent = others ? `ℹ️ Training snapshots exist for ${MODEL2} only: this figure shows it, whatever the Model / Heads / Positional knobs say.` : "";
    const step = SNAPSHOTS[i].step;
    return {
      index: i,
      step,
      previous: now2.previous,
      copy: now2.copy,
      baseline,
      prev,
      copyTrend: copy,
      points: points2
    };
  }
  function make7(holder, { engineKnobs: engineKnobs2, record: record2, kick: kick2 }) {
    const parts = { ...build5(holder), engineKnobs: engineKnobs2 };
    let index = 0;
    const cache = /* @__PURE__ */ new Map();
    function setSlider(i) {
      index = i;
      parts.slider.value = String(i);
      const s = SNAPSHOTS[i];
      const said2 = `${snapshotWords(i)}: step ${number(s.step)}, ${number(s.tokens)} tokens seen`;
      parts.slider.setAttribute("aria-valuetext", said2);
      parts.status.textContent = statusLine(i);
    }
    parts.slider.addEventListener("input", () => {
      setSlider(Number(parts.slider.value));
      kick2();
    });
    async function scores(text, k, i) {
      const file = SNAPSHOTS[i].file;
      const key = JSON.stringify([text, k.causal, k.scale, k.temperature, file]);
      if (!cache.has(key)) cache.set(key, await engine.snapshot(text, { ...k, snapshot: file }));
      return cache.get(key);
    }
    async function update2(ctx) {
      if (!SNAPSHOTS.length) {
        parts.status.textContent = warning("This copy of the page has no training snapshots.");
        record2({ ok: false, error: "no snapshots" });
        return;
      }
      try {
        const numbers = await drawAll(parts, ctx, index, scores);
        if (numbers) record2({ ok: true, ...numbers });
      } catch (e) {
        if (!ctx.fresh()) return;
        parts.previous.textContent = warning(e.message);
        parts.copy.textContent = "";
        record2({ ok: false, error: e.message });
      }
    }
    return {
      element: parts.element,
      update: update2,
      key: () => index,
      // a step starts at the first snapshot, almost untrained (start_here.py's own)
      show: () => SNAPSHOTS.length && setSlider(0)
    };
  }

  // static/site/figures.js
  var MAKERS = { ablate: make, compare: make2, lab: make3, losses: make4, patch: make5, shuffle: make6, snapshots: make7 };
  var made = {};
  var shown = {};
  AE.site = { shown };
  function record(kind, numbers) {
    shown[kind] = { drawn: (shown[kind] && shown[kind].drawn || 0) + 1, ...numbers };
  }
  function figure(kind, holder, tools3) {
    if (!MAKERS[kind]) return null;
    if (!made[kind]) {
      made[kind] = MAKERS[kind](holder, { ...tools3, record: (n) => record(kind, n) });
      made[kind].kind = kind;
    }
    return made[kind];
  }
  function madeFigures() {
    return Object.values(made);
  }

  // static/site/inside_draw.js
  var LABELS_LEFT = 70;
  var KEYS_BELOW = 56;
  var AXIS_BELOW = 18;
  var MAX_SQUARE = 360;
  var MIN_LABELLED = 9;
  var BLOCKED_TEXT_CELL = 20;
  var BLOCKED_TEXT_ROWS = 14;
  function stageRange(stage) {
    if (stage.key === "pattern") return [0, 1];
    let peak = 0;
    for (const v of stage.values) if (Number.isFinite(v) && Math.abs(v) > peak) peak = Math.abs(v);
    if (!(peak > 0)) peak = 1;
    return [-peak, peak];
  }
  function stageLayout(stage, width) {
    const [rows, cols] = stage.shape;
    const left = LABELS_LEFT, top = 2, right = 4;
    const room = Math.max(cols, width - left - right);
    let cw, ch, bottom;
    if (stage.square) {
      cw = ch = Math.min(room, MAX_SQUARE) / cols;
      bottom = KEYS_BELOW;
    } else {
      cw = room / cols;
      ch = Math.min(16, Math.max(10, 240 / Math.max(rows, 1)));
      bottom = AXIS_BELOW;
    }
    const height = Math.ceil(top + rows * ch + bottom);
    return {
      left,
      top,
      cw,
      ch,
      rows,
      cols,
      width: Math.ceil(left + cols * cw + right),
      height,
      labels: ch >= MIN_LABELLED
    };
  }
  function cellAt(g2, x, y) {
    const col = Math.floor((x - g2.left) / g2.cw), row = Math.floor((y - g2.top) / g2.ch);
    if (row < 0 || col < 0 || row >= g2.rows || col >= g2.cols) return null;
    return [row, col];
  }
  function valueName(stage) {
    if (stage.key === "pattern") return "weight";
    return stage.square ? "score" : "value";
  }
  function cellWords(stage, tokens, row, col, minusInf = "−∞") {
    const quoted2 = (i) => tokens[i] == null ? "" : " “" + tokens[i] + "”";
    const place = stage.square ? `query ${row}${quoted2(row)} · key ${col}${quoted2(col)}` : `token ${row}${quoted2(row)} · dimension ${col} (${stage.dims[1]})`;
    if (stage.blocked && stage.blocked[row][col]) {
      return `${place} · masked: ${stage.key === "pattern" ? "0" : minusInf}`;
    }
    const v = stage.values[row * stage.shape[1] + col];
    return `${place} · ${valueName(stage)} ${v.toFixed(4)}`;
  }
  function colourList(scale) {
    const p = palette(scale), out = [];
    for (let i = 0; i <= 100; i++) out.push(`rgb(${p[i * 3]},${p[i * 3 + 1]},${p[i * 3 + 2]})`);
    return out;
  }
  function drawCells(ctx, stage, g2, colours) {
    const list = colourList(stage.key === "pattern" ? colours.scale : colours.diverging);
    const [lo, hi] = stageRange(stage);
    const xs = (c) => Math.round(g2.left + c * g2.cw), ys = (r) => Math.round(g2.top + r * g2.ch);
    const text = stage.key === "pattern" ? "0" : colours.minusInf;
    const big2 = g2.cw >= BLOCKED_TEXT_CELL && g2.cols <= BLOCKED_TEXT_ROWS;
    ctx.font = "11px " + FONT;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (let r = 0; r < g2.rows; r++) {
      for (let c = 0; c < g2.cols; c++) {
        const x = xs(c), y = ys(r), w = xs(c + 1) - x, h = ys(r + 1) - y;
        if (stage.blocked && stage.blocked[r][c]) {
          ctx.fillStyle = colours.masked;
          ctx.fillRect(x, y, w, h);
          if (big2) {
            ctx.fillStyle = colours.font;
            ctx.fillText(text, x + w / 2, y + h / 2);
          }
          continue;
        }
        const t = (stage.values[r * g2.cols + c] - lo) / (hi - lo);
        ctx.fillStyle = list[Math.round(Math.min(1, Math.max(0, t)) * 100)];
        ctx.fillRect(x, y, w, h);
      }
    }
  }
  function drawAxes(ctx, stage, tokens, g2, colours) {
    ctx.fillStyle = colours.font;
    ctx.font = Math.max(9, Math.min(12, Math.floor(g2.ch * 0.85))) + "px " + FONT;
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    if (g2.labels) {
      for (let r = 0; r < g2.rows; r++) {
        ctx.fillText(tokens[r] || String(r), g2.left - 4, g2.top + (r + 0.5) * g2.ch, g2.left - 6);
      }
    }
    const bottom = g2.top + g2.rows * g2.ch + 4;
    if (stage.square) {
      if (g2.cw < MIN_LABELLED) return;
      for (let c = 0; c < g2.cols; c++) {
        ctx.save();
        ctx.translate(g2.left + (c + 0.5) * g2.cw, bottom);
        ctx.rotate(-Math.PI / 3);
        ctx.fillText(tokens[c] || String(c), 0, 0, KEYS_BELOW);
        ctx.restore();
      }
      return;
    }
    ctx.font = "10px " + FONT;
    ctx.fillStyle = colours.muted;
    ctx.textBaseline = "top";
    ctx.textAlign = "left";
    ctx.fillText("0", g2.left, bottom - 2);
    ctx.textAlign = "right";
    ctx.fillText(String(g2.cols - 1), g2.left + g2.cols * g2.cw, bottom - 2);
    ctx.textAlign = "center";
    ctx.fillText(`dimension (${stage.dims[1]})`, g2.left + g2.cols * g2.cw / 2, bottom - 2);
  }
  function drawHeads(ctx, stage, g2, colours) {
    const [a, b] = stage.headColumns, width = b - a, h = g2.rows * g2.ch;
    ctx.save();
    ctx.strokeStyle = colours.font;
    ctx.lineWidth = 1;
    ctx.setLineDash([2, 3]);
    for (let c = width; c < g2.cols; c += width) {
      ctx.beginPath();
      ctx.moveTo(g2.left + c * g2.cw, g2.top);
      ctx.lineTo(g2.left + c * g2.cw, g2.top + h);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.strokeStyle = colours.accent;
    ctx.lineWidth = 3;
    ctx.strokeRect(g2.left + a * g2.cw, g2.top + 1, width * g2.cw, h - 2);
    ctx.restore();
  }
  function drawStage(ctx, stage, tokens, g2, colours) {
    ctx.fillStyle = colours.paper;
    ctx.fillRect(0, 0, g2.width, g2.height);
    drawCells(ctx, stage, g2, colours);
    drawAxes(ctx, stage, tokens, g2, colours);
    if (stage.headColumns) drawHeads(ctx, stage, g2, colours);
  }

  // static/site/inside.js
  var WORDS5 = CONFIG.inside;
  var COLOURS2 = { ...colors, ...WORDS5.colors[theme] };
  var cards = {};
  var groups = [];
  var last = null;
  var tools = null;
  function card(key) {
    const c = {
      title: el("h4", { className: "ae-stage-title" }),
      shape: el("p", { className: "ae-shape" }),
      formula: el("p", { className: "ae-formula" }),
      hook: el("code", {}),
      canvas: el("canvas", { role: "img" }),
      low: el("span", {}),
      high: el("span", {}),
      bar: el("span", { className: "ae-scale-bar" }),
      readout: el("p", { className: "ae-readout" })
    };
    const scale = el("p", { className: "ae-scale" }, "colour ", c.low, c.bar, c.high);
    const hook = el("p", { className: "ae-hook" }, "captured at ", c.hook);
    const box2 = el("div", { className: "ae-stage-canvas" }, c.canvas);
    c.card = el("div", { className: "ae-stage", "data-key": key }, c.title, c.shape, c.formula);
    c.card.append(hook, box2, scale, c.readout);
    for (const type of ["pointermove", "pointerdown"]) {
      c.canvas.addEventListener(type, (ev) => point(c, ev));
    }
    c.canvas.addEventListener("pointerleave", () => c.canvas.title = "");
    cards[key] = c;
    return c.card;
  }
  function point(c, ev) {
    if (!c.stage || !last) return;
    const rect = c.canvas.getBoundingClientRect();
    const k = c.g.width / (rect.width || c.g.width);
    const at = cellAt(c.g, (ev.clientX - rect.left) * k, (ev.clientY - rect.top) * k);
    if (!at) return;
    const words = cellWords(c.stage, last.tokens, at[0], at[1], COLOURS2.minusInf);
    c.readout.textContent = words;
    c.canvas.title = words;
  }
  function picker(id, label3) {
    const select = el("select", { id });
    select.addEventListener("input", () => {
      state2[label3.toLowerCase()] = Number(select.value);
      tools.kick();
    });
    return { select, label: el("label", {}, label3 + " ", select) };
  }
  function build6() {
    const section = $("inside");
    const layer = picker("inside-layer", "Layer"), head = picker("inside-head", "Head");
    const intro = el("p", { id: "inside-intro" });
    intro.innerHTML = WORDS5.intro;
    const status = el("p", { id: "inside-status", className: "ae-where", "aria-live": "polite" });
    const pick = el("div", { className: "ae-knobs", id: "inside-pick" }, layer.label, head.label);
    section.append(el("h2", {}, "Inside one head"), pick, intro, status);
    for (const { heading, keys } of WORDS5.sections) {
      const box2 = el(
        "section",
        { className: "ae-stage-group" },
        el("h3", {}, heading),
        el("div", { className: "ae-stages ae-stages-" + keys.length }, ...keys.map(card))
      );
      groups.push({ box: box2, keys });
      section.appendChild(box2);
    }
  }
  function choices(select, count, value) {
    if (select.options.length !== count) {
      select.textContent = "";
      for (let i = 0; i < count; i++)
        select.appendChild(el("option", { value: String(i) }, String(i)));
    }
    select.value = String(value);
  }
  function paint2() {
    if (!last || $("inside").hidden) return;
    const dpr = window.devicePixelRatio || 1;
    for (const c of Object.values(cards)) {
      if (!c.stage) continue;
      const width = c.canvas.parentElement.clientWidth;
      if (!width) continue;
      const g2 = stageLayout(c.stage, width);
      c.g = g2;
      c.canvas.width = Math.round(g2.width * dpr);
      c.canvas.height = Math.round(g2.height * dpr);
      c.canvas.style.width = g2.width + "px";
      c.canvas.style.height = g2.height + "px";
      const ctx = c.canvas.getContext("2d");
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      drawStage(ctx, c.stage, last.tokens, g2, COLOURS2);
    }
  }
  function fill4(c, stage) {
    c.stage = stage || null;
    c.card.hidden = !stage;
    if (!stage) return;
    c.title.textContent = stage.step + ". " + stage.title;
    c.shape.textContent = stage.shapeText;
    c.formula.textContent = stage.formula;
    c.hook.textContent = stage.hook;
    c.canvas.setAttribute("aria-label", stage.title + ", " + stage.shapeText);
    c.readout.textContent = "";
    const [lo, hi] = stageRange(stage);
    const stops = stage.key === "pattern" ? COLOURS2.scale : COLOURS2.diverging;
    c.low.textContent = number2(lo);
    c.high.textContent = number2(hi);
    c.bar.style.background = "linear-gradient(to right, " + stops.map(([t, hex3]) => `${hex3} ${t * 100}%`).join(", ") + ")";
  }
  function number2(v) {
    return (v === 0 ? "0" : String(Number(v.toPrecision(3)))).replace("-", "−");
  }
  function show(r, model) {
    const d = r.detail, chars = CONFIG.engineTexts.grid_label_chars;
    const tokens = r.tokens.map((t) => payload.plainLabel(t, chars));
    last = { tokens, detail: d };
    state2.layer = d.layer;
    state2.head = d.head;
    choices($("inside-layer"), r.layers, d.layer);
    choices($("inside-head"), r.heads, d.head);
    for (const [key, c] of Object.entries(cards)) fill4(c, d.stages[key]);
    for (const g2 of groups) g2.box.hidden = !g2.keys.some((k) => d.stages[k]);
    const x = d.stages.x;
    $("inside-status").textContent = x ? `${model} · layer ${d.layer}, head ${d.head} · ${r.n} token${r.n === 1 ? "" : "s"} · d_model ${x.shape[1]} · ${r.heads} head${r.heads === 1 ? "" : "s"} × d_head ${x.shape[1] / r.heads}` : "";
    paint2();
    const stages = {};
    for (const [key, s] of Object.entries(d.stages)) {
      stages[key] = { shapeText: s.shapeText, shape: s.shape, geom: cards[key] && cards[key].g };
    }
    record("inside", { ok: true, model, layer: d.layer, head: d.head, tokens, stages });
  }
  function fail(message) {
    last = null;
    $("inside-status").textContent = warning(message);
    for (const c of Object.values(cards)) fill4(c, null);
    for (const g2 of groups) g2.box.hidden = true;
    record("inside", { ok: false, error: message });
  }
  async function update(ctx) {
    let r, k;
    try {
      k = await tools.engineKnobs(ctx, { headsOff: ctx.headsOff });
      r = await engine.runTyped(ctx.knobs.text, { ...k, detail: true });
    } catch (e) {
      if (ctx.fresh()) fail(e && e.message);
      return;
    }
    if (ctx.fresh()) show(r, k.model);
  }
  function open() {
    $("tab-explore").click();
    $("grid-part").hidden = true;
    $("large").hidden = true;
    $("inside").hidden = false;
    $("tab-explore").setAttribute("aria-pressed", "false");
    $("tab-inside").setAttribute("aria-pressed", "true");
    tools.kick();
  }
  function close() {
    $("inside").hidden = true;
    $("tab-inside").setAttribute("aria-pressed", "false");
  }
  function initInside(pageTools) {
    tools = pageTools;
    build6();
    $("tab-inside").addEventListener("click", open);
    for (const id of ["tab-explore", "tab-steps"]) {
      $(id).addEventListener("click", () => {
        if ($("inside").hidden) return;
        close();
        tools.kick();
      });
    }
    let frame2 = 0, width = 0;
    const resized = () => {
      const now2 = $("inside").clientWidth;
      if (now2 === width) return;
      width = now2;
      cancelAnimationFrame(frame2);
      frame2 = requestAnimationFrame(paint2);
    };
    if (window.ResizeObserver) new ResizeObserver(resized).observe($("inside"));
    else window.addEventListener("resize", resized);
    return { active: () => !$("inside").hidden && !$("explore").hidden, update };
  }

  // static/site/step_link.js
  function stepIndex(search, count) {
    const raw = new URLSearchParams(search).get("step");
    if (raw === null || count < 1) return null;
    const n = parseInt(raw.slice(0, 3), 10);
    return Math.min(Math.max(Number.isNaN(n) ? 1 : n, 1), count) - 1;
  }
  function stepQuery(search, index) {
    const params = new URLSearchParams(search);
    params.set("step", String(index + 1));
    return "?" + params.toString();
  }

  // static/site/steps.js
  var LAYOUT = {
    large: { large: true, grid: true },
    losses: { large: true, grid: true },
    ablate: { grid: true, switches: true },
    shuffle: {},
    compare: { grid: true },
    patch: {},
    snapshots: {},
    // Through training: its own slider, grid and chart (fig_snapshots.js)
    lab: { own: true },
    // the figure alone: no sentence, no knobs (the Lab has its own settings)
    app: { explore: false }
  };
  var tools2 = null;
  var current = null;
  var shownFigure = null;
  function currentStep() {
    return current == null ? null : CONFIG.steps[current];
  }
  var figureView = {
    active: () => !!shownFigure && !$("explore").hidden,
    update: (ctx) => shownFigure.update(ctx),
    key: () => shownFigure && shownFigure.key ? shownFigure.key() : null
  };
  function markHidden(hidden) {
    for (const e of document.querySelectorAll("[data-ae-hidden]"))
      e.removeAttribute("data-ae-hidden");
    document.body.classList.remove("ae-revealed");
    for (const selector of hidden) {
      for (const e of document.querySelectorAll(selector)) e.setAttribute("data-ae-hidden", "");
    }
  }
  function placeFigure(kind) {
    if (shownFigure && shownFigure.hide) shownFigure.hide();
    for (const f of madeFigures()) f.element.hidden = true;
    shownFigure = figure(kind, $("step-figure"), { ...tools2, step: currentStep });
    $("step-figure").hidden = !shownFigure;
    if (!shownFigure) return;
    shownFigure.element.hidden = false;
    if (shownFigure.show) shownFigure.show();
  }
  function showText(s, i) {
    $("step").hidden = false;
    $("step-title").textContent = s.title;
    for (const part of ["look", "question", "answer"]) {
      $("step-" + part).innerHTML = s[part];
    }
    $("step-elsewhere").hidden = !s.elsewhere;
    $("step-elsewhere-text").textContent = s.elsewhere;
    $("step-answer").hidden = true;
    $("reveal").hidden = false;
    $("next-step").hidden = i === CONFIG.steps.length - 1;
    const query = stepQuery(location.search, i);
    $("step-link").href = query;
    history.replaceState(null, "", query);
    for (const li of $("step-list").children) {
      const here = li.dataset.i === String(i);
      li.firstChild.setAttribute("aria-current", here ? "step" : "false");
      if (here && li.scrollIntoView) li.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  }
  function showStep(i) {
    const s = CONFIG.steps[i];
    current = i;
    showText(s, i);
    const layout2 = LAYOUT[s.figure];
    $("explore").hidden = layout2.explore === false;
    state2.clickSwitches = !!layout2.switches;
    document.body.classList.toggle("ae-figure-only", !!layout2.own);
    placeFigure(layout2.explore === false ? "app" : s.figure);
    if (layout2.explore !== false) {
      setText(s.text);
      setControls(s.controls);
      clearHeadsOff();
      $("knobs").open = true;
      $("heads-off").open = !!layout2.switches;
      $("grid-part").hidden = !layout2.grid;
      $("large").hidden = true;
    }
    markHidden(s.hidden);
    if (layout2.large) tools2.openLarge();
    else if (layout2.explore !== false) tools2.kick();
  }
  function reveal() {
    $("step-answer").hidden = false;
    $("reveal").hidden = true;
    document.body.classList.add("ae-revealed");
  }
  function tab(which) {
    const steps = which === "steps";
    $("steps").hidden = !steps;
    $("explore").hidden = false;
    $("step").hidden = true;
    $("examples-row").hidden = steps;
    current = null;
    document.body.classList.remove("ae-figure-only");
    placeFigure(null);
    markHidden([]);
    state2.clickSwitches = false;
    $("grid-part").hidden = false;
    $("tab-steps").setAttribute("aria-pressed", String(steps));
    $("tab-explore").setAttribute("aria-pressed", String(!steps));
    const params = new URLSearchParams(location.search);
    if (!steps && params.has("step")) {
      params.delete("step");
      const rest = params.toString();
      history.replaceState(null, "", location.pathname + (rest ? "?" + rest : ""));
    }
  }
  function initSteps(pageTools) {
    tools2 = pageTools;
    CONFIG.steps.forEach((s, i) => {
      const b = el("button", { type: "button" }, s.title);
      b.addEventListener("click", () => showStep(i));
      $("step-list").appendChild(el("li", { "data-i": String(i) }, b));
    });
    $("reveal").addEventListener("click", reveal);
    $("next-step").addEventListener(
      "click",
      () => showStep(Math.min(current + 1, CONFIG.steps.length - 1))
    );
    $("tab-explore").addEventListener("click", () => tab("explore"));
    $("tab-steps").addEventListener("click", () => tab("steps"));
    const linked = stepIndex(location.search, CONFIG.steps.length);
    if (linked != null) {
      tab("steps");
      showStep(linked);
    }
  }

  // static/site/site.js
  AE.grid = grid;
  AE.offline = { state: offlineState };
  engine.configure({ base: "models/", hashes: CONFIG.hashes });
  AE.payload.setTexts(CONFIG.engineTexts);
  for (const a of document.querySelectorAll("a.ae-app-link")) a.href = CONFIG.appUrl;
  function openHead(l, h) {
    if (state2.clickSwitches) return toggleHead(l, h);
    state2.layer = l;
    state2.head = h;
    openLarge();
    requestAnimationFrame(() => bringIntoView("large"));
  }
  function openLarge() {
    $("large").hidden = false;
    $("large-title").textContent = "Layer " + state2.layer + ", head " + state2.head + ", large";
    kick();
  }
  fillKnobs();
  wireKnobs(kick);
  setControls(CONFIG.defaults);
  setText(CONFIG.examples[0] || "");
  if (FROM_FILE) $("where").textContent = SERVE_FOLDER;
  else engine.load(CONFIG.defaultModel).catch(() => {
  });
  var explore = mountGrid($("grid"), "explore", {
    onOpen: openHead,
    async data(req) {
      const p = await payloadFor(req.text, req.controls);
      state2.payload = p;
      if (p && p.ok) headBoxes(p);
      return p;
    }
  });
  var large = mountGrid($("head-large"), "head", {
    sizing: largeSizing,
    // as tall as a big screen (static/site/big_screen.js)
    async data() {
      const p = state2.payload;
      return p && p.ok ? oneHead(p, ...p.selected) : p;
    }
  });
  addView(figureView);
  var shown2 = (id) => !$("explore").hidden && !$(id).hidden;
  addView({ active: () => shown2("grid-part"), update: (ctx) => explore.update(ctx) });
  addView({ active: () => shown2("large"), update: (ctx) => large.update(ctx) });
  addView(initInside({ kick, engineKnobs }));
  var drewOnce = () => state2.model && engine.loaded(state2.model);
  addView({ active: () => true, update: () => drewOnce() && saveForOffline() });
  initBigScreen({ redraw: () => large.redraw(), open: openLarge });
  initSteps({ kick, openLarge, engineKnobs });
  kick();
})();
