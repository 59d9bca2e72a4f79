// Where a Start-here step is on the screen (static/steps.js shows the step; this file
// measures): the step shown now, its bar and figures, the room a figure has under the bar
// (static/fit.js sizes figures with it), and keeping the step in view while its figures
// draw. Reads the page; changes only the <html> classes and variables of the bar's place.
import { screen } from "./screen.js";

const root = document.documentElement;
const GAP = 8; // px between the screen's top and the bar, and below the figures
const ROOMY = 300; // px: a revealed step's figure given less is drawn at its own size
const FOLLOW_MS = 8000; // how long the page keeps the step in view while figures draw

// The step shown in a view now: the bar's section, if its box is on screen.
export function shownSection() {
  for (const s of document.querySelectorAll(".ae-step-bar .ae-step[data-step]")) {
    if (s.offsetParent !== null) return s;
  }
  return null;
}

// The view's column and the direct child of it that holds element ``el``.
export function holder(el) {
  const column = el.closest(".tabitem > .column");
  if (!column) return null;
  let child = el;
  while (child && child.parentElement !== column) child = child.parentElement;
  return child;
}

// What would give the shown step's answer away (the bar's data-hidden: a selector list,
// within the step's view) gets data-ae-hidden: static/css/60-steps.css covers it ("Hidden until
// Reveal") until .ae-revealed. Outside a step nothing is covered.
export function cover(section) {
  let hide = [];
  const within = section && (section.closest(".tabitem") || document);
  if (within && section.dataset.hidden) {
    try {
      hide = [...within.querySelectorAll(section.dataset.hidden)];
    } catch (e) {
      hide = [];
    }
  }
  const set = new Set(hide);
  document.querySelectorAll("[data-ae-hidden]").forEach((el) => {
    if (!set.has(el)) el.removeAttribute("data-ae-hidden");
  });
  hide.forEach((el) => {
    if (!el.hasAttribute("data-ae-hidden")) el.setAttribute("data-ae-hidden", "");
  });
}

// The bar's box (the gr.Column) of a section.
export const barOf = (section) => section.closest(".ae-step-bar") || section;
// On a big screen the bar is fixed in the left column (static/css/60-steps.css): out of the
// view's flow, so the view's first figure goes to the top of the screen instead.
const fixed = (el) => getComputedStyle(el).position === "fixed";

// What goes to the top of the screen: the bar, or the first of the step's figures.
export function anchor(section) {
  const bar = barOf(section);
  if (!fixed(bar)) return bar;
  return document.querySelector('[data-ae-step-order="1"]') || bar;
}

// The top of what is seen: on a phone the sentence box stays over it (static/page.js).
export const screenTop = () => screen.sentenceBottom();

// The bottom of what is seen: on a phone the knobs drawer's bar is fixed over it.
export function screenBottom() {
  const drawer = root.classList.contains("ae-drawer") && document.querySelector("#controls");
  const r = drawer && drawer.getBoundingClientRect();
  // (hidden in a view where no knob applies, static/css/40-phone.css: the whole screen)
  return r && r.height > 0 ? Math.min(window.innerHeight, r.top) : window.innerHeight;
}

export function room(gd) {
  const section = shownSection();
  if (!section || !gd) return null;
  const ids = (section.dataset.figures || "").split(" ").filter(Boolean);
  if (!ids.some((id) => gd.closest("#" + CSS.escape(id)))) return null;
  // from the top of what is seen (the anchor there) down to the figure, then the
  // figure: a border and some padding of its block below it
  const above = gd.getBoundingClientRect().top - anchor(section).getBoundingClientRect().top;
  const r = Math.round(screenBottom() - screenTop() - 2 * GAP - above - 6);
  // Revealed, the answer takes the screen: a figure squeezed under it to fit was drawn
  // tiny (a phone's large head 220 px tall, its labels run together); it is drawn at its
  // own size below the answer instead, a scroll away (a big screen's bar is beside it)
  const under = root.classList.contains("ae-revealed") && !fixed(barOf(section));
  return under && r < ROOMY ? null : r;
}

// Is any of the shown answer scrolled away inside the bar, or under its buttons?
export function cutOff(section) {
  const answer = section.querySelector(".ae-step-reveal[open] > p");
  const bar = section.closest(".ae-step-bar");
  if (!answer || !bar) return false;
  for (let a = answer.parentElement; a && a !== bar.parentElement; a = a.parentElement) {
    if (getComputedStyle(a).overflowY !== "visible" && a.scrollHeight > a.clientHeight + 1) {
      return true;
    }
  }
  const buttons = bar.querySelector(".ae-step-buttons");
  return (
    !!buttons && answer.getBoundingClientRect().bottom > buttons.getBoundingClientRect().top + 1
  );
}

// Big screen: the bar takes the place of the left column (sentence, knobs), whose box
// the page measures here, as CSS variables.
export function placeBar(section) {
  root.classList.toggle("ae-stepping", !!section);
  const left = document.querySelector("#controls");
  if (!section || !left) return;
  const r = left.getBoundingClientRect();
  root.style.setProperty("--ae-step-left", Math.round(r.left) + "px");
  root.style.setProperty("--ae-step-width", Math.round(r.width) + "px");
}

// ---------------------------------------------------------------- keeping it in view
// After a step opens, its figures draw (and resize) for a moment: the bar is brought to
// the top of the screen each time the view's layout changes, until the student scrolls,
// types or clicks, or FOLLOW_MS have passed.
let follow = null;

export function bringIntoView() {
  if (!follow || Date.now() > follow.until) {
    stopFollowing();
    return;
  }
  const section = shownSection();
  if (!section) return;
  const top = anchor(section).getBoundingClientRect().top + window.scrollY - GAP - screenTop();
  if (Math.abs(window.scrollY - top) > 2) window.scrollTo({ top, behavior: "instant" });
}

export const following = () => !!follow;

export function stopFollowing() {
  if (!follow) return;
  follow.observer.disconnect();
  follow = null;
}

export function startFollowing(section) {
  stopFollowing();
  const observer = new ResizeObserver(() => bringIntoView());
  const column = section.closest(".tabitem > .column") || document.body;
  observer.observe(column);
  follow = { observer, until: Date.now() + FOLLOW_MS };
  bringIntoView();
}

["wheel", "touchmove", "keydown", "pointerdown"].forEach((type) =>
  window.addEventListener(type, () => stopFollowing(), { capture: true, passive: true }),
);
