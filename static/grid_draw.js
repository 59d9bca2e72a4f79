// The grid renderer's drawing helpers (static/live_grid.js draws with them): the colour
// scale as a palette of whole percents, the panels' layout for a width, token labels, the
// keyboard's focus ring and the heads switched off. Pure functions of a payload
// (explorer/views/grid_payload.py's) and a 2D context; no state, no DOM beyond the context
// they are handed.

export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif';
export const MARGIN = { top: 20, right: 28, gap: 4, tokensLeft: 70, tokensBottom: 62 };
// css px: one panel never larger than this. 240, so that at a laptop's width the default
// 21-token sentence gets cells tall enough for token labels (at 160 it got none).
const MAX_PANEL = 240;
const MIN_LABELLED_CELL = 9; // css px: token labels only when a cell is at least this tall

function rgb(hex) {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

// Colour of each whole percent 0..100 (Uint8ClampedArray [101 * 3]), interpolated between
// the scale's stops ([[t, "#rrggbb"], ...]) as Plotly does.
export function palette(scale) {
  const out = new Uint8ClampedArray(101 * 3);
  for (let v = 0; v <= 100; v++) {
    const t = v / 100;
    let i = 0;
    while (i < scale.length - 2 && t > scale[i + 1][0]) i++;
    const [t0, c0] = scale[i],
      [t1, c1] = scale[i + 1];
    const f = t1 > t0 ? Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : 0;
    const a = rgb(c0),
      b = rgb(c1);
    for (let k = 0; k < 3; k++) out[v * 3 + k] = Math.round(a[k] + f * (b[k] - a[k]));
  }
  return out;
}

// The keyboard cursor's ring: the page's focus colour for the paper's theme (the notebook
// has no page stylesheet), and the paper's own colour inside it.
function focusColours(paper) {
  const [r, g, b] = rgb(paper);
  const dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  return { outer: dark ? "#93c5fd" : "#1d4ed8", inner: paper };
}

// base64 -> Uint8Array (the payload's weights, whole percent).
export function decode(b64) {
  const s = atob(b64),
    out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

// Panel size and margins for this width (css px): token labels when the cells are big enough.
// opts (a page's own sizing; none: the app's grids, as they always were):
//   maxPanel  the largest panel (default 240)
//   height    the most css px the canvas may be tall (a head drawn to fill a screen)
//   font      [least, most] px of the token labels (default [9, 13]: as a row allows)
//   thin      labels at least `least` px even where rows are smaller: then only every
//             g.every-th row and g.everyKey-th column is labelled (the tip names each)
// -> {left, bottom, size, tokens, font, every, everyKey, nameFont, top, height, x(head),
//     y(layer)}
export function layout(p, width, opts = {}) {
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
  const fontFor = (g) => Math.max(least, Math.min(most, Math.floor((g.size / p.n) * 0.9)));
  let g = fit(MARGIN.tokensLeft, MARGIN.tokensBottom);
  if (opts.thin) {
    // margins as wide as labels of this size need, then the font the rows now allow
    const grow = fontFor(g) / 13;
    g = fit(Math.round(MARGIN.tokensLeft * grow), Math.round(MARGIN.tokensBottom * grow));
    g.tokens = g.size >= 4 * least;
  } else {
    g.tokens = g.size / p.n >= MIN_LABELLED_CELL;
  }
  if (!g.tokens) g = { ...fit(0, 0), tokens: false };
  const cell = g.size / p.n;
  g.font = fontFor(g);
  // a label's line needs ~1.15 font px: rows, and columns slanted at 60 degrees
  g.every = opts.thin ? Math.max(1, Math.ceil((g.font * 1.15) / cell)) : 1;
  g.everyKey = opts.thin ? Math.max(1, Math.ceil((g.font * 1.15) / (cell * 0.866))) : 1;
  g.nameFont = opts.font ? Math.max(11, least) : 11;
  g.top = MARGIN.top;
  g.height = g.top + p.layers * g.size + MARGIN.gap * (p.layers - 1) + g.bottom + 4;
  g.x = (h) => g.left + h * (g.size + MARGIN.gap);
  g.y = (l) => g.top + l * (g.size + MARGIN.gap);
  return g;
}

// Token labels left of each row and under each column (p.tokens: plain text), every
// g.every-th row and g.everyKey-th column (all of them but where layout() thinned them).
export function drawTokens(ctx, p, g) {
  const n = p.n,
    cell = g.size / n;
  ctx.font = g.font + "px " + FONT;
  ctx.textAlign = "right";
  for (let l = 0; l < p.layers; l++) {
    for (let q = 0; q < n; q += g.every) {
      ctx.fillText(p.tokens[q], g.left - 4, g.y(l) + (q + 0.5) * cell, g.left - 6);
    }
  }
  const bottom = g.y(p.layers - 1) + g.size + 4;
  for (let h = 0; h < p.heads; h++) {
    for (let k = 0; k < n; k += g.everyKey) {
      ctx.save();
      ctx.translate(g.x(h) + (k + 0.5) * cell, bottom);
      ctx.rotate(-Math.PI / 3);
      ctx.fillText(p.tokens[k], 0, 0, g.bottom);
      ctx.restore();
    }
  }
}

// The layer and head names around the panels (p.at: the model's [layer, head] of the first
// panel when one head is drawn large, else [0, 0]).
export function drawNames(ctx, p, g, colours) {
  ctx.fillStyle = colours.font;
  ctx.font = (g.nameFont || 11) + "px " + FONT;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  const [l0, h0] = p.at || [0, 0];
  for (let h = 0; h < p.heads; h++) {
    ctx.fillText("H" + (h0 + h), g.x(h) + g.size / 2, g.top - 4);
  }
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  const right = g.x(p.heads - 1) + g.size + 6;
  for (let l = 0; l < p.layers; l++) ctx.fillText("L" + (l0 + l), right, g.y(l) + g.size / 2);
}

// The panels drawn switched off: p.off ([[layer, head], ...], the model's heads switched
// off; absent: none) as [layer, head] of the panels of this payload (p.at: the model's
// head of its first panel, when one head is drawn large), in order, each once.
export function offPanels(p) {
  const [l0, h0] = p.at || [0, 0];
  const seen = new Set(),
    out = [];
  for (const pair of p.off || []) {
    const l = Number(pair[0]) - l0,
      h = Number(pair[1]) - h0;
    if (!(l >= 0 && l < p.layers && h >= 0 && h < p.heads) || seen.has(l * 1e6 + h)) continue;
    seen.add(l * 1e6 + h);
    out.push([l, h]);
  }
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

// A head switched off, drawn so that colour is not the only sign: a grey veil dims its
// panel (the app's Ablate grid's, explorer/figures/compare.py mark_heads_off), light
// diagonal stripes cross it, and a dark label says "off" in its middle.
export function drawOff(ctx, g, [l, h], paper) {
  const x = g.x(h),
    y = g.y(l),
    s = g.size;
  const [r, gr, b] = rgb(paper);
  const dark = 0.2126 * r + 0.7152 * gr + 0.0722 * b < 128;
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, s, s);
  ctx.clip();
  ctx.fillStyle = dark ? "rgba(20,20,20,0.65)" : "rgba(110,110,110,0.6)";
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
    const w = ctx.measureText("off").width + size * 0.8,
      hgt = size * 1.4;
    ctx.fillStyle = "rgba(17,24,39,0.9)";
    ctx.fillRect(x + (s - w) / 2, y + (s - hgt) / 2, w, hgt);
    ctx.fillStyle = "#ffffff";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText("off", x + s / 2, y + s / 2);
  }
  ctx.restore();
}

// Keyboard focus: a ring round the whole panel Enter would open, in two tones, so that
// one of them stands out on every colour of the scale: the page's focus blue (>= 6:1 on
// the paper) at the panel's edge, the paper's colour inside it.
export function drawRing(ctx, g, [cl, ch], paper) {
  const ring = focusColours(paper);
  const x = g.x(ch),
    y = g.y(cl),
    s = g.size,
    outer = Math.min(4, s / 6);
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
    s - 2 * outer - inner,
  );
}
