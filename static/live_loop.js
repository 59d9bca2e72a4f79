// The live loop's scheduler: which view updates when, with no DOM and no real clock, so that
// node --test can drive it (tests/js/live.test.mjs). static/live.js wraps it for the page
// (reads its configuration, shows its state, watches refused Gradio events) and says step by
// step what happens to a keystroke; the rules kept here:
//
//   - only the OPEN view is worked on, one request at a time; changes that arrive while it
//     runs collapse into one more update, with the values as they are then (always last);
//   - a failure (a handler threw or resolved false) leaves the view dirty: wait BACKOFF_MS
//     (250 ms doubling to 2 s, back to the start after an answer) and ask again with the
//     values as they are THEN; a change during the backoff ends it at once;
//   - once nothing changed for config.settle[kind] ms, the view's settle handler follows.
//
// createLoop({config, timers, onState, warn}) -> loop
//   config()        the loop's configuration (explorer/ui/controls.live_config) or null
//   timers          {setTimeout, clearTimeout} (a fake clock in the tests)
//   onState(loop)   after every change of what is running or failing (static/live.js draws it)
//   onOpen(id)      a view was opened, before its work starts (static/live.js marks its knobs)
//   warn(...)       a failed handler (console.warn on the page)
// loop: controls(values), start(values), open(id), current(), refresh(id),
//   register(id, handlers, weak), view(id), views, state()
export const BACKOFF_MS = [250, 500, 1000, 2000];

function newView(id) {
  // failing: failures in a row; retries: ever (for tests); refuse, anchor, trigger: see
  // static/live.js mount()
  return {
    id,
    handlers: {},
    dirty: new Set(["*"]),
    running: false,
    needSettle: false,
    panel: null,
    wake: null,
    phase: "",
    failing: 0,
    retries: 0,
    refuse: null,
    anchor: null,
    trigger: undefined,
  };
}

function markDirty(v, names) {
  v.dirty = v.dirty || new Set();
  names.forEach((n) => v.dirty.add(n));
}

// What changed between two reports of the shared values (all of them the first time).
function changedKnobs(knobs, now, last) {
  return last ? knobs.filter((n) => JSON.stringify(now[n]) !== JSON.stringify(last[n])) : knobs;
}

export class Loop {
  constructor({ config, timers, onState = () => {}, onOpen = () => {}, warn = () => {} }) {
    Object.assign(this, { config, timers, onState, onOpen, warn });
    this.views = {}; // id -> newView()
    this.last = null; // the shared values as last reported, by name
    this.openId = null;
    this.kind = "other"; // what changed last: "text", "slider" or "other"
    this.tick = 0; // counts every change, so a pause can be recognised
  }

  view(id) {
    return this.views[id] || (this.views[id] = newView(id));
  }

  watches(id, name) {
    const c = this.config(),
      v = c && c.views[id];
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
    const snapshot = this.last ? { ...this.last } : {};
    const names = (this.config() || { knobs: [] }).knobs;
    // knobs: the sentence and every knob BY NAME, as they were when asked
    const ctx = {
      view: v.id,
      changed: [...(changed || [])],
      knobs: { ...snapshot },
      fresh: () => names.every((n) => this.last && this.last[n] === snapshot[n]),
    };
    try {
      return (await h(ctx)) !== false;
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
    if (!(await this.call(v, v.handlers.update ? "update" : "settle", changed))) {
      // not answered: what changed is still to be shown (with what changed meanwhile)
      markDirty(v, changed);
      await this.backoff(v);
      return;
    }
    v.failing = 0;
    if (!v.handlers.update) v.needSettle = false;
    v.phase = "partial"; // the fast part is shown; the settled figures are older
    this.onState(this);
  }

  // The settled figures once nothing changed for a moment.
  async settle(v) {
    const c = this.config(),
      t = this.tick;
    // after a failed settle the pause is over already: the backoff was the wait
    await this.sleep(v, v.failing ? 0 : (c && c.settle[this.kind]) || 0);
    if (this.tick !== t || v.dirty || this.openId !== v.id) return;
    v.needSettle = false;
    if (!(await this.call(v, "settle"))) {
      v.needSettle = true;
      await this.backoff(v);
      return;
    }
    v.failing = 0;
  }

  // The worker of one view: updates while something it watches changed, then (after a
  // pause) its settled figures. Only ever one running per view.
  async work(v) {
    if (v.running || this.openId !== v.id || (!v.handlers.update && !v.handlers.settle)) return;
    if (!this.last) return; // the page's values are not known yet (start() brings them)
    v.running = true;
    this.onState(this);
    try {
      while (this.openId === v.id && (v.dirty || v.needSettle)) {
        if (v.dirty) await this.update(v);
        else await this.settle(v);
      }
    } finally {
      v.running = false;
      v.failing = 0; // closed while retrying: asked afresh when it is opened again
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

  register(id, handlers, weak = false) {
    const v = this.view(id);
    for (const [name, fn] of Object.entries(handlers)) {
      if (weak && v.handlers[name] && v.handlers[name].strong) continue;
      const h = (ctx) => fn(ctx);
      h.strong = !weak;
      v.handlers[name] = h;
    }
    // a view's own script (re)mounted: its drawing is new and empty, so fetch again
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
      handlers: Object.keys(v.handlers),
    });
    return {
      open: this.openId,
      tick: this.tick,
      kind: this.kind,
      values: this.last && { ...this.last },
      views: Object.fromEntries(Object.values(this.views).map((v) => [v.id, each(v)])),
    };
  }
}

export const createLoop = (options) => new Loop(options);
