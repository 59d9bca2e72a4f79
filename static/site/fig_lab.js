// Step 9's figure (static/site/figures.js, kind "lab"): the Lab, trained in this browser.
// The step's settings (Layers 1 or 2, as the step sets it; the seed; the training steps;
// the Lab's defaults otherwise), Train and Stop, and what the run does as its events arrive
// from the Web Worker (static/site/fig_lab_run.js): the status in the app's words
// (explorer/views/lab.py, through explorer/site/lab_words.py: numbers filled in, nothing
// typed becomes markup), the chart (fig_lab_chart.js), every head on the probe
// (fig_lab_heads.js) and this browser's finished runs (fig_lab_table.js). One line says where
// it trains. A run is bounded by its steps: the device's speed changes how long it takes.
//
//   <div class="ae-figure" id="lab-figure">
//     <p class="ae-lab-where">   <div class="ae-lab-settings"> layers, seed, steps, Train, Stop
//     <p id="lab-status">   <div class="ae-lab-views"> #lab-chart #lab-heads   #lab-table
// Tests read window.AttentionExplorer.site.shown.lab: {state, events, step, formedAt,
// summary?} ("ready" | "running" | "done" | "stopped" | "failed").
import { CONFIG, el, FROM_FILE, SERVE_FOLDER, warning } from "./page_config.js";
import { makeChart } from "./fig_lab_chart.js";
import { makeHeads } from "./fig_lab_heads.js";
import { train } from "./fig_lab_run.js";
import { makeTable } from "./fig_lab_table.js";

const WORDS = CONFIG.lab;
const HEADS = 2; // the Lab's default heads per layer (static/lab/params.js), as the step's

const pct = (v) => Math.round(v * 100) + "%";
// our templates' {name}s filled with numbers (never text from the page)
const fill = (template, values) =>
  template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));

// (layer, head, score) of the best head of [layer][head] scores (the first of equals)
function bestOf(scores) {
  let at = [0, 0, -Infinity];
  scores.forEach((row, l) => row.forEach((v, h) => v > at[2] && (at = [l, h, v])));
  return at;
}

/** The status (our HTML) of the run at its last event. */
export function statusHtml(last, layers, state, summary = null) {
  const [l, h, score] = bestOf(last.induction),
    [pl, ph, ps] = bestOf(last.previous_token);
  let text = fill(WORDS.status[layers], {
    step: last.step,
    seconds: last.seconds.toFixed(1),
    lossCopy: last.loss_copy.toFixed(2),
    lossFresh: last.loss_fresh.toFixed(2),
    layer: l,
    head: h,
    score: pct(score),
    pLayer: pl,
    pHead: ph,
    pScore: pct(ps),
  });
  if (last.formed_at_step != null)
    text = fill(WORDS.formed, { formed: last.formed_at_step }) + text;
  if (state === "stopped") text = WORDS.stopped + text;
  else if (state === "done" && summary && !summary.formed) {
    text += fill(WORDS.noHead[layers], { steps: summary.steps });
  }
  return text;
}

function numberBox(id, [low, high], value) {
  return el("input", { type: "number", id, min: low, max: high, step: 1, value, required: true });
}

function settingsBox() {
  const [low, high] = WORDS.choices.steps;
  const layers = WORDS.choices.layers.map((n) =>
    el("label", {}, el("input", { type: "radio", name: "lab-layers", value: n }), " " + n),
  );
  const boxes = {
    seed: numberBox("lab-seed", WORDS.choices.seed, 0),
    steps: numberBox("lab-steps", [low, high], WORDS.choices.defaultSteps),
    train: el("button", { type: "button", id: "lab-train", className: "ae-primary" }, "Train"),
    stop: el("button", { type: "button", id: "lab-stop", disabled: true }, "Stop"),
  };
  const element = el(
    "div",
    { className: "ae-lab-settings" },
    el("fieldset", { id: "lab-layers" }, el("legend", {}, "Layers"), ...layers),
    el("label", {}, "Seed ", boxes.seed),
    el("label", {}, "Training steps ", boxes.steps),
    el("span", { className: "ae-lab-buttons" }, boxes.train, boxes.stop),
  );
  return { element, ...boxes };
}

function chosenLayers(box) {
  const checked = box.element.querySelector("input[name=lab-layers]:checked");
  return Number(checked && checked.value) || 2;
}

