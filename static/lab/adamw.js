// AdamW as torch.optim.AdamW computes it (single-tensor, no amsgrad), with the Lab's
// hyper-parameters (explorer/training/lab.py run_lab): lr 3e-3 (the settings' lr), betas
// (0.9, 0.98), eps 1e-8, weight decay 0 on every parameter; a constant learning rate and
// no gradient clipping. Per step t (from 1), per parameter tensor:
//   p *= 1 - lr wd;  m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
//   p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
//
//   makeAdamW(params, {lr, betas, eps, weight_decay}) -> {step(grads), t}
//       params {name: Float32Array} updated in place; grads {name: Float64Array}; the
//       moments m and v are kept in float64
export const LAB_ADAMW = Object.freeze({
  lr: 3e-3,
  betas: [0.9, 0.98],
  eps: 1e-8,
  weight_decay: 0,
});

export function makeAdamW(params, hp = {}) {
  const { lr, betas, eps, weight_decay: wd } = { ...LAB_ADAMW, ...hp };
  const [b1, b2] = betas;
  const m = {},
    v = {};
  for (const [k, a] of Object.entries(params)) {
    m[k] = new Float64Array(a.length);
    v[k] = new Float64Array(a.length);
  }
  const opt = {
    t: 0,
    step(grads) {
      opt.t += 1;
      const stepSize = lr / (1 - b1 ** opt.t),
        root2 = Math.sqrt(1 - b2 ** opt.t);
      for (const [k, p] of Object.entries(params)) {
        const g = grads[k],
          mk = m[k],
          vk = v[k];
        for (let i = 0; i < p.length; i++) {
          if (wd) p[i] *= 1 - lr * wd;
          mk[i] = b1 * mk[i] + (1 - b1) * g[i];
          vk[i] = b2 * vk[i] + (1 - b2) * g[i] * g[i];
          p[i] -= (stepSize * mk[i]) / (Math.sqrt(vk[i]) / root2 + eps);
        }
      }
    },
  };
  return opt;
}
