// The grid of every head, drawn on a canvas: the one renderer of the Explore tab
// (static/explore_grid.js), a notebook's view (static/notebook.js), the Lab's grid
// (static/lab.js) and the static edition (static/site/site.js). Data: explorer/views/
// grid_payload.py's payload. An ES module; each bundle that draws grids puts `grid` below on
// window.AttentionExplorer.grid (the page: static/app.js).
//
//   mount(element, {data, colors, onOpen, noAnswer, sizing}) -> Grid
//     element  the box holding explorer/views/grid_markup.py's markup (.ae-grid with its
//              caption, guesses, canvas and tip)
//     data     async (request, ctx) -> payload | null: where update() gets a grid (a server
//              function, the browser's engine, a payload at hand); null, a throw or
//              {ok: false, retry: true} is "no answer" (the server was busy)
//     colors   {paper, font, muted, accent, scale} the grid is drawn in, or a function of
//              the payload giving them; default: the payload's own `colors`
//     onOpen   (layer, head) => ...: a click on a head, or Enter on it (default: nothing)
//     noAnswer (error, older) -> the caption when there was no answer: error is what data
//              threw (undefined for null or a retry), older is true while an older grid
//              stays on screen. Default: the app's "⏳ The server is busy: …" (its loop
//              asks again); a page without a server (the static edition) passes its own
//     sizing   (payload) -> grid_draw.js layout()'s opts, or null: asked at each draw (the
//              static edition's projector mode: a head as tall as the screen, labels of at
//              least 14 px, thinned). Default: none (the panels and labels as always)
//   grid.update(ctx) -> Promise<bool>  ctx = {knobs: {text, objective, heads, ...}, fresh()}
//              (static/live.js's): asks data(request(ctx.knobs)) and draws the answer if
//              ctx.fresh(); false when there was none (the caller asks again later)
//   grid.draw(payload)                 draws a payload at once
//   request(knobs) -> {text, controls: {objective, heads, ...}}: THE one shape of a
//              keystroke's request (explorer/views/grid_payload.read_request)
//   panel(payload, layer, head) -> the payload of that one head (drawn large: its labels say
//              the model's layer and head)
//   state(canvas) -> what that canvas (or the canvas a selector names) shows, for tests and
//              benchmarks: {drawn, ok, layers, heads, n, tokens, cells, selected, off,
//              geom} (off: [[layer, head], ...] of the model, the heads drawn switched off;
//              geom: {left, top, size, gap, font, every, everyKey}, font 0 without token
//              labels; read-only; undefined before a draw or without such a canvas)
//
// A payload may name heads switched off (p.off: [[layer, head], ...], the browser's engine
// with heads off): their panels are drawn dimmed, striped and labelled "off"
// (grid_draw.js drawOff), and their tip and the canvas's label say so.
//
// Token labels and messages are plain text on a canvas or in textContent: never HTML.
import {
  MARGIN,
  decode,
  drawNames,
  drawOff,
  drawRing,
  drawTokens,
  layout,
  offPanels,
  palette,
} from "./grid_draw.js";

const BUSY = "⏳ The server is busy: trying again…";
const BUSY_OLDER = "⏳ The server is busy: the grid below is for an older sentence. Trying again…";
// the app's words for no answer (its live loop asks again)
const SERVER_WORDS = (error, older) => (older ? BUSY_OLDER : BUSY);
// Where a canvas keeps what it shows (state() reads it): a registered symbol, so that two
// bundles holding this module (a notebook with several views) read each other's grids.
const SHOWN = Symbol.for("AttentionExplorer.grid.shown");

// The request of one keystroke: the sentence, and every other knob by its name (the live
// loop's names: explorer/ui/controls.KNOB_NAMES = "text" + views/controls.CONTROL_NAMES).
export function request(knobs) {
  const { text, ...controls } = knobs || {};
  return { text: text == null ? "" : String(text), controls };
}

// One head of a payload as a payload of its own: panel (layer, head) cut out of the mosaic.
export function panel(p, layer, head) {
  const s = atob(p.z),
    n = p.n,
    width = p.heads * n;
  let z = "";
  for (let q = 0; q < n; q++) z += s.substr((layer * n + q) * width + head * n, n);
  return { ...p, layers: 1, heads: 1, z: btoa(z), selected: [0, 0], at: [layer, head] };
}

export function state(canvas) {
  const c = typeof canvas === "string" ? document.querySelector(canvas) : canvas;
  return c ? c[SHOWN] : undefined;
}

class Grid {
  constructor(
    element,
    { data = null, colors = null, onOpen = null, noAnswer = null, sizing = null } = {},
  ) {
    this.element = element;
    this.sizing = sizing;
    this.data = data;
    this.colors = colors;
    this.onOpen = onOpen || (() => {});
    this.noAnswer = noAnswer || SERVER_WORDS;
    this.canvas = element.querySelector("canvas");
    this.caption = element.querySelector(".ae-grid-caption");
    this.guesses = element.querySelector(".ae-grid-guesses");
    this.tip = element.querySelector(".ae-grid-tip");
    // one pixel per cell, painted once per payload
    this.mosaic = globalThis.document.createElement("canvas");
    this.shown = null; // the payload on screen
    this.cells = null; // its decoded weights (uint8, whole percent)
    this.geom = null; // where its panels are (css px), for hover and click
    this.drawn = 0; // grids drawn so far
    this.cursor = null; // [layer, head] chosen with the keyboard while the canvas has focus
    this.listen();
    new ResizeObserver(() => this.redraw()).observe(element);
  }

  coloursOf(p) {
    const c = typeof this.colors === "function" ? this.colors(p) : this.colors;
    return c || p.colors;
  }

