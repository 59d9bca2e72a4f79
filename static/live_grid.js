// The Explore tab's grid of every head, drawn on a canvas (the js_on_load of the gr.HTML
// in explorer/ui/explore_tab.py; Gradio runs it once per mount with element, trigger, props,
// server, upload and watch in scope). Data: explorer/views/grid_payload.py.
//
// The grid arrives by one way: the page's live loop (static/live.js, which says how a
// keystroke travels) calls this script's update() for every change while Explore is open,
// and this script asks the server itself (server.grid_data, one plain POST; no queue, no
// server-sent events) and draws the answer, or tells the loop there was none (the server
// was busy: the loop asks again). The loop also asks for the tab's slower figures once
// typing pauses (its settled event, explorer/ui/explore_tab.py).
// Token labels and messages are plain text on a canvas or in textContent: never HTML.

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif';
const MARGIN = { top: 20, right: 28, gap: 4, tokensLeft: 70, tokensBottom: 62 };
// css px: one panel never larger than this. 240, so that at a laptop's width the default
// 21-token sentence gets cells tall enough for token labels (at 160 it got none).
const MAX_PANEL = 240;
const MIN_LABELLED_CELL = 9; // css px: token labels only when a cell is at least this tall

const canvas = element.querySelector("canvas");
const caption = element.querySelector(".ae-grid-caption");
const guesses = element.querySelector(".ae-grid-guesses");
const tip = element.querySelector(".ae-grid-tip");
const mosaic = document.createElement("canvas"); // one pixel per cell, drawn once per payload
let shown = null; // the payload on screen
let cells = null; // its decoded weights (uint8, whole percent)
let geom = null; // where its panels are (css px), for hover and click
let drawn = 0; // grids drawn so far
let cursor = null; // [layer, head] chosen with the keyboard while the canvas has focus

const click = (id) => document.getElementById(id)?.click();

