// Class mode's hands on the page (static/class.js): reading what the page shows (the open
// tab, the step on screen, the sentence and knobs: a lead's state) and driving it as a
// person would (Start here's step radio and "Set up this step", the tab bar, the sentence
// box, the knobs). Shapes: a lead's state {step: 1-based or null, revealed, view: tab id,
// text, knobs: {objective, heads, pos, mask, scaling, temperature, layer, head}}.
import { steps } from "./steps.js";

const RADIOS = ["objective", "heads", "pos", "mask", "scaling"];
const NUMBERS = ["temperature", "layer", "head"];
export const $ = (sel) => document.querySelector(sel);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// An element with its properties and children (strings become text nodes: never markup).
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k in node) node[k] = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

function openTitle() {
  const b = [...document.querySelectorAll('#tabs button[role="tab"]')].find(
    (x) => x.getAttribute("aria-selected") === "true",
  );
  return b ? b.textContent.trim() : null;
}

// (static/steps.js finds the button: the bar or "More tabs")
export function clickTab(title) {
  if (openTitle() !== title) steps.clickTab(title);
}

// The step bar on screen: [section, 1-based number] or null.
export function shownStep() {
  for (const s of document.querySelectorAll(".ae-step-bar .ae-step[data-step]")) {
    if (s.offsetParent !== null) return [s, Number(s.dataset.step)];
  }
  return null;
}

function knobs() {
  const out = {};
  for (const k of RADIOS) {
    const r = $(`#${k} input:checked`);
    if (r) out[k] = r.value;
  }
  for (const k of NUMBERS) {
    const n = $(`#${k} input[type=number]`);
    if (n) out[k] = Number(n.value);
  }
  return out;
}

// What the page shows now, as a lead's state; views: {tab id: title}.
export function snapshot(views) {
  const shown = shownStep(),
    box = $("#sentence textarea");
  const title = openTitle();
  const view = Object.keys(views).find((id) => views[id] === title) || "explore";
  return {
    step: shown ? shown[1] : null,
    revealed: !!(shown && shown[0].querySelector("details[open]")),
    view,
    text: box ? box.value : "",
    knobs: knobs(),
  };
}

export function setText(value) {
  const box = $("#sentence textarea");
  if (!box || box.value === value) return;
  box.value = value;
  box.dispatchEvent(new Event("input", { bubbles: true }));
}

export function setKnobs(want) {
  for (const k of RADIOS) {
    const r =
      want[k] != null &&
      [...document.querySelectorAll(`#${k} input`)].find((x) => x.value === String(want[k]));
    if (r && !r.checked) r.click();
  }
  for (const k of NUMBERS) {
    const n = $(`#${k} input[type=number]`);
    if (n && want[k] != null && Number(n.value) !== Number(want[k])) {
      n.value = String(want[k]);
      n.dispatchEvent(new Event("input", { bubbles: true }));
      n.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
}

// (not steps.js's waitFor: a follower's page may sit in a background tab, where
// animation frames stop and timers go on)
export async function waitFor(find, ms) {
  const until = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found || Date.now() > until) return found || null;
    await sleep(100);
  }
}

// Start here's step n, set up as a student would: the tab, the step's radio, Set up.
export async function setUpStep(n, startTitle) {
  clickTab(startTitle);
  const radio = await waitFor(() => document.querySelectorAll("#start-step input")[n - 1], 10000);
  if (!radio) return false;
  if (!radio.checked) radio.click();
  if (!(await waitFor(() => radio.checked && $("#start-setup"), 5000))) return false;
  await sleep(150); // the step's text follows its radio (a queue-less event)
  $("#start-setup").click();
  return !!(await waitFor(() => {
    const s = shownStep();
    return s && s[1] === n;
  }, 20000));
}
