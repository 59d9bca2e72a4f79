// Start here on the static page: the nine steps of explorer/views/start_here.py in the
// static edition's words (HTML escaped by the builder, explorer/site/markdown.py). A step
// sets the sentence and the knobs, says what to look at, asks its question, and shows its
// view: its figure (static/site/figures.js) under the sentence box, and Explore's large
// head and grid where the step's view has them (LAYOUT). What gives the answer away (the
// step's `hidden` selectors) is covered until Reveal. A step whose view only the full app
// has (none at present) shows its text and one line with the link to the app; the Lab's
// step shows its figure alone (its own settings: no sentence, no knobs).
// Each step has its own link, ?step=N (1-based, as the app's: static/site/step_link.js).
//
//   initSteps({kick, openLarge, engineKnobs})   the list of steps, the buttons, ?step=N
//   showStep(i)   tab(which)   currentStep() -> the step shown or null
//   figureView    the live loop's view of the step's figure (static/site/loop.js addView)
import { clearHeadsOff, setControls, setText, state } from "./knobs.js";
import { figure, madeFigures } from "./figures.js";
import { $, CONFIG, el } from "./page_config.js";
import { stepIndex, stepQuery } from "./step_link.js";

// what the page shows beside each kind of figure: Explore's large head and grid, a click
// on a square switching that head off (Ablate's grid); "app": nothing of this page's
const LAYOUT = {
  large: { large: true, grid: true },
  losses: { large: true, grid: true },
  ablate: { grid: true, switches: true },
  shuffle: {},
  compare: { grid: true },
  patch: {},
  snapshots: {}, // Through training: its own slider, grid and chart (fig_snapshots.js)
  lab: { own: true }, // the figure alone: no sentence, no knobs (the Lab has its own settings)
  app: { explore: false },
};

let tools = null;
let current = null; // the index of the step shown
let shownFigure = null; // its figure, if it has one

export function currentStep() {
  return current == null ? null : CONFIG.steps[current];
}

export const figureView = {
  active: () => !!shownFigure && !$("explore").hidden,
  update: (ctx) => shownFigure.update(ctx),
  key: () => (shownFigure && shownFigure.key ? shownFigure.key() : null),
};

// Cover what gives the answer away: every element a selector of `hidden` names.
function markHidden(hidden) {
  for (const e of document.querySelectorAll("[data-ae-hidden]"))
    e.removeAttribute("data-ae-hidden");
  document.body.classList.remove("ae-revealed");
  for (const selector of hidden) {
    for (const e of document.querySelectorAll(selector)) e.setAttribute("data-ae-hidden", "");
  }
}

// The step's figure in its place (made the first time), the previous one put away.
function placeFigure(kind) {
  if (shownFigure && shownFigure.hide) shownFigure.hide();
  for (const f of madeFigures()) f.element.hidden = true;
  shownFigure = figure(kind, $("step-figure"), { ...tools, step: currentStep });
  $("step-figure").hidden = !shownFigure;
  if (!shownFigure) return;
  shownFigure.element.hidden = false;
  if (shownFigure.show) shownFigure.show();
}

function showText(s, i) {
  $("step").hidden = false;
  $("step-title").textContent = s.title;
  for (const part of ["look", "question", "answer"]) {
    $("step-" + part).innerHTML = s[part]; // escaped by explorer/site/markdown.py
  }
  $("step-elsewhere").hidden = !s.elsewhere;
  $("step-elsewhere-text").textContent = s.elsewhere;
  $("step-answer").hidden = true;
  $("reveal").hidden = false;
  $("next-step").hidden = i === CONFIG.steps.length - 1;
  const query = stepQuery(location.search, i);
  $("step-link").href = query;
  history.replaceState(null, "", query);
  for (const li of $("step-list").children) {
    const here = li.dataset.i === String(i);
    li.firstChild.setAttribute("aria-current", here ? "step" : "false");
    if (here && li.scrollIntoView) li.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

export function showStep(i) {
  const s = CONFIG.steps[i];
  current = i;
  showText(s, i);
  const layout = LAYOUT[s.figure];
  $("explore").hidden = layout.explore === false;
  state.clickSwitches = !!layout.switches;
  document.body.classList.toggle("ae-figure-only", !!layout.own); // site.css
  placeFigure(layout.explore === false ? "app" : s.figure);
  if (layout.explore !== false) {
    setText(s.text);
    setControls(s.controls);
    clearHeadsOff(); // a step starts with every head on
    $("knobs").open = true;
    $("heads-off").open = !!layout.switches; // the step ticks a head off itself
    $("grid-part").hidden = !layout.grid;
    $("large").hidden = true;
  }
  markHidden(s.hidden);
  if (layout.large) tools.openLarge();
  else if (layout.explore !== false) tools.kick();
}

function reveal() {
  $("step-answer").hidden = false;
  $("reveal").hidden = true;
  document.body.classList.add("ae-revealed");
}

export function tab(which) {
  const steps = which === "steps";
  $("steps").hidden = !steps;
  $("explore").hidden = false;
  $("step").hidden = true;
  $("examples-row").hidden = steps;
  current = null;
  document.body.classList.remove("ae-figure-only");
  placeFigure(null);
  markHidden([]);
  state.clickSwitches = false;
  $("grid-part").hidden = false;
  $("tab-steps").setAttribute("aria-pressed", String(steps));
  $("tab-explore").setAttribute("aria-pressed", String(!steps));
  const params = new URLSearchParams(location.search);
  if (!steps && params.has("step")) {
    params.delete("step"); // the others (?projector) kept
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : ""));
  }
}

export function initSteps(pageTools) {
  tools = pageTools;
  CONFIG.steps.forEach((s, i) => {
    const b = el("button", { type: "button" }, s.title);
    b.addEventListener("click", () => showStep(i));
    $("step-list").appendChild(el("li", { "data-i": String(i) }, b));
  });
  $("reveal").addEventListener("click", reveal);
  $("next-step").addEventListener("click", () =>
    showStep(Math.min(current + 1, CONFIG.steps.length - 1)),
  );
  $("tab-explore").addEventListener("click", () => tab("explore"));
  $("tab-steps").addEventListener("click", () => tab("steps"));
  const linked = stepIndex(location.search, CONFIG.steps.length);
  if (linked != null) {
    tab("steps");
    showStep(linked);
  }
}