function rgb(hex) {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

// Colour of each whole percent 0..100, interpolated between the scale's stops as Plotly does.
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

// The keyboard cursor's ring: static/style.css's focus colour for the paper's theme (the
// notebook has no page stylesheet), and the paper's own colour inside it.
function focusColours(paper) {
  const [r, g, b] = rgb(paper);
  const dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  return { outer: dark ? "#93c5fd" : "#1d4ed8", inner: paper };
}

function decode(b64) {
  const s = atob(b64), out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function paintMosaic(p) {
  const w = p.heads * p.n, h = p.layers * p.n, colours = palette(p.colors.scale);
  cells = decode(p.z);
  const img = new ImageData(w, h), d = img.data;
  for (let i = 0; i < cells.length; i++) {
    const c = Math.min(cells[i], 100) * 3;
    d[4 * i] = colours[c]; d[4 * i + 1] = colours[c + 1]; d[4 * i + 2] = colours[c + 2];
    d[4 * i + 3] = 255;
  }
  mosaic.width = w; mosaic.height = h;
  mosaic.getContext("2d").putImageData(img, 0, 0);
}

// Panel size and margins for this width: token labels when the cells are big enough.
function layout(p, width) {
  const fit = (left, bottom) => {
    const across = (width - left - MARGIN.right - MARGIN.gap * (p.heads - 1)) / p.heads;
    const size = Math.max(8, Math.floor(Math.min(MAX_PANEL, across)));
    return { left, bottom, size };
  };
  let g = fit(MARGIN.tokensLeft, MARGIN.tokensBottom);
  g.tokens = g.size / p.n >= MIN_LABELLED_CELL;
  if (!g.tokens) g = { ...fit(0, 0), tokens: false };
  g.top = MARGIN.top;
  g.height = g.top + p.layers * g.size + MARGIN.gap * (p.layers - 1) + g.bottom + 4;
  g.x = (h) => g.left + h * (g.size + MARGIN.gap);
  g.y = (l) => g.top + l * (g.size + MARGIN.gap);
  return g;
}

function draw(p) {
  shown = p;
  if (!p) return;
  caption.textContent = p.caption || "";
  guesses.textContent = p.ok && p.guesses && p.guesses.length
    ? "Guesses for the " + p.where + ": "
      + p.guesses.map(([t, q]) => "“" + t + "” " + Math.round(q * 100) + "%").join("  ")
    : "";
  if (!p.ok) {
    canvas.hidden = true; geom = null; cells = null; tip.hidden = true;
    drawn += 1;
    canvas.__aeGrid = { drawn, ok: false };
    return;
  }
  canvas.hidden = false;
  if (cursor) cursor = [Math.min(cursor[0], p.layers - 1), Math.min(cursor[1], p.heads - 1)];
  paintMosaic(p);
  redraw();
}

function redraw() {
  const p = shown;
  if (!p || !p.ok) return;
  const width = Math.max(200, element.clientWidth || 600);
  const g = layout(p, width), n = p.n, dpr = window.devicePixelRatio || 1;
  canvas.style.width = width + "px";
  canvas.style.height = g.height + "px";
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(g.height * dpr);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = p.colors.paper;
  ctx.fillRect(0, 0, width, g.height);
  ctx.imageSmoothingEnabled = false; // one flat square per weight, no blur
  for (let l = 0; l < p.layers; l++) {
    for (let h = 0; h < p.heads; h++) {
      ctx.drawImage(mosaic, h * n, l * n, n, n, g.x(h), g.y(l), g.size, g.size);
    }
  }
  ctx.fillStyle = p.colors.font;
  ctx.font = "11px " + FONT;
  ctx.textAlign = "center"; ctx.textBaseline = "bottom";
  // p.at: the model's [layer, head] of the first panel (a notebook's one large head,
  // explorer/notebook.py), else [0, 0]
  const [l0, h0] = p.at || [0, 0];
  for (let h = 0; h < p.heads; h++) {
    ctx.fillText("H" + (h0 + h), g.x(h) + g.size / 2, g.top - 4);
  }
  ctx.textAlign = "left"; ctx.textBaseline = "middle";
  const right = g.x(p.heads - 1) + g.size + 6;
  for (let l = 0; l < p.layers; l++) ctx.fillText("L" + (l0 + l), right, g.y(l) + g.size / 2);
  if (g.tokens) {
    const cell = g.size / n;
    // as large as a row allows, 9 to 13 px
    ctx.font = Math.max(9, Math.min(13, Math.floor(cell * 0.9))) + "px " + FONT;
    ctx.fillStyle = p.colors.muted;
    ctx.textAlign = "right";
    for (let l = 0; l < p.layers; l++) {
      for (let q = 0; q < n; q++) {
        ctx.fillText(p.tokens[q], g.left - 4, g.y(l) + (q + 0.5) * cell, g.left - 6);
      }
    }
    const bottom = g.y(p.layers - 1) + g.size + 4;
    for (let h = 0; h < p.heads; h++) {
      for (let k = 0; k < n; k++) {
        ctx.save();
        ctx.translate(g.x(h) + (k + 0.5) * cell, bottom);
        ctx.rotate(-Math.PI / 3);
        ctx.fillText(p.tokens[k], 0, 0, g.bottom);
        ctx.restore();
      }
    }
  }
  const [sl, sh] = p.selected;
  ctx.strokeStyle = p.colors.accent;
  ctx.lineWidth = 2.5;
  ctx.strokeRect(g.x(sh) - 1.5, g.y(sl) - 1.5, g.size + 3, g.size + 3);
  if (cursor) { // keyboard focus: a ring round the whole panel Enter would open
    const [cl, ch] = cursor, ring = focusColours(p.colors.paper);
    const x = g.x(ch), y = g.y(cl), s = g.size, outer = Math.min(4, s / 6);
    const inner = Math.min(2, s / 12);
    // two tones, so that one of them stands out on every colour of the scale: the page's
    // focus blue (>= 6:1 on the paper) at the panel's edge, the paper's colour inside it
    ctx.lineWidth = outer;
    ctx.strokeStyle = ring.outer;
    ctx.strokeRect(x + outer / 2, y + outer / 2, s - outer, s - outer);
    ctx.lineWidth = inner;
    ctx.strokeStyle = ring.inner;
    ctx.strokeRect(x + outer + inner / 2, y + outer + inner / 2, s - 2 * outer - inner,
                   s - 2 * outer - inner);
  }
  canvas.setAttribute("aria-label", "Attention of every head: " + p.layers + " layers × "
    + p.heads + " heads, " + n + " tokens. Click a square, or use the arrow keys and "
    + "Enter, to open it large.");
  geom = g;
  // What is on screen, for tests and benchmarks (read-only copies of this script's state).
  drawn += 1;
  canvas.__aeGrid = { drawn, ok: true, layers: p.layers, heads: p.heads, n, tokens: p.tokens,
    cells, selected: p.selected, geom: { left: g.left, top: g.top, size: g.size,
      gap: MARGIN.gap } };
}

// (layer, head, query, key) under a point of the canvas (css px), or null.
function hit(x, y) {
  const p = shown, g = geom;
  if (!p || !g) return null;
  const h = Math.floor((x - g.left) / (g.size + MARGIN.gap));
  const l = Math.floor((y - g.top) / (g.size + MARGIN.gap));
  if (h < 0 || h >= p.heads || l < 0 || l >= p.layers) return null;
  const dx = x - g.x(h), dy = y - g.y(l);
  if (dx < 0 || dy < 0 || dx >= g.size || dy >= g.size) return null;
  return [l, h, Math.floor((dy / g.size) * p.n), Math.floor((dx / g.size) * p.n)];
}

canvas.addEventListener("mousemove", (ev) => {
  const at = hit(ev.offsetX, ev.offsetY);
  canvas.style.cursor = at ? "pointer" : "default";
  if (!at) { tip.hidden = true; return; }
  const [l, h, q, k] = at, p = shown, [l0, h0] = p.at || [0, 0];
  const w = cells[(l * p.n + q) * p.heads * p.n + h * p.n + k];
  tip.textContent = "L" + (l0 + l) + " H" + (h0 + h) + " · query " + q + " " + p.tokens[q]
    + " → key " + k + " " + p.tokens[k] + ": " + w + "%";
  tip.hidden = false;
  // the tip sits in the grid's box, the canvas below the caption lines: canvas offsets
  const left = Math.min(canvas.offsetLeft + ev.offsetX + 12,
                        Math.max(0, element.clientWidth - tip.offsetWidth));
  tip.style.left = left + "px";
  tip.style.top = (canvas.offsetTop + ev.offsetY + 14) + "px";
});
canvas.addEventListener("mouseleave", () => { tip.hidden = true; });
function openHead(layer, head) {
  window.__aeSelect = [layer, head];
  click("grid-select"); // explorer/ui/explore_tab.py: sets the layer and head sliders
}
canvas.addEventListener("click", (ev) => {
  const at = hit(ev.offsetX, ev.offsetY);
  if (at) openHead(at[0], at[1]);
});
// The keyboard: Tab to the grid, arrows move the ring, Enter opens that head.
canvas.tabIndex = 0;
canvas.addEventListener("focus", () => {
  if (shown && shown.ok) { cursor = [...shown.selected]; redraw(); }
});
canvas.addEventListener("blur", () => { cursor = null; tip.hidden = true; redraw(); });
canvas.addEventListener("keydown", (ev) => {
  const p = shown;
  if (!p || !p.ok || !cursor) return;
  const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (step[ev.key]) {
    const [dl, dh] = step[ev.key];
    cursor = [Math.min(p.layers - 1, Math.max(0, cursor[0] + dl)),
              Math.min(p.heads - 1, Math.max(0, cursor[1] + dh))];
    tip.textContent = "L" + cursor[0] + " H" + cursor[1] + ": Enter opens it large";
    tip.hidden = false;
    tip.style.left = (canvas.offsetLeft + geom.x(cursor[1]) + 4) + "px";
    tip.style.top = (canvas.offsetTop + geom.y(cursor[0]) + geom.size - 8) + "px";
    redraw();
  } else if (ev.key === "Enter" || ev.key === " ") {
    openHead(cursor[0], cursor[1]);
  } else {
    return;
  }
  ev.preventDefault(); // arrows and space would scroll the page
});
new ResizeObserver(() => redraw()).observe(element);

// ------------------------------------------------------------ the live loop asks for a grid
// static/live.js calls update() for every change of the box or a knob while Explore is open
// (one at a time; changes made meanwhile collapse into one more call). ctx.values: the
// sentence and the knobs in explorer/ui/controls.KNOB_NAMES order. One plain POST, no queue.
//
// Not an answer: the server said it is busy ({ok: false, retry: true, caption}), refused
// the POST (HTTP 429 from explorer/server/client_guard.py) or did not reply. Gradio's
// server.* resolves to undefined when the POST fails (it logs and swallows the error);
// other versions throw. Then the grid on screen stays, its caption says it is for an older
// sentence, and update() returns false: the loop asks again, with the newest sentence, after
// a short backoff. {ok: false} without retry (nothing typed, no such model) is an answer.
const VIEW = element.querySelector("[data-view]").dataset.view;

function waiting() {
  const text = shown && shown.ok
    ? "⏳ The server is busy: the grid below is for an older sentence. Trying again…"
    : "⏳ The server is busy: trying again…";
  if (caption.textContent !== text) caption.textContent = text; // aria-live: say it once
}

// The browser engine first (issue 38): where the app's page loaded it (explorer/server/engine_route.py
// sets gridInBrowser) and it holds the chosen model, static/engine/payload.js builds the same
// payload with no request; null (the Lab model, weights not yet here: their download starts)
// or any error: the server, as before. A plain line under the caption says which answered.
async function inBrowser(text, controls) {
  const AE = window.AttentionExplorer;
  if (!AE.gridInBrowser || !AE.gridPayload) return null;
  try {
    return await AE.gridPayload(text, controls, {});
  } catch (e) {
    return null;
  }
}

let whereLine = null;
function sayWhere(where) {
  if (!window.AttentionExplorer.gridInBrowser) return; // a page without the engine says nothing
  if (!whereLine) {
    whereLine = document.createElement("div");
    whereLine.className = "ae-grid-where"; // static/style.css
    caption.after(whereLine);
  }
  const text = where === "browser" ? "Computed in your browser." : "Computed on the server.";
  if (whereLine.textContent !== text) whereLine.textContent = text;
}

window.AttentionExplorer.live.register(VIEW, {
  async update(ctx) {
    const [text, ...controls] = ctx.values;
    const sentence = text == null ? "" : String(text);
    let answer = await inBrowser(sentence, controls), where = "browser";
    if (!answer) {
      where = "server";
      try {
        answer = await server.grid_data({ text: sentence, controls });
      } catch (e) {
        answer = null; // refused or no reply: as below
      }
    }
    const ok = !!answer && typeof answer === "object" && !(answer.ok === false && answer.retry);
    if (ctx.fresh()) { // else a newer change is on its way: the loop asks again anyway
      if (ok) { draw(answer); sayWhere(where); } else waiting();
    }
    return ok;
  },
});
