// Inside one head, in the browser: every stage of one head's computation, the second
// implementation of explorer/analysis/stages.py (stages_from_ids) for the static edition's
// "Inside one head" (issue 48), read from the same forward pass as the grid's patterns
// through the model's tap (static/engine/model.js). Parity: tests/js/stages.test.mjs (Node,
// tiny models), tests/engine/test_detail_patch_parity_browser.py (Chromium, the zoo).
//
//   const probe = stageProbe(model, settings, layer, head)   layer, head clamped to the model
//   model.forward(ids, settings, at, probe.resume)            the pass, as engine.run makes it
//   probe.result(patterns, n) -> {layer, head, stages}       (empty stages when n is 0)
//   nestedStages(detail) -> the same with values and blocked as nested arrays
//
// stages: {key: stage} in the order the model computes them, Python's keys: x, q, k, v,
// rot_q, rot_k (rotary models only), scores, scaled, masked, pattern, z, concat, out. A stage
// is {key, step ("1", "2", ...), title, formula (Python's words and numbers), hook
// ("blocks.{layer}.attn.hook_{part}"), captured (the captured tensor's shape, e.g. [1, 4, 5,
// 5]), capturedDims, values (the 2-D matrix drawn, this head's slice: Float32Array
// row-major, nested [row][col] from engine.run), shape [rows, cols], dims (the drawn axes'
// names), shapeText ("[5, 32]  (pos, d_head)"), square ([query, key] matrices), blocked
// ([query][key] booleans, on masked and pattern: true where the mask put -inf), headColumns
// ([start, stop) of this head in d_model, on concat)}. As in Python: x is LayerNorm1's output
// (the engine computes pre-norm models only); scores the raw q·kᵀ (rotated q and k under
// rotary) at every cell; scaled = scores × scale (+ ALiBi's −slope·|i − j|), the whole ÷
// temperature; masked = scaled with −Infinity at the blocked cells (Python's -inf; JSON
// writes it null, Playwright keeps it); pattern the softmax the grid shows (0 where blocked);
// z this head's pattern·V (0 for a head switched off, as hook_z); concat every head's z.

const PER_HEAD = ["batch", "head", "pos", "d_head"];
const SQUARE = ["batch", "head", "query pos", "key pos"];
const WIDE = ["batch", "pos", "d_model"];

// Python's format "{x:.Ng}" for the numbers these texts print (no exponent needed here),
// a tie rounded to even as Python does (a slope of 1/64 is "0.01562")
function g(x, digits) {
  const shift = 10 ** (digits - 1 - Math.floor(Math.log10(Math.abs(x))));
  const scaled = x * shift;
  const down = Math.floor(scaled);
  if (scaled - down === 0.5 && down % 2 === 0) return String(down / shift);
  return String(Number(x.toPrecision(digits)));
}

// explorer.analysis.stages.scale_text
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

// explorer.analysis.stages.scaled_text
function scaledText(model, r, head) {
  if (!model.slopes) return `S ${scaleText(model.config, r)}`;
  const slope = g(Math.fround(model.slopes[head]), 4);
  const bias = `ALiBi bias −${slope}·|i − j| (this head's slope ${slope})`;
  const plain = scaleText(model.config, { ...r, T: 1 });
  if (r.T === 1) return `S ${plain} + ${bias}`;
  return `(S ${plain} + ${bias}) ÷ temperature ${g(r.T, 6)}`;
}

// The columns [col, col + width) of the first n rows of a [rows, stride] array, copied.
function columns(a, n, stride, col, width) {
  const out = new Float32Array(n * width);
  for (let p = 0; p < n; p++)
    out.set(a.subarray(p * stride + col, p * stride + col + width), p * width);
  return out;
}

