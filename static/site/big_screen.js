// Projector mode on the static page ("Big screen", ?projector=1; a short, wide screen gets
// it by itself): the app's switch and address (static/projector.js), this page's layout in
// static/site/site.css (the knobs at the left, the figure, the large head and the grid at
// the right), and here what CSS cannot do: the head drawn large as tall as the screen,
// with token labels of at least 14 px (thinned where rows are smaller: its tip still
// names each token), and a head opened from the grid brought into view.
//
//   initBigScreen({redraw, open})  the class set and the switch wired (before a step is laid
//                                  out); redraw() after a switch or a resize, open() opens
//                                  the large head on Explore in projector mode
//   largeSizing()                  the large head's live_grid.js sizing (null: as always)
//   bringIntoView(id)              scrolls that box onto the screen when it is off it
import { projectorMode } from "../projector.js";
import { $ } from "./page_config.js";

const WIDE_ENOUGH = 700; // css px: narrower, projector mode keeps the phone's one column
const LABEL_FONT = [14, 20]; // css px of the large head's token labels on a big screen

let mode = null;
const big = () => !!mode && mode.on() && window.innerWidth >= WIDE_ENOUGH;

export function largeSizing() {
  if (!big()) return null;
  const box = $("large"),
    canvas = box.querySelector("canvas");
  // the canvas down to the screen's bottom edge, from where it starts on the page (under
  // the title, the caption and the guesses; under the step's figure if one is above it)
  const top =
    canvas && !canvas.hidden
      ? canvas.getBoundingClientRect().top
      : box.getBoundingClientRect().top + 90;
  const height = Math.max(300, window.innerHeight - (top + window.scrollY) - 8);
  return { height, maxPanel: 4000, font: LABEL_FONT, thin: true };
}

export function bringIntoView(id) {
  const box = $(id);
  if (!box || box.hidden) return;
  const r = box.getBoundingClientRect();
  const off = r.top < 0 || r.top > window.innerHeight - Math.min(r.height, 200);
  if (off) window.scrollBy({ top: r.top - 8, behavior: "instant" });
}

export function initBigScreen({ redraw, open }) {
  const explore = () => $("tab-explore").getAttribute("aria-pressed") === "true";
  mode = projectorMode((on) => {
    if (on && explore() && $("large").hidden) open();
    redraw();
  });
  mode.sync();
  document.addEventListener("click", (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    if (t && t.closest(".ae-projector-switch")) mode.set(!mode.on());
  });
  let pending = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(redraw);
  });
  // at load: Explore's large head opened (a step link sets up its own view)
  const step = new URLSearchParams(window.location.search).has("step");
  if (mode.on() && !step && $("large").hidden) open();
}
