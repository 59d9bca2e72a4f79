/* The live loop: how a change of the sentence box or a knob reaches the open view.
 *
 * This is the one place a keystroke travels through; every view gets it for free. Loaded
 * once, in the page's <head> (app.LAUNCH), before Gradio mounts anything. Its whole
 * interface is window.AttentionExplorer.live:
 *
 *   controls(values)  the shared sentence box or a knob changed (typing, paste, cut,
 *                     Backspace, Delete, clearing, an example, a share link, a "Set up this
 *                     step"): Gradio's .change of each of them has ONE listener, js only,
 *                     that passes every shared value here (ui/controls.py finish_live). The
 *                     loop compares them with the last ones to learn what changed.
 *   open(view)        a tab was opened (its .select; the first one at page load).
 *   refresh(view)     a view's own control changed (Compare's right side, Ablate's ticks,
 *                     the Layers method, ...): update that view if it is open.
 *   mount(element, events, watch)  a view's hidden gr.HTML "anchor" (made by wire_live)
 *                     says it is on the page: events.update() / events.settle() start its
 *                     Gradio events, watch("value", ...) tells when one has finished (each
 *                     event also writes a fresh stamp into the anchor).
 *   register(view, {update, settle})  a view that fetches its own data (Explore's canvas,
 *                     static/live_grid.js: update(ctx) calls a server function with
 *                     ctx.values and draws the answer) adds or replaces handlers.
 *   state()           a copy of what the loop knows, for tests.
 *
 * A keystroke, step by step:
 *  1. The textarea's value changes; Gradio's Textbox dispatches "change" (it does for every
 *     kind of edit and for values set by the server; its "input" is keypresses only, which
 *     missed paste, Backspace, Delete, cut and clearing) and our one listener calls
 *     controls(values).
 *  2. Every view that watches "text" becomes stale; only the OPEN one is worked on. Views
 *     that are not open update when they are next opened (and only if something they
 *     watch changed since their last update).
 *  3. The open view's worker runs its update: one request at a time. Changes that arrive
 *     while it runs collapse into one more update, with the values as they are then
 *     (always last). So a keystroke costs at most one server round, for the open view.
 *  4. Once nothing changed for a moment (config.settle ms, by what changed last: typing
 *     comes in bursts), the view's slower figures follow (its settle event, if it has one).
 *  5. While 3-4 are under way the marker #ae-live-status says "Updating <view>…"
 *     (role=status, aria-busy) and the view's panel carries data-ae-live; Explore's status
 *     line hides while it describes an older sentence than the grid shows.
 *
 * Knobs a view does not watch are made inert there, with a note saying which ones apply.
 * Configuration (knob names, which knobs each view watches, the pauses) is JSON in the
 * data-config attribute of #ae-live-config, written by ui/controls.py: data, not code.
 */
