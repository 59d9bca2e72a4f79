// The static edition's page (static/site/index.html, written by explorer/site/build.py; this
// module is its one script, bundled into static/build/site.js). Explore: the same grid
// renderer as the app (static/live_grid.js), fed by the browser's engine (static/engine/,
// imported whole: its entry puts the engine on window.AttentionExplorer as on the app's page)
// instead of a server; a small live loop of this page's own calls its update() for every
// change, with the request's one shape (live_grid.js request()). A click on a square opens
// that head large: a second grid fed a one-head payload. Start here: the steps of
// explorer/views/start_here.py (HTML escaped by the builder), live where the engine computes
// the step's view, else marked as recorded on the full app. The page's configuration is the
// JSON in <script id="ae-config"> (explorer/site/config.py), whose `hashes` (file name ->
// sha256) the engine checks every file against. This page has no server: its messages say
// what went wrong in the browser (a model that did not load, a damaged file, the page opened
// as a file), never that a server is busy.
import { AE, engine, gridPayload, payload } from "../engine/index.js";
import { grid, mount, panel } from "../live_grid.js";

AE.grid = grid; // the one global's grid, as on the app's page (tests read grid.state)

const CONFIG = JSON.parse(document.getElementById("ae-config").textContent);
const $ = (id) => document.getElementById(id);
const box = $("sentence-box");
const dark = window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;
const theme = dark ? "dark" : "light";
const state = { layer: 0, head: 0, headsOff: new Set(), payload: null, hideGuesses: false };
engine.configure({ base: "models/", hashes: CONFIG.hashes });
// Opened as a file (file:///…/index.html, from a USB stick): such a page may read no file
// beside it, so no model can load. Said at once, with how to serve the folder instead.
const FROM_FILE = location.protocol === "file:";
const SERVE_FOLDER =
  "⚠️ This page was opened as a file, and a browser does not let such a page read the " +
  "models beside it. Serve its folder instead: in a terminal in this folder run " +
  "python -m http.server -d . 8000 then open http://localhost:8000/";
payload.setTexts(CONFIG.engineTexts); // the caption's words, from the builder
for (const id of ["app-link", "step-app-link"]) $(id).href = CONFIG.appUrl;

// ------------------------------------------------------------------ the knobs
function fill(select, choices) {
  for (const c of choices) {
    const o = document.createElement("option");
    o.value = String(c);
    o.textContent = String(c);
    select.appendChild(o);
  }
}
fill($("objective"), Object.keys(CONFIG.objectives));
fill($("heads"), CONFIG.heads);
fill($("pos"), CONFIG.positional);
fill($("mask"), CONFIG.mask);
fill($("scaling"), CONFIG.scaling);
fill($("examples"), ["(pick an example)", ...CONFIG.examples]);
const temp = $("temperature");
[temp.min, temp.max] = CONFIG.temperature.map(String);
const KNOBS = ["objective", "heads", "pos", "mask", "scaling", "temperature"];

function setControls(c) {
  for (const k of KNOBS) $(k).value = String(c[k]);
  $("temperature-value").textContent = Number(temp.value).toFixed(1);
  state.layer = c.layer;
  state.head = c.head;
}
// the sentence and the knobs by name (explorer/ui/controls.KNOB_NAMES), as the app's
// live loop hands them to a grid's update()
function knobs() {
  return {
    text: box.value,
    objective: $("objective").value,
    heads: Number($("heads").value),
    pos: $("pos").value,
    mask: $("mask").value,
    scaling: $("scaling").value,
    temperature: Number(temp.value),
    layer: state.layer,
    head: state.head,
    theme,
  };
}
function modelName() {
  const k = knobs();
  return CONFIG.objectives[k.objective] + "-h" + k.heads + "-" + k.pos;
}
function headsOff() {
  return [...state.headsOff].map((s) => s.split(",").map(Number));
}

