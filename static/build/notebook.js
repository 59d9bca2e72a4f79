// Built by scripts/build_js.mjs from static/ (npm run build): do not edit.
(() => {
  // static/grid_draw.js
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif';
  var MARGIN = { top: 20, right: 28, gap: 4, tokensLeft: 70, tokensBottom: 62 };
  var MAX_PANEL = 240;
  var MIN_LABELLED_CELL = 9;
  function rgb(hex) {
    return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
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
    const [r, g, b] = rgb(paper);
    const dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
    return { outer: dark ? "#93c5fd" : "#1d4ed8", inner: paper };
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
    const fontFor = (g2) => Math.max(least, Math.min(most, Math.floor(g2.size / p.n * 0.9)));
    let g = fit(MARGIN.tokensLeft, MARGIN.tokensBottom);
    if (opts.thin) {
      const grow = fontFor(g) / 13;
      g = fit(Math.round(MARGIN.tokensLeft * grow), Math.round(MARGIN.tokensBottom * grow));
      g.tokens = g.size >= 4 * least;
    } else {
      g.tokens = g.size / p.n >= MIN_LABELLED_CELL;
    }
    if (!g.tokens) g = { ...fit(0, 0), tokens: false };
    const cell = g.size / p.n;
    g.font = fontFor(g);
    g.every = opts.thin ? Math.max(1, Math.ceil(g.font * 1.15 / cell)) : 1;
    g.everyKey = opts.thin ? Math.max(1, Math.ceil(g.font * 1.15 / (cell * 0.866))) : 1;
    g.nameFont = opts.font ? Math.max(11, least) : 11;
    g.top = MARGIN.top;
    g.height = g.top + p.layers * g.size + MARGIN.gap * (p.layers - 1) + g.bottom + 4;
    g.x = (h) => g.left + h * (g.size + MARGIN.gap);
    g.y = (l) => g.top + l * (g.size + MARGIN.gap);
    return g;
  }
  function drawTokens(ctx, p, g) {
    const n = p.n, cell = g.size / n;
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
  function drawNames(ctx, p, g, colours) {
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
  function drawOff(ctx, g, [l, h], paper) {
    const x = g.x(h), y = g.y(l), s = g.size;
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
  function drawRing(ctx, g, [cl, ch], paper) {
    const ring = focusColours(paper);
    const x = g.x(ch), y = g.y(cl), s = g.size, outer = Math.min(4, s / 6);
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
  var BUSY = "⏳ The server is busy: trying again…";
  var BUSY_OLDER = "⏳ The server is busy: the grid below is for an older sentence. Trying again…";
  var SERVER_WORDS = (error, older) => older ? BUSY_OLDER : BUSY;
  var SHOWN = /* @__PURE__ */ Symbol.for("AttentionExplorer.grid.shown");
  function request(knobs) {
    const { text, ...controls } = knobs || {};
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
    constructor(element, { data = null, colors = null, onOpen = null, noAnswer = null, sizing = null } = {}) {
      this.element = element;
      this.sizing = sizing;
      this.data = data;
      this.colors = colors;
      this.onOpen = onOpen || (() => {
      });
      this.noAnswer = noAnswer || SERVER_WORDS;
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
      const cells = this.cells = decode(p.z);
      const img = new ImageData(w, h), d = img.data;
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
      const g = layout(p, width, this.sizing && this.sizing(p) || void 0), n = p.n, dpr = globalThis.devicePixelRatio || 1;
      canvas.style.width = width + "px";
      canvas.style.height = g.height + "px";
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(g.height * dpr);
      const ctx = canvas.getContext("2d");
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.fillStyle = colours.paper;
      ctx.fillRect(0, 0, width, g.height);
      ctx.imageSmoothingEnabled = false;
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
      const [l0, h0] = p.at || [0, 0], n = p.n;
      const offHeads = off.map(([l, h]) => [l0 + l, h0 + h]);
      const offNames = offHeads.map(([l, h]) => `L${l} H${h}`).join(", ");
      this.canvas.setAttribute(
        "aria-label",
        `Attention of every head: ${p.layers} layers × ${p.heads} heads, ${n} tokens. ` + (offNames ? `Switched off: ${offNames}. ` : "") + "Click a square, or use the arrow keys and Enter, to open it large."
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
          everyKey: g.everyKey
        }
      };
    }
    // (layer, head, query, key) under a point of the canvas (css px), or null.
    hit(x, y) {
      const p = this.shown, g = this.geom;
      if (!p || !g) return null;
      const h = Math.floor((x - g.left) / (g.size + MARGIN.gap));
      const l = Math.floor((y - g.top) / (g.size + MARGIN.gap));
      if (h < 0 || h >= p.heads || l < 0 || l >= p.layers) return null;
      const dx = x - g.x(h), dy = y - g.y(l);
      if (dx < 0 || dy < 0 || dx >= g.size || dy >= g.size) return null;
      return [l, h, Math.floor(dy / g.size * p.n), Math.floor(dx / g.size * p.n)];
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
      const p = this.shown, g = this.geom;
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
          g.x(this.cursor[1]) + 4,
          g.y(this.cursor[0]) + g.size - 8
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

  // static/notebook.js
  var AE = globalThis.AttentionExplorer = globalThis.AttentionExplorer || {};
  if (!AE.grid) AE.grid = grid;
  function isDark(theme) {
    if (theme !== "auto") return theme === "dark";
    const body = document.body;
    if (body && body.dataset.jpThemeLight) return body.dataset.jpThemeLight === "false";
    if (body && /vscode-(dark|high-contrast)(\s|$)/.test(body.className)) return true;
    return !!window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  }
  function onePanel(p, layer, head) {
    return {
      ...panel(p, layer, head),
      guesses: [],
      caption: "L" + layer + " H" + head + " large (click another head above to open it). Rows: the token that looks; columns: the tokens it looks at."
    };
  }
  function drawView(root) {
    const data = JSON.parse(root.querySelector("script.ae-nb-data").textContent);
    const colors = isDark(data.theme) ? data.colors.dark : data.colors.light;
    root.style.background = colors.paper;
    root.style.color = colors.font;
    const payload = { ...data.payload, colors };
    const large = mount(root.querySelector(".ae-nb-head"), { colors });
    const all = mount(root.querySelector(".ae-nb-grid"), { colors, onOpen: open });
    function open(layer, head) {
      if (!payload.ok) return;
      payload.selected = [layer, head];
      all.draw(payload);
      large.draw(onePanel(payload, layer, head));
    }
    all.draw(payload);
    if (payload.ok) large.draw(onePanel(payload, ...payload.selected));
    else root.querySelector(".ae-nb-head").hidden = true;
  }
  for (const root of document.querySelectorAll(".ae-nb")) {
    if (root.dataset.aeDrawn) continue;
    root.dataset.aeDrawn = "1";
    drawView(root);
  }
})();
