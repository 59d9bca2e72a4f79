// The static page's live loop and the browser's engine in the place of a server. Every
// change of the sentence, a knob or a box calls kick(); the loop then updates, in order,
// each view that is on screen (addView: the step's figure, the grid of every head, the head
// drawn large) with one snapshot of the form, and runs again if the form changed meanwhile
// (ctx.fresh() says whether an answer is still the form's). There is no server: a message
// says what went wrong in the browser (a model that did not load, a damaged file, the page
// opened as a file), never that a server is busy.
//
//   addView({update(ctx), active(), key()?})   ctx = {knobs, headsOff, fresh()}; key(): what
//                                             else the view's answer depends on (its own box)
//   kick()                                    run the loop (now, or once the run going ends)
//   payloadFor(text, controls) -> grid payload   (live_grid.js's data(), the engine's answer)
//   engineKnobs(ctx, {headsOff}) -> the engine's knobs of the form, the model loaded; throws
//                                   in plain words (no sentence, no such model, a file that
//                                   did not load)
import { engine, gridPayload, payload } from "../engine/index.js";
import { clearHeadsOff, headsOff, knobs, modelName, state } from "./knobs.js";
import { notSaved } from "./offline.js";
import { $, CONFIG, FROM_FILE, SERVE_FOLDER, colors, theme, warning } from "./page_config.js";

const views = [];
let running = false,
  again = false;

export function addView(view) {
  views.push(view);
}

function snapshot() {
  const extra = views.filter((v) => v.active() && v.key).map((v) => v.key());
  return JSON.stringify([knobs(), headsOff(), extra]);
}

export async function kick() {
  if (running) {
    again = true;
    return;
  }
  running = true;
  try {
    do {
      again = false;
      const snap = snapshot();
      const ctx = { knobs: knobs(), headsOff: headsOff(), fresh: () => snapshot() === snap };
      for (const view of views) if (view.active()) await view.update(ctx);
    } while (again);
  } catch (e) {
    $("where").textContent = warning(e && e.message);
  } finally {
    running = false;
  }
}

// The model and the tokenizer into memory (engine.loaded() says yes once a run has had
// both: an empty sentence's run fetches them and costs nothing else). A failure is thrown
// in plain words, and said on the status line too (whyNotLoaded).
async function loadModel(name) {
  try {
    await engine.runTyped("", { model: name });
  } catch (e) {
    const why = await whyNotLoaded(name, e);
    $("where").textContent = "⚠️ " + why;
    throw new Error(why);
  }
}

// A damaged file in the engine's words; a model the page's offline cache (offline.js) does
// not hold, while the page is served from it, as not saved for offline use; anything else
// (the network cut, a file missing) as a download that did not arrive.
async function whyNotLoaded(name, e) {
  if (e && /is damaged/.test(e.message)) return e.message;
  if (await notSaved(name)) {
    return "The model " + name + " is not saved for offline use: open it once while connected.";
  }
  return (
    "Could not load the model " +
    name +
    " into your browser: check the connection, then change the sentence or a knob to try again."
  );
}

// The model of the form in memory; another model than the last one starts with all its
// heads on (and the loop runs again: its snapshot had the old heads off).
async function ready(name) {
  if (FROM_FILE) throw new Error(SERVE_FOLDER);
  if (!CONFIG.models.includes(name)) throw new Error(CONFIG.missing[name]);
  if (name !== state.model) {
    state.model = name;
    clearHeadsOff();
    again = true;
  }
  if (!engine.loaded(name)) {
    $("where").textContent = "⏳ Loading the model " + name + " into your browser…";
    await loadModel(name);
  }
  $("where").textContent = "Computed in your browser (" + name + ").";
}

/** The grid's payload of the form (the heads off included), the model loaded first. No
    such model, or a page opened as a file, is an answer (the grid says why); a model that
    did not load is not (it throws: the older grid stays, its caption says why). */
export async function payloadFor(text, controls) {
  const name = modelName();
  if (FROM_FILE) return { ok: false, caption: SERVE_FOLDER };
  if (!CONFIG.models.includes(name)) return { ok: false, caption: CONFIG.missing[name] };
  await ready(name);
  const p = await gridPayload(text, controls, { colors, heads_off: headsOff(), theme });
  return p || { ok: false, caption: "⚠️ The browser cannot compute this view." };
}

/** The engine's knobs of ctx's form ({model, causal, scale, temperature, heads_off, layer,
    head}), its model loaded; opts.headsOff: the heads to switch off (default none). */
export async function engineKnobs(ctx, opts = {}) {
  const { text, ...controls } = ctx.knobs;
  if (!String(text).trim()) throw new Error(CONFIG.engineTexts.empty_state);
  const k = payload.knobsOf(controls, { heads_off: opts.headsOff || [] });
  if (!k) throw new Error("The browser cannot compute this view.");
  await ready(k.model);
  return k;
}

// The grid's caption when there is no grid: the reason, plainly (no server to be busy).
export function noAnswer(error) {
  return warning(
    error && error.message ? error.message : "The browser could not compute this view.",
  );
}