// one checkbox per head of the model on screen; a new shape starts with all heads on
function headBoxes(p) {
  const holder = $("heads-off-boxes"),
    shape = p.layers + "x" + p.heads;
  if (holder.dataset.shape === shape) return;
  holder.dataset.shape = shape;
  holder.textContent = "";
  state.headsOff.clear();
  for (let l = 0; l < p.layers; l++) {
    const row = document.createElement("div");
    for (let h = 0; h < p.heads; h++) {
      const label = document.createElement("label"),
        input = document.createElement("input");
      input.type = "checkbox";
      input.dataset.head = l + "," + h;
      label.append(input, " L" + l + " H" + h);
      row.appendChild(label);
    }
    holder.appendChild(row);
  }
}
$("heads-off-boxes").addEventListener("change", (ev) => {
  const key = ev.target.dataset.head;
  if (!key) return;
  if (ev.target.checked) state.headsOff.add(key);
  else state.headsOff.delete(key);
  kick();
});

// ------------------------------------------------------------------ the engine as "server"
async function payloadFor(text, ctrls) {
  if (FROM_FILE) return { ok: false, caption: SERVE_FOLDER };
  const name = modelName();
  if (!CONFIG.models.includes(name)) return { ok: false, caption: CONFIG.missing[name] };
  if (name !== state.model) {
    // another model: its own heads, all on
    state.model = name;
    state.headsOff.clear();
    $("heads-off-boxes").dataset.shape = "";
    again = true; // the loop's snapshot had the old heads off: this answer is not fresh
  }
  if (!engine.loaded(name)) {
    $("where").textContent = "⏳ Loading the model " + name + " into your browser…";
    await loadModel(name);
  }
  const p = await gridPayload(text, ctrls, {
    colors: CONFIG.colors[theme],
    heads_off: headsOff(),
    theme,
  });
  $("where").textContent = "Computed in your browser (" + name + ").";
  return p || { ok: false, caption: "⚠️ The browser cannot compute this view." };
}

// The model and the tokenizer into memory (engine.loaded() says yes once a run has had
// both: an empty sentence's run fetches them and costs nothing else). A failure is thrown
// in plain words, and said on the status line too: a damaged file in the engine's words,
// anything else (offline, a file missing) as a download that did not arrive.
async function loadModel(name) {
  try {
    await engine.runTyped("", { model: name });
  } catch (e) {
    const damaged = e && /is damaged/.test(e.message);
    const why = damaged
      ? e.message
      : "Could not load the model " +
        name +
        " into your browser: check the connection, " +
        "then change the sentence or a knob to try again.";
    $("where").textContent = "⚠️ " + why;
    throw new Error(why);
  }
}
// The grid's caption when there is no grid: the reason, plainly (no server to be busy).
function noAnswer(error) {
  return (
    "⚠️ " + (error && error.message ? error.message : "The browser could not compute this view.")
  );
}

const views = {}; // the two grids, by view

// The grid's box and CSS (explorer/views/grid_markup.py, our own constant markup) in
// `holder`, the renderer mounted on it.
const style = document.createElement("style");
style.textContent = CONFIG.gridCss;
document.head.appendChild(style);
function mountGrid(holder, view, options) {
  const element = document.createElement("div");
  element.className = "ae-grid-box";
  element.innerHTML = CONFIG.gridHtml[view];
  holder.appendChild(element);
  return mount(element, { noAnswer, ...options });
}

// One head of the full payload as a payload of its own (live_grid.js panel()).
function oneHead(p, l, h) {
  if (!p || !p.ok) return p;
  return { ...panel(p, l, h), caption: "Layer " + l + ", head " + h + " · " + p.caption };
}

// ------------------------------------------------------------------ the live loop
let running = false,
  again = false;
async function kick() {
  if (running) {
    again = true;
    return;
  }
  running = true;
  try {
    do {
      again = false;
      const snap = JSON.stringify([knobs(), headsOff()]);
      const ctx = { knobs: knobs(), fresh: () => JSON.stringify([knobs(), headsOff()]) === snap };
      if (views.explore) await views.explore.update(ctx);
      if (!$("large").hidden && views.head) await views.head.update(ctx);
    } while (again);
  } catch (e) {
    $("where").textContent = "⚠️ " + (e && e.message ? e.message : "Something went wrong.");
  } finally {
    running = false;
  }
}
box.addEventListener("input", kick);
for (const k of KNOBS) {
  $(k).addEventListener("input", () => {
    $("temperature-value").textContent = Number(temp.value).toFixed(1);
    kick();
  });
}
$("examples").addEventListener("change", (ev) => {
  if (ev.target.selectedIndex > 0) {
    box.value = ev.target.value;
    kick();
  }
});

