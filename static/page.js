// The page's frame (part of the page's bundle, static/app.js, which runs in the page's <head>
// before Gradio mounts the app, so everything here waits for elements or listens on the
// document). It only changes presentation: which layout (projector mode), where focus goes
// (skip links), whether the knobs drawer is open and the phone's row of tabs; the figures'
// names and the head view's lines are static/figures.js. It sends nothing to the server;
// a head opened from the grid (static/head_pick.js clicks #grid-select) is brought onto a
// phone's screen.
import { fit } from "./fit.js";
import { projectorMode } from "./projector.js";
import { hookFigure } from "./figures.js";
import { screen } from "./screen.js";
import { observeOnceAFrame } from "./frame.js";

const root = document.documentElement;
const PHONE = window.matchMedia("(max-width: 720px)");

// ------------------------------------------------------------ projector mode
// ?projector=1 (or the "Big screen" button) puts the class on <html> (static/projector.js,
// which also gives it to a short, wide screen by itself); static/css/30-projector.css
// does the layout: the sentence and knobs in a column at the left, the views at the
// right with the large heatmap first, sized to the screen (static/fit.js).
const mode = projectorMode(() => {
  fitDrawer();
  fit.all();
  window.dispatchEvent(new Event("resize")); // Plotly figures refit their new width
});
const projector = mode.on;
const setProjector = mode.set;
const syncSwitch = mode.sync;

// ------------------------------------------------------------ skip links
function focusFirst(selector) {
  const el = document.querySelector(selector);
  if (el) {
    el.focus();
    el.scrollIntoView({ block: "nearest" });
  }
  return !!el;
}

document.addEventListener("click", (ev) => {
  const t = ev.target instanceof Element ? ev.target : null;
  if (!t) return;
  if (t.closest(".ae-projector-switch")) {
    setProjector(!projector());
    return;
  }
  const skip = t.closest("[data-ae-skip]");
  if (!skip) return;
  ev.preventDefault();
  if (skip.dataset.aeSkip === "views") {
    focusFirst('#tabs button[role="tab"][aria-selected="true"]') ||
      focusFirst('#tabs button[role="tab"]');
  } else {
    openDrawer(true);
    focusFirst("#controls input, #controls button");
  }
});

// ------------------------------------------------------------ phone: a picked head
// On a phone the large head is a screen or two below the grid: opening a head from the
// grid (a tap on its square, or Enter: static/head_pick.js clicks #grid-select) brings
// the large head onto the screen, under the sentence box, which stays at the top.
// (where the sentence box ends once it sticks to the top of the screen; 0: it does not)
const sentenceBottom = () => {
  const form = document.querySelector("#sentence")?.closest(".form") || null;
  return form && getComputedStyle(form).position === "sticky" ? form.offsetHeight : 0;
};
screen.sentenceBottom = sentenceBottom; // static/steps.js keeps a step's bar below it

document.addEventListener(
  "click",
  (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    if (!t || !t.closest("#grid-select") || !root.classList.contains("ae-drawer")) return;
    const big = document.querySelector("#head-large");
    if (!big) return;
    const top = big.getBoundingClientRect().top + window.scrollY - sentenceBottom() - 8;
    window.scrollTo({ top, behavior: "smooth" });
  },
  true,
);

// ------------------------------------------------------------ the knobs drawer
// On a phone the knobs column is a drawer fixed to the bottom of the screen (CSS): its
// "Knobs" bar is always in reach, closed at first so the figures have the screen.
const drawerButton = () => document.querySelector("#controls .label-wrap");
const drawerOpen = () => drawerButton()?.classList.contains("open");

function openDrawer(open) {
  const b = drawerButton();
  if (b && drawerOpen() !== open) b.click();
}

let drawerFitted = false;
function fitDrawer() {
  const wasDrawer = root.classList.contains("ae-drawer");
  root.classList.toggle("ae-drawer", PHONE.matches && !projector());
  const b = drawerButton();
  if (!b) return;
  // From a phone's drawer back to a column at the side (a wider window, a turned tablet,
  // Big screen): the column is open again. A closed drawer left the knobs folded away
  // on a laptop; tests saw it after a full-page screenshot briefly changed the window.
  if (wasDrawer && !root.classList.contains("ae-drawer")) openDrawer(true);
  b.setAttribute("aria-controls", "controls");
  b.setAttribute("aria-expanded", String(!!drawerOpen()));
  if (!drawerFitted) {
    drawerFitted = true;
    // once, at load: a drawer starts closed; a column at the side stays open
    if (root.classList.contains("ae-drawer")) openDrawer(false);
  }
}

// ------------------------------------------------------------ phone: the row of tabs
// On a phone the tabs are one row that scrolls sideways (explorer/ui/page.py's CSS): it fades at
// an edge past which more tabs are, and the open tab is kept in its view (a step or a
// key press may open one that is scrolled away).
let shownTab = null;
const scrolling = new WeakSet(); // tab rows listened to
function fitTabRow() {
  const row = document.querySelector('#tabs [role="tablist"].tab-container');
  if (!row) return;
  if (!root.classList.contains("ae-drawer")) {
    row.removeAttribute("data-ae-more");
    return;
  }
  if (!scrolling.has(row)) {
    scrolling.add(row);
    row.addEventListener("scroll", () => fitTabRow(), { passive: true });
  }
  const tab = row.querySelector('button[role="tab"][aria-selected="true"]');
  if (tab && tab !== shownTab) {
    shownTab = tab;
    const r = row.getBoundingClientRect(),
      t = tab.getBoundingClientRect();
    if (t.left < r.left || t.right > r.right) {
      row.scrollBy({ left: t.left - r.left - (r.width - t.width) / 2, behavior: "instant" });
    }
  }
  const left = row.scrollLeft > 2;
  const right = row.scrollLeft + row.clientWidth < row.scrollWidth - 2;
  const more = left && right ? "both" : left ? "left" : right ? "right" : null;
  if (more === null) row.removeAttribute("data-ae-more");
  else if (row.dataset.aeMore !== more) row.dataset.aeMore = more;
}

// ------------------------------------------------------------ wait for the app
// Gradio mounts the page after this script; figures appear (and reappear) later still.
function scan() {
  document.querySelectorAll(".js-plotly-plot").forEach(hookFigure);
  if (!drawerFitted) fitDrawer();
  else {
    const b = drawerButton();
    if (b) b.setAttribute("aria-expanded", String(!!drawerOpen()));
  }
  syncSwitch();
  fitTabRow();
}
observeOnceAFrame(
  root,
  {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["class"],
  },
  scan,
);
PHONE.addEventListener("change", () => {
  drawerFitted = false;
  fitDrawer();
});
