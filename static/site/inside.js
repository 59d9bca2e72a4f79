// Inside one head, the static page's third tab: every stage of one head's computation on
// the sentence and knobs of the form (static/site/knobs.js, the heads switched off
// included), from the engine's detail (static/engine/stages.js: engine.runTyped(text,
// {...knobs, detail: true})), in the order computed and grouped under the app's headings
// (CONFIG.inside, explorer/views/inside.py, as the app's tab explorer/ui/inside_tab.py).
// Each stage is a card: its title, its shape ("[5, 32]  (pos, d_head)"), its formula, the
// hook it was captured at, its heatmap (inside_draw.js) and the ends of its colour scale
// (the pattern's 0 to 1, the others symmetric about 0); a pointer on a cell (a tap on
// a phone) says where it is and its value under the heatmap, and in the canvas's tip.
// Layer and Head pick the head: state.layer and state.head, the head a click on the
// Explore grid opens too. Recomputed by the live loop (loop.js) while the tab is shown.
//
//   <section id="inside"> h2, #inside-pick (#inside-layer, #inside-head), #inside-intro,
//     #inside-status, then per heading section.ae-stage-group (h3, .ae-stages: one
//     .ae-stage[data-key] per stage: .ae-stage-title, .ae-shape, .ae-formula, .ae-hook,
//     canvas, .ae-scale, .ae-readout)
//   initInside({kick, engineKnobs}) -> the live loop's view ({active, update})
//   window.AttentionExplorer.site.shown.inside: {drawn, ok, model, layer, head, tokens,
//     stages: {key: {shapeText, shape, geom}}} (what was drawn last; tests read it)
import { engine, payload } from "../engine/index.js";
import { record } from "./figures.js";
import { cellAt, cellWords, drawStage, stageLayout, stageRange } from "./inside_draw.js";
import { state } from "./knobs.js";
import { $, CONFIG, colors, el, theme, warning } from "./page_config.js";

const WORDS = CONFIG.inside;
const COLOURS = { ...colors, ...WORDS.colors[theme] };
const cards = {}; // key -> {card, title, shape, formula, hook, canvas, readout, stage, g}
const groups = []; // [{box, keys}]
let last = null; // {tokens, detail} drawn last: redrawn when the page's width changes
let tools = null;

// one stage's card, empty until a run fills it
function card(key) {
  const c = {
    title: el("h4", { className: "ae-stage-title" }),
    shape: el("p", { className: "ae-shape" }),
    formula: el("p", { className: "ae-formula" }),
    hook: el("code", {}),
    canvas: el("canvas", { role: "img" }),
    low: el("span", {}),
    high: el("span", {}),
    bar: el("span", { className: "ae-scale-bar" }),
    readout: el("p", { className: "ae-readout" }),
  };
  const scale = el("p", { className: "ae-scale" }, "colour ", c.low, c.bar, c.high);
  const hook = el("p", { className: "ae-hook" }, "captured at ", c.hook);
  const box = el("div", { className: "ae-stage-canvas" }, c.canvas);
  c.card = el("div", { className: "ae-stage", "data-key": key }, c.title, c.shape, c.formula);
  c.card.append(hook, box, scale, c.readout);
  for (const type of ["pointermove", "pointerdown"]) {
    c.canvas.addEventListener(type, (ev) => point(c, ev));
  }
  c.canvas.addEventListener("pointerleave", () => (c.canvas.title = ""));
  cards[key] = c;
  return c.card;
}

// what the pointer is on, said under the heatmap and in its tip
function point(c, ev) {
  if (!c.stage || !last) return;
  const rect = c.canvas.getBoundingClientRect();
  const k = c.g.width / (rect.width || c.g.width);
  const at = cellAt(c.g, (ev.clientX - rect.left) * k, (ev.clientY - rect.top) * k);
  if (!at) return;
  const words = cellWords(c.stage, last.tokens, at[0], at[1], COLOURS.minusInf);
  c.readout.textContent = words;
  c.canvas.title = words;
}

function picker(id, label) {
  const select = el("select", { id });
  select.addEventListener("input", () => {
    state[label.toLowerCase()] = Number(select.value);
    tools.kick();
  });
  return { select, label: el("label", {}, label + " ", select) };
}

// the tab's markup, once
function build() {
  const section = $("inside");
  const layer = picker("inside-layer", "Layer"),
    head = picker("inside-head", "Head");
  const intro = el("p", { id: "inside-intro" });
  intro.innerHTML = WORDS.intro; // our own words, escaped by explorer/site/markdown.py
  const status = el("p", { id: "inside-status", className: "ae-where", "aria-live": "polite" });
  const pick = el("div", { className: "ae-knobs", id: "inside-pick" }, layer.label, head.label);
  section.append(el("h2", {}, "Inside one head"), pick, intro, status);
  for (const { heading, keys } of WORDS.sections) {
    const box = el(
      "section",
      { className: "ae-stage-group" },
      el("h3", {}, heading),
      el("div", { className: "ae-stages ae-stages-" + keys.length }, ...keys.map(card)),
    );
    groups.push({ box, keys });
    section.appendChild(box);
  }
}