(() => {
  const AE = (window.AttentionExplorer = window.AttentionExplorer || {});
  if (AE.live) return;

  const views = {}; // id -> {handlers, dirty: Set|null, running, needSettle, panel, ...}
  let config = null;
  let last = null; // the shared values as last reported, by name
  let openId = null;
  let kind = "other"; // what changed last: "text", "slider" or "other"
  let tick = 0; // counts every change, so a pause can be recognised
  const TIMEOUT_MS = 60000; // a Gradio event that never reports back (an error)

  function readConfig() {
    if (config) return config;
    const el = document.querySelector("#ae-live-config [data-config]");
    if (!el) return null;
    config = JSON.parse(el.dataset.config);
    return config;
  }

  function view(id) {
    if (!views[id]) {
      views[id] = { id, handlers: {}, dirty: new Set(["*"]), running: false,
                    needSettle: false, panel: null, wake: null, phase: "" };
    }
    return views[id];
  }

  function watches(id, name) {
    const c = readConfig(), v = c && c.views[id];
    if (!v) return false;
    return v.watch === null || v.watch.includes(name);
  }

  const sleep = (v, ms) => new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    v.wake = () => { clearTimeout(t); resolve(); };
  });

  function kick(v) {
    if (v.wake) { const w = v.wake; v.wake = null; w(); }
    work(v);
  }

  function showState() {
    const c = readConfig();
    const v = openId && views[openId];
    const busy = !!(v && v.running);
    const marker = document.querySelector("#ae-live-status");
    if (marker) {
      const title = (c && c.views[openId] && c.views[openId].title) || "the view";
      marker.textContent = busy ? "⏳ Updating " + title + "…" : "";
      marker.setAttribute("aria-busy", String(busy));
      marker.classList.toggle("ae-busy", busy);
    }
    for (const w of Object.values(views)) {
      if (!w.panel) continue;
      const phase = w.running ? w.phase : "";
      if (phase) w.panel.setAttribute("data-ae-live", phase);
      else w.panel.removeAttribute("data-ae-live");
      w.panel.setAttribute("aria-busy", String(!!w.running));
    }
  }

  // One call of a handler; a Gradio event resolves when its stamp comes back.
  async function call(v, name, changed) {
    const h = v.handlers[name];
    if (!h) return;
    const snapshot = last ? { ...last } : {};
    const names = (readConfig() || { knobs: [] }).knobs;
    const ctx = {
      view: v.id, changed: [...(changed || [])],
      values: names.map((n) => snapshot[n]),
      fresh: () => names.every((n) => last && last[n] === snapshot[n]),
    };
    try {
      await h(ctx);
    } catch (e) {
      console.error("Attention Explorer: update of " + v.id + " failed", e);
    }
  }

  // The worker of one view: updates while something it watches changed, then (after a
  // pause) its settled figures. Only ever one running per view.
  async function work(v) {
    if (v.running || openId !== v.id || !v.handlers.update && !v.handlers.settle) return;
    if (!last) return; // the page's values are not known yet (start() brings them)
    v.running = true;
    showState();
    try {
      for (;;) {
        if (openId !== v.id) break;
        if (v.dirty) {
          const changed = v.dirty;
          v.dirty = null;
          v.needSettle = !!v.handlers.settle;
          v.phase = "updating";
          showState();
          await call(v, v.handlers.update ? "update" : "settle", changed);
          if (!v.handlers.update) v.needSettle = false;
          v.phase = "partial"; // the fast part is shown; the settled figures are older
          showState();
          continue;
        }
        if (v.needSettle) {
          const c = readConfig(), t = tick;
          await sleep(v, (c && c.settle[kind]) || 0);
          if (tick !== t || v.dirty || openId !== v.id) continue;
          v.needSettle = false;
          await call(v, "settle");
          continue;
        }
        break;
      }
    } finally {
      v.running = false;
      showState();
    }
  }

  // Knobs the open view does not watch: inert, dimmed, and a note saying which apply.
  function showKnobs() {
    const c = readConfig();
    if (!c || !openId) return;
    const spec = c.views[openId] || { watch: [], title: openId };
    const on = [];
    for (const name of c.knobs) {
      const applies = spec.watch === null || spec.watch.includes(name);
      if (applies && name !== "text") on.push(c.labels[name]);
      for (const id of c.elements[name] || []) {
        const el = document.getElementById(id);
        if (!el) continue;
        el.toggleAttribute("inert", !applies);
        el.classList.toggle("ae-knob-off", !applies);
        if (applies) el.removeAttribute("aria-disabled");
        else el.setAttribute("aria-disabled", "true");
      }
    }
    const note = document.querySelector("#knob-note .ae-knob-note");
    if (note) {
      const all = spec.watch === null;
      note.textContent = all ? "" : (spec.note || ((on.length
        ? "On " + spec.title + " only these knobs apply: " + on.join(", ") + "."
        : "No knob applies on " + spec.title + ".") + " The others are switched off here."));
      note.hidden = all;
    }
  }

  const live = {
    controls(values) {
      const c = readConfig();
      if (!c) return;
      const now = Object.fromEntries(c.knobs.map((n, i) => [n, values[i]]));
      const changed = last ? c.knobs.filter((n) => JSON.stringify(now[n]) !== JSON.stringify(last[n])) : c.knobs;
      last = now;
      if (!changed.length) return;
      tick += 1;
      kind = changed.includes("text") ? "text" : changed.some((n) => c.sliders.includes(n)) ? "slider" : "other";
      for (const id of Object.keys(c.views)) {
        const hit = changed.filter((n) => watches(id, n));
        if (!hit.length) continue;
        const v = view(id);
        v.dirty = v.dirty || new Set();
        hit.forEach((n) => v.dirty.add(n));
        if (id === openId) kick(v);
      }
    },
    start(values) { // page load: the first values, then the first tab
      live.controls(values);
      const c = readConfig();
      if (c && !openId) live.open(c.first);
    },
    open(id) {
      if (openId === id) return;
      openId = id;
      showKnobs();
      // a figure drawn while its tab was hidden keeps a stale width until a resize
      setTimeout(() => window.dispatchEvent(new Event("resize")), 150);
      const v = view(id);
      showState();
      kick(v);
    },
    refresh(id) {
      const v = view(id);
      v.dirty = v.dirty || new Set();
      v.dirty.add("own");
      tick += 1;
      kind = "other";
      if (id === openId) kick(v);
    },
    mount(element, events, watch) {
      const anchor = element.querySelector("[data-view]");
      if (!anchor) return;
      const v = view(anchor.dataset.view);
      v.panel = element.closest('[role="tabpanel"]') || element.parentElement;
      let done = null;
      watch("value", () => { const d = done; done = null; if (d) d(); });
      const start = (name) => () => new Promise((resolve) => {
        const t = setTimeout(() => { done = null; resolve(); }, TIMEOUT_MS);
        done = () => { clearTimeout(t); resolve(); };
        events[name]();
      });
      const handlers = {};
      if (anchor.dataset.update === "1") handlers.update = start("update");
      if (anchor.dataset.settle === "1") handlers.settle = start("settle");
      live.register(v.id, handlers, true);
    },
    register(id, handlers, weak = false) {
      const v = view(id);
      for (const [name, fn] of Object.entries(handlers)) {
        if (weak && v.handlers[name] && v.handlers[name].strong) continue;
        const h = (ctx) => fn(ctx);
        h.strong = !weak;
        v.handlers[name] = h;
      }
      // a view's own script (re)mounted: its drawing is new and empty, so fetch again
      if (!weak) { v.dirty = v.dirty || new Set(); v.dirty.add("mount"); }
      if (id === openId) kick(v);
    },
    state() {
      return { open: openId, tick, kind, values: last && { ...last },
               views: Object.fromEntries(Object.values(views).map((v) => [v.id, {
                 running: v.running, dirty: v.dirty && [...v.dirty], needSettle: v.needSettle,
                 handlers: Object.keys(v.handlers) }])) };
    },
  };
  AE.live = live;
})();
