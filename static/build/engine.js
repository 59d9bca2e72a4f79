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
    let best2 = -1;
    for (let i = 0; i < a.length; i++) if (i !== not && (best2 < 0 || a[i] > a[best2])) best2 = i;
    return best2;
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
    const clean2 = model.forward(cleanIds, settings, n - 1, { tap: keep(cleanZ, cleanPost) }).logits;
    const corrupt = model.forward(corruptIds, settings, n - 1, {
      save: true,
      tap: keep(null, corruptPost)
    }).logits;
    return { clean: clean2, corrupt, cleanZ, cleanPost, corruptPost };
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
      const corrupt = runs.corruptPost.subarray(l * n * d, (l + 1) * n * d), clean2 = runs.cleanPost.subarray(l * n * d, (l + 1) * n * d);
      for (let p = 0; p < n; p++) {
        let same = true;
        for (let e = p * d; e < p * d + d && same; e++) same = clean2[e] === corrupt[e];
        if (same) continue;
        stream.set(corrupt);
        stream.set(clean2.subarray(p * d, p * d + d), p * d);
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
    const best2 = argmax(flat);
    const { layer, head } = chosen || {
      layer: Math.floor(best2 / config.n_heads),
      head: best2 % config.n_heads
    };
    const logits = headPatched(model, corruptIds, settings, runs, layer, head);
    const probs = softmax(logits);
    out.patched = { layer, head, ld: ld(logits), guess: tokenizer.decode([argmax(logits)]) };
    out.guesses = predictionRows(tokenizer, softmax(runs.corrupt), probs);
    return out;
  }
  function patchPair(tokenizer, model, clean2, corrupt, settings, patchHead = null) {
    const c = model.config;
    if (!c.causal) {
      throw new Error(
        "patching reads the next-word guess at the last position: pick a next-word model"
      );
    }
    const prep = (text) => tokenizer.prepare(text == null ? "" : String(text), { nCtx: c.n_ctx, maskedWord: false });
    const a = prep(clean2), b = prep(corrupt);
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
    const headsOff = settings.headsOff || [];
    const on = { ...settings, headsOff: [] };
    const at = guessedAt(tokenizer, prep.ids, c.causal);
    const out = { tokens: prep.pieces, predictAt: at, headsOff, guesses: [], top: null };
    if (at != null) {
      const pOn = softmax(model.forward(prep.ids, on, at).logits);
      const pOff = headsOff.length ? softmax(model.forward(prep.ids, settings, at).logits) : pOn;
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
    const lossOff = headsOff.length ? sentenceLoss(tokenizer, model, text, settings) : lossOn;
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
  function linear(x, n, dIn, W, dOut, b, y) {
    let i = 0;
    for (; i + 1 < n; i += 2) {
      const xa = i * dIn, xb = xa + dIn, ya = i * dOut, yb = ya + dOut;
      let o = 0;
      for (; o + 3 < dOut; o += 4) {
        const w0 = o * dIn, w1 = w0 + dIn, w2 = w1 + dIn, w3 = w2 + dIn;
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
        for (let k = 0; k < dIn; k++) {
          const u = x[xa + k], v = x[xb + k];
          const c0 = W[w0 + k], c1 = W[w1 + k], c2 = W[w2 + k], c3 = W[w3 + k];
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
        linearOne(x, xa, dIn, W, o, b, y, ya);
        linearOne(x, xb, dIn, W, o, b, y, yb);
      }
    }
    if (i < n) linearRow(x, i * dIn, dIn, W, dOut, b, y, i * dOut);
    return y;
  }
  function linearRow(x, xo, dIn, W, dOut, b, y, yo) {
    let o = 0;
    for (; o + 3 < dOut; o += 4) {
      const w0 = o * dIn, w1 = w0 + dIn, w2 = w1 + dIn, w3 = w2 + dIn;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let k = 0; k < dIn; k++) {
        const a = x[xo + k];
        s0 += a * W[w0 + k];
        s1 += a * W[w1 + k];
        s2 += a * W[w2 + k];
        s3 += a * W[w3 + k];
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
    for (; o < dOut; o++) linearOne(x, xo, dIn, W, o, b, y, yo);
  }
  function linearOne(x, xo, dIn, W, o, b, y, yo) {
    const wo = o * dIn;
    let s = b ? b[o] : 0;
    for (let k = 0; k < dIn; k++) s += x[xo + k] * W[wo + k];
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
      const qi = i * d + col, last = causal ? i : n - 1, pi = po + i * n;
      scoreRow(q, k, d, qi, col, dh, last, row);
      let max = -Infinity;
      for (let j = 0; j <= last; j++) {
        let s = row[j] * scale;
        if (bias !== 0) s -= bias * Math.abs(i - j);
        row[j] = s;
        if (s > max) max = s;
      }
      let sum = 0;
      for (let j = 0; j <= last; j++) {
        const e = Math.exp(row[j] - max);
        row[j] = e;
        sum += e;
      }
      for (let j = 0; j <= last; j++) patterns[pi + j] = row[j] / sum;
      if (z !== null) weighRow(patterns, pi, v, d, col, dh, last, z, qi);
    }
  }
  function scoreRow(q, k, d, qi, col, dh, last, row) {
    let j = 0;
    for (; j + 3 <= last; j += 4) {
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
    for (; j <= last; j++) {
      const kj = j * d + col;
      let s = 0;
      for (let e = 0; e < dh; e++) s += q[qi + e] * k[kj + e];
      row[j] = s;
    }
  }
  function weighRow(p, pi, v, d, col, dh, last, z, qi) {
    const f = Math.fround;
    let e = 0;
    for (; e + 3 < dh; e += 4) {
      let z0 = z[qi + e], z1 = z[qi + e + 1], z2 = z[qi + e + 2], z3 = z[qi + e + 3];
      for (let j = 0, vj = col + e; j <= last; j++, vj += d) {
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
      for (let j = 0, vj = col + e; j <= last; j++, vj += d) a = f(a + p[pi + j] * v[vj]);
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
      const { d_model: d, n_heads: H } = this.config, dh = this.dHead, half = dh / 2, turns = this.rotaryTable();
      for (let p = from; p < n; p++) {
        for (let i = 0; i < half; i++) {
          const c = turns[2 * (p * half + i)], s = turns[2 * (p * half + i) + 1];
          for (let h = 0; h < H; h++) {
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
    resolve(knobs) {
      const c = this.config;
      const causal = knobs.causal == null ? c.causal : !!knobs.causal;
      const T = knobs.temperature == null ? 1 : knobs.temperature;
      const scaleName = knobs.scale == null ? c.attn_scale : knobs.scale;
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
    forward(ids, knobs, at, resume = {}) {
      const c = this.config, d = c.d_model, n = ids.length;
      const { x } = this.s;
      const from = resume.from || 0, tap = resume.tap, saved = resume.save ? this.savedStream(n) : this.saved;
      if (n > c.n_ctx) throw new Error(`at most ${c.n_ctx} tokens`);
      const pass = { ...this.resolve(knobs), n, tap, p: 0, kv: null };
      pass.off = new Set((knobs.headsOff || []).map(([l, h]) => l * c.n_heads + h));
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
      const { d_model: d, n_heads: H } = this.config, dh = this.dHead, { q, z } = this.s, k = kv ? kv.k[l] : this.s.k, v = kv ? kv.v[l] : this.s.v;
      z.fill(0, p * d, n * d);
      for (let hd = 0; hd < H; hd++) {
        const bias = (this.slopes ? this.slopes[hd] : 0) / T, out = zOn && !off.has(l * H + hd) ? z : null;
        const po = (l * H + hd) * n * n;
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
      const { d_model: d, n_heads: H } = this.config, dh = this.dHead, { n, causal, off, patterns, kv } = pass, v = kv ? kv.v[l] : this.s.v;
      this.qkv(B, l, pass);
      this.attend(l, pass, false);
      if (at == null) return;
      const last = causal ? at : n - 1;
      for (let hd = 0; hd < H; hd++) {
        if (off.has(l * H + hd)) continue;
        const pi = (l * H + hd) * n * n + at * n;
        weighRow(patterns, pi, v, d, hd * dh, dh, last, this.s.z, at * d + hd * dh);
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
    linear(x, n, dIn, W, dOut, b, y) {
      if (this.kernel && dIn % 4 === 0 && dOut % 4 === 0) {
        this.kernel(x.byteOffset, n, dIn, W.byteOffset, dOut, b ? b.byteOffset : 0, y.byteOffset);
        return y;
      }
      return linear(x, n, dIn, W, dOut, b, y);
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
    let state = 0n;
    const step = () => state = state * MULT128 + inc & MASK128;
    step();
    state = state + initState & MASK128;
    step();
    let spare = null;
    function nextUint64() {
      step();
      const x = (state >> 64n ^ state) & MASK64;
      const rot = state >> 122n;
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
      let mask = max;
      for (const s of [1, 2, 4, 8, 16]) mask = (mask | mask >>> s) >>> 0;
      let value;
      do
        value = (nextUint32() & mask) >>> 0;
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
  function headOf(patterns, H, n, layer, head) {
    const o = (layer * H + head) * n * n;
    return Array.from(
      { length: n },
      (_, q) => Array.from(patterns.subarray(o + q * n, o + q * n + n))
    );
  }
  function topAt(model, n) {
    const out = [];
    for (let p = 0; p < n; p++) {
      const logits = model.logitsAt(p);
      let best2 = 0;
      for (let i = 1; i < logits.length; i++) if (logits[i] > logits[best2]) best2 = i;
      out.push(best2);
    }
    return out;
  }
  function shuffleIds(model, ids, pieces, settings, layer = 0, head = 0, seed = 0) {
    const c = model.config, H = c.n_heads, n = ids.length;
    const clamp = (x, top) => Math.min(Math.max(Math.trunc(Number(x)) || 0, 0), top - 1);
    layer = clamp(layer, c.n_layers);
    head = clamp(head, H);
    const perm = n ? wordPermutation(pieces, seed) : null;
    const result = { tokens: [...pieces], shuffledTokens: [...pieces], perm, layer, head };
    Object.assign(result, { original: null, shuffled: null, restored: null });
    Object.assign(result, { maxDiffHead: 0, maxDiffAll: 0, topChanged: 0 });
    if (!perm) return result;
    result.shuffledTokens = perm.map((i) => pieces[i]);
    const knobs = { ...settings, causal: false };
    const orig = model.forward(ids, knobs, null).patterns;
    const topOrig = topAt(model, n);
    const shuf = model.forward(
      perm.map((i) => ids[i]),
      knobs,
      null
    ).patterns;
    const topShuf = topAt(model, n);
    const inverse = new Array(n);
    perm.forEach((orig2, j) => inverse[orig2] = j);
    let maxAll = 0, maxHead = 0;
    const restored = new Float32Array(orig.length);
    for (let lh = 0; lh < c.n_layers * H; lh++) {
      const o = lh * n * n;
      for (let q = 0; q < n; q++) {
        for (let k = 0; k < n; k++) {
          const v = shuf[o + inverse[q] * n + inverse[k]];
          restored[o + q * n + k] = v;
          const d = Math.abs(orig[o + q * n + k] - v);
          if (d > maxAll) maxAll = d;
          if (lh === layer * H + head && d > maxHead) maxHead = d;
        }
      }
    }
    result.original = headOf(orig, H, n, layer, head);
    result.shuffled = headOf(shuf, H, n, layer, head);
    result.restored = headOf(restored, H, n, layer, head);
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
  function perHead(L, H, n, f) {
    const out = [];
    for (let l = 0; l < L; l++) {
      const row = [];
      for (let h = 0; h < H; h++) row.push(f((l * H + h) * n * n));
      out.push(row);
    }
    return out;
  }
  function previousShare(patterns, L, H, n) {
    return perHead(L, H, n, (o) => {
      if (n < 2) return 0;
      let sum = 0;
      for (let i = 1; i < n; i++) sum += patterns[o + i * n + i - 1];
      return sum / (n - 1);
    });
  }
  function copyScoresOf(patterns, L, H, half) {
    const n = 2 * half;
    return perHead(L, H, n, (o) => {
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
    const L = c.n_layers, H = c.n_heads;
    const patterns = n ? model.forward(ids, settings, null).patterns : new Float32Array(0);
    const prevShare = previousShare(patterns, L, H, n);
    const top = n >= 2 ? best(prevShare) : { layer: 0, head: 0, value: 0 };
    const causal = settings.causal == null ? c.causal : settings.causal;
    const rep = c.causal ? doubled(ids, c.n_ctx) : null;
    let copyScores = null, copy = null;
    if (rep) {
      copyScores = copyScoresOf(model.forward(rep, settings, null).patterns, L, H, n);
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
    const proj = (big) => `${big} = X · W_${big}ᵀ (one wide projection, ${c.d_model} columns, split into ${nh} heads of ${dh}); head ${head} keeps columns ${c0}–${c1}`;
    const turned = (role) => `each pair of dimensions (2i, 2i+1) of ${role} turned by position × θᵢ`;
    const qk = model.invFreq ? "rotated q · rotated kᵀ" : "Q · Kᵀ";
    const side = nh === 1 ? "the one head's Z" : `all ${nh} heads' Z side by side`;
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
        `${side}: [pos, heads × d_head] = [pos, ${c.d_model}]; head ${head} is columns ${c0}–${c1}`
      ],
      out: [
        "Output projection",
        "out = concat · W_Oᵀ: mixes the heads back into the residual stream"
      ]
    };
  }
  function stageProbe(model, settings, layer, head) {
    const c = model.config, d = c.d_model, H = c.n_heads, dh = d / H;
    const clamp = (x, top) => Math.min(Math.max(Math.trunc(Number(x)) || 0, 0), top - 1);
    layer = clamp(layer, c.n_layers);
    head = clamp(head, H);
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
    const c = model.config, H = c.n_heads, dh = c.d_model / H, r = model.resolve(settings);
    const slope = model.slopes ? model.slopes[head] : 0;
    const rotary = !!model.invFreq;
    const sq = squares(rotary ? got.rot_q : got.q, rotary ? got.rot_k : got.k, n, dh, r, slope);
    const o = (layer * H + head) * n * n;
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
        captured: wide ? [1, n, c.d_model] : [1, H, n, square ? n : dh],
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
      let best2 = Infinity;
      let at = -1;
      for (let i = 0; i + 1 < symbols.length; i++) {
        const r = ranks.get(symbols[i] + " " + symbols[i + 1]);
        if (r !== void 0 && r < best2) {
          best2 = r;
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
  function topGuesses(t, logits, count = 3) {
    let max = -Infinity;
    for (let i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
    let sum = 0;
    const p = new Float64Array(logits.length);
    for (let i = 0; i < logits.length; i++) {
      p[i] = Math.exp(logits[i] - max);
      sum += p[i];
    }
    const best2 = [];
    for (let i = 0; i < p.length; i++) {
      if (best2.length < count || p[i] > p[best2[best2.length - 1]]) {
        best2.push(i);
        best2.sort((a, b) => p[b] - p[a] || a - b);
        if (best2.length > count) best2.pop();
      }
    }
    return best2.map((i) => ({ id: i, token: t.decode([i]), p: p[i] / sum }));
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
  function once(models, key, make) {
    if (!models.has(key)) {
      const made = make();
      made.catch(() => models.delete(key));
      models.set(key, made);
    }
    return models.get(key);
  }
  function snapshotLoader(source, load2, models, simd) {
    return function loadSnapshot(name, file) {
      if (!SNAPSHOT.test(String(file))) {
        return Promise.reject(new Error("The browser has no training snapshot of that name."));
      }
      const key = `snapshots/${name}/${file}`;
      return once(models, key, () => {
        const bytes = source.reader(key)(source.url(key, key));
        return Promise.all([bytes, load2(name)]).then(([b, final]) => {
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
    const ready = /* @__PURE__ */ new Set();
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
    function load2(name) {
      if (!MODEL.test(String(name))) {
        return Promise.reject(new Error("The browser has no model of that name."));
      }
      return once(models, name, () => {
        const file = `${name}.safetensors`;
        const bytes = source.reader(file)(source.url(file, name));
        const made = bytes.then((b) => new Transformer(parseSafetensors(b), { simd }));
        made.then(
          () => ready.add(name),
          () => {
          }
        );
        tok();
        return made;
      });
    }
    const snapshot = snapshotLoader(source, load2, models, () => simd);
    const modelOf = (k) => k && k.snapshot != null ? snapshot(k.model, k.snapshot) : load2(k && k.model);
    function loaded(name) {
      return ready.has(name) && tokenizerReady;
    }
    async function runTyped(text, knobs) {
      const name = knobs && knobs.model;
      const [t, model] = await Promise.all([tok(), modelOf(knobs)]);
      ready.add(name);
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
    async function need(knobs) {
      const [t, model] = await Promise.all([tok(), modelOf(knobs)]);
      return [t, model, checked(knobs, model.config)];
    }
    return { configure, load: load2, loaded, run, runTyped, ...measures(need) };
  }
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
      async patch(clean2, corrupt, knobs) {
        const [t, model, settings] = await need(knobs);
        return patchPair(t, model, clean2, corrupt, settings, knobs.patchHead);
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
    let shown = "";
    for (let i = 0; i < chars.length; i++) shown += showChar(chars, i, ranges);
    const first = chars[0];
    if (cat(first, MARK, ranges) && !isVS(first.codePointAt(0))) shown = "◌" + shown;
    return shown;
  }
  function plainLabel(token, maxChars = 8, ranges = null) {
    const shown = points(displayToken(token, ranges));
    return shown.length <= maxChars ? shown.join("") : shown.slice(0, maxChars - 1).join("") + "…";
  }

  // static/engine/captions.js
  var fill = (template, values) => template.replace(/\{(\w+)\}/g, (m, k) => k in values ? values[k] : m);
  var EN_US = new Intl.NumberFormat("en-US");
  function plural2(t, n, word) {
    const [one, many] = t.plural[word];
    return EN_US.format(n) + " " + (n === 1 ? one : many);
  }
  var fmtG = (x) => String(Number(x.toPrecision(6)));
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
      heads_off: opts && opts.heads_off || [],
      ...opts && opts.snapshot ? { snapshot: String(opts.snapshot) } : {},
      // a training one
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
        theme: theme === "dark" ? "dark" : "light"
      }
    };
  }
  function mosaic(patterns, L, H, n) {
    const z = new Uint8Array(L * n * H * n), row = H * n;
    for (let l = 0; l < L; l++)
      for (let h = 0; h < H; h++) {
        const o = (l * H + h) * n * n;
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
  function payloadOf(t, text, knobs, r, opts) {
    const c = r.config;
    const n = r.n;
    let caption = plural2(t, n, "token");
    const iv = interventions(t, c, knobs);
    if (iv.length) caption += t.caption.experiment + iv.join(t.caption.join);
    let read = points(text).slice(0, MAX_CHARS).join("").replace(/ +$/, "");
    if (r.cutTokens) read = points(read).slice(0, r.keptChars).join("");
    for (const notice of notices(t, r, read)) caption += t.caption.notice + plainStatus(notice);
    const layer = Math.min(Math.max(knobs.layer, 0), c.n_layers - 1);
    const head = Math.min(Math.max(knobs.head, 0), c.n_heads - 1);
    const label = (s, max) => plainLabel(s, max, t.label_ranges);
    const off = knobs.heads_off.length ? { off: knobs.heads_off.map(([l, h]) => [Number(l), Number(h)]) } : {};
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
      guesses: r.guesses.map((g2) => [label(g2.token, 24), Math.round(g2.p * 1e4) / 1e4]),
      where: c.causal ? "next word" : "[mask]",
      caption,
      ...off
    };
  }
  function createPayload(engine2, read = fetchBytes) {
    let texts2 = null;
    let textsUrl = "engine_texts.json";
    let loading = null;
    const failed = /* @__PURE__ */ new Map();
    async function getTexts() {
      if (texts2) return texts2;
      if (!loading) {
        loading = readJSON(textsUrl, read).then((t) => texts2 = t);
        loading.catch(() => loading = null);
      }
      return loading;
    }
    async function ready(name, fetchIt) {
      if (engine2.loaded(name)) return true;
      if (Date.now() - (failed.get(name) || -Infinity) < RETRY_MS) return false;
      try {
        const loading2 = engine2.load(name);
        loading2.catch(() => failed.set(name, Date.now()));
        const raced = fetchIt ? loading2 : Promise.race([loading2, Promise.resolve(NOT_YET)]);
        return await raced !== NOT_YET;
      } catch {
        return false;
      }
    }
    async function gridPayload2(text, controls, opts = {}) {
      const t = await getTexts();
      const knobs = knobsOf(t, controls || {}, opts);
      if (!knobs || !await ready(knobs.model, opts.fetch)) return null;
      text = text == null ? "" : String(text);
      if (!text.trim()) {
        return { ok: false, text, controls: knobs.controls, caption: plainStatus(t.empty_state) };
      }
      return payloadOf(t, text, knobs, await engine2.runTyped(text, knobs), opts);
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
})();
