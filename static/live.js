/* The live loop: how a change of the sentence box or a knob reaches the open view.
 *
 * This is the one place a keystroke travels through; every view gets it for free. Started
 * once by the page's bundle (static/app.js), in the page's <head>, before Gradio mounts
 * anything. Its scheduler is static/live_loop.js (no DOM: unit-tested); this file reads its
 * configuration, shows its state and watches Gradio's events. Its interface, `live` (also
 * window.AttentionExplorer.live):
 *
 *   controls(values)  the shared sentence box or a knob changed (typing, paste, cut,
 *                     Backspace, Delete, clearing, an example, a share link, a "Set up this
 *                     step"): Gradio's .change of each of them has ONE listener, js only,
 *                     that passes every shared value here (explorer/ui/controls.py
 *                     finish_live). The loop compares them with the last ones.
 *   open(view)        a tab was opened (its .select; the first one at page load).
 *   current()         the open view's id, once its knobs are marked (inert where unused).
 *   refresh(view)     a view's own control changed (Compare's right side, Ablate's ticks,
 *                     the Layers method, ...): update that view if it is open.
 *   mount(element, events, watch)  a view's hidden gr.HTML "anchor" (made by wire_live)
 *                     says it is on the page: events.update() / events.settle() start its
 *                     Gradio events, watch("value", ...) tells when one has finished (each
 *                     event also writes a fresh stamp into the anchor).
 *   register(view, {update, settle})  a view that fetches its own data (Explore's canvas,
 *                     static/explore_grid.js) adds or replaces handlers. A handler reports
 *                     failure (no answer) by throwing or by resolving to false.
 *   state()           a copy of what the loop knows, for tests.
 *
 * A keystroke, step by step:
 *  1. The textarea's value changes; Gradio's Textbox dispatches "change" (for every kind of
 *     edit and for values set by the server; its "input" missed paste, Backspace, Delete,
 *     cut and clearing) and our one listener calls controls(values).
 *  2. Every view that watches "text" becomes stale; only the OPEN one is worked on. Views
 *     that are not open update when they are next opened (if something they watch changed).
 *  3. The open view's worker runs its update: one request at a time. Changes that arrive
 *     while it runs collapse into one more update, with the values as they are then.
 *  4. Once nothing changed for a moment (config.settle ms, by what changed last: typing
 *     comes in bursts), the view's slower figures follow (its settle event, if it has one).
 *  5. A request that was refused or failed (HTTP 429 from explorer/server/client_guard.py,
 *     503 queue full, a "busy, retry" answer, a network error, no answer within
 *     TIMEOUT_MS) leaves the view dirty: the loop waits a short backoff (250 ms, doubling
 *     to 2 s; back to the start after an answer) and asks again with the values as they
 *     are THEN. A change during the backoff ends it at once: the last keystroke wins, also
 *     after a refusal. Gradio events cannot say they were refused (their stamp just never
 *     comes), so static/live_fetch.js watches their start: the POST that joins the queue.
 *  6. While 3-5 are under way the marker #ae-live-status says "Updating <view>…", or
 *     "The server is busy: trying <view> again…" while retrying (role=status, aria-busy),
 *     and the view's panel carries data-ae-live.
 *
 * Knobs a view does not watch are made inert there, with a note saying which ones apply.
 * Configuration (knob names, which knobs each view watches, the pauses) is JSON in the
 * data-config attribute of #ae-live-config, written by explorer/ui/controls.py: data, not code.
 */
import { createLoop } from "./live_loop.js";
import { watchRefusals } from "./live_fetch.js";

const TIMEOUT_MS = 60000; // a Gradio event that never reports back (a failure: retried)
let config = null;

function readConfig() {
  if (config) return config;
  const el = document.querySelector("#ae-live-config [data-config]");
  if (!el) return null;
  config = JSON.parse(el.dataset.config);
  return config;
}

