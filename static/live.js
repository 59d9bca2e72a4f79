/* The live loop: how a change of the sentence box or a knob reaches the open view.
 *
 * This is the one place a keystroke travels through; every view gets it for free. Loaded
 * once, in the page's <head> (app.LAUNCH), before Gradio mounts anything. Its whole
 * interface is window.AttentionExplorer.live:
 *
 *   controls(values)  the shared sentence box or a knob changed (typing, paste, cut,
 *                     Backspace, Delete, clearing, an example, a share link, a "Set up this
 *                     step"): Gradio's .change of each of them has ONE listener, js only,
 *                     that passes every shared value here (explorer/ui/controls.py finish_live). The
 *                     loop compares them with the last ones to learn what changed.
 *   open(view)        a tab was opened (its .select; the first one at page load).
 *   current()         the open view's id, once its knobs are marked (inert where unused).
 *   refresh(view)     a view's own control changed (Compare's right side, Ablate's ticks,
 *                     the Layers method, ...): update that view if it is open.
 *   mount(element, events, watch)  a view's hidden gr.HTML "anchor" (made by wire_live)
 *                     says it is on the page: events.update() / events.settle() start its
 *                     Gradio events, watch("value", ...) tells when one has finished (each
 *                     event also writes a fresh stamp into the anchor).
 *   register(view, {update, settle})  a view that fetches its own data (Explore's canvas,
 *                     static/live_grid.js: update(ctx) calls a server function with
 *                     ctx.knobs, the values by name, and draws the answer) adds or
 *                     replaces handlers.
 *                     A handler reports failure (no answer: the server was busy or did
 *                     not reply) by throwing or by resolving to false; anything else is
 *                     an answer, drawn.
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
 *  5. A request that was refused or failed (the server busy: HTTP 429 from
 *     explorer/server/client_guard.py, 503 queue full, a "busy, retry" answer, a network error, no
 *     answer within TIMEOUT_MS) leaves the view dirty: the loop waits a short backoff
 *     (BACKOFF_MS: 250 ms, doubling to 2 s; back to the start after an answer) and asks
 *     again, with the values as they are THEN, until the open view is answered. A change
 *     during the backoff ends it at once. So the last keystroke wins, also after a
 *     refusal, and the page never ends on a stale view. A failed settle is asked again
 *     the same way. Gradio events cannot say they were refused (their stamp just never
 *     comes), so the loop watches their start: the POST that joins Gradio's queue.
 *  6. While 3-5 are under way the marker #ae-live-status says "Updating <view>…", or
 *     "The server is busy: trying <view> again…" while retrying (role=status, aria-busy),
 *     and the view's panel carries data-ae-live; Explore's status line hides while it
 *     describes an older sentence than the grid shows.
 *
 * Knobs a view does not watch are made inert there, with a note saying which ones apply.
 * Configuration (knob names, which knobs each view watches, the pauses) is JSON in the
 * data-config attribute of #ae-live-config, written by explorer/ui/controls.py: data, not code.
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
  const TIMEOUT_MS = 60000; // a Gradio event that never reports back (a failure: retried)
  // Pauses before asking again after a failure, one more step per failure in a row: short,
  // as a refusal is cheap for the server (the guard answers at once) and the student waits.
  const BACKOFF_MS = [250, 500, 1000, 2000];

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
                    needSettle: false, panel: null, wake: null, phase: "",
                    failing: 0, retries: 0, // failures in a row; retries ever (for tests)
                    refuse: null, anchor: null, trigger: undefined }; // see mount()
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
      const text = !busy ? "" : v.failing ? "⏳ The server is busy: trying " + title + " again…"
        : "⏳ Updating " + title + "…";
      if (marker.textContent !== text) marker.textContent = text; // aria-live: say it once
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

  // One call of a handler: true when it was answered, false when it failed (it threw or
  // said false). A Gradio event resolves when its stamp comes back (mount()).
  async function call(v, name, changed) {
    const h = v.handlers[name];
    if (!h) return true;
    const snapshot = last ? { ...last } : {};
    const names = (readConfig() || { knobs: [] }).knobs;
    // knobs: the sentence and every knob BY NAME ({text, objective, heads, ...}, the
    // config's knob names, explorer/ui/controls.KNOB_NAMES), as they were when asked
    const ctx = {
      view: v.id, changed: [...(changed || [])], knobs: { ...snapshot },
      fresh: () => names.every((n) => last && last[n] === snapshot[n]),
    };
    try {
      return (await h(ctx)) !== false;
    } catch (e) {
      console.warn("Attention Explorer: update of " + v.id + " failed; trying again", e);
      return false;
    }
  }

  // After a failure: wait (a change of what the view watches ends the wait at once), then
  // the worker asks again with the values as they are then.
  async function backoff(v) {
    v.failing += 1;
    v.retries += 1;
    showState();
    await sleep(v, BACKOFF_MS[Math.min(v.failing, BACKOFF_MS.length) - 1]);
  }

  function answered(v) {
    v.failing = 0;
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
          if (!await call(v, v.handlers.update ? "update" : "settle", changed)) {
            // not answered: what changed is still to be shown (with what changed meanwhile)
            v.dirty = v.dirty || new Set();
            changed.forEach((n) => v.dirty.add(n));
            await backoff(v);
            continue;
          }
          answered(v);
          if (!v.handlers.update) v.needSettle = false;
          v.phase = "partial"; // the fast part is shown; the settled figures are older
          showState();
          continue;
        }
        if (v.needSettle) {
          const c = readConfig(), t = tick;
          // after a failed settle the pause is over already: the backoff was the wait
          await sleep(v, v.failing ? 0 : (c && c.settle[kind]) || 0);
          if (tick !== t || v.dirty || openId !== v.id) continue;
          v.needSettle = false;
          if (!await call(v, "settle")) {
            v.needSettle = true;
            await backoff(v);
            continue;
          }
          answered(v);
          continue;
        }
        break;
      }
    } finally {
      v.running = false;
      v.failing = 0; // closed while retrying: asked afresh when it is opened again
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

  // ------------------------------------------------ a refused Gradio event (step 5 above)
  // A view's event starts with one POST that names the component whose event it is
  // (trigger_id: the view's anchor): queue/join, or run/predict for an event without the
  // queue. Gradio's client makes it with the global fetch, looked up at each call (Gradio
  // 6.31: post_data -> this.fetch -> fetch(...)), so wrapping window.fetch here, before
  // Gradio loads, sees it. A refusal (429, 503 queue full, any answer not OK, a network
  // error) means no stamp will ever come: the waiting view fails now, not after TIMEOUT_MS.
  const JOIN = /\/gradio_api\/(queue\/join|run\/predict)\b/;

  // The Gradio component id of a view's anchor: the block around it carries its elem_id.
  function triggerId(v) {
    if (v.trigger !== undefined) return v.trigger;
    const components = (window.gradio_config && window.gradio_config.components) || [];
    for (let e = v.anchor; e; e = e.parentElement) {
      const c = e.id && components.find((x) => x.props && x.props.elem_id === e.id);
      if (c) return (v.trigger = c.id);
    }
    return null; // not known (yet): a refusal then fails every waiting view
  }

  // Fail the view whose event was refused; true when it was surely a view's event.
  function refused(body) {
    let trigger;
    try { trigger = JSON.parse(body).trigger_id; } catch (e) { return false; } // no event
    const waiting = Object.values(views).filter((v) => v.refuse);
    const mine = waiting.filter((v) => triggerId(v) === trigger);
    // a refused event of another component (a button's) is not the loop's to retry;
    // when a waiting view's id is unknown, every waiting view asks again (harmless)
    const fail = mine.length || waiting.every((v) => triggerId(v) !== null) ? mine : waiting;
    fail.forEach((v) => v.refuse());
    return Object.values(views).some((v) => v.anchor && triggerId(v) === trigger);
  }

  // Gradio shows every refused event as an error toast, one more per retry ("Error (4)"
  // over the page while the loop quietly asks again). A view's event refused as busy (429
  // from explorer/server/client_guard.py, 503 queue full) is the loop's to tell (the marker says it is
  // trying again), so Gradio gets the one refusal it takes without a message: a
  // validation error naming no input (422, detail []), which ends the event (Gradio 6.31;
  // should that change, the toasts come back, nothing worse: tests/ui/test_retry_browser.py
  // checks). Any other refusal reaches Gradio as it came. A network error too: Gradio then
  // takes the connection for lost (and says so) and starts no more events, so from then on
  // each retry of a Gradio event waits out TIMEOUT_MS.
  const QUIET = () => new Response('{"detail": []}',
    { status: 422, headers: { "Content-Type": "application/json" } });

  const fetch0 = window.fetch;
  if (fetch0) {
    window.fetch = function (input, init) {
      const answer = fetch0.apply(window, arguments);
      const url = input instanceof Request ? input.url : String(input);
      if (!init || init.method !== "POST" || typeof init.body !== "string" || !JOIN.test(url)) {
        return answer;
      }
      const body = init.body;
      return answer.then((r) => {
        if (r.ok) return r;
        return refused(body) && (r.status === 429 || r.status === 503) ? QUIET() : r;
      }, (e) => { refused(body); throw e; });
    };
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
    current() { // the open view's id (its knobs are applied: showKnobs ran for it)
      return openId;
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
      v.anchor = element;
      v.trigger = undefined; // its Gradio component id, looked up when first needed
      // The event on its way resolves true when its stamp comes back, false when it was
      // refused (v.refuse, called by the fetch watch below) or timed out.
      let done = null;
      const finish = (ok) => { const d = done; done = null; v.refuse = null; if (d) d(ok); };
      watch("value", () => finish(true));
      const start = (name) => () => new Promise((resolve) => {
        const t = setTimeout(() => finish(false), TIMEOUT_MS);
        done = (ok) => { clearTimeout(t); resolve(ok); };
        v.refuse = () => finish(false);
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
                 failing: v.failing, retries: v.retries,
                 handlers: Object.keys(v.handlers) }])) };
    },
  };
  AE.live = live;
})();
