// Built by scripts/build_js.mjs from static/ (npm run build): do not edit.
(() => {
  // static/bridge.js
  var handlers = /* @__PURE__ */ new Map();
  var mounts = /* @__PURE__ */ new Map();
  function register(table) {
    for (const [name, fn] of Object.entries(table.handlers || {})) handlers.set(name, fn);
    for (const [name, fn] of Object.entries(table.mounts || {})) mounts.set(name, fn);
  }
  function handle(name, data, ...args) {
    const fn = handlers.get(name);
    if (!fn) throw new Error(`Attention Explorer: no handler named ${name}`);
    return fn(args, data);
  }
  function mountOn(name, scope, data) {
    const fn = mounts.get(name);
    if (!fn) throw new Error(`Attention Explorer: nothing to mount named ${name}`);
    return fn(scope, data);
  }
  function names() {
    return { handlers: [...handlers.keys()].sort(), mounts: [...mounts.keys()].sort() };
  }

  // static/live_loop.js
  var BACKOFF_MS = [250, 500, 1e3, 2e3];
  function newView(id) {
    return {
      id,
      handlers: {},
      dirty: /* @__PURE__ */ new Set(["*"]),
      running: false,
      needSettle: false,
      panel: null,
      wake: null,
      phase: "",
      failing: 0,
      retries: 0,
      refuse: null,
      anchor: null,
      trigger: void 0
    };
  }
  function markDirty(v, names2) {
    v.dirty = v.dirty || /* @__PURE__ */ new Set();
    names2.forEach((n) => v.dirty.add(n));
  }
  function changedKnobs(knobs2, now, last) {
    return last ? knobs2.filter((n) => JSON.stringify(now[n]) !== JSON.stringify(last[n])) : knobs2;
  }
  var Loop = class {
    constructor({ config: config2, timers, onState = () => {
    }, onOpen = () => {
    }, warn = () => {
    } }) {
      Object.assign(this, { config: config2, timers, onState, onOpen, warn });
      this.views = {};
      this.last = null;
      this.openId = null;
      this.kind = "other";
      this.tick = 0;
    }
    view(id) {
      return this.views[id] || (this.views[id] = newView(id));
    }
    watches(id, name) {
      const c = this.config(), v = c && c.views[id];
      if (!v) return false;
      return v.watch === null || v.watch.includes(name);
    }
    sleep(v, ms) {
      return new Promise((resolve) => {
        const t = this.timers.setTimeout(resolve, ms);
        v.wake = () => {
          this.timers.clearTimeout(t);
          resolve();
        };
      });
    }
    kick(v) {
      if (v.wake) {
        const w = v.wake;
        v.wake = null;
        w();
      }
      this.work(v);
    }
    // One call of a handler: true when it was answered, false when it failed.
    async call(v, name, changed) {
      const h = v.handlers[name];
      if (!h) return true;
      const snapshot2 = this.last ? { ...this.last } : {};
      const names2 = (this.config() || { knobs: [] }).knobs;
      const ctx = {
        view: v.id,
        changed: [...changed || []],
        knobs: { ...snapshot2 },
        fresh: () => names2.every((n) => this.last && this.last[n] === snapshot2[n])
      };
      try {
        return await h(ctx) !== false;
      } catch (e) {
        this.warn("Attention Explorer: update of " + v.id + " failed; trying again", e);
        return false;
      }
    }
    // After a failure: wait (a change of what the view watches ends the wait at once).
    async backoff(v) {
      v.failing += 1;
      v.retries += 1;
      this.onState(this);
      await this.sleep(v, BACKOFF_MS[Math.min(v.failing, BACKOFF_MS.length) - 1]);
    }
    // One update of a dirty view (after a failure it waits its backoff).
    async update(v) {
      const changed = v.dirty;
      v.dirty = null;
      v.needSettle = !!v.handlers.settle;
      v.phase = "updating";
      this.onState(this);
      if (!await this.call(v, v.handlers.update ? "update" : "settle", changed)) {
        markDirty(v, changed);
        await this.backoff(v);
        return;
      }
      v.failing = 0;
      if (!v.handlers.update) v.needSettle = false;
      v.phase = "partial";
      this.onState(this);
    }
    // The settled figures once nothing changed for a moment.
    async settle(v) {
      const c = this.config(), t = this.tick;
      await this.sleep(v, v.failing ? 0 : c && c.settle[this.kind] || 0);
      if (this.tick !== t || v.dirty || this.openId !== v.id) return;
      v.needSettle = false;
      if (!await this.call(v, "settle")) {
        v.needSettle = true;
        await this.backoff(v);
        return;
      }
      v.failing = 0;
    }
    // The worker of one view: updates while something it watches changed, then (after a
    // pause) its settled figures. Only ever one running per view.
    async work(v) {
      if (v.running || this.openId !== v.id || !v.handlers.update && !v.handlers.settle) return;
      if (!this.last) return;
      v.running = true;
      this.onState(this);
      try {
        while (this.openId === v.id && (v.dirty || v.needSettle)) {
          if (v.dirty) await this.update(v);
          else await this.settle(v);
        }
      } finally {
        v.running = false;
        v.failing = 0;
        this.onState(this);
      }
    }
    controls(values) {
      const c = this.config();
      if (!c) return;
      const now = Object.fromEntries(c.knobs.map((n, i) => [n, values[i]]));
      const changed = changedKnobs(c.knobs, now, this.last);
      this.last = now;
      if (!changed.length) return;
      this.tick += 1;
      const slider = changed.some((n) => c.sliders.includes(n));
      this.kind = changed.includes("text") ? "text" : slider ? "slider" : "other";
      for (const id of Object.keys(c.views)) {
        const hit = changed.filter((n) => this.watches(id, n));
        if (!hit.length) continue;
        markDirty(this.view(id), hit);
        if (id === this.openId) this.kick(this.view(id));
      }
    }
    // Page load: the first values, then the first tab.
    start(values) {
      this.controls(values);
      const c = this.config();
      if (c && !this.openId) this.open(c.first);
    }
    current() {
      return this.openId;
    }
    open(id) {
      if (this.openId === id) return;
      this.openId = id;
      this.onOpen(id);
      this.onState(this);
      this.kick(this.view(id));
    }
    refresh(id) {
      markDirty(this.view(id), ["own"]);
      this.tick += 1;
      this.kind = "other";
      if (id === this.openId) this.kick(this.view(id));
    }
    register(id, handlers2, weak = false) {
      const v = this.view(id);
      for (const [name, fn] of Object.entries(handlers2)) {
        if (weak && v.handlers[name] && v.handlers[name].strong) continue;
        const h = (ctx) => fn(ctx);
        h.strong = !weak;
        v.handlers[name] = h;
      }
      if (!weak) markDirty(v, ["mount"]);
      if (id === this.openId) this.kick(v);
    }
    state() {
      const each = (v) => ({
        running: v.running,
        dirty: v.dirty && [...v.dirty],
        needSettle: v.needSettle,
        failing: v.failing,
        retries: v.retries,
        handlers: Object.keys(v.handlers)
      });
      return {
        open: this.openId,
        tick: this.tick,
        kind: this.kind,
        values: this.last && { ...this.last },
        views: Object.fromEntries(Object.values(this.views).map((v) => [v.id, each(v)]))
      };
    }
  };
  var createLoop = (options) => new Loop(options);

  // static/live_fetch.js
  var JOIN = /\/gradio_api\/(queue\/join|run\/predict)\b/;
  function triggerId(v) {
    if (v.trigger !== void 0) return v.trigger;
    const components = window.gradio_config && window.gradio_config.components || [];
    for (let e = v.anchor; e; e = e.parentElement) {
      const c = e.id && components.find((x) => x.props && x.props.elem_id === e.id);
      if (c) return v.trigger = c.id;
    }
    return null;
  }
  function refused(views, body) {
    let trigger;
    try {
      trigger = JSON.parse(body).trigger_id;
    } catch {
      return false;
    }
    const waiting3 = views.filter((v) => v.refuse);
    const mine = waiting3.filter((v) => triggerId(v) === trigger);
    const fail = mine.length || waiting3.every((v) => triggerId(v) !== null) ? mine : waiting3;
    fail.forEach((v) => v.refuse());
    return views.some((v) => v.anchor && triggerId(v) === trigger);
  }
  var QUIET = () => new Response('{"detail": []}', {
    status: 422,
    headers: { "Content-Type": "application/json" }
  });
  var watching = false;
  function watchRefusals(views) {
    const fetch0 = window.fetch;
    if (!fetch0 || watching) return;
    watching = true;
    window.fetch = function(input, init) {
      const answer = fetch0.apply(window, arguments);
      const url = input instanceof Request ? input.url : String(input);
      if (!init || init.method !== "POST" || typeof init.body !== "string" || !JOIN.test(url)) {
        return answer;
      }
      const body = init.body;
      return answer.then(
        (r) => {
          if (r.ok) return r;
          return refused(views(), body) && (r.status === 429 || r.status === 503) ? QUIET() : r;
        },
        (e) => {
          refused(views(), body);
          throw e;
        }
      );
    };
  }

  // static/live.js
  var TIMEOUT_MS = 6e4;
  var config = null;
  function readConfig() {
    if (config) return config;
    const el2 = document.querySelector("#ae-live-config [data-config]");
    if (!el2) return null;
    config = JSON.parse(el2.dataset.config);
    return config;
  }
  function showMarker(loop2) {
    const c = readConfig();
    const openId = loop2.current();
    const v = openId && loop2.views[openId];
    const busy = !!(v && v.running);
    const marker = document.querySelector("#ae-live-status");
    if (!marker) return;
    const title2 = c && c.views[openId] && c.views[openId].title || "the view";
    const text2 = !busy ? "" : v.failing ? "⏳ The server is busy: trying " + title2 + " again…" : "⏳ Updating " + title2 + "…";
    if (marker.textContent !== text2) marker.textContent = text2;
    marker.setAttribute("aria-busy", String(busy));
    marker.classList.toggle("ae-busy", busy);
  }
  function showState(loop2) {
    showMarker(loop2);
    for (const w of Object.values(loop2.views)) {
      if (!w.panel) continue;
      const phase = w.running ? w.phase : "";
      if (phase) w.panel.setAttribute("data-ae-live", phase);
      else w.panel.removeAttribute("data-ae-live");
      w.panel.setAttribute("aria-busy", String(!!w.running));
    }
  }
  function knobNote(c, spec, on) {
    if (spec.watch === null) return "";
    if (spec.note) return spec.note;
    const which = on.length ? "On " + spec.title + " only these knobs apply: " + on.join(", ") + "." : "No knob applies on " + spec.title + ".";
    return which + " The others are switched off here.";
  }
  function showKnobs(openId) {
    const c = readConfig();
    if (!c || !openId) return;
    const spec = c.views[openId] || { watch: [], title: openId };
    const on = [];
    for (const name of c.knobs) {
      const applies = spec.watch === null || spec.watch.includes(name);
      if (applies && name !== "text") on.push(c.labels[name]);
      for (const id of c.elements[name] || []) {
        const el2 = document.getElementById(id);
        if (!el2) continue;
        el2.toggleAttribute("inert", !applies);
        el2.classList.toggle("ae-knob-off", !applies);
        if (applies) el2.removeAttribute("aria-disabled");
        else el2.setAttribute("aria-disabled", "true");
      }
    }
    const note = document.querySelector("#knob-note .ae-knob-note");
    if (note) {
      note.textContent = knobNote(c, spec, on);
      note.hidden = spec.watch === null;
    }
  }
  var loop = createLoop({
    config: readConfig,
    timers: { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (t) => clearTimeout(t) },
    onState: showState,
    // the knobs before the view's work starts: current() names a view once they are marked
    onOpen(id) {
      showKnobs(id);
      setTimeout(() => window.dispatchEvent(new Event("resize")), 150);
    },
    warn: (...args) => console.warn(...args)
  });
  function mount(element, events, watch) {
    const anchor2 = element.querySelector("[data-view]");
    if (!anchor2) return;
    const v = loop.view(anchor2.dataset.view);
    v.panel = element.closest('[role="tabpanel"]') || element.parentElement;
    v.anchor = element;
    v.trigger = void 0;
    let done = null;
    const finish = (ok) => {
      const d = done;
      done = null;
      v.refuse = null;
      if (d) d(ok);
    };
    watch("value", () => finish(true));
    const start2 = (name) => () => new Promise((resolve) => {
      const t = setTimeout(() => finish(false), TIMEOUT_MS);
      done = (ok) => {
        clearTimeout(t);
        resolve(ok);
      };
      v.refuse = () => finish(false);
      events[name]();
    });
    const handlers2 = {};
    if (anchor2.dataset.update === "1") handlers2.update = start2("update");
    if (anchor2.dataset.settle === "1") handlers2.settle = start2("settle");
    loop.register(v.id, handlers2, true);
  }
  var live = {
    controls: (values) => loop.controls(values),
    start: (values) => loop.start(values),
    current: () => loop.current(),
    open: (id) => loop.open(id),
    refresh: (id) => loop.refresh(id),
    mount,
    register: (id, handlers2, weak = false) => loop.register(id, handlers2, weak),
    state: () => loop.state()
  };
  function startLive() {
    watchRefusals(() => Object.values(loop.views));
  }
  function mountAnchor({ element, trigger, watch }) {
    mount(element, { update: () => trigger("update"), settle: () => trigger("settle") }, watch);
  }

  // static/screen.js
  var screen = {
    sentenceBottom: () => 0,
    room: () => null
  };

  // static/fit.js
  var root = document.documentElement;
  var projector = () => root.classList.contains("ae-projector");
  var MIN_FONT = 12;
  var MIN_HEIGHT = 220;
  var ROOMY_ROW = MIN_FONT + 2;
  var marks = /* @__PURE__ */ new WeakMap();
  var own = (gd) => marks.get(gd) || marks.set(gd, {}).get(gd);
  var MAX_PASSES = 4;
  var WIDER = 24;
  var NUDGE = 2;
  var SQUARE_HEADS = [
    "head-large",
    "cmp-left",
    "cmp-right",
    "cmp-diff",
    "training-head",
    "pe-shuffle-original",
    "pe-shuffle-shuffled",
    "pe-shuffle-difference",
    "export-head"
  ];
  var SQUARE = SQUARE_HEADS.map((id) => "#" + id).join(", ");
  function sent(gd) {
    const lay = gd.layout;
    if (own(gd).layout !== lay) {
      own(gd).layout = lay;
      own(gd).sent = {
        height: lay.height ?? null,
        x: lay.xaxis?.tickfont?.size ?? null,
        y: lay.yaxis?.tickfont?.size ?? null
      };
    }
    return own(gd).sent;
  }
  function square(gd, room2) {
    const lay = gd.layout;
    let want = sent(gd);
    if (projector() && gd.closest("#head-large")) {
      const tokens = lay.yaxis && lay.yaxis.ticktext || [];
      const top = gd.getBoundingClientRect().top + window.scrollY;
      const height = room2 ?? Math.max(320, Math.round(window.innerHeight - Math.min(top, 140) - 8));
      stackIfCramped(gd, height, tokens.length);
      const side = Math.min(height - 110, gd.clientWidth - 150);
      const cell = side / Math.max(tokens.length, 1);
      const font = Math.max(MIN_FONT, Math.min(20, Math.floor(cell)));
      return { height, x: font, y: font };
    }
    if (want.height && gd.clientWidth) {
      want = { ...want, height: Math.min(want.height, Math.max(300, gd.clientWidth - 20)) };
    }
    if (projector()) {
      want = {
        ...want,
        x: Math.max(want.x ?? MIN_FONT, MIN_FONT),
        y: Math.max(want.y ?? MIN_FONT, MIN_FONT)
      };
    }
    return want;
  }
  function stackIfCramped(gd, height, n) {
    const row = gd.closest("[data-ae-step-together]");
    if (!row || !row.contains(document.getElementById("head-large"))) return;
    const beside = Math.min(height - 110, row.clientWidth * 2 / 3 - 150) / Math.max(n, 1);
    const stacked = row.hasAttribute("data-ae-step-stack");
    const stack = stacked ? beside < ROOMY_ROW + 1 : beside < ROOMY_ROW;
    if (stacked !== stack) {
      row.toggleAttribute("data-ae-step-stack", stack);
      own(gd).ownWidth = true;
      requestAnimationFrame(() => figure(gd));
    }
  }
  function gridHeight(gd) {
    const lay = gd.layout, full = gd._fullLayout, wanted = sent(gd).height;
    const wide = full?.xaxis?._length, high = full?.yaxis?._length;
    if (!wanted || !lay.height || !wide || !high || !full._size) return lay.height;
    const plot = full._size.h;
    return Math.min(wanted, Math.round(lay.height - plot + plot * wide / high));
  }
  var MIN_ROW = 10;
  var LABEL_BACK = 2;
  function gridLabels(gd, height, update) {
    const lay = gd.layout, full = gd._fullLayout, was = sent(gd);
    const plot = full?._size?.h, n = (full?.yaxis?.ticktext || []).length;
    if (!plot || !n || !full.yaxis?._length || !lay.height) return;
    const row = full.yaxis._length * (height - (lay.height - plot)) / plot / n;
    if (!was.labels) {
      was.labels = Object.keys(lay).filter(
        (k) => /^yaxis\d*$/.test(k) && lay[k]?.showticklabels !== false
      );
    }
    const shown = was.labels.some((k) => lay[k]?.showticklabels !== false);
    const show2 = row >= MIN_ROW + (shown ? 0 : LABEL_BACK);
    was.labels.forEach((k) => {
      if (lay[k]?.showticklabels !== false !== show2) update[k + ".showticklabels"] = show2;
    });
  }
  function squareLabels(gd, update) {
    const lay = gd.layout, n = (lay.yaxis?.ticktext || []).length;
    const side = gd._fullLayout?.yaxis?._length;
    if (!n || !side) return;
    const shown = lay.yaxis?.showticklabels !== false;
    const show2 = side / n >= MIN_FONT + (shown ? 0 : LABEL_BACK);
    if (shown !== show2) {
      update["xaxis.showticklabels"] = show2;
      update["yaxis.showticklabels"] = show2;
    }
  }
  function layoutFonts(gd, update) {
    const lay = gd.layout;
    const raise = (key, size) => {
      if (size != null && size < MIN_FONT && !(key in update)) update[key] = MIN_FONT;
    };
    raise("font.size", lay.font?.size ?? MIN_FONT);
    raise("legend.font.size", lay.legend?.font?.size);
    (lay.annotations || []).forEach((a, i) => raise(`annotations[${i}].font.size`, a?.font?.size));
    if (lay.grid) return;
    for (const key of Object.keys(lay)) {
      if (/^[xy]axis\d*$/.test(key)) raise(key + ".tickfont.size", lay[key]?.tickfont?.size);
    }
  }
  function traceFonts(gd) {
    const text2 = [], bar = [];
    (gd.data || []).forEach((tr, i) => {
      const shrinks = tr.type === "bar" && tr.texttemplate && tr.constraintext !== "none";
      if ((tr.textfont?.size ?? MIN_FONT) < MIN_FONT || shrinks) text2.push(i);
      if ((tr.colorbar?.tickfont?.size ?? MIN_FONT) < MIN_FONT) bar.push(i);
    });
    const out = [];
    if (text2.length) out.push([{ "textfont.size": MIN_FONT, constraintext: "none" }, text2]);
    if (bar.length) out.push([{ "colorbar.tickfont.size": MIN_FONT }, bar]);
    return out;
  }
  function passes(gd, fresh2) {
    const w = gd.clientWidth;
    let p = own(gd).passes;
    if (fresh2 || !p || p.layout !== gd.layout || p.data !== gd.data || Math.abs(w - p.width) >= WIDER) {
      p = own(gd).passes = { layout: gd.layout, data: gd.data, width: w, left: MAX_PASSES };
    }
    return p;
  }
  var widths = new ResizeObserver((entries) => {
    for (const e of entries) {
      const gd = e.target, w = Math.round(e.contentRect.width);
      if (w && w !== own(gd).fitWidth) {
        own(gd).fitWidth = w;
        figure(gd);
      }
    }
  });
  function figure(gd, fresh2 = false) {
    if (!own(gd).watched) {
      own(gd).watched = true;
      widths.observe(gd);
    }
    if (!window.Plotly || !gd.layout || !gd.data || !gd.data.length) return;
    const budget = passes(gd, fresh2);
    if (budget.left <= 0) return;
    const lay = gd.layout;
    const room2 = screen.room(gd);
    const fit2 = (h) => room2 == null || !h ? h : Math.max(MIN_HEIGHT, Math.min(h, room2));
    const update = {};
    if (own(gd).ownWidth && gd.clientWidth && Math.abs((lay.width || 0) - gd.clientWidth) > 4) {
      update.width = gd.clientWidth;
    }
    if (gd.closest(SQUARE)) {
      const want = square(gd, room2), h = fit2(want.height);
      if (h !== lay.height && (h == null || lay.height == null || Math.abs(h - lay.height) >= NUDGE))
        update.height = h;
      if ((lay.xaxis?.tickfont?.size ?? null) !== want.x) update["xaxis.tickfont.size"] = want.x;
      if ((lay.yaxis?.tickfont?.size ?? null) !== want.y) update["yaxis.tickfont.size"] = want.y;
      if (projector() && !gd.closest("#head-large")) squareLabels(gd, update);
    } else {
      const h = fit2(lay.grid ? gridHeight(gd) : sent(gd).height);
      if (h && lay.height && Math.abs(h - lay.height) >= 4) update.height = h;
      if (lay.grid) gridLabels(gd, h || lay.height, update);
    }
    if (projector()) layoutFonts(gd, update);
    const restyles = projector() ? traceFonts(gd) : [];
    const relayout = Object.keys(update).length > 0;
    if (!relayout && !restyles.length) return;
    budget.left -= 1;
    if (relayout) window.Plotly.relayout(gd, update);
    restyles.forEach(([change, traces]) => window.Plotly.restyle(gd, change, traces));
  }
  function all() {
    document.querySelectorAll(".js-plotly-plot").forEach((gd) => figure(gd, true));
  }
  var fit = { figure, all };

  // static/step_answer.js
  var waiting = [];
  function ask(section) {
    const p = section && section.querySelector(".ae-step-answer");
    if (!p || p.textContent.trim() || !section.dataset.step) return;
    waiting.push(section.dataset.step);
    document.getElementById("step-answer-ask")?.click();
  }
  var asked = () => waiting.shift() || "";
  function kept(node) {
    return [...node.childNodes].flatMap((c) => {
      if (c.nodeType === Node.TEXT_NODE) return [document.createTextNode(c.textContent)];
      if (c.nodeType !== Node.ELEMENT_NODE) return [];
      const tag = c.tagName.toLowerCase();
      if (tag !== "strong" && tag !== "em") return kept(c);
      const el2 = document.createElement(tag);
      el2.append(...kept(c));
      return [el2];
    });
  }
  function fill(reply) {
    let got;
    try {
      got = JSON.parse(reply || "");
    } catch (e) {
      return false;
    }
    if (!got || !got.step || typeof got.html !== "string") return false;
    const body = new DOMParser().parseFromString(`<p>${got.html}</p>`, "text/html").body;
    let filled = false;
    document.querySelectorAll(`.ae-step[data-step="${CSS.escape(String(got.step))}"] .ae-step-answer`).forEach((p) => {
      if (p.textContent.trim()) return;
      p.replaceChildren(...kept(body));
      filled = true;
    });
    return filled;
  }

  // static/stale.js
  var IDLE_MS = 1500;
  var STALE_MAX_MS = 6e4;
  var marked = null;
  function clear() {
    if (!marked) return;
    clearInterval(marked.timer);
    marked.entries.forEach((e) => e.el.removeAttribute("data-ae-stale"));
    marked = null;
  }
  function fresh(e) {
    if (!e.gd) return e.el.innerHTML !== e.html;
    const gd = e.el.querySelector(".js-plotly-plot");
    return !!gd && (gd !== e.gd || gd.data !== e.data) && !!gd.data && gd.data.length > 0 && !!gd._fullData && gd._fullData.length > 0 && !!gd.querySelector(".main-svg");
  }
  function mark(section) {
    clear();
    const entries = [];
    (section.dataset.figures || "").split(" ").filter(Boolean).forEach((id) => {
      const el2 = document.getElementById(id);
      if (!el2) return;
      const gd = el2.querySelector(".js-plotly-plot");
      if (gd ? !(gd.data && gd.data.length) : !el2.textContent.trim()) return;
      entries.push({ el: el2, gd, data: gd && gd.data, html: gd ? null : el2.innerHTML });
      el2.setAttribute("data-ae-stale", "");
    });
    if (!entries.length) return;
    const since = Date.now();
    let idleFrom = null;
    const tick = () => {
      const now = Date.now();
      marked.entries = marked.entries.filter((e) => {
        if (!fresh(e)) return true;
        e.el.removeAttribute("data-ae-stale");
        return false;
      });
      const busy = !!section.closest("[data-ae-live]");
      idleFrom = busy ? null : idleFrom || now;
      if (!marked.entries.length || now - since > STALE_MAX_MS || idleFrom && now - idleFrom > IDLE_MS)
        clear();
    };
    marked = { entries, timer: setInterval(tick, 100) };
  }
  var stale = { mark, clear };

  // static/steps_screen.js
  var root2 = document.documentElement;
  var GAP = 8;
  var ROOMY = 300;
  var FOLLOW_MS = 8e3;
  function shownSection() {
    for (const s of document.querySelectorAll(".ae-step-bar .ae-step[data-step]")) {
      if (s.offsetParent !== null) return s;
    }
    return null;
  }
  function holder(el2) {
    const column = el2.closest(".tabitem > .column");
    if (!column) return null;
    let child = el2;
    while (child && child.parentElement !== column) child = child.parentElement;
    return child;
  }
  function cover(section) {
    let hide = [];
    const within = section && (section.closest(".tabitem") || document);
    if (within && section.dataset.hidden) {
      try {
        hide = [...within.querySelectorAll(section.dataset.hidden)];
      } catch (e) {
        hide = [];
      }
    }
    const set = new Set(hide);
    document.querySelectorAll("[data-ae-hidden]").forEach((el2) => {
      if (!set.has(el2)) el2.removeAttribute("data-ae-hidden");
    });
    hide.forEach((el2) => {
      if (!el2.hasAttribute("data-ae-hidden")) el2.setAttribute("data-ae-hidden", "");
    });
  }
  var barOf = (section) => section.closest(".ae-step-bar") || section;
  var fixed = (el2) => getComputedStyle(el2).position === "fixed";
  function anchor(section) {
    const bar = barOf(section);
    if (!fixed(bar)) return bar;
    return document.querySelector('[data-ae-step-order="1"]') || bar;
  }
  var screenTop = () => screen.sentenceBottom();
  function screenBottom() {
    const drawer = root2.classList.contains("ae-drawer") && document.querySelector("#controls");
    const r = drawer && drawer.getBoundingClientRect();
    return r && r.height > 0 ? Math.min(window.innerHeight, r.top) : window.innerHeight;
  }
  function room(gd) {
    const section = shownSection();
    if (!section || !gd) return null;
    const ids = (section.dataset.figures || "").split(" ").filter(Boolean);
    if (!ids.some((id) => gd.closest("#" + CSS.escape(id)))) return null;
    const above = gd.getBoundingClientRect().top - anchor(section).getBoundingClientRect().top;
    const r = Math.round(screenBottom() - screenTop() - 2 * GAP - above - 6);
    const under = root2.classList.contains("ae-revealed") && !fixed(barOf(section));
    return under && r < ROOMY ? null : r;
  }
  function cutOff(section) {
    const answer = section.querySelector(".ae-step-reveal[open] > p");
    const bar = section.closest(".ae-step-bar");
    if (!answer || !bar) return false;
    for (let a = answer.parentElement; a && a !== bar.parentElement; a = a.parentElement) {
      if (getComputedStyle(a).overflowY !== "visible" && a.scrollHeight > a.clientHeight + 1) {
        return true;
      }
    }
    const buttons = bar.querySelector(".ae-step-buttons");
    return !!buttons && answer.getBoundingClientRect().bottom > buttons.getBoundingClientRect().top + 1;
  }
  function placeBar(section) {
    root2.classList.toggle("ae-stepping", !!section);
    const left = document.querySelector("#controls");
    if (!section || !left) return;
    const r = left.getBoundingClientRect();
    root2.style.setProperty("--ae-step-left", Math.round(r.left) + "px");
    root2.style.setProperty("--ae-step-width", Math.round(r.width) + "px");
  }
  var follow = null;
  function bringIntoView() {
    if (!follow || Date.now() > follow.until) {
      stopFollowing();
      return;
    }
    const section = shownSection();
    if (!section) return;
    const top = anchor(section).getBoundingClientRect().top + window.scrollY - GAP - screenTop();
    if (Math.abs(window.scrollY - top) > 2) window.scrollTo({ top, behavior: "instant" });
  }
  var following = () => !!follow;
  function stopFollowing() {
    if (!follow) return;
    follow.observer.disconnect();
    follow = null;
  }
  function startFollowing(section) {
    stopFollowing();
    const observer = new ResizeObserver(() => bringIntoView());
    const column = section.closest(".tabitem > .column") || document.body;
    observer.observe(column);
    follow = { observer, until: Date.now() + FOLLOW_MS };
    bringIntoView();
  }
  ["wheel", "touchmove", "keydown", "pointerdown"].forEach(
    (type) => window.addEventListener(type, () => stopFollowing(), { capture: true, passive: true })
  );

  // static/frame.js
  function onceAFrame(fn) {
    let pending2 = false;
    return () => {
      if (pending2) return;
      pending2 = true;
      requestAnimationFrame(() => {
        pending2 = false;
        fn();
      });
    };
  }
  function observeOnceAFrame(root6, options, fn) {
    const observer = new MutationObserver(onceAFrame(fn));
    observer.observe(root6, options);
    return observer;
  }

  // static/steps.js
  var root3 = document.documentElement;
  var arranged = null;
  function arrange() {
    const section = shownSection();
    revealed(section);
    placeBar(section);
    if (section) addTools(barOf(section));
    showChip(section ? null : sectionOf(current));
    const now = section ? section.dataset.stamp : null;
    if (now !== arranged) {
      arranged = now;
      requestAnimationFrame(() => fit.all());
    }
    const keep = /* @__PURE__ */ new Set();
    const key = section && document.getElementById(section.dataset.key || "");
    document.querySelectorAll("[data-ae-step-key]").forEach((el2) => {
      if (el2 !== key) el2.removeAttribute("data-ae-step-key");
    });
    if (key && !key.hasAttribute("data-ae-step-key")) key.setAttribute("data-ae-step-key", "");
    if (section) {
      let order = 0;
      (section.dataset.figures || "").split(" ").filter(Boolean).forEach((id) => {
        const el2 = document.getElementById(id);
        const box = el2 && holder(el2);
        if (!box) return;
        if (keep.has(box)) {
          box.setAttribute("data-ae-step-together", "");
          return;
        }
        keep.add(box);
        order += 1;
        if (box.getAttribute("data-ae-step-order") !== String(order)) {
          box.setAttribute("data-ae-step-order", String(order));
        }
      });
    }
    document.querySelectorAll("[data-ae-step-order]").forEach((box) => {
      if (!keep.has(box)) {
        box.removeAttribute("data-ae-step-order");
        box.removeAttribute("data-ae-step-together");
        box.removeAttribute("data-ae-step-stack");
      }
    });
    cover(section);
  }
  function revealed(section) {
    const open2 = !!(section && section.querySelector(".ae-step-reveal[open]"));
    if (root3.classList.contains("ae-revealed") === open2) return;
    root3.classList.toggle("ae-revealed", open2);
    widen(section, open2);
  }
  function widen(section, open2) {
    root3.classList.remove("ae-reveal-wide");
    requestAnimationFrame(() => {
      if (open2 && root3.classList.contains("ae-projector") && cutOff(section)) {
        root3.classList.add("ae-reveal-wide");
      }
      requestAnimationFrame(() => {
        placeBar(shownSection());
        refit();
      });
    });
  }
  function refit() {
    if (window.Plotly) {
      document.querySelectorAll(".js-plotly-plot").forEach((gd) => {
        if (gd.offsetParent === null || !gd.layout) return;
        if (gd.layout.width && Math.abs(gd.layout.width - gd.clientWidth) > 4) {
          window.Plotly.relayout(gd, { width: gd.clientWidth });
        } else {
          window.Plotly.Plots.resize(gd);
        }
      });
    }
    fit.all();
  }
  document.addEventListener(
    "toggle",
    (ev) => {
      if (ev.target.classList && ev.target.classList.contains("ae-step-reveal")) {
        if (ev.target.open) ask(ev.target.closest(".ae-step"));
        revealed(shownSection());
      }
    },
    true
  );
  function answered(reply) {
    if (fill(reply) && root3.classList.contains("ae-revealed")) widen(shownSection(), true);
  }
  var current = null;
  var sectionOf = (c) => c && document.querySelector(
    `#step-${CSS.escape(c.tab)} .ae-step[data-stamp="${CSS.escape(c.stamp)}"]`
  );
  function chip() {
    let c = document.getElementById("ae-step-chip");
    if (!c) {
      const nav = document.querySelector("#ae-top .ae-top");
      if (!nav) return null;
      c = document.createElement("button");
      c.type = "button";
      c.id = "ae-step-chip";
      c.className = "ae-step-chip";
      c.hidden = true;
      nav.appendChild(c);
    }
    return c;
  }
  function addTools(bar) {
    if (bar.querySelector(":scope > .ae-step-tools")) return;
    const tools = document.createElement("div");
    tools.className = "ae-step-tools";
    const button = (text2, cls, title2) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "ae-step-tool " + cls;
      b.textContent = text2;
      if (title2) b.title = title2;
      tools.appendChild(b);
      return b;
    };
    button(
      "Knobs",
      "ae-step-aside",
      "The sentence and the knobs; the step waits behind a 'Back to step' button"
    );
    button("Normal screen", "ae-projector-switch").setAttribute("aria-pressed", "true");
    bar.appendChild(tools);
  }
  function showChip(section) {
    const c = chip();
    if (!c) return;
    const title2 = section ? section.querySelector(".ae-step-title")?.textContent || "" : "";
    const text2 = title2 ? "↩ Back to " + title2.trim().replace(/^Step/, "step") : "";
    if (c.textContent !== text2) c.textContent = text2;
    if (c.hidden !== !text2) c.hidden = !text2;
  }
  async function resume() {
    const c = current;
    root3.classList.remove("ae-step-aside");
    if (!c) return;
    const onScreen = () => {
      const s = sectionOf(c);
      return s && s.offsetParent !== null ? s : null;
    };
    if (!onScreen()) clickTab(c.title);
    const section = await waitFor(onScreen, 1e4);
    if (!section) return;
    arrange();
    section.querySelector(".ae-step-title")?.focus({ preventScroll: true });
    startFollowing(section);
  }
  async function putAside() {
    stopFollowing();
    root3.classList.add("ae-step-aside");
    arrange();
    window.scrollTo({ top: 0, behavior: "instant" });
    const c = await waitFor(() => {
      const el2 = document.getElementById("ae-step-chip");
      return el2 && !el2.hidden && el2.checkVisibility({ checkVisibilityCSS: true }) ? el2 : null;
    }, 2e3);
    if (c) c.focus({ preventScroll: true });
  }
  document.addEventListener("click", (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    if (t.closest("#ae-step-chip")) {
      resume();
      return;
    }
    if (t.closest(".ae-step-bar .ae-step-aside")) {
      putAside();
      return;
    }
    const bar = t.closest(".ae-step-bar");
    if (bar && t.closest(".ae-projector-switch")) {
      requestAnimationFrame(() => bar.querySelector(".ae-step-title")?.focus());
    }
  });
  function clickTab(title2) {
    const buttons = [
      ...document.querySelectorAll('#tabs button[role="tab"], #tabs .overflow-dropdown button')
    ];
    const b = buttons.find((x) => x.textContent.trim() === title2);
    if (b) b.click();
    return !!b;
  }
  function waitFor(find, ms) {
    return new Promise((resolve) => {
      const until = Date.now() + ms;
      const look = () => {
        const found = find();
        if (found || Date.now() > until) resolve(found || null);
        else requestAnimationFrame(look);
      };
      look();
    });
  }
  async function open(where) {
    let w;
    try {
      w = JSON.parse(where);
    } catch (e) {
      return;
    }
    if (!w || !w.title) return;
    root3.classList.remove("ae-step-aside");
    clickTab(w.title);
    const section = await waitFor(() => {
      const s = document.querySelector(
        `#step-${CSS.escape(w.tab)} .ae-step[data-stamp="${CSS.escape(w.stamp)}"]`
      );
      return s && s.offsetParent !== null ? s : null;
    }, 2e4);
    if (!section) return;
    current = { title: w.title, tab: w.tab, stamp: w.stamp };
    arrange();
    stale.mark(section);
    const heading = section.querySelector(".ae-step-title");
    if (heading) heading.focus({ preventScroll: true });
    startFollowing(section);
  }
  async function back(where) {
    let w;
    try {
      w = JSON.parse(where);
    } catch (e) {
      return;
    }
    stopFollowing();
    stale.clear();
    current = null;
    root3.classList.remove("ae-step-aside");
    arrange();
    clickTab(w.title);
    const radio = await waitFor(() => document.querySelector("#start-step input:checked"), 1e4);
    if (radio) {
      radio.focus({ preventScroll: true });
      radio.scrollIntoView({ block: "center" });
    }
  }
  observeOnceAFrame(document.documentElement, { childList: true, subtree: true }, arrange);
  screen.room = room;
  var steps = {
    open,
    back,
    room,
    screenTop,
    screenBottom,
    clickTab,
    asked,
    answered,
    state: () => ({ following: following(), current: current && { ...current } })
  };

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
    const fit2 = (left, bottom) => {
      const across = (width - left - MARGIN.right - MARGIN.gap * (p.heads - 1)) / p.heads;
      let size = Math.min(maxPanel, across);
      if (opts.height) {
        const room2 = opts.height - MARGIN.top - bottom - 4 - MARGIN.gap * (p.layers - 1);
        size = Math.min(size, room2 / p.layers);
      }
      return { left, bottom, size: Math.max(8, Math.floor(size)) };
    };
    const fontFor = (g2) => Math.max(least, Math.min(most, Math.floor(g2.size / p.n * 0.9)));
    let g = fit2(MARGIN.tokensLeft, MARGIN.tokensBottom);
    if (opts.thin) {
      const grow = fontFor(g) / 13;
      g = fit2(Math.round(MARGIN.tokensLeft * grow), Math.round(MARGIN.tokensBottom * grow));
      g.tokens = g.size >= 4 * least;
    } else {
      g.tokens = g.size / p.n >= MIN_LABELLED_CELL;
    }
    if (!g.tokens) g = { ...fit2(0, 0), tokens: false };
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
  function request(knobs2) {
    const { text: text2, ...controls } = knobs2 || {};
    return { text: text2 == null ? "" : String(text2), controls };
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
    say(text2, left, top) {
      const tip = this.tip, canvas = this.canvas;
      tip.textContent = text2;
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
      const text2 = `L${l0 + l} H${h0 + h}${isOff ? " (switched off)" : ""} · query ${q} ${p.tokens[q]} → key ${k} ${p.tokens[k]}: ${w}%`;
      this.say(text2, ev.offsetX + 12, ev.offsetY + 14);
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
          const text2 = this.noAnswer(error, !!(this.shown && this.shown.ok));
          if (this.caption.textContent !== text2) this.caption.textContent = text2;
        }
      }
      return ok;
    }
  };
  function mount2(element, options) {
    return new Grid(element, options);
  }
  var grid = { mount: mount2, request, panel, state };

  // static/head_pick.js
  var picked = null;
  function pickHead(layer, head) {
    picked = [layer, head];
    const button = document.getElementById("grid-select");
    if (button) button.click();
    else picked = null;
  }
  function readPick([layer, head]) {
    const p = picked;
    picked = null;
    return p || [layer, head];
  }

  // static/explore_grid.js
  var AE = () => window.AttentionExplorer || {};
  async function inBrowser(req) {
    const ae = AE();
    if (!ae.gridInBrowser || !ae.gridPayload) return null;
    try {
      return await ae.gridPayload(req.text, req.controls, {});
    } catch {
      return null;
    }
  }
  function mountExploreGrid({ element, server }) {
    const caption = element.querySelector(".ae-grid-caption");
    let where = "server";
    let whereLine = null;
    async function data(req) {
      where = "browser";
      const mine = await inBrowser(req);
      if (mine) return mine;
      where = "server";
      return server.grid_data(req);
    }
    function sayWhere() {
      if (!AE().gridInBrowser) return;
      if (!whereLine) {
        whereLine = document.createElement("div");
        whereLine.className = "ae-grid-where";
        caption.after(whereLine);
      }
      const text2 = where === "browser" ? "Computed in your browser." : "Computed on the server.";
      if (whereLine.textContent !== text2) whereLine.textContent = text2;
    }
    const grid2 = mount2(element, { data, onOpen: pickHead });
    live.register(element.querySelector("[data-view]").dataset.view, {
      async update(ctx) {
        const ok = await grid2.update(ctx);
        if (ok && ctx.fresh()) sayWhere();
        return ok;
      }
    });
    return grid2;
  }

  // static/plot_clicks.js
  var attached = /* @__PURE__ */ new WeakSet();
  var waiting2 = {};
  var observing = false;
  function attach(sel, slot, button, read) {
    const gd = document.querySelector(sel + " .js-plotly-plot");
    if (!gd || attached.has(gd) || !gd.on) return;
    attached.add(gd);
    gd.on("plotly_click", (ev) => {
      const value = read(ev.points[0] || {});
      if (value == null) return;
      waiting2[slot] = value;
      document.querySelector(button)?.click();
    });
  }
  function panelName(point) {
    const m = /^L(\d+) H(\d+)$/.exec(point.data?.name || "");
    return m ? m[0] : null;
  }
  var cellName = (kind, size) => (point) => {
    const cd = point.customdata;
    return Array.isArray(cd) && cd.length === size ? `${kind} ${cd[0]} ${cd[1]}` : null;
  };
  var PLOTS = {
    ablate: () => attach("#ablate-grid", "ablate", "#ablate-toggle", panelName),
    patch: () => {
      attach("#patch-heads", "patch", "#patch-pick", cellName("head", 2));
      attach("#patch-positions", "patch", "#patch-pick", cellName("pos", 2));
      attach("#patch-lens", "lens", "#patch-lens-pick", cellName("lens", 3));
    }
  };
  function listenForPlotClicks() {
    const all2 = () => Object.values(PLOTS).forEach((f) => f());
    if (!observing) {
      observing = true;
      new MutationObserver(all2).observe(document.body, { childList: true, subtree: true });
    }
    all2();
  }
  function take(slot) {
    const v = waiting2[slot];
    waiting2[slot] = null;
    return v;
  }
  function toggleHead([off]) {
    const h = take("ablate");
    const ticked = off || [];
    if (!h) return [ticked];
    return [ticked.includes(h) ? ticked.filter((x) => x !== h) : [...ticked, h]];
  }
  var pickCell = ([cell]) => take("patch") || cell;
  var pickLensCell = ([cell]) => take("lens") || cell;

  // static/lab.js
  var BEFORE = "Every head appears here once the run starts.";
  function mountLabGrid({ element, props, watch }) {
    const labGrid = mount2(element, {});
    const show2 = () => {
      const p = props.value;
      labGrid.draw(p && typeof p === "object" && p.ok ? p : { ok: false, caption: BEFORE });
    };
    watch("value", show2);
    show2();
    return labGrid;
  }
  function labClassTag(args, data, tag) {
    const a = args.slice(0, data.n);
    a[data.n - 1] = typeof tag === "function" ? tag() || "" : "";
    return a;
  }

  // static/class_client.js
  var CODE = /^[A-Z2-9]{6}$/;
  var RETRY_MS = 2e3;
  var ClassClient = class {
    constructor({ fetch, storage, sleep: sleep2, base = "ae-class/" }) {
      Object.assign(this, { fetch, storage, sleep: sleep2, base });
      this.call = this.call.bind(this);
    }
    async call(method, path, body, teacher) {
      const headers = { "Content-Type": "application/json" };
      if (teacher) headers["X-AE-Teacher"] = teacher;
      const r = await this.fetch(this.base + path, {
        method,
        headers,
        cache: "no-store",
        body: body === void 0 ? void 0 : JSON.stringify(body)
      });
      let data = {};
      try {
        data = await r.json();
      } catch {
      }
      return { status: r.status, data: data || {} };
    }
    async begin(params, replaceUrl = () => {
    }) {
      const code = (params.get("class") || "").toUpperCase();
      if (params.get("teach") === "1") {
        const r = await this.call("POST", "open", {});
        if (r.status !== 200) return null;
        replaceUrl("?class=" + r.data.code + "&lead=1");
        this.storage.setItem("ae-class-" + r.data.code, r.data.teacher);
        return { role: "teacher", code: r.data.code, token: r.data.teacher };
      }
      if (!CODE.test(code)) return null;
      const token = params.get("lead") === "1" && this.storage.getItem("ae-class-" + code);
      return token ? { role: "teacher", code, token } : { role: "student", code };
    }
    async join(code) {
      let student = this.storage.getItem("ae-student-" + code);
      if (student) return { student };
      const r = await this.call("POST", code + "/join", {});
      if (r.status !== 200) return { ended: r.data.message || "Could not join this class." };
      student = r.data.student;
      this.storage.setItem("ae-student-" + code, student);
      return { student };
    }
    async follow(code, onLead, stopped = () => false) {
      let version = 0;
      while (!stopped()) {
        let r;
        try {
          r = await this.call("GET", `${code}/follow?since=${version}`);
        } catch {
          await this.sleep(RETRY_MS);
          continue;
        }
        if (r.data.ended) return r.data.message || "This class has ended.";
        if (r.status !== 200) {
          await this.sleep(RETRY_MS);
          continue;
        }
        if (r.data.state && r.data.version !== version) {
          version = r.data.version;
          onLead({ ...r.data.state, version });
        }
      }
      return null;
    }
    leader(code, token) {
      let last = "";
      const call = this.call;
      return {
        async push(state2) {
          const s = JSON.stringify(state2);
          if (s === last) return "same";
          const r = await call("POST", code + "/lead", { state: state2 }, token);
          if (r.status === 200) {
            last = s;
            return { sent: r.data.version };
          }
          if (r.data.ended) return { ended: r.data.message || "The class has ended." };
          return "failed";
        }
      };
    }
    async answers(code, token, n, step) {
      const r = await this.call("GET", `${code}/answers?step=${n}`, void 0, token);
      if (r.status !== 200 || !step) return null;
      const { answered: answered2 = 0, students = 0, counts = {}, who = [], hidden = false } = r.data;
      const rows = hidden ? [] : step.choices.map((choice) => {
        const count = counts[choice] || 0;
        return { choice, count, share: answered2 ? count / answered2 : 0 };
      });
      const flags = { released: !!r.data.released, hideCounts: !!r.data.hide_counts };
      return { answered: answered2, students, rows, who, hidden: !!hidden, ...flags };
    }
    async pace(code, token, flags) {
      const r = await this.call("POST", code + "/pace", flags, token);
      return r.status === 200 ? r.data : null;
    }
    async reset(code, token, n) {
      const r = await this.call("POST", code + "/reset", { step: n }, token);
      return r.status === 200;
    }
    async answer(code, student, n, choice) {
      const r = await this.call("POST", code + "/answer", { student, step: n, choice });
      return r.status === 200;
    }
  };
  function paced(prev, state2) {
    const released = !!(state2 && state2.released);
    let following2 = prev.following;
    if (released && !prev.released) following2 = false;
    if (!released && prev.released) following2 = true;
    return { following: following2, released };
  }
  function gates(state2, following2) {
    const s = state2 || {};
    const step = following2 && s.step ? s.step : null;
    return {
      held: !s.released,
      revealed: !!(step && s.revealed),
      choices: !!(step && !s.revealed),
      round: step ? `${step}/${s.resets || 0}` : ""
    };
  }
  var createClassClient = (options) => new ClassClient(options);

  // static/class_page.js
  var RADIOS = ["objective", "heads", "pos", "mask", "scaling"];
  var NUMBERS = ["temperature", "layer", "head"];
  var $ = (sel) => document.querySelector(sel);
  var sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "class") node.className = v;
      else if (k in node) node[k] = v;
      else node.setAttribute(k, v);
    }
    node.append(...children);
    return node;
  }
  function openTitle() {
    const b = [...document.querySelectorAll('#tabs button[role="tab"]')].find(
      (x) => x.getAttribute("aria-selected") === "true"
    );
    return b ? b.textContent.trim() : null;
  }
  function clickTab2(title2) {
    if (openTitle() !== title2) steps.clickTab(title2);
  }
  function shownStep() {
    for (const s of document.querySelectorAll(".ae-step-bar .ae-step[data-step]")) {
      if (s.offsetParent !== null) return [s, Number(s.dataset.step)];
    }
    return null;
  }
  function knobs() {
    const out = {};
    for (const k of RADIOS) {
      const r = $(`#${k} input:checked`);
      if (r) out[k] = r.value;
    }
    for (const k of NUMBERS) {
      const n = $(`#${k} input[type=number]`);
      if (n) out[k] = Number(n.value);
    }
    return out;
  }
  function snapshot(views) {
    const shown = shownStep(), box = $("#sentence textarea");
    const title2 = openTitle();
    const view = Object.keys(views).find((id) => views[id] === title2) || "explore";
    return {
      step: shown ? shown[1] : null,
      revealed: !!(shown && shown[0].querySelector("details[open]")),
      view,
      text: box ? box.value : "",
      knobs: knobs()
    };
  }
  function setText(value) {
    const box = $("#sentence textarea");
    if (!box || box.value === value) return;
    box.value = value;
    box.dispatchEvent(new Event("input", { bubbles: true }));
  }
  function setKnobs(want) {
    for (const k of RADIOS) {
      const r = want[k] != null && [...document.querySelectorAll(`#${k} input`)].find((x) => x.value === String(want[k]));
      if (r && !r.checked) r.click();
    }
    for (const k of NUMBERS) {
      const n = $(`#${k} input[type=number]`);
      if (n && want[k] != null && Number(n.value) !== Number(want[k])) {
        n.value = String(want[k]);
        n.dispatchEvent(new Event("input", { bubbles: true }));
        n.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }
  }
  async function waitFor2(find, ms) {
    const until = Date.now() + ms;
    for (; ; ) {
      const found = find();
      if (found || Date.now() > until) return found || null;
      await sleep(100);
    }
  }
  async function setUpStep(n, startTitle) {
    clickTab2(startTitle);
    const radio = await waitFor2(() => document.querySelectorAll("#start-step input")[n - 1], 1e4);
    if (!radio) return false;
    if (!radio.checked) radio.click();
    if (!await waitFor2(() => radio.checked && $("#start-setup"), 5e3)) return false;
    await sleep(150);
    $("#start-setup").click();
    return !!await waitFor2(() => {
      const s = shownStep();
      return s && s[1] === n;
    }, 2e4);
  }

  // static/class_lab.js
  var COLORS = [
    "#4f46e5",
    "#e11d48",
    "#059669",
    "#d97706",
    "#0891b2",
    "#7c3aed",
    "#65a30d",
    "#db2777",
    "#475569",
    "#b45309"
  ];
  var LEGEND = 10;
  var W = 320;
  var H = 170;
  var PAD = { l: 34, r: 8, t: 8, b: 24 };
  function text(tag, props, value) {
    const node = document.createElement(tag);
    Object.assign(node, props);
    node.textContent = value;
    return node;
  }
  function draw(canvas, data) {
    const dpr = window.devicePixelRatio || 1;
    canvas.width = W * dpr;
    canvas.height = H * dpr;
    const g = canvas.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    const style = getComputedStyle(canvas);
    const ink = style.color || "#111";
    g.clearRect(0, 0, W, H);
    const until = Math.max(1, ...data.runs.map((r) => r.steps || 1));
    const x = (s) => PAD.l + (W - PAD.l - PAD.r) * (s / until);
    const y = (v) => H - PAD.b - (H - PAD.t - PAD.b) * Math.max(0, Math.min(1, v));
    g.strokeStyle = ink;
    g.fillStyle = ink;
    g.lineWidth = 1;
    g.font = "11px sans-serif";
    g.beginPath();
    g.moveTo(PAD.l, PAD.t);
    g.lineTo(PAD.l, H - PAD.b);
    g.lineTo(W - PAD.r, H - PAD.b);
    g.stroke();
    g.textAlign = "right";
    for (const v of [0, 0.5, 1]) g.fillText(`${v * 100}%`, PAD.l - 3, y(v) + 4);
    g.textAlign = "center";
    g.fillText("0", x(0), H - 8);
    g.fillText(`${until} steps`, x(until) - 24, H - 8);
    g.setLineDash([4, 3]);
    g.beginPath();
    g.moveTo(PAD.l, y(data.threshold));
    g.lineTo(W - PAD.r, y(data.threshold));
    g.stroke();
    g.setLineDash([]);
    g.textAlign = "left";
    g.fillText("formed", PAD.l + 3, y(data.threshold) - 3);
    data.runs.forEach((run, i) => {
      const color = COLORS[i % COLORS.length];
      g.strokeStyle = color;
      g.fillStyle = color;
      g.lineWidth = Math.min(5, 1.5 + run.students / 2);
      g.beginPath();
      run.points.forEach(([s, v], k) => k ? g.lineTo(x(s), y(v)) : g.moveTo(x(s), y(v)));
      g.stroke();
      const at = run.formed_at_step, hit = at != null && run.points.find(([s]) => s >= at);
      if (hit) {
        g.beginPath();
        g.arc(x(at), y(hit[1]), 4, 0, 2 * Math.PI);
        g.fill();
      }
    });
  }
  function legend(list, data) {
    const items = data.runs.slice(0, LEGEND).map((run, i) => {
      const li = document.createElement("li");
      li.dataset.students = String(run.students);
      li.dataset.formed = run.formed_at_step == null ? "" : String(run.formed_at_step);
      const where = run.formed_at_step != null ? `formed at step ${run.formed_at_step}` : run.state === "done" ? "no induction head" : run.state;
      li.append(
        text(
          "span",
          { className: "ae-class-swatch", style: `background:${COLORS[i % COLORS.length]}` },
          ""
        ),
        `${run.label} · ${run.students === 1 ? "1 student" : run.students + " students"} · ${where}`
      );
      return li;
    });
    const more = data.runs.length - LEGEND;
    if (more > 0) items.push(text("li", {}, `and ${more} more settings`));
    list.replaceChildren(...items);
  }
  var classLab = {
    panel(call, code, token) {
      const canvas = text(
        "canvas",
        {
          id: "class-lab-chart",
          role: "img",
          ariaLabel: "The class's Lab runs: induction score over training steps"
        },
        ""
      );
      canvas.style.width = W + "px";
      canvas.style.height = H + "px";
      const head = text("p", { id: "class-lab-head" }, "");
      const list = text("ol", { id: "class-lab-runs", className: "ae-class-lab-runs" }, "");
      const box = document.createElement("div");
      box.id = "class-lab";
      box.hidden = true;
      box.append(text("h4", {}, "The class's Lab runs"), head, canvas, list);
      let last = "";
      return {
        box,
        async update() {
          const r = await call("GET", code + "/lab", void 0, token);
          if (r.status !== 200) return;
          const now = JSON.stringify(r.data);
          if (now === last) return;
          last = now;
          const data = r.data;
          box.hidden = !data.runs.length;
          if (!data.runs.length) return;
          const n = data.students, k = data.runs.length;
          head.textContent = `${n} student${n === 1 ? "" : "s"} trained · ${k} setting${k === 1 ? "" : "s"} (same settings: one training, one curve)`;
          draw(canvas, data);
          legend(list, data);
        }
      };
    }
  };

  // static/class_pace.js
  var RELEASE = "Let students explore";
  var HOLD = "Hold the class";
  function paceControls(client, code, token, step) {
    const release = el("button", { id: "class-release", type: "button" }, RELEASE);
    release.setAttribute("aria-pressed", "false");
    const hide = el("input", { id: "class-hide-counts", type: "checkbox" });
    const hideLabel = el("label", { class: "ae-class-check" }, hide, " Hide counts until the reveal");
    const reset = el("button", { id: "class-reset", type: "button" }, "Reset votes");
    const said = el("span", { class: "ae-class-said", "aria-live": "polite" });
    const sync = (flags) => {
      if (!flags) return;
      release.setAttribute("aria-pressed", String(!!flags.released));
      release.textContent = flags.released ? HOLD : RELEASE;
      hide.checked = !!(flags.hideCounts ?? flags.hide_counts);
    };
    release.addEventListener("click", async () => {
      const on = release.getAttribute("aria-pressed") !== "true";
      sync(await client.pace(code, token, { released: on }));
    });
    hide.addEventListener("change", async () => {
      sync(await client.pace(code, token, { hide_counts: hide.checked }));
    });
    reset.addEventListener("click", async () => {
      const n = step();
      if (!n) return;
      said.textContent = await client.reset(code, token, n) ? `Step ${n}'s votes were reset.` : "Could not reset the votes.";
    });
    const box = el(
      "div",
      { id: "class-pace", class: "ae-class-pace" },
      release,
      reset,
      hideLabel,
      said
    );
    return { box, sync };
  }
  function whoAnswered(got) {
    if (!got.who.length) return el("p", { id: "class-who", class: "ae-class-names" }, "");
    return el("p", { id: "class-who", class: "ae-class-names" }, "Answered: " + got.who.join(" · "));
  }

  // static/class_join.js
  var MAX_TYPED = 40;
  var EXAMPLE = "K7PX2M";
  function normalCode(text2) {
    if (typeof text2 !== "string" || text2.length > MAX_TYPED) return null;
    const code = text2.replace(/[\s-]+/g, "").toUpperCase();
    return CODE.test(code) ? code : null;
  }
  var echo = (text2) => {
    const t = String(text2).trim();
    return t.length > 12 ? t.slice(0, 12) + "…" : t;
  };
  function typed(text2) {
    const t = typeof text2 === "string" ? text2 : "";
    if (!t.trim()) return { message: "Type the class code your teacher shows." };
    const code = normalCode(t);
    if (code) return { code };
    return {
      message: `“${echo(t)}” is not a class code: a code is 6 letters and digits, like ${EXAMPLE}.`
    };
  }
  function refusal(status, data, code) {
    if (status === 410) return `This class (${code}) has ended: ask your teacher for the new code.`;
    if (status === 404 && data && data.ended) {
      return `No class has the code ${code}: check it with your teacher.`;
    }
    return null;
  }
  async function probe(call, code) {
    try {
      const r = await call("GET", `${code}/follow?since=-1`);
      return refusal(r.status, r.data, code);
    } catch {
      return null;
    }
  }
  async function tryCode(text2, call) {
    const t = typed(text2);
    if (!t.code) return t;
    const message = await probe(call, t.code);
    return message ? { message } : { code: t.code };
  }
  function entry(params) {
    if (params.get("teach") === "1") return { params };
    if (params.has("class")) {
      const raw = params.get("class") || "";
      const code = normalCode(raw);
      if (!code) return { ask: { value: raw.slice(0, MAX_TYPED), message: typed(raw).message } };
      const next = new URLSearchParams(params);
      next.set("class", code);
      return { params: next };
    }
    return { ask: { value: (params.get("join") || "").slice(0, MAX_TYPED), message: "" } };
  }
  function shortAddress(link) {
    try {
      const u = new URL(link);
      return u.host + u.pathname + "?join";
    } catch {
      return "?join";
    }
  }

  // static/class_join_screen.js
  var KEY = "j";
  function typing(target) {
    return !!(target && target.closest && target.closest("input, textarea, select, [contenteditable]"));
  }
  function joinScreen(code, link) {
    const qr = el("img", { id: "class-join-qr", alt: "QR code: the class's join link" });
    const address = el("p", { id: "class-join-address" }, shortAddress(link));
    const note = el("p", { id: "class-join-note", class: "ae-class-screen-hint" });
    note.hidden = true;
    const start2 = el("button", { id: "class-join-start", type: "button" }, "Start the class");
    const words2 = el(
      "div",
      { class: "ae-class-screen-words" },
      el("p", { class: "ae-class-screen-say" }, "Scan the code, or open"),
      address,
      note,
      el("p", { class: "ae-class-screen-say" }, "and type the class code"),
      el("p", { id: "class-join-code" }, code),
      start2,
      el("p", { class: "ae-class-screen-hint" }, "Esc or a click closes this; J shows it again.")
    );
    const attrs = { id: "class-join-screen", class: "ae-class-screen", role: "dialog" };
    const screen2 = el("div", { ...attrs, "aria-label": "Join the class " + code }, qr, words2);
    screen2.hidden = true;
    document.body.append(screen2);
    const api = {
      shown: () => !screen2.hidden,
      show() {
        screen2.hidden = false;
        start2.focus();
      },
      hide() {
        screen2.hidden = true;
      },
      setQr(src) {
        qr.src = src;
      },
      setLink(next, said) {
        if (next) address.textContent = shortAddress(next);
        note.textContent = said || "";
        note.hidden = !said;
      }
    };
    screen2.addEventListener("click", () => api.hide());
    document.addEventListener("keydown", (e) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "Escape" && api.shown()) api.hide();
      else if (String(e.key || "").toLowerCase() === KEY && !api.shown() && !typing(e.target))
        api.show();
    });
    return api;
  }

  // static/class_teacher.js
  var TICK_MS = 300;
  function joinBox(code, join) {
    return el(
      "details",
      { id: "class-join", open: true },
      el("summary", {}, "Join: link and QR code"),
      el(
        "p",
        {},
        "Students open ",
        el("a", { id: "class-link", href: join, target: "_blank" }, join)
      ),
      el("p", { id: "class-link-note", class: "ae-class-private" }),
      el("img", { id: "class-qr", alt: "QR code of the class link", width: 160, height: 160 }),
      el(
        "p",
        { class: "ae-class-private" },
        "This page leads the class. After a reload, ",
        el(
          "a",
          { id: "class-teacher-link", href: "?class=" + code + "&lead=1" },
          "reopen as the teacher"
        ),
        " (this tab only)."
      )
    );
  }
  async function showAnswers(client, cfg, code, token, bars, pace) {
    const shown = shownStep();
    if (!shown) {
      bars.textContent = "Set up a step: the class's predictions appear here.";
      return;
    }
    const n = shown[1];
    const got = await client.answers(code, token, n, cfg.steps[n - 1]);
    if (!got) return;
    pace.sync(got);
    const rows = got.rows.map(
      ({ choice, count, share }) => el(
        "div",
        { class: "ae-class-row" },
        el("span", { class: "ae-class-choice" }, choice),
        el("span", { class: "ae-class-bar", style: `width:${Math.round(share * 100)}%` }),
        el("span", { class: "ae-class-count" }, String(count))
      )
    );
    const hidden = got.hidden ? [el("p", { id: "class-hidden" }, "Counts hidden until the reveal")] : [];
    bars.replaceChildren(
      el("p", {}, `Step ${n}: ${got.answered} of ${got.students} answered`),
      ...hidden,
      ...rows,
      whoAnswered(got)
    );
  }
  async function showRoster(client, code, token, box) {
    const r = await client.call("GET", code + "/roster", void 0, token);
    if (r.status !== 200) return;
    const { students = 0, nicknames = [] } = r.data;
    const joined = students === 1 ? "1 student joined" : `${students} students joined`;
    const head = el("p", { id: "class-joined" }, joined);
    if (!nicknames.length) {
      box.replaceChildren(head);
      return;
    }
    const names2 = el("p", { id: "class-nicknames", class: "ae-class-names" }, nicknames.join(" · "));
    box.replaceChildren(head, names2);
  }
  function showQr(client, code, screen2) {
    client.call("GET", `${code}/qr`).then(
      (r) => {
        if (!r.data.svg) return;
        const src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(r.data.svg);
        $("#class-qr").src = src;
        screen2.setQr(src);
        screen2.setLink(r.data.link, r.data.note);
        const link = $("#class-link");
        if (r.data.link) link.href = link.textContent = r.data.link;
        $("#class-link-note").textContent = r.data.note || "";
      },
      () => {
      }
    );
  }
  async function teach(client, cfg, timings2, code, token, fresh2 = false) {
    const join = window.location.origin + window.location.pathname + "?class=" + code;
    const screen2 = joinScreen(code, join);
    const showScreen = el("button", { id: "class-join-show", type: "button" }, "Join screen (J)");
    showScreen.title = "Show the class code and QR code full screen for the projector (key J)";
    showScreen.addEventListener("click", () => screen2.show());
    const bars = el("div", { id: "class-answers", "aria-live": "polite" });
    const roster = el("div", { id: "class-roster" }, "No student has joined yet.");
    const lab = classLab.panel(client.call, code, token);
    const pace = paceControls(client, code, token, () => (shownStep() || [])[1] || null);
    const box = joinBox(code, join);
    const end = el("button", { id: "class-end", type: "button" }, "End class");
    const summary = el("summary", {}, "Class ", el("strong", { id: "class-code" }, code));
    const attrs = { id: "class-panel", class: "ae-class-panel", open: true };
    const parts = [summary, showScreen, box, pace.box, roster, bars, lab.box, end];
    document.body.append(el("details", attrs, ...parts));
    showQr(client, code, screen2);
    if (fresh2) screen2.show();
    let ended = false;
    const stop = (message) => {
      ended = true;
      bars.textContent = message;
    };
    end.addEventListener("click", async () => {
      await client.call("POST", code + "/end", {}, token);
      stop("The class has ended.");
    });
    const leader = client.leader(code, token);
    const lead = async () => {
      const at = performance.timeOrigin + performance.now();
      const sent2 = await leader.push(snapshot(cfg.views));
      if (sent2.sent !== void 0) timings2.push({ kind: "lead", version: sent2.sent, at });
      else if (sent2.ended) stop(sent2.ended);
    };
    let folded = false;
    for (let tick = 0; !ended; tick++) {
      if (!folded && shownStep()) {
        box.open = false;
        folded = true;
      }
      try {
        await lead();
        if (tick % 4 === 0) await showAnswers(client, cfg, code, token, bars, pace);
        if (tick % 4 === 2) await lab.update();
        if (tick % 16 === 8) await showRoster(client, code, token, roster);
      } catch {
      }
      await sleep(TICK_MS);
    }
  }

  // static/class_student.js
  var store = () => window.sessionStorage;
  function nicknameBox(client, el2, code, student) {
    const input = el2("input", {
      id: "class-nickname",
      type: "text",
      maxLength: 24,
      placeholder: "Nickname (optional)",
      "aria-label": "Nickname (optional)",
      value: store().getItem("ae-nick-" + code) || ""
    });
    const save = el2("button", { id: "class-nickname-set", type: "button" }, "Set");
    const send = async () => {
      const r = await client.call("POST", code + "/nickname", { student, nickname: input.value });
      if (r.status !== 200) return;
      input.value = r.data.nickname;
      store().setItem("ae-nick-" + code, r.data.nickname);
      save.textContent = "Saved";
    };
    save.addEventListener("click", send);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") send();
    });
    input.addEventListener("input", () => {
      save.textContent = "Set";
    });
    return el2("span", { class: "ae-class-nick" }, input, save);
  }
  function showBar(bar) {
    document.body.prepend(bar);
    const root6 = document.documentElement;
    root6.classList.add("ae-in-class");
    const fit2 = () => root6.style.setProperty("--ae-class-bar", bar.offsetHeight + "px");
    new ResizeObserver(fit2).observe(bar);
    fit2();
    const below = screen.sentenceBottom;
    screen.sentenceBottom = () => bar.offsetHeight + below();
  }
  function offer(ctx, n, g) {
    const { client, cfg, el: el2, code, student, choices } = ctx;
    const step = n && cfg.steps[n - 1];
    if (!step || !g.choices) {
      choices.replaceChildren();
      choices.dataset.round = "";
      return;
    }
    if (choices.dataset.round === g.round) return;
    choices.dataset.round = g.round;
    const pick = (c) => {
      const attrs = { type: "button", class: "ae-class-pick", "aria-pressed": "false" };
      const b = el2("button", attrs, c);
      b.addEventListener("click", async () => {
        if (!await client.answer(code, student, n, c)) return;
        for (const x of choices.querySelectorAll("button")) {
          x.setAttribute("aria-pressed", String(x === b));
        }
      });
      return b;
    };
    choices.replaceChildren("Your prediction: ", ...step.choices.map(pick));
  }
  async function show(ctx, s) {
    const { cfg, tools } = ctx;
    const shown = tools.shownStep();
    if (s.step && (!shown || shown[1] !== s.step)) await tools.setUpStep(s.step, cfg.views.start);
    if (!s.step) {
      clickTab2(cfg.views[s.view] || cfg.views.explore);
      setKnobs(s.knobs || {});
      setText(s.text || "");
    }
    const g = gates(s, true);
    const now = tools.shownStep();
    const details = now && now[0].querySelector("details");
    if (details && details.open !== g.revealed) details.open = g.revealed;
    tools.mark("shown", s.version);
    offer(ctx, s.step, g);
  }
  var words = (following2, released) => following2 ? ["Following the teacher", "Explore on my own"] : [released ? "The teacher lets you explore" : "Exploring on your own", "Follow again"];
  async function follower(client, cfg, tools, code, classMode2) {
    const { el: el2 } = tools;
    const joined = await client.join(code);
    const root6 = document.documentElement;
    let following2 = true, released = false, state2 = null, busy = false;
    root6.classList.add("ae-class-held");
    const status = el2("span", { id: "class-status" }, "Following the teacher");
    const choices = el2("span", { id: "class-choices" });
    const toggle = el2("button", { id: "class-toggle", type: "button" }, "Explore on my own");
    const ended = (message2) => {
      status.textContent = message2;
      choices.replaceChildren();
      toggle.hidden = true;
      following2 = false;
      root6.classList.remove("ae-class-held");
    };
    const student = joined.student;
    const parts = [status, choices, toggle];
    if (student) parts.push(nicknameBox(client, el2, code, student));
    const attrs = { id: "class-follow", class: "ae-class-follow", role: "region" };
    showBar(el2("div", { ...attrs, "aria-label": "Class" }, ...parts));
    if (!student) return ended(joined.ended);
    classMode2.labTag = () => toggle.hidden ? "" : code + " " + student;
    const ctx = { client, cfg, tools, el: el2, code, student, choices };
    async function apply() {
      if (busy || !following2 || !state2) return;
      busy = true;
      const s = state2;
      try {
        await show(ctx, s);
      } finally {
        busy = false;
      }
      if (state2 !== s) setTimeout(apply, 0);
    }
    const setFollowing = (on) => {
      following2 = on;
      [status.textContent, toggle.textContent] = words(following2, released);
      if (following2 && state2) apply();
    };
    toggle.addEventListener("click", () => setFollowing(!following2));
    const message = await client.follow(code, (s) => {
      state2 = s;
      tools.mark("got", s.version);
      const now = paced({ following: following2, released }, s);
      const letGo = now.released !== released;
      released = now.released;
      root6.classList.toggle("ae-class-held", gates(s, following2).held);
      if (letGo || now.following !== following2) setFollowing(now.following);
      else apply();
    });
    if (message) ended(message);
  }

  // static/class_join_box.js
  function askCode(call, shown, onCode) {
    const { value = "", message = "" } = shown;
    const input = el("input", {
      id: "class-code-input",
      type: "text",
      maxLength: MAX_TYPED,
      value,
      placeholder: "K7PX2M",
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: false,
      enterKeyHint: "go"
    });
    const label = el("label", { for: "class-code-input" }, "Class code");
    const join = el("button", { id: "class-code-join", type: "submit" }, "Join");
    const said = el("p", { id: "class-code-message", role: "status" }, message);
    said.hidden = !message;
    const row = el("div", { class: "ae-class-join-row" }, label, input, join);
    const attrs = { id: "class-code-form", class: "ae-class-join-box", "aria-label": "Join a class" };
    const form = el("form", attrs, row, said);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (join.disabled) return;
      join.disabled = true;
      join.textContent = "Joining…";
      const got = await tryCode(input.value, call);
      join.disabled = false;
      join.textContent = "Join";
      if (got.code) {
        form.remove();
        onCode(got.code);
        return;
      }
      said.textContent = got.message;
      said.hidden = false;
      input.focus();
      input.select();
    });
    document.body.prepend(form);
    input.focus();
    return form;
  }

  // static/class.js
  var timings = [];
  var mark2 = (kind, version) => {
    timings.push({ kind, version, at: performance.timeOrigin + performance.now() });
    if (timings.length > 50) timings.shift();
  };
  function readConfig2() {
    const meta = document.querySelector('meta[name="ae-class-config"]');
    const fallback = { views: {}, steps: [], base: "ae-class/" };
    try {
      return meta ? { ...fallback, ...JSON.parse(meta.content) } : fallback;
    } catch {
      return fallback;
    }
  }
  var classMode = {
    snapshot: () => snapshot(readConfig2().views),
    timings,
    labTag: () => ""
  };
  async function start(params) {
    const found = () => document.querySelector("#tabs button[role='tab']");
    for (let t = 0; t < 300 && !(found() && document.querySelector("#sentence textarea")); t++) {
      await sleep(100);
    }
    const cfg = readConfig2();
    const client = createClassClient({
      fetch: (...a) => window.fetch(...a),
      storage: window.sessionStorage,
      sleep,
      base: cfg.base
    });
    const tools = { el, setUpStep, shownStep, mark: mark2 };
    const student = async (code) => {
      const refused2 = await probe(client.call, code);
      if (refused2) return askCode(client.call, { value: code, message: refused2 }, follow2);
      return follow2(code);
    };
    const follow2 = (code) => {
      const here = new URLSearchParams(window.location.search);
      if (here.get("class") !== code) {
        here.delete("join");
        here.set("class", code);
        history.replaceState(null, "", "?" + here);
      }
      return follower(client, cfg, tools, code, classMode);
    };
    const wants = entry(params);
    if (wants.ask) return askCode(client.call, wants.ask, follow2);
    const page = await client.begin(wants.params, (q) => history.replaceState(null, "", q));
    if (!page) return;
    if (page.role === "teacher") {
      const fresh2 = params.get("teach") === "1";
      return teach(client, cfg, timings, page.code, page.token, fresh2);
    }
    return student(page.code);
  }
  function startClassMode() {
    const params = new URLSearchParams(window.location.search);
    if (params.get("teach") === "1" || params.has("class") || params.has("join")) start(params);
  }

  // static/share.js
  var openView = null;
  var pageAddress = () => window.location.origin + window.location.pathname;
  var linkedView = () => openView || "explore";
  function trackViews(_args, { views, self, aliases = {} }) {
    const byTitle = Object.fromEntries(Object.entries(views).map(([id, t]) => [t, id]));
    const tabButtons = () => [
      ...document.querySelectorAll('#tabs button[role="tab"], #tabs .overflow-dropdown button')
    ];
    document.addEventListener(
      "click",
      (e) => {
        const b = e.target.closest && e.target.closest("#tabs button");
        const id = b && byTitle[b.textContent.trim()];
        if (id && id !== self) openView = id;
      },
      true
    );
    const asked2 = new URLSearchParams(window.location.search).get("tab");
    const wanted = Object.prototype.hasOwnProperty.call(aliases, asked2) ? aliases[asked2] : asked2;
    if (!wanted || !Object.prototype.hasOwnProperty.call(views, wanted)) return;
    let tries = 120;
    const open2 = () => {
      const b = tabButtons().find((x) => x.textContent.trim() === views[wanted]);
      if (b && document.querySelector("#grid canvas")) {
        b.click();
        return;
      }
      if (--tries > 0) setTimeout(open2, 250);
    };
    setTimeout(open2, 500);
  }
  function downloadPicture([layer, head], { elem, fmt, scale, width, name }) {
    const gd = document.querySelector(`#${elem} .js-plotly-plot`);
    if (!gd || !window.Plotly || !gd._fullLayout) return;
    const file = name === "head" ? `attention-L${Number(layer)}H${Number(head)}` : "attention-all-heads";
    const w = gd._fullLayout.width, h = gd._fullLayout.height, wide = Math.max(w, width);
    window.Plotly.downloadImage(gd, {
      format: fmt,
      filename: file,
      scale,
      width: wide,
      height: Math.round(h * wide / w)
    });
  }

  // static/start_link.js
  function stepLink([title2], names2) {
    const n = Math.max(0, names2.indexOf(title2)) + 1;
    return window.location.origin + window.location.pathname + "?step=" + n;
  }
  function showStep(raw, moved) {
    const radios = [...document.querySelectorAll("#start-step input")];
    const n = parseInt(raw.slice(0, 3), 10);
    const chosen = radios[Math.min(Math.max(Number.isNaN(n) ? 1 : n, 1), radios.length) - 1];
    const setup = document.querySelector("#start-setup");
    if (!chosen || !chosen.checked || !setup || setup.offsetParent === null) return false;
    const bottom = setup.getBoundingClientRect().bottom;
    if (moved() || window.scrollY === 0 && bottom <= window.innerHeight) return true;
    const label = chosen.closest("label") || chosen;
    const top = Math.min(label.getBoundingClientRect().top - 8, bottom - window.innerHeight + 16);
    window.scrollTo({ top: window.scrollY + top, behavior: "instant" });
    return true;
  }
  function openOnLink(_args, title2) {
    const raw = new URLSearchParams(window.location.search).get("step");
    if (raw === null) return;
    let tries = 120;
    let moved = false;
    for (const t of ["wheel", "touchmove", "keydown", "pointerdown"]) {
      const stop = () => moved = true;
      window.addEventListener(t, stop, { capture: true, passive: true, once: true });
    }
    const show2 = () => showStep(raw, () => moved);
    const follow2 = (left) => {
      if (show2()) {
        setTimeout(show2, 800);
        return;
      }
      if (left > 0) setTimeout(() => follow2(left - 1), 250);
    };
    const open2 = () => {
      const b = [...document.querySelectorAll('#tabs button[role="tab"]')].find(
        (x) => x.textContent.trim() === title2
      );
      if (b && document.querySelector("#grid canvas")) {
        b.click();
        follow2(120);
        return;
      }
      if (--tries > 0) setTimeout(open2, 250);
    };
    setTimeout(open2, 500);
  }

  // static/small_wiring.js
  function maskSwitch([text2, objective, heads, pos], s) {
    return (text2 || "").includes(s.mask) && objective === s.from ? [s.to, s.heads, s.pos] : [objective, heads, pos];
  }
  function mountNewcomer({ element }) {
    element.querySelector(".ae-start-link").addEventListener("click", () => {
      const tab = document.querySelector('#tabs button[role="tab"][data-tab-id="start"]');
      if (tab) {
        tab.click();
        tab.focus();
      }
    });
  }
  var pageTheme = () => document.querySelector(".dark") ? "dark" : "light";
  var constant = (_args, data) => data;

  // static/handlers.js
  var HANDLERS = {
    "live.controls": (values) => live.controls(values),
    "live.start": (values) => live.start(values),
    "live.open": (_args, view) => live.open(view),
    "live.refresh": (_args, view) => live.refresh(view),
    "steps.open": ([where]) => steps.open(where),
    "steps.back": (_args, where) => steps.back(where),
    "steps.ask": () => steps.asked(),
    "steps.fill": ([reply]) => steps.answered(reply),
    "explore.pick": readPick,
    "plots.listen": () => listenForPlotClicks(),
    "ablate.toggle": toggleHead,
    "patch.pick": pickCell,
    "patch.lens": pickLensCell,
    "model.switch": maskSwitch,
    "lab.class": (args, data) => labClassTag(args, data, classMode.labTag),
    "start.link": stepLink,
    "start.open_on_link": openOnLink,
    "share.address": () => pageAddress(),
    "share.track_views": trackViews,
    "share.linked_view": () => linkedView(),
    "share.picture": downloadPicture,
    "page.theme": () => pageTheme(),
    "page.constant": constant
  };
  var MOUNTS = {
    "live.anchor": mountAnchor,
    "explore.grid": mountExploreGrid,
    "explore.newcomer": mountNewcomer,
    "lab.grid": mountLabGrid
  };

  // static/keys.js
  var root4 = document.documentElement;
  var tabsOf = (list) => [...list.querySelectorAll(':scope > button[role="tab"]')].filter((b) => !b.disabled);
  function roveTabs(list) {
    const tabs = tabsOf(list);
    if (!tabs.length) return;
    const selected = tabs.find((b) => b.getAttribute("aria-selected") === "true") || tabs[0];
    tabs.forEach((b) => {
      const want = b === selected ? "0" : "-1";
      if (b.getAttribute("tabindex") !== want) b.setAttribute("tabindex", want);
    });
  }
  var TAB_KEYS = /* @__PURE__ */ new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);
  function onTabKey(ev, tab) {
    const list = tab.parentElement;
    const tabs = tabsOf(list);
    const i = tabs.indexOf(tab);
    if (i < 0 || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const rtl = getComputedStyle(list).direction === "rtl";
    let next;
    if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = tabs.length - 1;
    else {
      const forward = ev.key === "ArrowRight" !== rtl;
      next = (i + (forward ? 1 : -1) + tabs.length) % tabs.length;
    }
    ev.preventDefault();
    const to = tabs[next];
    tabs.forEach((b) => b.setAttribute("tabindex", b === to ? "0" : "-1"));
    to.focus();
    if (to.getAttribute("aria-selected") !== "true") to.click();
  }
  var groups = 0;
  function nameRadios(fieldset) {
    const radios = fieldset.querySelectorAll('input[type="radio"]');
    if (radios.length < 2) return;
    if (!fieldset.dataset.aeRadios) {
      groups += 1;
      fieldset.dataset.aeRadios = "ae-radio-" + (fieldset.id || "group") + "-" + groups;
    }
    const name = fieldset.dataset.aeRadios;
    radios.forEach((r) => {
      if (r.name !== name) r.name = name;
    });
  }
  function scan() {
    document.querySelectorAll('[role="tablist"]').forEach(roveTabs);
    document.querySelectorAll("fieldset").forEach((f) => {
      if (f.querySelector('input[type="radio"]')) nameRadios(f);
    });
  }
  document.addEventListener("keydown", (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    if (!t || !TAB_KEYS.has(ev.key)) return;
    if (t.matches('[role="tablist"] > button[role="tab"]')) onTabKey(ev, t);
  });
  var pending = false;
  new MutationObserver((records) => {
    let again = false;
    for (const r of records) {
      if (r.type === "attributes" && r.attributeName === "name") {
        const f = r.target.closest("fieldset[data-ae-radios]");
        if (f && r.target.name !== f.dataset.aeRadios) r.target.name = f.dataset.aeRadios;
      } else {
        again = true;
      }
    }
    if (again && !pending) {
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        scan();
      });
    }
  }).observe(root4, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["name", "aria-selected", "disabled"]
  });
  var keys = { scan };

  // static/figures.js
  var allLines = /* @__PURE__ */ new WeakMap();
  var queries = /* @__PURE__ */ new WeakMap();
  var picked2 = /* @__PURE__ */ new WeakMap();
  var hooked = /* @__PURE__ */ new WeakSet();
  var pageHooked = /* @__PURE__ */ new WeakSet();
  var headViewQuery = (gd) => queries.get(typeof gd === "string" ? document.querySelector(gd) : gd);
  var DESCRIBE = {
    "head-large": "Heatmap of one head: each row is a token, each column a token it may look at; brighter means more attention.",
    "head-view": "Lines from each token on the left to the tokens it looks at on the right, one colour per head. Tap or click a word on the left to show only its lines; from the keyboard, the up and down arrow keys pick a word and Escape shows all.",
    predictions: "Bar chart of the model's top guesses and their probabilities."
  };
  function title(gd) {
    const anns = gd.layout && gd.layout.annotations || [];
    const top = anns.find((a) => a && a.yref === "paper" && Number(a.y) >= 1 && a.text);
    const t = top ? top.text : gd.layout && gd.layout.title && gd.layout.title.text || "";
    return String(t).replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  }
  function nameFigure(gd) {
    const host = gd.closest('[data-testid="plotly"]') || gd;
    const block = gd.closest("[id]");
    const named = block && block.querySelector('[data-testid="block-label"]');
    const what = block && DESCRIBE[block.id] || named && named.textContent.trim() || "";
    const label = [title(gd), what].filter(Boolean).join(". ") || "Figure";
    host.setAttribute("role", "figure");
    if (host.getAttribute("aria-label") !== label) host.setAttribute("aria-label", label);
  }
  function focusHeadView(gd, query) {
    if (!window.Plotly) return;
    const lines = [], xs = [], ys = [];
    gd.data.forEach((tr, i) => {
      if (tr.mode !== "lines" || tr.showlegend) return;
      if (!allLines.has(tr)) {
        const full = (gd._fullData || []).find((f) => f.index === i) || tr;
        allLines.set(tr, { x: Array.from(full.x || []), y: Array.from(full.y || []) });
      }
      const all2 = allLines.get(tr), x = [], y = [];
      for (let s = 0; s < all2.y.length; s += 3) {
        if (query === null || all2.y[s] === query) {
          x.push(all2.x[s], all2.x[s + 1], all2.x[s + 2]);
          y.push(all2.y[s], all2.y[s + 1], NaN);
        }
      }
      lines.push(i);
      xs.push(x);
      ys.push(y);
    });
    queries.set(gd, query);
    if (lines.length) window.Plotly.restyle(gd, { x: xs, y: ys }, lines);
    const tokens = gd.data.find((tr) => tr.name === "query");
    const word = query === null || !tokens ? "" : String(tokens.text[query] ?? query);
    let note = gd.closest("#head-view")?.querySelector(".ae-focus-note");
    const block = gd.closest("#head-view");
    if (block && !note) {
      note = document.createElement("p");
      note.className = "ae-focus-note";
      note.setAttribute("aria-live", "polite");
      block.appendChild(note);
    }
    if (note) {
      note.textContent = query === null ? "" : "Showing where “" + word + "” (token " + query + ") looks. Tap it again, tap the background or press Escape to show every line.";
    }
  }
  var queryCount = (gd) => ((gd._fullData || []).find((tr) => tr.name === "query") || { y: [] }).y.length;
  function hookHeadView(gd) {
    if (hooked.has(gd) || !gd.on) return;
    hooked.add(gd);
    const host = gd.closest('[data-testid="plotly"]') || gd;
    host.tabIndex = 0;
    host.addEventListener("keydown", (ev) => {
      const n = queryCount(gd), q = queries.get(gd);
      if (!n) return;
      const down = ev.key === "ArrowDown" || ev.key === "ArrowRight";
      const up = ev.key === "ArrowUp" || ev.key === "ArrowLeft";
      let next;
      if (down) next = q == null ? 0 : Math.min(n - 1, q + 1);
      else if (up) next = q == null ? n - 1 : Math.max(0, q - 1);
      else if (ev.key === "Escape" && q != null) next = null;
      else return;
      ev.preventDefault();
      focusHeadView(gd, next);
    });
    gd.on("plotly_click", (ev) => {
      const pt = ev && ev.points && ev.points[0];
      if (!pt || !pt.data || pt.data.name !== "query") return;
      const q = Math.round(pt.y);
      picked2.set(gd, Date.now());
      focusHeadView(gd, queries.get(gd) === q ? null : q);
    });
    gd.addEventListener("click", () => {
      setTimeout(() => {
        if (queries.get(gd) != null && Date.now() - (picked2.get(gd) || 0) > 300) {
          focusHeadView(gd, null);
        }
      }, 50);
    });
  }
  function onFigure(gd) {
    nameFigure(gd);
    fit.figure(gd);
    const block = gd.closest("#head-view");
    if (!block) return;
    hookHeadView(gd);
    const fresh2 = gd.data && gd.data.length && !gd.data.some((tr) => allLines.has(tr));
    const q = queries.get(gd);
    if (fresh2 && q != null) {
      focusHeadView(gd, q < queryCount(gd) ? q : null);
    }
  }
  function hookFigure(gd) {
    if (pageHooked.has(gd) || !gd.on) return;
    pageHooked.add(gd);
    gd.on("plotly_afterplot", () => onFigure(gd));
    onFigure(gd);
  }

  // static/projector.js
  var YES = ["1", "true", "yes", "on"];
  var NO = ["0", "false", "no", "off"];
  function projectorMode(onChange = () => {
  }) {
    const root6 = document.documentElement;
    const asked2 = (new URLSearchParams(window.location.search).get("projector") || "").toLowerCase();
    const shortWide = window.innerHeight <= 560 && window.innerWidth >= 760;
    if (YES.includes(asked2) || shortWide && !NO.includes(asked2)) {
      root6.classList.add("ae-projector");
    }
    const on = () => root6.classList.contains("ae-projector");
    function sync() {
      document.querySelectorAll(".ae-projector-switch").forEach((b) => {
        b.setAttribute("aria-pressed", String(on()));
        b.textContent = on() ? "Normal screen" : "Big screen";
      });
    }
    function set(value) {
      root6.classList.toggle("ae-projector", value);
      const url = new URL(window.location.href);
      if (value) url.searchParams.set("projector", "1");
      else if (shortWide) url.searchParams.set("projector", "0");
      else url.searchParams.delete("projector");
      window.history.replaceState(window.history.state, "", url);
      sync();
      onChange(value);
    }
    return { on, set, sync };
  }

  // static/page.js
  var root5 = document.documentElement;
  var PHONE = window.matchMedia("(max-width: 720px)");
  var mode = projectorMode(() => {
    fitDrawer();
    fit.all();
    window.dispatchEvent(new Event("resize"));
  });
  var projector2 = mode.on;
  var setProjector = mode.set;
  var syncSwitch = mode.sync;
  function focusFirst(selector) {
    const el2 = document.querySelector(selector);
    if (el2) {
      el2.focus();
      el2.scrollIntoView({ block: "nearest" });
    }
    return !!el2;
  }
  document.addEventListener("click", (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    if (t.closest(".ae-projector-switch")) {
      setProjector(!projector2());
      return;
    }
    const skip = t.closest("[data-ae-skip]");
    if (!skip) return;
    ev.preventDefault();
    if (skip.dataset.aeSkip === "views") {
      focusFirst('#tabs button[role="tab"][aria-selected="true"]') || focusFirst('#tabs button[role="tab"]');
    } else {
      openDrawer(true);
      focusFirst("#controls input, #controls button");
    }
  });
  var sentenceBottom = () => {
    const form = document.querySelector("#sentence")?.closest(".form") || null;
    return form && getComputedStyle(form).position === "sticky" ? form.offsetHeight : 0;
  };
  screen.sentenceBottom = sentenceBottom;
  document.addEventListener(
    "click",
    (ev) => {
      const t = ev.target instanceof Element ? ev.target : null;
      if (!t || !t.closest("#grid-select") || !root5.classList.contains("ae-drawer")) return;
      const big = document.querySelector("#head-large");
      if (!big) return;
      const top = big.getBoundingClientRect().top + window.scrollY - sentenceBottom() - 8;
      window.scrollTo({ top, behavior: "smooth" });
    },
    true
  );
  var drawerButton = () => document.querySelector("#controls .label-wrap");
  var drawerOpen = () => drawerButton()?.classList.contains("open");
  function openDrawer(open2) {
    const b = drawerButton();
    if (b && drawerOpen() !== open2) b.click();
  }
  var drawerFitted = false;
  function fitDrawer() {
    const wasDrawer = root5.classList.contains("ae-drawer");
    root5.classList.toggle("ae-drawer", PHONE.matches && !projector2());
    const b = drawerButton();
    if (!b) return;
    if (wasDrawer && !root5.classList.contains("ae-drawer")) openDrawer(true);
    b.setAttribute("aria-controls", "controls");
    b.setAttribute("aria-expanded", String(!!drawerOpen()));
    if (!drawerFitted) {
      drawerFitted = true;
      if (root5.classList.contains("ae-drawer")) openDrawer(false);
    }
  }
  var shownTab = null;
  var scrolling = /* @__PURE__ */ new WeakSet();
  function fitTabRow() {
    const row = document.querySelector('#tabs [role="tablist"].tab-container');
    if (!row) return;
    if (!root5.classList.contains("ae-drawer")) {
      row.removeAttribute("data-ae-more");
      return;
    }
    if (!scrolling.has(row)) {
      scrolling.add(row);
      row.addEventListener("scroll", () => fitTabRow(), { passive: true });
    }
    const tab = row.querySelector('button[role="tab"][aria-selected="true"]');
    if (tab && tab !== shownTab) {
      shownTab = tab;
      const r = row.getBoundingClientRect(), t = tab.getBoundingClientRect();
      if (t.left < r.left || t.right > r.right) {
        row.scrollBy({ left: t.left - r.left - (r.width - t.width) / 2, behavior: "instant" });
      }
    }
    const left = row.scrollLeft > 2;
    const right = row.scrollLeft + row.clientWidth < row.scrollWidth - 2;
    const more = left && right ? "both" : left ? "left" : right ? "right" : null;
    if (more === null) row.removeAttribute("data-ae-more");
    else if (row.dataset.aeMore !== more) row.dataset.aeMore = more;
  }
  function scan2() {
    document.querySelectorAll(".js-plotly-plot").forEach(hookFigure);
    if (!drawerFitted) fitDrawer();
    else {
      const b = drawerButton();
      if (b) b.setAttribute("aria-expanded", String(!!drawerOpen()));
    }
    syncSwitch();
    fitTabRow();
  }
  observeOnceAFrame(
    root5,
    {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ["class"]
    },
    scan2
  );
  PHONE.addEventListener("change", () => {
    drawerFitted = false;
    fitDrawer();
  });

  // static/app.js
  register({ handlers: HANDLERS, mounts: MOUNTS });
  var AE2 = window.AttentionExplorer = window.AttentionExplorer || {};
  Object.assign(AE2, {
    handle,
    mount: mountOn,
    bridge: { names },
    live,
    grid,
    steps,
    stale,
    fit,
    keys,
    headView: { query: headViewQuery },
    classMode,
    classLab
  });
  startLive();
  startClassMode();
})();