// a select's choices 0..count-1 (kept when the count is the same), `value` chosen
function choices(select, count, value) {
  if (select.options.length !== count) {
    select.textContent = "";
    for (let i = 0; i < count; i++)
      select.appendChild(el("option", { value: String(i) }, String(i)));
  }
  select.value = String(value);
}

// every card's heatmap at its box's width (and the device's pixels)
function paint() {
  if (!last || $("inside").hidden) return;
  const dpr = window.devicePixelRatio || 1;
  for (const c of Object.values(cards)) {
    if (!c.stage) continue;
    const width = c.canvas.parentElement.clientWidth;
    if (!width) continue;
    const g = stageLayout(c.stage, width);
    c.g = g;
    c.canvas.width = Math.round(g.width * dpr);
    c.canvas.height = Math.round(g.height * dpr);
    c.canvas.style.width = g.width + "px";
    c.canvas.style.height = g.height + "px";
    const ctx = c.canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawStage(ctx, c.stage, last.tokens, g, COLOURS);
  }
}

// one card filled with its stage (or hidden: a stage this model does not have)
function fill(c, stage) {
  c.stage = stage || null;
  c.card.hidden = !stage;
  if (!stage) return;
  c.title.textContent = stage.step + ". " + stage.title;
  c.shape.textContent = stage.shapeText;
  c.formula.textContent = stage.formula;
  c.hook.textContent = stage.hook;
  c.canvas.setAttribute("aria-label", stage.title + ", " + stage.shapeText);
  c.readout.textContent = "";
  const [lo, hi] = stageRange(stage);
  const stops = stage.key === "pattern" ? COLOURS.scale : COLOURS.diverging;
  c.low.textContent = number(lo);
  c.high.textContent = number(hi);
  c.bar.style.background =
    "linear-gradient(to right, " + stops.map(([t, hex]) => `${hex} ${t * 100}%`).join(", ") + ")";
}

// a colour scale's end: 3 significant digits, a true minus sign
function number(v) {
  return (v === 0 ? "0" : String(Number(v.toPrecision(3)))).replace("-", "−");
}

// the run's stages on the page, and what was drawn recorded
function show(r, model) {
  const d = r.detail,
    chars = CONFIG.engineTexts.grid_label_chars;
  const tokens = r.tokens.map((t) => payload.plainLabel(t, chars));
  last = { tokens, detail: d };
  state.layer = d.layer; // clamped to the model
  state.head = d.head;
  choices($("inside-layer"), r.layers, d.layer);
  choices($("inside-head"), r.heads, d.head);
  for (const [key, c] of Object.entries(cards)) fill(c, d.stages[key]);
  for (const g of groups) g.box.hidden = !g.keys.some((k) => d.stages[k]);
  const x = d.stages.x;
  $("inside-status").textContent = x
    ? `${model} · layer ${d.layer}, head ${d.head} · ${r.n} token${r.n === 1 ? "" : "s"} · ` +
      `d_model ${x.shape[1]} · ${r.heads} head${r.heads === 1 ? "" : "s"} × d_head ` +
      `${x.shape[1] / r.heads}`
    : "";
  paint();
  const stages = {};
  for (const [key, s] of Object.entries(d.stages)) {
    stages[key] = { shapeText: s.shapeText, shape: s.shape, geom: cards[key] && cards[key].g };
  }
  record("inside", { ok: true, model, layer: d.layer, head: d.head, tokens, stages });
}

// nothing to draw: the reason on the status line, every card emptied
function fail(message) {
  last = null;
  $("inside-status").textContent = warning(message);
  for (const c of Object.values(cards)) fill(c, null);
  for (const g of groups) g.box.hidden = true;
  record("inside", { ok: false, error: message });
}

async function update(ctx) {
  let r, k;
  try {
    k = await tools.engineKnobs(ctx, { headsOff: ctx.headsOff });
    r = await engine.runTyped(ctx.knobs.text, { ...k, detail: true });
  } catch (e) {
    if (ctx.fresh()) fail(e && e.message);
    return;
  }
  if (ctx.fresh()) show(r, k.model);
}

// the tab: Explore's sentence and knobs, this section instead of the grid and large head
function open() {
  $("tab-explore").click(); // Explore's setup (steps.js tab()): the form, no step
  $("grid-part").hidden = true;
  $("large").hidden = true;
  $("inside").hidden = false;
  $("tab-explore").setAttribute("aria-pressed", "false");
  $("tab-inside").setAttribute("aria-pressed", "true");
  tools.kick();
}

function close() {
  $("inside").hidden = true;
  $("tab-inside").setAttribute("aria-pressed", "false");
}

export function initInside(pageTools) {
  tools = pageTools;
  build();
  $("tab-inside").addEventListener("click", open);
  for (const id of ["tab-explore", "tab-steps"]) {
    $(id).addEventListener("click", () => {
      if ($("inside").hidden) return;
      close();
      tools.kick(); // the grid drawn for the form as it is now
    });
  }
  // redrawn when the section's width changes (a window resized, Big screen switched)
  let frame = 0,
    width = 0;
  const resized = () => {
    const now = $("inside").clientWidth;
    if (now === width) return;
    width = now;
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(paint);
  };
  if (window.ResizeObserver) new ResizeObserver(resized).observe($("inside"));
  else window.addEventListener("resize", resized);
  return { active: () => !$("inside").hidden && !$("explore").hidden, update };
}