// The square stages from this head's (rotated) q and k [n, dh]: scores, scaled, masked.
function squares(qh, kh, n, dh, r, slope) {
  const scores = new Float32Array(n * n),
    scaled = new Float32Array(n * n),
    masked = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let e = 0; e < dh; e++) s += qh[i * dh + e] * kh[j * dh + e];
      const o = i * n + j;
      scores[o] = s;
      scaled[o] = scores[o] * r.scale - (slope / r.T) * Math.abs(i - j);
      masked[o] = r.causal && j > i ? -Infinity : scaled[o];
    }
  }
  return { scores, scaled, masked };
}

function texts(model, r, layer, head) {
  const c = model.config,
    nh = c.n_heads,
    dh = c.d_model / nh,
    [c0, c1] = [head * dh, (head + 1) * dh - 1];
  const proj = (big) =>
    `${big} = X · W_${big}ᵀ (one wide projection, ${c.d_model} columns, split into ${nh} ` +
    `heads of ${dh}); head ${head} keeps columns ${c0}–${c1}`;
  const turned = (role) => `each pair of dimensions (2i, 2i+1) of ${role} turned by position × θᵢ`;
  const qk = model.invFreq ? "rotated q · rotated kᵀ" : "Q · Kᵀ";
  const side = nh === 1 ? "the one head's Z" : `all ${nh} heads' Z side by side`;
  return {
    x: [
      "Block input X",
      `X = LayerNorm₁(residual stream) — what the projections read (layer ${layer})`,
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
      r.causal
        ? "causal mask: a query may not see later keys, their scores become −∞"
        : "no mask: every query sees every key (nothing set to −∞)",
    ],
    pattern: [
      "Attention pattern",
      "A = softmax(masked scores) along each row: every row sums to 1, −∞ becomes exactly 0",
    ],
    z: [`Head ${head} output`, "Z = A · V: each row is a weighted average of the value rows"],
    concat: [
      "Heads concatenated",
      `${side}: [pos, heads × d_head] = [pos, ${c.d_model}]; head ${head} is columns ${c0}–${c1}`,
    ],
    out: [
      "Output projection",
      "out = concat · W_Oᵀ: mixes the heads back into the residual stream",
    ],
  };
}

/** A probe of one head for one forward pass: pass ``probe.resume`` to model.forward, then
    ``probe.result(patterns, n)``. ``layer`` and ``head`` are clamped as config.clamp. */
export function stageProbe(model, settings, layer, head) {
  const c = model.config,
    d = c.d_model,
    H = c.n_heads,
    dh = d / H;
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
    },
  };
}

function build(model, settings, layer, head, got, patterns, n) {
  const c = model.config,
    H = c.n_heads,
    dh = c.d_model / H,
    r = model.resolve(settings);
  const slope = model.slopes ? model.slopes[head] : 0;
  const rotary = !!model.invFreq;
  const sq = squares(rotary ? got.rot_q : got.q, rotary ? got.rot_k : got.k, n, dh, r, slope);
  const o = (layer * H + head) * n * n;
  const values = { ...got, ...sq, pattern: patterns.slice(o, o + n * n) };
  const blocked = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => r.causal && j > i),
  );
  const words = texts(model, r, layer, head);
  const keys = ["x", "q", "k", "v", ...(rotary ? ["rot_q", "rot_k"] : [])];
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
      square,
    };
    if (key === "masked" || key === "pattern") stage.blocked = blocked;
    if (key === "concat") stage.headColumns = [head * dh, (head + 1) * dh];
    stages[key] = stage;
  });
  return stages;
}

/** ``detail`` with every stage's values as nested arrays [row][col] (engine.run's form). */
export function nestedStages(detail) {
  const stages = {};
  for (const [key, s] of Object.entries(detail.stages)) {
    const [rows, cols] = s.shape;
    const values = Array.from({ length: rows }, (_, i) =>
      Array.from(s.values.subarray(i * cols, (i + 1) * cols)),
    );
    stages[key] = { ...s, values };
  }
  return { ...detail, stages };
}