// a click on a square of the grid (its onOpen; the large head has none)
function openHead(l, h) {
  if (state.clickSwitches) {
    // an Ablate step: a click switches the head off or on
    const input = $("heads-off-boxes").querySelector(`input[data-head='${l},${h}']`);
    if (input) input.click(); // its change event updates state.headsOff
    return;
  }
  state.layer = l;
  state.head = h;
  openLarge();
}
function openLarge() {
  $("large").hidden = false;
  $("large-title").textContent = "Layer " + state.layer + ", head " + state.head + ", large";
  kick();
}

// ------------------------------------------------------------------ Start here
function showStep(i) {
  const s = CONFIG.steps[i];
  $("step").hidden = false;
  $("step-title").textContent = s.title;
  for (const part of ["look", "question", "answer"]) {
    $("step-" + part).innerHTML = s[part]; // escaped by explorer/site/markdown.py
  }
  $("step-answer").hidden = true;
  $("reveal").hidden = false;
  $("step-recorded").hidden = s.live;
  state.clickSwitches = false;
  $("explore").hidden = !s.live;
  state.hideGuesses = s.live && s.hideGuesses;
  document.body.classList.toggle("ae-hide-guesses", state.hideGuesses);
  for (const li of $("step-list").children) {
    li.firstChild.setAttribute("aria-current", li.dataset.i === String(i) ? "step" : "false");
  }
  if (!s.live) return;
  box.value = s.text;
  setControls(s.controls);
  state.headsOff.clear(); // a step starts with every head on
  $("heads-off-boxes").dataset.shape = "";
  $("knobs").open = true;
  $("heads-off").open = s.tab === "ablate"; // the step ticks a head off itself
  state.clickSwitches = s.tab === "ablate";
  if (s.tab === "explore") openLarge();
  else {
    $("large").hidden = true;
    kick();
  }
}
$("reveal").addEventListener("click", () => {
  $("step-answer").hidden = false;
  $("reveal").hidden = true;
  document.body.classList.remove("ae-hide-guesses");
});
CONFIG.steps.forEach((s, i) => {
  const li = document.createElement("li"),
    b = document.createElement("button");
  b.type = "button";
  b.textContent = s.title + (s.live ? "" : " (recorded)");
  b.addEventListener("click", () => showStep(i));
  li.dataset.i = String(i);
  li.appendChild(b);
  $("step-list").appendChild(li);
});
function tab(which) {
  const steps = which === "steps";
  $("steps").hidden = !steps;
  $("explore").hidden = false;
  $("step").hidden = true;
  state.clickSwitches = false;
  document.body.classList.remove("ae-hide-guesses");
  $("tab-steps").setAttribute("aria-pressed", String(steps));
  $("tab-explore").setAttribute("aria-pressed", String(!steps));
}
$("tab-explore").addEventListener("click", () => tab("explore"));
$("tab-steps").addEventListener("click", () => tab("steps"));

// ------------------------------------------------------------------ start
setControls(CONFIG.defaults);
box.value = CONFIG.examples[0] || "";
if (FROM_FILE) $("where").textContent = SERVE_FOLDER;
else engine.load(CONFIG.defaultModel).catch(() => {}); // the default model first
views.explore = mountGrid($("grid"), "explore", {
  onOpen: openHead,
  async data(req) {
    const p = await payloadFor(req.text, req.controls);
    state.payload = p;
    if (p && p.ok) headBoxes(p);
    return p;
  },
});
views.head = mountGrid($("head-large"), "head", {
  async data() {
    // the head the payload outlines (clamped to its model's heads)
    const p = state.payload;
    return p && p.ok ? oneHead(p, ...p.selected) : p;
  },
});
kick();