function showMarker(loop) {
  const c = readConfig();
  const openId = loop.current();
  const v = openId && loop.views[openId];
  const busy = !!(v && v.running);
  const marker = document.querySelector("#ae-live-status");
  if (!marker) return;
  const title = (c && c.views[openId] && c.views[openId].title) || "the view";
  const text = !busy
    ? ""
    : v.failing
      ? "⏳ The server is busy: trying " + title + " again…"
      : "⏳ Updating " + title + "…";
  if (marker.textContent !== text) marker.textContent = text; // aria-live: say it once
  marker.setAttribute("aria-busy", String(busy));
  marker.classList.toggle("ae-busy", busy);
}

function showState(loop) {
  showMarker(loop);
  for (const w of Object.values(loop.views)) {
    if (!w.panel) continue;
    const phase = w.running ? w.phase : "";
    if (phase) w.panel.setAttribute("data-ae-live", phase);
    else w.panel.removeAttribute("data-ae-live");
    w.panel.setAttribute("aria-busy", String(!!w.running));
  }
}

// The note saying which knobs apply on a view (null: all do).
function knobNote(c, spec, on) {
  if (spec.watch === null) return "";
  if (spec.note) return spec.note;
  const which = on.length
    ? "On " + spec.title + " only these knobs apply: " + on.join(", ") + "."
    : "No knob applies on " + spec.title + ".";
  return which + " The others are switched off here.";
}

// Knobs the open view does not watch: inert, dimmed, and a note saying which apply.
function showKnobs(openId) {
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
    note.textContent = knobNote(c, spec, on);
    note.hidden = spec.watch === null;
  }
}

const loop = createLoop({
  config: readConfig,
  timers: { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (t) => clearTimeout(t) },
  onState: showState,
  // the knobs before the view's work starts: current() names a view once they are marked
  onOpen(id) {
    showKnobs(id);
    // a figure drawn while its tab was hidden keeps a stale width until a resize
    setTimeout(() => window.dispatchEvent(new Event("resize")), 150);
  },
  warn: (...args) => console.warn(...args),
});

// A view's hidden anchor: its Gradio events as the loop's handlers. The event on its way
// resolves true when its stamp comes back, false when it was refused (v.refuse, called by
// static/live_fetch.js) or timed out.
function mount(element, events, watch) {
  const anchor = element.querySelector("[data-view]");
  if (!anchor) return;
  const v = loop.view(anchor.dataset.view);
  v.panel = element.closest('[role="tabpanel"]') || element.parentElement;
  v.anchor = element;
  v.trigger = undefined; // its Gradio component id, looked up when first needed
  let done = null;
  const finish = (ok) => {
    const d = done;
    done = null;
    v.refuse = null;
    if (d) d(ok);
  };
  watch("value", () => finish(true));
  const start = (name) => () =>
    new Promise((resolve) => {
      const t = setTimeout(() => finish(false), TIMEOUT_MS);
      done = (ok) => {
        clearTimeout(t);
        resolve(ok);
      };
      v.refuse = () => finish(false);
      events[name]();
    });
  const handlers = {};
  if (anchor.dataset.update === "1") handlers.update = start("update");
  if (anchor.dataset.settle === "1") handlers.settle = start("settle");
  loop.register(v.id, handlers, true);
}

export const live = {
  controls: (values) => loop.controls(values),
  start: (values) => loop.start(values),
  current: () => loop.current(),
  open: (id) => loop.open(id),
  refresh: (id) => loop.refresh(id),
  mount,
  register: (id, handlers, weak = false) => loop.register(id, handlers, weak),
  state: () => loop.state(),
};

// Start watching Gradio's POSTs (before Gradio loads: static/app.js calls it from <head>).
export function startLive() {
  watchRefusals(() => Object.values(loop.views));
}

// A view's anchor mounted (the bridge's "live.anchor"): {element, trigger, watch}.
export function mountAnchor({ element, trigger, watch }) {
  mount(element, { update: () => trigger("update"), settle: () => trigger("settle") }, watch);
}
