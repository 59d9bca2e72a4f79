// The Lab's settings, its model's configuration and the model's parameters: the JavaScript
// side of explorer/training/lab.py (LabSettings, LabSettings.config) and of the parameters
// explorer/models/transformer.py builds for it, named exactly as torch's state_dict keys.
//
//   labSettings(partial) -> the settings with LabSettings' defaults filled in (checked)
//   labConfig(settings) -> {vocab_size, d_model, n_layers, n_heads, d_head, d_ff, n_ctx,
//                           pos_encoding, norm: "pre" | "none", mlp, rotary_base}
//   paramShapes(config) -> [[name, shape]] in torch's named_parameters() order
//   initParams(config, rng) -> {name: Float32Array} initialised as torch's own defaults
//                              (config init "torch": the Lab's), from the Lab's generator
//   zerosLike(params, Type = Float64Array) -> {name: zeros of the same length}
//
// Shapes as torch stores them, row-major: W_E.weight [vocab, d_model]; a Linear's weight
// [out, in] (y = x W^T + b): attn.W_Q.weight [d_model, d_model], mlp.W_in.weight
// [d_ff, d_model], W_U.weight [vocab, d_model]; pos.W_pos.weight [n_ctx, d_model];
// pos.scale [] (one number); LayerNorm weight and bias [d_model].

export const POSITIONAL_ENCODINGS = ["none", "sinusoidal", "learned", "rotary", "alibi"];
export const TOKEN_INIT_STD = 0.02; // explorer/models/positional.py

export const LAB_DEFAULTS = Object.freeze({
  layers: 2,
  heads: 2,
  pos: "learned",
  mlp: false,
  norm: false, // true: pre-LayerNorm
  lr: 3e-3,
  seed: 0,
  d_model: 64,
  batch: 32,
  vocab: 64,
  n_ctx: 64,
  copy_loss_only: false,
  seconds: 0, // a cap on seconds of training (0: none, the run is bounded by steps)
  max_steps: 3000,
  update_s: 0.4,
  // an event every this many steps instead (0: every update_s of training): the step a head
  // is seen to form is then the same on every device (the static page's Lab sets it)
  update_every: 0,
});

export function labSettings(partial = {}) {
  const s = { ...LAB_DEFAULTS, ...partial };
  const checks = [
    [s.layers >= 1 && s.layers <= 3, "layers must be 1 to 3"],
    [[1, 2, 4].includes(s.heads), "heads must be 1, 2 or 4"],
    [POSITIONAL_ENCODINGS.includes(s.pos), `pos must be one of ${POSITIONAL_ENCODINGS}`],
    [s.lr >= 1e-5 && s.lr <= 1e-1, "lr must be between 1e-5 and 0.1"],
    [s.seed >= 0 && s.seed < 2 ** 31, "seed must be 0 or more"],
    [s.seconds >= 0 && s.seconds <= 600, "seconds must be 0 (no cap) to 600"],
    [s.max_steps >= 1 && s.max_steps <= 100000, "max_steps must be 1 to 100,000"],
    [Number.isInteger(s.update_every) && s.update_every >= 0, "update_every must be 0 or more"],
    [s.batch >= 1 && s.batch <= 256, "batch must be 1 to 256"],
  ];
  for (const [ok, message] of checks) if (!ok) throw new Error(message);
  return s;
}

export function labConfig(s) {
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
    rotary_base: 10000,
  };
}

// [name, shape, init]: init "normal" (nn.Embedding), "fan_in" (nn.Linear's weight and bias:
// uniform within 1/sqrt(in)), "ones"/"zeros" (LayerNorm), "scale" (pos.scale)
function entries(c) {
  const d = c.d_model,
    out = [["W_E.weight", [c.vocab_size, d], "normal"]];
  if (c.pos_encoding === "learned") out.push(["pos.W_pos.weight", [c.n_ctx, d], "normal"]);
  if (c.pos_encoding === "sinusoidal") out.push(["pos.scale", [], "scale"]);
  const norm = (name) => [
    [`${name}.weight`, [d], "ones"],
    [`${name}.bias`, [d], "zeros"],
  ];
  for (let l = 0; l < c.n_layers; l++) {
    const p = `blocks.${l}.`;
    if (c.norm === "pre") out.push(...norm(p + "ln1"));
    for (const W of ["W_Q", "W_K", "W_V", "W_O"])
      out.push([`${p}attn.${W}.weight`, [d, d], "fan_in"]);
    if (c.norm === "pre") out.push(...norm(p + "ln2")); // built even when no MLP reads it
    if (c.mlp) {
      out.push([p + "mlp.W_in.weight", [c.d_ff, d], "fan_in"]);
      out.push([p + "mlp.W_in.bias", [c.d_ff], "fan_in"]);
      out.push([p + "mlp.W_out.weight", [d, c.d_ff], "fan_in"]);
      out.push([p + "mlp.W_out.bias", [d], "fan_in"]);
    }
  }
  if (c.norm === "pre") out.push(...norm("ln_final"));
  out.push(["W_U.weight", [c.vocab_size, d], "fan_in"]);
  return out;
}

export function paramShapes(config) {
  return entries(config).map(([name, shape]) => [name, shape]);
}

export function initParams(config, rng) {
  const params = {};
  let fanIn = 1; // a bias takes its weight's fan-in (the entry before it)
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

export function zerosLike(params, Type = Float64Array) {
  return Object.fromEntries(Object.entries(params).map(([k, a]) => [k, new Type(a.length)]));
}