  paintMosaic(p) {
    const w = p.heads * p.n,
      h = p.layers * p.n,
      colours = palette(this.coloursOf(p).scale);
    const cells = (this.cells = decode(p.z));
    const img = new ImageData(w, h),
      d = img.data;
    for (let i = 0; i < cells.length; i++) {
      const c = Math.min(cells[i], 100) * 3;
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
    this.guesses.textContent =
      p.ok && p.guesses && p.guesses.length
        ? "Guesses for the " +
          p.where +
          ": " +
          p.guesses.map(([t, q]) => "“" + t + "” " + Math.round(q * 100) + "%").join("  ")
        : "";
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
    const p = this.shown,
      canvas = this.canvas;
    if (!p || !p.ok) return;
    const width = Math.max(200, this.element.clientWidth || 600),
      colours = this.coloursOf(p);
    const g = layout(p, width, (this.sizing && this.sizing(p)) || undefined),
      n = p.n,
      dpr = globalThis.devicePixelRatio || 1;
    canvas.style.width = width + "px";
    canvas.style.height = g.height + "px";
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(g.height * dpr);
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = colours.paper;
    ctx.fillRect(0, 0, width, g.height);
    ctx.imageSmoothingEnabled = false; // one flat square per weight, no blur
    for (let l = 0; l < p.layers; l++) {
      for (let h = 0; h < p.heads; h++) {
        ctx.drawImage(this.mosaic, h * n, l * n, n, n, g.x(h), g.y(l), g.size, g.size);
      }
    }
    const off = offPanels(p);
    for (const at of off) drawOff(ctx, g, at, colours.paper);
    drawNames(ctx, p, g, colours);
    ctx.fillStyle = colours.muted;
    if (g.tokens) drawTokens(ctx, p, g);
    const [sl, sh] = p.selected;
    ctx.strokeStyle = colours.accent;
    ctx.lineWidth = 2.5;
    ctx.strokeRect(g.x(sh) - 1.5, g.y(sl) - 1.5, g.size + 3, g.size + 3);
    if (this.cursor) drawRing(ctx, g, this.cursor, colours.paper);
    this.remember(p, g, off);
  }

  // What the canvas now shows: its label (for a screen reader) and state()'s record.
  remember(p, g, off) {
    const [l0, h0] = p.at || [0, 0],
      n = p.n;
    const offHeads = off.map(([l, h]) => [l0 + l, h0 + h]);
    const offNames = offHeads.map(([l, h]) => `L${l} H${h}`).join(", ");
    this.canvas.setAttribute(
      "aria-label",
      `Attention of every head: ${p.layers} layers × ${p.heads} heads, ${n} tokens. ` +
        (offNames ? `Switched off: ${offNames}. ` : "") +
        "Click a square, or use the arrow keys and Enter, to open it large.",
    );
    this.geom = g;
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
        left: g.left,
        top: g.top,
        size: g.size,
        gap: MARGIN.gap,
        font: g.tokens ? g.font : 0,
        every: g.every,
        everyKey: g.everyKey,
      },
    };
  }

  // (layer, head, query, key) under a point of the canvas (css px), or null.
  hit(x, y) {
    const p = this.shown,
      g = this.geom;
    if (!p || !g) return null;
    const h = Math.floor((x - g.left) / (g.size + MARGIN.gap));
    const l = Math.floor((y - g.top) / (g.size + MARGIN.gap));
    if (h < 0 || h >= p.heads || l < 0 || l >= p.layers) return null;
    const dx = x - g.x(h),
      dy = y - g.y(l);
    if (dx < 0 || dy < 0 || dx >= g.size || dy >= g.size) return null;
    return [l, h, Math.floor((dy / g.size) * p.n), Math.floor((dx / g.size) * p.n)];
  }

  // The tip at (left, top) of the canvas (css px), inside the grid's box.
  say(text, left, top) {
    const tip = this.tip,
      canvas = this.canvas;
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
    const [l, h, q, k] = at,
      p = this.shown,
      [l0, h0] = p.at || [0, 0];
    const w = this.cells[(l * p.n + q) * p.heads * p.n + h * p.n + k];
    const isOff = offPanels(p).some(([ol, oh]) => ol === l && oh === h);
    const text =
      `L${l0 + l} H${h0 + h}${isOff ? " (switched off)" : ""} · ` +
      `query ${q} ${p.tokens[q]} → key ${k} ${p.tokens[k]}: ${w}%`;
    this.say(text, ev.offsetX + 12, ev.offsetY + 14);
  }

  // The keyboard: Tab to the grid, arrows move the ring, Enter opens that head.
  key(ev) {
    const p = this.shown,
      g = this.geom;
    if (!p || !p.ok || !this.cursor) return;
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (step[ev.key]) {
      const [dl, dh] = step[ev.key],
        c = this.cursor;
      this.cursor = [
        Math.min(p.layers - 1, Math.max(0, c[0] + dl)),
        Math.min(p.heads - 1, Math.max(0, c[1] + dh)),
      ];
      this.say(
        "L" + this.cursor[0] + " H" + this.cursor[1] + ": Enter opens it large",
        g.x(this.cursor[1]) + 4,
        g.y(this.cursor[0]) + g.size - 8,
      );
      this.redraw();
    } else if (ev.key === "Enter" || ev.key === " ") {
      this.onOpen(this.cursor[0], this.cursor[1]);
    } else {
      return;
    }
    ev.preventDefault(); // arrows and space would scroll the page
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
    let answer = null,
      error;
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
        if (this.caption.textContent !== text) this.caption.textContent = text; // aria-live: once
      }
    }
    return ok;
  }
}

export function mount(element, options) {
  return new Grid(element, options);
}

// What a bundle puts on window.AttentionExplorer.grid.
export const grid = { mount, request, panel, state };