// the settings chosen, in the interface's names, or a message saying which is not allowed
function readSettings(box) {
  const layers = chosenLayers(box);
  const seed = Number(box.seed.value),
    steps = Number(box.steps.value);
  const [low, high] = WORDS.choices.steps,
    [s0, s1] = WORDS.choices.seed;
  if (!WORDS.choices.layers.includes(layers)) return "Choose 1 or 2 layers.";
  if (!Number.isInteger(seed) || seed < s0 || seed > s1)
    return `The seed is a whole number from ${s0} to ${s1}.`;
  if (!Number.isInteger(steps) || steps < low || steps > high) {
    return `Training steps: a whole number from ${low} to ${high}.`;
  }
  return { layers, heads: HEADS, seed, steps };
}

// what a run shows, redrawn at most once a frame: the chart, the status, the heads
function makeView(parts, record) {
  const { box, status, chart, heads } = parts;
  const run = { state: "ready", events: [], last: null, settings: null, summary: null };
  let pending = false;
  function draw() {
    pending = false;
    const s = run.settings || { layers: chosenLayers(box), steps: Number(box.steps.value) };
    const formedAt = run.last ? run.last.formed_at_step : null;
    chart.draw(run.events, { steps: s.steps, layers: s.layers, heads: HEADS, formedAt });
    if (run.last) {
      status.innerHTML = statusHtml(run.last, s.layers, run.state, run.summary); // ours
      heads.draw(run.last, s.layers, HEADS);
    }
    const { state, events, summary } = run;
    const step = run.last && run.last.step;
    record({ ok: state !== "failed", state, events: events.length, step, formedAt, summary });
  }
  const later = () => {
    if (!pending) requestAnimationFrame(draw);
    pending = true;
  };
  function onEvent(e) {
    if (e.kind === "done") {
      run.summary = e;
      run.state = e.stopped ? "stopped" : "done";
      if (!e.stopped) parts.table.add(e);
    } else {
      const { probe, ...point } = e; // only the last event's patterns are kept
      run.events.push(point);
      run.last = probe ? e : point;
    }
    later();
  }
  return { run, draw, later, onEvent };
}

// Train and Stop: one run at a time, in the Worker
function wireButtons(parts, view, record) {
  const { box, status, heads } = parts;
  let controller = null;
  async function start() {
    const settings = readSettings(box);
    if (typeof settings === "string") {
      status.textContent = warning(settings);
      return;
    }
    controller = new AbortController();
    Object.assign(view.run, { state: "running", events: [], last: null, settings, summary: null });
    heads.clear();
    status.textContent = "⏳ …";
    box.train.disabled = true;
    box.stop.disabled = false;
    view.later();
    try {
      await train(settings, { onEvent: view.onEvent, signal: controller.signal, withProbe: true });
    } catch (err) {
      view.run.state = "failed";
      // a page opened as a file may start no Worker: how to serve the folder instead
      status.textContent = FROM_FILE ? SERVE_FOLDER : warning(err.message);
      record({ ok: false, state: "failed", error: err.message });
    } finally {
      controller = null;
      box.train.disabled = false;
      box.stop.disabled = true;
    }
  }
  box.train.addEventListener("click", start);
  box.stop.addEventListener("click", () => controller && controller.abort());
  // before a run, the legend follows the layers chosen
  box.element.addEventListener("change", () => !controller && !view.run.last && view.draw());
  return { running: () => !!controller };
}

export function make(holder, { record, step }) {
  const parts = {
    box: settingsBox(),
    status: el("p", { id: "lab-status", className: "ae-lab-status", "aria-live": "polite" }),
    chart: makeChart(),
    heads: makeHeads(),
    table: makeTable(),
  };
  const element = el(
    "div",
    { className: "ae-figure ae-lab", id: "lab-figure" },
    el("p", { className: "ae-lab-where" }, WORDS.where),
    parts.box.element,
    parts.status,
    // side by side where the screen is wide enough (site.css)
    el("div", { className: "ae-lab-views" }, parts.chart.element, parts.heads.element),
    parts.table.element,
  );
  holder.appendChild(element);
  const view = makeView(parts, record);
  const buttons = wireButtons(parts, view, record);
  function show() {
    if (buttons.running()) return; // a run on its way keeps its settings
    const own = (step() && step().own) || {};
    const layers = String(own.layers || 2);
    for (const r of parts.box.element.querySelectorAll("input[name=lab-layers]")) {
      r.checked = r.value === layers;
    }
    if (!view.run.last) parts.status.innerHTML = WORDS.ready; // ours
    view.draw();
  }
  return { element, update: () => {}, show };
}
