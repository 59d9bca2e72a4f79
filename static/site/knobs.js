// The sentence and the knobs of the static page (index.html's selects and the temperature
// slider, filled from the configuration), and the heads switched off (one checkbox per head
// of the model on screen, under "Switch heads off"). `state` is the one record of what the
// page points at besides the form: the head shown large (layer, head) and the heads off.
//
//   fillKnobs()              the selects' choices (explorer/views/controls.py's)
//   setControls(c)           a step's (or the defaults') knob values and large head
//   knobs() -> {text, objective, heads, pos, mask, scaling, temperature, layer, head, theme}
//                            the request's one shape (static/live_grid.js request())
//   modelName(k)             the zoo model those knobs name ("causal-h4-rotary")
//   headsOff() -> [[layer, head], ...]   headBoxes(payload)   clearHeadsOff()
//   fitKnobs()               Heads and Positional encoding kept to trained models
//                            (model_fit.js), a sentence under the knobs when they moved
import { $, CONFIG, theme } from "./page_config.js";
import { fitModel } from "./model_fit.js";

export const KNOBS = ["objective", "heads", "pos", "mask", "scaling", "temperature"];
export const state = { layer: 0, head: 0, headsOff: new Set(), model: null, payload: null };
const box = () => $("sentence-box");
const temp = () => $("temperature");

function fill(select, choices) {
  for (const c of choices) {
    const o = document.createElement("option");
    o.value = String(c);
    o.textContent = String(c);
    select.appendChild(o);
  }
}

export function fillKnobs() {
  fill($("objective"), Object.keys(CONFIG.objectives));
  fill($("heads"), CONFIG.heads);
  fill($("pos"), CONFIG.positional);
  fill($("mask"), CONFIG.mask);
  fill($("scaling"), CONFIG.scaling);
  fill($("examples"), ["(pick an example)", ...CONFIG.examples]);
  [temp().min, temp().max] = CONFIG.temperature.map(String);
  const note = document.createElement("p");
  note.id = "model-note";
  note.className = "ae-model-note";
  note.setAttribute("role", "status");
  note.hidden = true;
  document.querySelector("#knobs .ae-knobs").after(note);
}

// Only the Heads and Positional encoding a model of the chosen Model was trained with are
// offered; a choice with none moves to the one there is, and the note under the knobs says so.
export function fitKnobs() {
  const f = fitModel(
    {
      models: CONFIG.models,
      objectives: CONFIG.objectives,
      heads: CONFIG.heads,
      positional: CONFIG.positional,
    },
    { objective: $("objective").value, heads: $("heads").value, pos: $("pos").value },
  );
  $("heads").value = String(f.heads);
  $("pos").value = f.pos;
  for (const o of $("heads").options) o.disabled = !f.headsOffered.includes(Number(o.value));
  for (const o of $("pos").options) o.disabled = !f.posOffered.includes(o.value);
  const note = $("model-note");
  if (note.textContent !== f.note) note.textContent = f.note;
  note.hidden = !f.note;
}

export function showTemperature() {
  $("temperature-value").textContent = Number(temp().value).toFixed(1);
}

export function setControls(c) {
  for (const k of KNOBS) $(k).value = String(c[k]);
  fitKnobs();
  showTemperature();
  state.layer = c.layer;
  state.head = c.head;
}

export function setText(text) {
  box().value = text;
}

// the sentence and the knobs by name (explorer/ui/controls.KNOB_NAMES), as the app's live
// loop hands them to a grid's update()
export function knobs() {
  return {
    text: box().value,
    objective: $("objective").value,
    heads: Number($("heads").value),
    pos: $("pos").value,
    mask: $("mask").value,
    scaling: $("scaling").value,
    temperature: Number(temp().value),
    layer: state.layer,
    head: state.head,
    theme,
  };
}

export function modelName(k = knobs()) {
  return CONFIG.objectives[k.objective] + "-h" + k.heads + "-" + k.pos;
}

export function headsOff() {
  return [...state.headsOff].map((s) => s.split(",").map(Number));
}

// every head on (the boxes unticked at once), and the boxes redrawn for the next model drawn
export function clearHeadsOff() {
  state.headsOff.clear();
  for (const input of $("heads-off-boxes").querySelectorAll("input")) input.checked = false;
  $("heads-off-boxes").dataset.shape = "";
}

// one checkbox per head of the model on screen; a new shape starts with all heads on
export function headBoxes(p) {
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

/** The checkbox of (layer, head) clicked, as a student would (its change event follows). */
export function toggleHead(l, h) {
  const input = $("heads-off-boxes").querySelector(`input[data-head='${l},${h}']`);
  if (input) input.click();
}

/** Wire the form: `changed` is called for every change of the sentence, a knob or a box. */
export function wireKnobs(changed) {
  box().addEventListener("input", changed);
  for (const k of KNOBS) {
    $(k).addEventListener("input", () => {
      if (k === "objective" || k === "heads" || k === "pos") fitKnobs();
      showTemperature();
      changed();
    });
  }
  $("examples").addEventListener("change", (ev) => {
    if (ev.target.selectedIndex > 0) {
      box().value = ev.target.value;
      changed();
    }
  });
  $("heads-off-boxes").addEventListener("change", (ev) => {
    const key = ev.target.dataset.head;
    if (!key) return;
    if (ev.target.checked) state.headsOff.add(key);
    else state.headsOff.delete(key);
    changed();
  });
}
