// The grid's caption in words, from explorer/views/engine_texts.py's JSON ``t`` (every
// sentence comes from there: one source, Python): the token count, the experiment's
// interventions (explorer/models/settings.py) and the notices of run.py's prepare and
// analyse, rebuilt from the facts the engine reports.
import { points, runOf } from "./labels.js";

const fill = (template, values) =>
  template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
// n.toLocaleString("en-US") is this formatter's format(n), made anew on every call
const EN_US = new Intl.NumberFormat("en-US");
export function plural(t, n, word) {
  const [one, many] = t.plural[word];
  return EN_US.format(n) + " " + (n === 1 ? one : many);
}
const fmtG = (x) => String(Number(x.toPrecision(6))); // Python's {:g} for 0.1..5

export function interventions(t, config, knobs) {
  const iv = t.interventions,
    out = [];
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
  let chars = 0,
    tokens = 0; // run.py _byte_tokens
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
    what: kinds.length ? kinds.join(n.what_join) : n.what_default,
  });
  if (chars) {
    notice += fill(n.unfamiliar_bytes, {
      chars: plural(t, chars, "character"),
      tokens: plural(t, tokens, "byte token"),
    });
  }
  return notice;
}

// run.py prepare's and analyse's notices, from the facts the engine reports
export function notices(t, r, read) {
  const n = t.notices,
    out = [];
  if (r.cutTokens) {
    out.push(
      fill(n.cut_tokens, { n_ctx: r.config.n_ctx, kept: plural(t, r.keptChars, "character") }),
    );
  } else if (r.cutChars) out.push(n.cut_chars);
  const u = unfamiliar(t, read, r.tokens);
  if (u) out.push(u);
  if (r.maskMissing) out.push(n.mask_hint);
  return out;
}

// grid_payload.plain_status: our Markdown as one plain line
export const plainStatus = (md) =>
  md
    .replace(/[*`]/g, "")
    .replace(/\s*\n+\s*/g, " ")
    .trim();
