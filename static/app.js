// The page's bundle (scripts/build_js.mjs -> static/build/app.js), put in the page's <head> by
// explorer/ui/page.py: it runs once, before Gradio mounts the app. It starts the page's
// modules and puts the page's one global in place, window.AttentionExplorer:
//
//   handle(name, data, ...args), mount(name, scope, data)  the bridge Gradio's js= and
//        js_on_load= strings call (static/bridge.js; explorer/ui/bridge.py writes them)
//   bridge.names()   the names registered (for tests)
//   live             the live loop (static/live.js): controls, start, open, current,
//                    refresh, mount, register, state
//   grid             the grid renderer (static/live_grid.js): mount, request, panel, state
//   steps, stale, fit, keys   Start here's steps in their views, their stale figures, the
//                    figures' sizes, the arrow keys (static/steps.js, stale.js, fit.js, keys.js)
//   headView.query(gd)   the word a head view shows alone (static/figures.js)
//   classMode        {snapshot(), timings, labTag()} (static/class.js)
//   classLab         the teacher's chart of the class's Lab runs (static/class_lab.js)
//
// The browser engine's bundle (/ae-engine/, static/build/engine.js) adds its own members
// (engine, gridPayload, gridInBrowser, ...) to the same object; each keeps the other's.
import { handle, mountOn, names, register } from "./bridge.js";
import { HANDLERS, MOUNTS } from "./handlers.js";
import { live, startLive } from "./live.js";
import { grid } from "./live_grid.js";
import { steps } from "./steps.js";
import { stale } from "./stale.js";
import { fit } from "./fit.js";
import { keys } from "./keys.js";
import { headViewQuery } from "./figures.js";
import { classMode, startClassMode } from "./class.js";
import { classLab } from "./class_lab.js";
import "./page.js";

register({ handlers: HANDLERS, mounts: MOUNTS });
const AE = (window.AttentionExplorer = window.AttentionExplorer || {});
Object.assign(AE, {
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
  classLab,
});
startLive();
startClassMode();
