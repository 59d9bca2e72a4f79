// Built by scripts/build_js.mjs from static/ (npm run build): do not edit.
(() => {
  // static/lab/adamw.js
  var LAB_ADAMW = Object.freeze({
    lr: 3e-3,
    betas: [0.9, 0.98],
    eps: 1e-8,
    weight_decay: 0
  });
  function makeAdamW(params, hp = {}) {
    const { lr, betas, eps, weight_decay: wd } = { ...LAB_ADAMW, ...hp };
    const [b1, b2] = betas;
    const m = {}, v = {};
    for (const [k, a] of Object.entries(params)) {
      m[k] = new Float64Array(a.length);
      v[k] = new Float64Array(a.length);
    }
    const opt = {
      t: 0,
      step(grads) {
        opt.t += 1;
        const stepSize = lr / (1 - b1 ** opt.t), root2 = Math.sqrt(1 - b2 ** opt.t);
        for (const [k, p] of Object.entries(params)) {
          const g = grads[k], mk = m[k], vk = v[k];
          for (let i = 0; i < p.length; i++) {
            if (wd) p[i] *= 1 - lr * wd;
            mk[i] = b1 * mk[i] + (1 - b1) * g[i];
            vk[i] = b2 * vk[i] + (1 - b2) * g[i] * g[i];
            p[i] -= stepSize * mk[i] / (Math.sqrt(vk[i]) / root2 + eps);
          }
        }
      }
    };
    return opt;
  }

  // static/lab/attention.js
  var BLOCK = 8;
  function attentionFloats(n, dh) {
    return 2 * n * Math.max(n, dh);
  }
  function makeAttentionScratch(n) {
    const at = new Int32Array(n), width = new Int32Array(n), blocks = [];
    let offset = 0;
    for (let r0 = 0; r0 < n; r0 += BLOCK) {
      const r1 = Math.min(n, r0 + BLOCK), cols = Math.min(n, Math.ceil(r1 / 4) * 4);
      blocks.push([r0, r1, cols, offset]);
      for (let i = r0; i < r1; i++) {
        at[i] = offset + (i - r0) * cols;
        width[i] = cols;
      }
      offset += (r1 - r0) * cols;
    }
    return { at, width, blocks };
  }
  function gather(x, row0, n, d, col, dh, out, o0, transposed) {
    for (let i = 0; i < n; i++) {
      const o = (row0 + i) * d + col;
      if (transposed) for (let e = 0; e < dh; e++) out[o0 + e * n + i] = x[o + e];
      else for (let e = 0; e < dh; e++) out[o0 + i * dh + e] = x[o + e];
    }
  }
  function scatter(src, s0, x, row0, n, d, col, dh) {
    for (let i = 0; i < n; i++) {
      const o = (row0 + i) * d + col, r = s0 + i * dh;
      for (let e = 0; e < dh; e++) x[o + e] = src[r + e];
    }
  }
  function causalScores(s, w, dh) {
    for (const [r0, r1, cols, offset] of w.blocks)
      s.run(r1 - r0, dh, cols, false, r0 * dh, 0, offset);
  }
  function softmaxRows(w, Y, n, scale, slope, P, po, X) {
    for (let i = 0; i < n; i++) {
      const pi = po + i * n, si = w.at[i];
      let max = -Infinity;
      for (let j = 0; j <= i; j++) {
        const s = P[pi + j] = Y[si + j] * scale - slope * (i - j);
        if (s > max) max = s;
      }
      let sum = 0;
      for (let j = 0; j <= i; j++) sum += P[pi + j] = Math.exp(P[pi + j] - max);
      for (let j = 0; j <= i; j++) X[i * n + j] = P[pi + j] /= sum;
      for (let j = i + 1; j < n; j++) X[i * n + j] = P[pi + j] = 0;
    }
  }
  function attendForward(dims, s, w, q, k, v, P, z) {
    const { batch, n, d_model: d, n_heads: H, d_head: dh, scale, slopes } = dims;
    for (let b = 0; b < batch; b++) {
      for (let h = 0; h < H; h++) {
        const po = (b * H + h) * n * n, col = h * dh;
        gather(q, b * n, n, d, col, dh, s.X, 0, false);
        gather(k, b * n, n, d, col, dh, s.W, 0, false);
        causalScores(s, w, dh);
        softmaxRows(w, s.Y, n, scale, slopes ? slopes[h] : 0, P, po, s.X);
        gather(v, b * n, n, d, col, dh, s.W, 0, true);
        s.run(n, n, dh);
        scatter(s.Y, 0, z, b * n, n, d, col, dh);
      }
    }
  }
  function softmaxBack(w, P, po, Y, n, scale, X) {
    for (let i = 0; i < n; i++) {
      const pi = po + i * n, si = w.at[i];
      let dot = 0;
      for (let j = 0; j <= i; j++) dot += P[pi + j] * Y[si + j];
      for (let j = 0; j <= i; j++) X[i * n + j] = P[pi + j] * (Y[si + j] - dot) * scale;
      for (let j = i + 1; j < n; j++) X[i * n + j] = 0;
    }
  }
  function attendBackward(dims, s, w, q, k, v, P, dz, dq, dk, dv) {
    const { batch, n, d_model: d, n_heads: H, d_head: dh, scale } = dims;
    const { X, W, Y } = s;
    for (let b = 0; b < batch; b++) {
      for (let h = 0; h < H; h++) {
        const po = (b * H + h) * n * n, col = h * dh, r0 = b * n;
        X.set(P.subarray(po, po + n * n));
        gather(dz, r0, n, d, col, dh, W, 0, false);
        s.runTN(n, n, dh);
        scatter(Y, 0, dv, r0, n, d, col, dh);
        gather(dz, r0, n, d, col, dh, X, 0, false);
        gather(v, r0, n, d, col, dh, W, 0, false);
        causalScores(s, w, dh);
        softmaxBack(w, P, po, Y, n, scale, X);
        gather(k, r0, n, d, col, dh, W, 0, true);
        gather(q, r0, n, d, col, dh, W, n * dh, false);
        s.run(n, n, dh);
        s.runTN(n, n, dh, 0, n * dh, n * dh);
        scatter(Y, 0, dq, r0, n, d, col, dh);
        scatter(Y, n * dh, dk, r0, n, d, col, dh);
      }
    }
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
  var ERF_STEP = 1024;
  var ERF_MAX = 4;
  var ERF = Float64Array.from(
    { length: 2 * ERF_MAX * ERF_STEP + 2 },
    (_, i) => erf(i / ERF_STEP - ERF_MAX)
  );
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

  // static/lab/linalg.js
  function makeScratch(rows, widest, simd = true, attnFloats = 0) {
    return makeMatmul(Math.max(Math.max(rows, widest) * widest, attnFloats), widest, simd);
  }
  function makeMatmul(floats, widest, simd) {
    const mem = simd ? arena(3 * floats + widest, true) : { linear: null };
    const kernel2 = mem.linear, kernelTN = mem.linearTN, take = kernel2 ? (count) => mem.take(count) : (count) => new Float64Array(count);
    const X = take(floats), W = take(floats), Y = take(floats), B = take(widest);
    const run = (n, dIn, dOut, bias = false, xo = 0, wo = 0, yo = 0) => {
      if (kernel2 && dIn % 4 === 0 && dOut % 4 === 0) {
        const b = bias ? B.byteOffset : 0;
        kernel2(X.byteOffset + 4 * xo, n, dIn, W.byteOffset + 4 * wo, dOut, b, Y.byteOffset + 4 * yo);
      } else {
        const at = (a, o) => o ? a.subarray(o) : a;
        linear(at(X, xo), n, dIn, at(W, wo), dOut, bias ? B : null, at(Y, yo));
      }
    };
    const runTN = (n, m, p, xo = 0, wo = 0, yo = 0) => {
      if (kernelTN && m % 4 === 0 && p % 4 === 0) {
        kernelTN(X.byteOffset + 4 * xo, n, m, W.byteOffset + 4 * wo, p, Y.byteOffset + 4 * yo);
        return;
      }
      Y.fill(0, yo, yo + m * p);
      for (let i = 0; i < n; i++) {
        const wi = wo + i * p;
        for (let j = 0; j < m; j++) {
          const a = X[xo + i * m + j], yj = yo + j * p;
          for (let o = 0; o < p; o++) Y[yj + o] += a * W[wi + o];
        }
      }
    };
    const mm = (x, n, dIn, w, dOut, b, y) => {
      const fits = n * dIn <= floats && dOut * dIn <= floats && n * dOut <= floats;
      if (!fits) return linear(x, n, dIn, w, dOut, b, y);
      X.set(x.subarray(0, n * dIn));
      W.set(w.subarray(0, dOut * dIn));
      if (b) B.set(b.subarray(0, dOut));
      run(n, dIn, dOut, !!b);
      y.set(Y.subarray(0, n * dOut));
      return y;
    };
    return { X, W, Y, B, run, runTN, mm, floats, simd: !!kernel2 };
  }
  function transpose(a, rows, cols, out, at = 0) {
    for (let i = 0; i < rows; i++) {
      const o = i * cols;
      for (let j = 0; j < cols; j++) out[at + j * rows + i] = a[o + j];
    }
    return out;
  }
  function linearBackward(x, dy, n, dIn, W, dOut, g, s) {
    s.X.set(dy.subarray(0, n * dOut));
    s.W.set(x.subarray(0, n * dIn));
    s.runTN(n, dOut, dIn);
    g.dW.set(s.Y.subarray(0, dOut * dIn));
    if (g.db) {
      g.db.fill(0);
      for (let i = 0; i < n; i++) for (let o = 0; o < dOut; o++) g.db[o] += dy[i * dOut + o];
    }
    if (!g.dx) return;
    transpose(W, dOut, dIn, s.W);
    s.run(n, dOut, dIn);
    const Y = s.Y, dx = g.dx;
    if (!g.add) dx.set(Y.subarray(0, n * dIn));
    else for (let i = 0; i < n * dIn; i++) dx[i] += Y[i];
  }
  function layerNormBackward(dy, n, d, w, xhat, rstd, dx, dw, db) {
    dw.fill(0);
    db.fill(0);
    for (let i = 0; i < n; i++) {
      const o = i * d;
      let m1 = 0, m2 = 0;
      for (let k = 0; k < d; k++) {
        const g = dy[o + k], h = xhat[o + k], gh = g * w[k];
        dw[k] += g * h;
        db[k] += g;
        m1 += gh;
        m2 += gh * h;
      }
      m1 /= d;
      m2 /= d;
      for (let k = 0; k < d; k++) dx[o + k] += rstd[i] * (dy[o + k] * w[k] - m1 - xhat[o + k] * m2);
    }
  }
  function geluForward(a, g, count) {
    for (let i = 0; i < count; i++) g[i] = 0.5 * a[i] * (1 + erf(a[i] * Math.SQRT1_2));
  }
  function geluBackward(a, dg, da, count) {
    const c = 1 / Math.sqrt(2 * Math.PI);
    for (let i = 0; i < count; i++) {
      const u = a[i];
      da[i] = dg[i] * (0.5 * (1 + erf(u * Math.SQRT1_2)) + u * c * Math.exp(-0.5 * u * u));
    }
  }

  // static/engine/model.js
  function alibiSlopes(h) {
    const pow2 = (n) => Array.from({ length: n }, (_, i) => (2 ** (-8 / n)) ** (i + 1));
    if (Number.isInteger(Math.log2(h))) return pow2(h);
    const closest = 2 ** Math.floor(Math.log2(h));
    return pow2(closest).concat(
      pow2(2 * closest).filter((_, i) => i % 2 === 0).slice(0, h - closest)
    );
  }

  // static/lab/positions.js
  var f = Math.fround;
  function sinusoidTable(n, d) {
    const out = new Float64Array(n * d);
    for (let p = 0; p < n; p++) {
      for (let i = 0; i < d; i += 2) {
        const angle = f(p / f(1e4 ** f(i / d)));
        out[p * d + i] = f(Math.sin(angle));
        if (i + 1 < d) out[p * d + i + 1] = f(Math.cos(angle));
      }
    }
    return out;
  }
  function rotaryTables(n, dh, base) {
    const half = dh / 2, cos = new Float64Array(n * half), sin = new Float64Array(n * half);
    for (let i = 0; i < half; i++) {
      const invFreq = f(1 / f(base ** f(2 * i / dh)));
      for (let p = 0; p < n; p++) {
        const a = f(p * invFreq);
        cos[p * half + i] = f(Math.cos(a));
        sin[p * half + i] = f(Math.sin(a));
      }
    }
    return { cos, sin };
  }
  function rotate(x, rows, n, d, dh, { cos, sin }, sign = 1) {
    const half = dh / 2;
    for (let r = 0; r < rows; r++) {
      const t = r % n * half;
      for (let i = 0; i < half; i++) {
        const c = cos[t + i], s = sign * sin[t + i];
        for (let o = r * d + 2 * i; o < (r + 1) * d; o += dh) {
          const x0 = x[o], x1 = x[o + 1];
          x[o] = x0 * c - x1 * s;
          x[o + 1] = x0 * s + x1 * c;
        }
      }
    }
  }
  function alibiSlopes2(h) {
    return Float64Array.from(alibiSlopes(h), f);
  }

  // static/lab/backward.js
  function lossBackward(c, tape, tokens, weights) {
    const V = c.vocab_size, { batch, n } = tape, { probs } = tape.final, dl = tape.grad.dlogits;
    for (let b = 0; b < batch; b++) {
      for (let i = 0; i < n; i++) {
        const o = (b * n + i) * V, w = i < n - 1 ? weights[b * (n - 1) + i] : 0;
        for (let j = 0; j < V; j++) dl[o + j] = w * probs[o + j];
        if (i < n - 1) dl[o + tokens[b * n + i + 1]] -= w;
      }
    }
  }
  function normBack(params, grads, name, dy, R, d, xhat, rstd, dx) {
    if (!xhat) {
      for (let i = 0; i < R * d; i++) dx[i] += dy[i];
      return;
    }
    const w = params[name + ".weight"];
    layerNormBackward(dy, R, d, w, xhat, rstd, dx, grads[name + ".weight"], grads[name + ".bias"]);
  }
  function mlpBackward(params, grads, c, tape, l) {
    const L = tape.layers[l], G = tape.grad, p = `blocks.${l}.mlp.`, d = c.d_model, R = tape.rows, s = tape.scratch;
    const h2 = L.h2 || L.mid;
    const out = { dW: grads[p + "W_out.weight"], db: grads[p + "W_out.bias"], dx: G.dg };
    linearBackward(L.g, G.dx, R, c.d_ff, params[p + "W_out.weight"], d, out, s);
    geluBackward(L.a, G.dg, G.da, R * c.d_ff);
    const inn = { dW: grads[p + "W_in.weight"], db: grads[p + "W_in.bias"], dx: G.dh };
    linearBackward(h2, G.da, R, d, params[p + "W_in.weight"], c.d_ff, inn, s);
    normBack(params, grads, `blocks.${l}.ln2`, G.dh, R, d, L.xhat2, L.rstd2, G.dx);
  }
  function attnBackward(params, grads, c, tape, l) {
    const L = tape.layers[l], G = tape.grad, p = `blocks.${l}.attn.`, d = c.d_model, R = tape.rows, s = tape.scratch;
    const h = L.h || L.x;
    linearBackward(
      L.z,
      G.dx,
      R,
      d,
      params[p + "W_O.weight"],
      d,
      { dW: grads[p + "W_O.weight"], dx: G.dz },
      s
    );
    attendBackward(tape.dims, s, tape.attn, L.q, L.k, L.v, L.P, G.dz, G.dq, G.dk, G.dv);
    if (tape.tables.rotary) {
      rotate(G.dq, R, tape.n, d, c.d_head, tape.tables.rotary, -1);
      rotate(G.dk, R, tape.n, d, c.d_head, tape.tables.rotary, -1);
    }
    [
      ["W_Q", G.dq],
      ["W_K", G.dk],
      ["W_V", G.dv]
    ].forEach(([W, dy], i) => {
      const g = { dW: grads[`${p}${W}.weight`], dx: G.dh, add: i > 0 };
      linearBackward(h, dy, R, d, params[`${p}${W}.weight`], d, g, s);
    });
    normBack(params, grads, `blocks.${l}.ln1`, G.dh, R, d, L.xhat, L.rstd, G.dx);
  }
  function embedBackward(grads, c, tape, tokens) {
    const d = c.d_model, { rows, n } = tape, dx = tape.grad.dx, dE = grads["W_E.weight"], dPos = grads["pos.W_pos.weight"], sin = tape.tables.sinusoids;
    dE.fill(0);
    if (dPos) dPos.fill(0);
    let dScale = 0;
    for (let r = 0; r < rows; r++) {
      const o = r * d, e = tokens[r] * d, p = r % n * d;
      for (let j = 0; j < d; j++) dE[e + j] += dx[o + j];
      if (dPos) for (let j = 0; j < d; j++) dPos[p + j] += dx[o + j];
      if (sin) for (let j = 0; j < d; j++) dScale += dx[o + j] * sin[p + j];
    }
    if (sin) grads["pos.scale"][0] = dScale;
  }
  function backward(params, c, tape, tokens, weights, grads) {
    const d = c.d_model, R = tape.rows, F = tape.final, G = tape.grad;
    for (const g of Object.values(grads)) g.fill(0);
    lossBackward(c, tape, tokens, weights);
    const top = { dW: grads["W_U.weight"], dx: G.dh };
    linearBackward(
      F.h || F.x,
      G.dlogits,
      R,
      d,
      params["W_U.weight"],
      c.vocab_size,
      top,
      tape.scratch
    );
    G.dx.fill(0, 0, R * d);
    normBack(params, grads, "ln_final", G.dh, R, d, F.xhat, F.rstd, G.dx);
    for (let l = c.n_layers - 1; l >= 0; l--) {
      if (c.mlp) mlpBackward(params, grads, c, tape, l);
      attnBackward(params, grads, c, tape, l);
    }
    embedBackward(grads, c, tape, tokens);
  }

  // static/lab/forward.js
  function embed(params, c, tape, tokens, x) {
    const d = c.d_model, { rows, n } = tape, W_E = params["W_E.weight"];
    const table = params["pos.W_pos.weight"] || tape.tables.sinusoids;
    const scale = tape.tables.sinusoids ? params["pos.scale"][0] : 1;
    for (let r = 0; r < rows; r++) {
      const o = r * d, e = tokens[r] * d, p = r % n * d;
      for (let j = 0; j < d; j++) x[o + j] = W_E[e + j] + (table ? table[p + j] * scale : 0);
    }
  }
  function norm(params, c, name, x, R, y, xhat, rstd) {
    if (c.norm !== "pre") return x;
    layerNorm(x, R, c.d_model, params[name + ".weight"], params[name + ".bias"], y, xhat, rstd);
    return y;
  }
  function forwardBlock(params, c, tape, l, xOut) {
    const L = tape.layers[l], p = `blocks.${l}.`, W = (name) => params[p + name], d = c.d_model, R = tape.rows, mm = tape.scratch.mm;
    const h = norm(params, c, p + "ln1", L.x, R, L.h, L.xhat, L.rstd);
    const s = tape.scratch;
    s.X.set(h.subarray(0, R * d));
    for (const [name, y] of [
      ["attn.W_Q.weight", L.q],
      ["attn.W_K.weight", L.k],
      ["attn.W_V.weight", L.v]
    ]) {
      s.W.set(W(name));
      s.run(R, d, d);
      y.set(s.Y.subarray(0, R * d));
    }
    if (tape.tables.rotary) {
      rotate(L.q, R, tape.n, d, c.d_head, tape.tables.rotary);
      rotate(L.k, R, tape.n, d, c.d_head, tape.tables.rotary);
    }
    attendForward(tape.dims, tape.scratch, tape.attn, L.q, L.k, L.v, L.P, L.z);
    const out = tape.grad.dh;
    mm(L.z, R, d, W("attn.W_O.weight"), d, null, out);
    for (let i = 0; i < R * d; i++) L.mid[i] = L.x[i] + out[i];
    if (!c.mlp) {
      xOut.set(L.mid.subarray(0, R * d));
      return;
    }
    const h2 = norm(params, c, p + "ln2", L.mid, R, L.h2, L.xhat2, L.rstd2);
    mm(h2, R, d, W("mlp.W_in.weight"), c.d_ff, W("mlp.W_in.bias"), L.a);
    geluForward(L.a, L.g, R * c.d_ff);
    mm(L.g, R, c.d_ff, W("mlp.W_out.weight"), d, W("mlp.W_out.bias"), out);
    for (let i = 0; i < R * d; i++) xOut[i] = L.mid[i] + out[i];
  }
  function crossEntropy(c, tape, tokens, weights) {
    const V = c.vocab_size, { batch, n } = tape, { logits, probs } = tape.final;
    let loss = 0;
    for (let b = 0; b < batch; b++) {
      for (let i = 0; i < n; i++) {
        const o = (b * n + i) * V;
        let max = -Infinity;
        for (let j = 0; j < V; j++) if (logits[o + j] > max) max = logits[o + j];
        let sum = 0;
        for (let j = 0; j < V; j++) sum += probs[o + j] = Math.exp(logits[o + j] - max);
        for (let j = 0; j < V; j++) probs[o + j] /= sum;
        if (i === n - 1) continue;
        const t = b * (n - 1) + i, ce = Math.log(sum) + max - logits[o + tokens[b * n + i + 1]];
        tape.losses[t] = ce;
        loss += weights[t] * ce;
      }
    }
    return loss;
  }
  function forward(params, c, tape, tokens, weights) {
    const F = tape.final, inputOf = (l) => l < c.n_layers ? tape.layers[l].x : F.x;
    embed(params, c, tape, tokens, inputOf(0));
    for (let l = 0; l < c.n_layers; l++) forwardBlock(params, c, tape, l, inputOf(l + 1));
    const h = norm(params, c, "ln_final", F.x, tape.rows, F.h, F.xhat, F.rstd);
    tape.scratch.mm(h, tape.rows, c.d_model, params["W_U.weight"], c.vocab_size, null, F.logits);
    return crossEntropy(c, tape, tokens, weights);
  }
  function lossWeights(mask, copyOnly) {
    const w = new Float64Array(mask.length);
    let chosen = 0;
    for (let i = 0; i < mask.length; i++) chosen += copyOnly ? mask[i] : 1;
    for (let i = 0; i < mask.length; i++) w[i] = copyOnly && !mask[i] ? 0 : 1 / Math.max(chosen, 1);
    return w;
  }

  // static/lab/params.js
  var POSITIONAL_ENCODINGS = ["none", "sinusoidal", "learned", "rotary", "alibi"];
  var TOKEN_INIT_STD = 0.02;
  var LAB_DEFAULTS = Object.freeze({
    layers: 2,
    heads: 2,
    pos: "learned",
    mlp: false,
    norm: false,
    // true: pre-LayerNorm
    lr: 3e-3,
    seed: 0,
    d_model: 64,
    batch: 32,
    vocab: 64,
    n_ctx: 64,
    copy_loss_only: false,
    seconds: 0,
    // a cap on seconds of training (0: none, the run is bounded by steps)
    max_steps: 3e3,
    update_s: 0.4,
    // an event every this many steps instead (0: every update_s of training): the step a head
    // is seen to form is then the same on every device (the static page's Lab sets it)
    update_every: 0
  });
  function labSettings(partial = {}) {
    const s = { ...LAB_DEFAULTS, ...partial };
    const checks = [
      [s.layers >= 1 && s.layers <= 3, "layers must be 1 to 3"],
      [[1, 2, 4].includes(s.heads), "heads must be 1, 2 or 4"],
      [POSITIONAL_ENCODINGS.includes(s.pos), `pos must be one of ${POSITIONAL_ENCODINGS}`],
      [s.lr >= 1e-5 && s.lr <= 0.1, "lr must be between 1e-5 and 0.1"],
      [s.seed >= 0 && s.seed < 2 ** 31, "seed must be 0 or more"],
      [s.seconds >= 0 && s.seconds <= 600, "seconds must be 0 (no cap) to 600"],
      [s.max_steps >= 1 && s.max_steps <= 1e5, "max_steps must be 1 to 100,000"],
      [Number.isInteger(s.update_every) && s.update_every >= 0, "update_every must be 0 or more"],
      [s.batch >= 1 && s.batch <= 256, "batch must be 1 to 256"]
    ];
    for (const [ok, message] of checks) if (!ok) throw new Error(message);
    return s;
  }
  function labConfig(s) {
    return {
      vocab_size: s.vocab,
      d_model: s.d_model,
      n_layers: s.layers,
      n_heads: s.heads,
      d_head: s.d_model / s.heads,
      d_ff: 4 * s.d_model,
      n_ctx: s.n_ctx,
      pos_encoding: s.pos,
      norm: s.norm ? "pre" : "none",
      mlp: !!s.mlp,
      rotary_base: 1e4
    };
  }
  function entries(c) {
    const d = c.d_model, out = [["W_E.weight", [c.vocab_size, d], "normal"]];
    if (c.pos_encoding === "learned") out.push(["pos.W_pos.weight", [c.n_ctx, d], "normal"]);
    if (c.pos_encoding === "sinusoidal") out.push(["pos.scale", [], "scale"]);
    const norm2 = (name) => [
      [`${name}.weight`, [d], "ones"],
      [`${name}.bias`, [d], "zeros"]
    ];
    for (let l = 0; l < c.n_layers; l++) {
      const p = `blocks.${l}.`;
      if (c.norm === "pre") out.push(...norm2(p + "ln1"));
      for (const W of ["W_Q", "W_K", "W_V", "W_O"])
        out.push([`${p}attn.${W}.weight`, [d, d], "fan_in"]);
      if (c.norm === "pre") out.push(...norm2(p + "ln2"));
      if (c.mlp) {
        out.push([p + "mlp.W_in.weight", [c.d_ff, d], "fan_in"]);
        out.push([p + "mlp.W_in.bias", [c.d_ff], "fan_in"]);
        out.push([p + "mlp.W_out.weight", [d, c.d_ff], "fan_in"]);
        out.push([p + "mlp.W_out.bias", [d], "fan_in"]);
      }
    }
    if (c.norm === "pre") out.push(...norm2("ln_final"));
    out.push(["W_U.weight", [c.vocab_size, d], "fan_in"]);
    return out;
  }
  function initParams(config, rng) {
    const params = {};
    let fanIn = 1;
    for (const [name, shape, init] of entries(config)) {
      const a = new Float32Array(shape.reduce((x, y) => x * y, 1));
      if (init === "fan_in" && shape.length === 2) fanIn = shape[1];
      const bound = 1 / Math.sqrt(fanIn);
      for (let i = 0; i < a.length; i++) {
        if (init === "normal") a[i] = rng.normal();
        else if (init === "fan_in") a[i] = (2 * rng.uniform() - 1) * bound;
        else if (init === "ones") a[i] = 1;
        else if (init === "scale") a[i] = TOKEN_INIT_STD * Math.SQRT2;
      }
      params[name] = a;
    }
    return params;
  }
  function zerosLike(params, Type = Float64Array) {
    return Object.fromEntries(Object.entries(params).map(([k, a]) => [k, new Type(a.length)]));
  }

  // static/lab/rng.js
  function splitmix32(seed) {
    let s = seed >>> 0;
    return () => {
      s = s + 2654435769 >>> 0;
      let z = s;
      z = Math.imul(z ^ z >>> 16, 2246822507) >>> 0;
      z = Math.imul(z ^ z >>> 13, 3266489909) >>> 0;
      return (z ^ z >>> 16) >>> 0;
    };
  }
  function makeRng(seed = 0) {
    const mix = splitmix32(seed);
    let a = mix(), b = mix(), c = mix(), d = mix();
    const uint32 = () => {
      const t = (a + b >>> 0) + d >>> 0;
      d = d + 1 >>> 0;
      a = b ^ b >>> 9;
      b = c + (c << 3) >>> 0;
      c = (c << 21 | c >>> 11) >>> 0;
      c = c + t >>> 0;
      return t;
    };
    for (let i = 0; i < 12; i++) uint32();
    const uniform = () => ((uint32() >>> 5) * 67108864 + (uint32() >>> 6)) / 9007199254740992;
    let spare = null;
    return {
      uint32,
      uniform,
      int: (lo, hi) => lo + Math.floor(uniform() * (hi - lo)),
      normal() {
        if (spare !== null) {
          const s = spare;
          spare = null;
          return s;
        }
        const r = Math.sqrt(-2 * Math.log(1 - uniform())), t = 2 * Math.PI * uniform();
        spare = r * Math.sin(t);
        return r * Math.cos(t);
      }
    };
  }

  // static/lab/scores.js
  var FORMED = 0.3;
  function previousTokenScores(patterns, { batch, n, n_heads: H }) {
    const out = new Float64Array(patterns.length * H);
    patterns.forEach((P, l) => {
      for (let h = 0; h < H; h++) {
        let sum = 0;
        for (let b = 0; b < batch; b++) {
          const po = (b * H + h) * n * n;
          for (let i = 1; i < n; i++) sum += P[po + i * n + i - 1];
        }
        out[l * H + h] = sum / (batch * (n - 1));
      }
    });
    return out;
  }
  function inductionScores(patterns, { batch, n, n_heads: H }, tokens, queries) {
    const out = new Float64Array(patterns.length * H);
    let chosen = 0;
    for (let i = 0; i < batch * n; i++) chosen += queries[i] ? 1 : 0;
    patterns.forEach((P, l) => {
      for (let h = 0; h < H; h++) {
        let sum = 0;
        for (let b = 0; b < batch; b++) {
          const po = (b * H + h) * n * n, t = b * n;
          for (let q = 0; q < n; q++) {
            if (!queries[t + q]) continue;
            for (let k = 1; k < q; k++) {
              if (tokens[t + k - 1] === tokens[t + q]) sum += P[po + q * n + k];
            }
          }
        }
        out[l * H + h] = sum / Math.max(chosen, 1);
      }
    });
    return out;
  }
  function copyQueries(copy, batch, n) {
    const out = new Uint8Array(batch * n);
    for (let b = 0; b < batch; b++)
      for (let q = 1; q < n; q++) out[b * n + q] = copy[b * (n - 1) + q - 1];
    return out;
  }

  // static/lab/tape.js
  var F64 = (count) => new Float64Array(count);
  function layerTape(c, rows, batch, n) {
    const d = c.d_model, norm2 = c.norm === "pre";
    const L = {
      x: F64(rows * d),
      q: F64(rows * d),
      k: F64(rows * d),
      v: F64(rows * d),
      z: F64(rows * d),
      mid: F64(rows * d),
      P: F64(batch * c.n_heads * n * n)
    };
    if (norm2) Object.assign(L, { h: F64(rows * d), xhat: F64(rows * d), rstd: F64(rows) });
    if (c.mlp) {
      Object.assign(L, { a: F64(rows * c.d_ff), g: F64(rows * c.d_ff) });
      if (norm2) Object.assign(L, { h2: F64(rows * d), xhat2: F64(rows * d), rstd2: F64(rows) });
    }
    return L;
  }
  function tables(c, n) {
    const pe = c.pos_encoding;
    return {
      sinusoids: pe === "sinusoidal" ? sinusoidTable(n, c.d_model) : null,
      rotary: pe === "rotary" ? rotaryTables(n, c.d_head, c.rotary_base) : null,
      slopes: pe === "alibi" ? alibiSlopes2(c.n_heads) : null
    };
  }
  function makeTape(c, batch, n, simd = true) {
    if (n > c.n_ctx) throw new Error(`${n} tokens is more than the context of ${c.n_ctx}`);
    const rows = batch * n, d = c.d_model, V = c.vocab_size, norm2 = c.norm === "pre", t = tables(c, n);
    const final = { x: F64(rows * d), logits: F64(rows * V), probs: F64(rows * V) };
    if (norm2) Object.assign(final, { h: F64(rows * d), xhat: F64(rows * d), rstd: F64(rows) });
    return {
      batch,
      n,
      rows,
      dims: {
        batch,
        n,
        d_model: d,
        n_heads: c.n_heads,
        d_head: c.d_head,
        scale: 1 / Math.sqrt(c.d_head),
        slopes: t.slopes
      },
      layers: Array.from({ length: c.n_layers }, () => layerTape(c, rows, batch, n)),
      final,
      losses: F64(batch * (n - 1)),
      grad: {
        dx: F64(rows * d),
        dh: F64(rows * d),
        dq: F64(rows * d),
        dk: F64(rows * d),
        dv: F64(rows * d),
        dz: F64(rows * d),
        da: c.mlp ? F64(rows * c.d_ff) : null,
        dg: c.mlp ? F64(rows * c.d_ff) : null,
        dlogits: F64(rows * V)
      },
      scratch: makeScratch(
        rows,
        Math.max(d, c.mlp ? c.d_ff : d, V),
        simd,
        attentionFloats(n, c.d_head)
      ),
      attn: makeAttentionScratch(n),
      tables: t
    };
  }

  // static/lab/task.js
  var BOS = 0;
  function repeatTask(partial = {}) {
    const t = { vocab_size: 64, n_ctx: 64, min_block: 8, max_block: 31, ...partial };
    if (!(t.min_block >= 2 && t.min_block <= t.max_block) || 1 + 2 * t.max_block > t.n_ctx)
      throw new Error("blocks must be 2 or longer and fit twice in the context");
    if (t.vocab_size < 3) throw new Error("the vocabulary needs BOS and at least two tokens");
    return t;
  }
  function repeatBatch(task, size, rng) {
    const n = task.n_ctx, tokens = new Int32Array(size * n), copy = new Uint8Array(size * (n - 1)), fresh = new Uint8Array(size * (n - 1));
    for (let i = 0; i < size * n; i++) tokens[i] = rng.int(1, task.vocab_size);
    for (let b = 0; b < size; b++) {
      const len = rng.int(task.min_block, task.max_block + 1), o = b * n;
      tokens[o] = BOS;
      for (let p = len + 1; p <= 2 * len; p++) tokens[o + p] = tokens[o + p - len];
      for (let t = 1; t < n; t++) {
        copy[b * (n - 1) + t - 1] = t > len + 1 && t <= 2 * len ? 1 : 0;
        fresh[b * (n - 1) + t - 1] = t > 2 * len ? 1 : 0;
      }
    }
    return { size, n, tokens, copy, fresh };
  }
  function probe(task, rng, block = 12) {
    const out = new Int32Array(1 + 2 * block);
    out[0] = BOS;
    for (let i = 1; i <= block; i++) out[i] = out[i + block] = rng.int(1, task.vocab_size);
    return out;
  }

  // static/lab/train.js
  var HELD_OUT_SEED = 1e4;
  var HELD_OUT = 64;
  var round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;
  var grid = (scores, H) => Array.from(
    { length: scores.length / H },
    (_, l) => Array.from(scores.subarray(l * H, (l + 1) * H), (v) => round(v, 3))
  );
  function meanWhere(values, mask) {
    let sum = 0, count = 0;
    for (let i = 0; i < mask.length; i++) {
      if (mask[i]) {
        sum += values[i];
        count++;
      }
    }
    return count ? sum / count : NaN;
  }
  function makeRun(partial) {
    const settings = labSettings(partial), config = labConfig(settings), task = repeatTask({ vocab_size: settings.vocab, n_ctx: settings.n_ctx });
    const params = initParams(config, makeRng(2 * settings.seed));
    const grads = zerosLike(params), opt = makeAdamW(params, { lr: settings.lr }), batches = makeRng(2 * settings.seed + 1), tape = makeTape(config, settings.batch, settings.n_ctx);
    const held = repeatBatch(task, HELD_OUT, makeRng(HELD_OUT_SEED));
    const heldTape = makeTape(config, HELD_OUT, settings.n_ctx), heldWeights = lossWeights(held.copy, false), queries = copyQueries(held.copy, HELD_OUT, settings.n_ctx);
    return {
      settings,
      config,
      params,
      task,
      step() {
        const b = repeatBatch(task, settings.batch, batches);
        const weights = lossWeights(b.copy, settings.copy_loss_only);
        const loss = forward(params, config, tape, b.tokens, weights);
        backward(params, config, tape, b.tokens, weights, grads);
        opt.step(grads);
        return loss;
      },
      measure(probeTokens) {
        forward(params, config, heldTape, held.tokens, heldWeights);
        const patterns = heldTape.layers.map((L) => L.P), dims = { batch: HELD_OUT, n: settings.n_ctx, n_heads: config.n_heads };
        const previous = previousTokenScores(patterns, dims), induction = inductionScores(patterns, dims, held.tokens, queries);
        const out = {
          loss_copy: round(meanWhere(heldTape.losses, held.copy), 4),
          loss_fresh: round(meanWhere(heldTape.losses, held.fresh), 4),
          previous_token: grid(previous, config.n_heads),
          induction: grid(induction, config.n_heads),
          best_induction: round(Math.max(...induction), 3),
          best_previous_token: round(Math.max(...previous), 3)
        };
        if (probeTokens) out.probe = probePatterns(params, config, probeTokens);
        return out;
      }
    };
  }
  function probePatterns(params, config, tokens) {
    const n = tokens.length, H = config.n_heads, tape = makeTape(config, 1, n);
    forward(params, config, tape, tokens, new Float64Array(n - 1));
    return tape.layers.map(
      (L) => Array.from(
        { length: H },
        (_, h) => Array.from(
          { length: n },
          (_2, q) => Array.from({ length: n }, (_3, k) => Math.round(L.P[(h * n + q) * n + k] * 100))
        )
      )
    );
  }
  function summary(run, state, formed, best, last, wallS) {
    const keys = ["loss_copy", "loss_fresh", "best_induction", "best_previous_token"];
    return {
      kind: "done",
      settings: run.settings,
      steps: state.step,
      seconds: round(state.seconds, 3),
      wall_s: round(wallS, 3),
      stopped: state.stopped || state.timed_out,
      // a time cap's cut is no result either
      timed_out: state.timed_out,
      formed: formed !== null,
      formed_at_step: formed && formed.step,
      formed_at_s: formed && round(formed.seconds, 3),
      best_induction: round(best.induction, 3),
      best_previous_token: round(best.previous_token, 3),
      final: Object.fromEntries([...keys, "induction", "previous_token"].map((k) => [k, last[k]])),
      chance_loss: round(Math.log(run.settings.vocab - 1), 4)
    };
  }
  async function train(partial, options = {}) {
    const { onEvent = () => {
    }, signal = null, shouldStop = null, withProbe = false } = options;
    const now = options.now || (() => performance.now() / 1e3);
    const run = makeRun(partial), s = run.settings, started = now();
    const probeTokens = withProbe ? probe(run.task, makeRng(0)) : null;
    const state = { step: 0, seconds: 0, stopped: false, timed_out: false };
    const best = { induction: 0, previous_token: 0 };
    let formed = null, last = {}, nextUpdate = 0;
    const update = (kind) => {
      const event = { kind, step: state.step, seconds: round(state.seconds, 3) };
      event.wall_s = round(now() - started, 3);
      Object.assign(event, run.measure(probeTokens));
      best.induction = Math.max(best.induction, event.best_induction);
      best.previous_token = Math.max(best.previous_token, event.best_previous_token);
      if (formed === null && event.best_induction >= FORMED) {
        formed = { step: state.step, seconds: state.seconds };
        event.formed_now = true;
      }
      event.formed_at_step = formed && formed.step;
      onEvent(last = event);
    };
    update("start");
    while (state.step < s.max_steps) {
      if (s.seconds && state.seconds >= s.seconds) {
        state.timed_out = true;
        break;
      }
      if (signal && signal.aborted || shouldStop && shouldStop()) {
        state.stopped = true;
        break;
      }
      const t0 = now();
      run.step();
      state.seconds += now() - t0;
      state.step += 1;
      const due = s.update_every ? state.step % s.update_every === 0 : state.seconds >= nextUpdate;
      if (due) {
        update("update");
        nextUpdate = state.seconds + s.update_s;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
    if (last.step !== state.step) update("update");
    const done = summary(run, state, formed, best, last, now() - started);
    onEvent(done);
    return done;
  }

  // static/lab/worker.js
  var controller = null;
  self.onmessage = async ({ data }) => {
    if (data.kind === "stop") {
      if (controller) controller.abort();
      return;
    }
    if (data.kind !== "train") return;
    if (controller) controller.abort();
    const mine = controller = new AbortController();
    try {
      await train(data.settings || {}, {
        onEvent: (event) => self.postMessage(event),
        signal: mine.signal,
        withProbe: !!data.withProbe
      });
    } catch (err) {
      self.postMessage({ kind: "error", message: String(err && err.message || err) });
    } finally {
      if (controller === mine) controller = null;
    }
  };
})();
