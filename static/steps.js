// A Start-here step in the view it opened (explorer/ui/step_bar.py declares the bar; part of
// the page's bundle, static/app.js). Its interface, `steps` (window.AttentionExplorer.steps):
//
//   open(where)   after "Set up this step" or a bar's "Next step" (where: JSON with the
//                 view's tab title and the showing's stamp): open that view's tab, wait for
//                 its bar to show this step, move focus to the bar's title (a keyboard user
//                 continues from there, not from <body>) and bring the bar and the step's
//                 figures onto the screen.
//   back(where)   "All steps": open Start here again, focus its list of steps.
//   (a chip)      while a step is on but its bar is not on screen (another view is open,
//                 or the step was put aside on a big screen): "Back to step N" brings it
//                 back.
//   room(gd)      the height a figure of the shown step may take so that it fits on the
//                 screen under the bar (static/fit.js sizes figures with it), or null.
//   screenTop(), screenBottom()  what of the screen is the page's own (a phone's sentence
//                 box and knobs drawer are fixed over its top and bottom).
//   clickTab(title)  open the view of that title (its button in the bar or in "More tabs").
//
// The bar names its figures (data-figures: elem ids, in the order they are shown; data-key:
// the one that must be on the first screen) and what gives its answer away (data-hidden:
// covered until the answer is revealed). The direct child of the view's column that
// holds each gets data-ae-step-order (static/css/60-steps.css draws it first, under the bar); two
// figures in one row get data-ae-step-together (side by side on a projector); the key
// figure gets data-ae-step-key (first among its neighbours). On a big screen the bar
// takes the left column (.ae-stepping on <html>). Presentation only: nothing here talks to
// the server but the answer, which arrives when its fold opens (static/step_answer.js).
import { fit } from "./fit.js";
import { ask, asked, fill } from "./step_answer.js";
import { stale } from "./stale.js";
import {
  barOf,
  cover,
  cutOff,
  following,
  holder,
  placeBar,
  room,
  screenBottom,
  screenTop,
  shownSection,
  startFollowing,
  stopFollowing,
} from "./steps_screen.js";
import { screen } from "./screen.js";
import { observeOnceAFrame } from "./frame.js";

const root = document.documentElement;

// Mark the containers of the shown step's figures (and unmark the others); a step shown,
// changed or gone refits the figures (static/fit.js asks room()).
let arranged = null;
function arrange() {
  const section = shownSection();
  revealed(section);
  placeBar(section);
  if (section) addTools(barOf(section));
  showChip(section ? null : sectionOf(current));
  const now = section ? section.dataset.stamp : null;
  if (now !== arranged) {
    arranged = now;
    requestAnimationFrame(() => fit.all());
  }
  const keep = new Set();
  const key = section && document.getElementById(section.dataset.key || "");
  document.querySelectorAll("[data-ae-step-key]").forEach((el) => {
    if (el !== key) el.removeAttribute("data-ae-step-key");
  });
  // the key figure also comes first among its neighbours (a row that wraps on a projector
  // or a phone put it below the others)
  if (key && !key.hasAttribute("data-ae-step-key")) key.setAttribute("data-ae-step-key", "");
  if (section) {
    let order = 0;
    (section.dataset.figures || "")
      .split(" ")
      .filter(Boolean)
      .forEach((id) => {
        const el = document.getElementById(id);
        const box = el && holder(el);
        if (!box) return;
        if (keep.has(box)) {
          box.setAttribute("data-ae-step-together", "");
          return;
        }
        keep.add(box);
        order += 1;
        if (box.getAttribute("data-ae-step-order") !== String(order)) {
          box.setAttribute("data-ae-step-order", String(order));
        }
      });
  }
  document.querySelectorAll("[data-ae-step-order]").forEach((box) => {
    if (!keep.has(box)) {
      box.removeAttribute("data-ae-step-order");
      box.removeAttribute("data-ae-step-together");
      box.removeAttribute("data-ae-step-stack"); // static/fit.js
    }
  });
  cover(section);
}

// The shown step's answer is open: .ae-revealed on <html> gives it the room
// (static/css/60-steps.css: the instructions fold away; on a big screen the step's column
// widens, so the answer reads without scrolling and the figure stays beside it).
function revealed(section) {
  const open = !!(section && section.querySelector(".ae-step-reveal[open]"));
  if (root.classList.contains("ae-revealed") === open) return;
  root.classList.toggle("ae-revealed", open);
  widen(section, open);
}

// The step's column for its answer as it is now (again once the answer has arrived).
function widen(section, open) {
  root.classList.remove("ae-reveal-wide");
  requestAnimationFrame(() => {
    // a big screen's step column widens only for an answer that does not fit in it (two
    // heads side by side, step 6, would shrink for nothing)
    if (open && root.classList.contains("ae-projector") && cutOff(section)) {
      root.classList.add("ae-reveal-wide");
    }
    requestAnimationFrame(() => {
      placeBar(shownSection());
      refit();
    });
  });
}

// The figures beside the step now have another width: Plotly redraws each to its box
// (autosize), then static/fit.js fits their heights and labels again.
function refit() {
  if (window.Plotly) {
    document.querySelectorAll(".js-plotly-plot").forEach((gd) => {
      if (gd.offsetParent === null || !gd.layout) return;
      // a figure given a width of its own (the large head) keeps it on a resize
      if (gd.layout.width && Math.abs(gd.layout.width - gd.clientWidth) > 4) {
        window.Plotly.relayout(gd, { width: gd.clientWidth });
      } else {
        window.Plotly.Plots.resize(gd);
      }
    });
  }
  fit.all();
}
// "toggle" does not bubble: caught on its way down
document.addEventListener(
  "toggle",
  (ev) => {
    if (ev.target.classList && ev.target.classList.contains("ae-step-reveal")) {
      if (ev.target.open) ask(ev.target.closest(".ae-step"));
      revealed(shownSection());
    }
  },
  true,
);

// The server's reply to ask(): the answer in its bar, and the room for it.
function answered(reply) {
  if (fill(reply) && root.classList.contains("ae-revealed")) widen(shownSection(), true);
}

// ---------------------------------------------------------------- a step put aside
// The step stays the class's until "All steps". In another view (the teacher shows
// something else, a student wanders off) its bar is not there: a small chip, "Back to
// step N", says a step is on and brings it back. On a big screen the bar covers the
// sentence and knobs; its "Knobs" button puts the step aside (the chip
// again), and its "Normal screen" is the page's switch (static/page.js).
let current = null; // {title, tab, stamp} of the step opened last, until "All steps"

const sectionOf = (c) =>
  c &&
  document.querySelector(
    `#step-${CSS.escape(c.tab)} .ae-step[data-stamp="${CSS.escape(c.stamp)}"]`,
  );

// The chip: a button early in the Tab order (in the page's top nav, explorer/ui/page.py), drawn
// fixed at the bottom right of the screen (static/css/60-steps.css).
function chip() {
  let c = document.getElementById("ae-step-chip");
  if (!c) {
    const nav = document.querySelector("#ae-top .ae-top");
    if (!nav) return null;
    c = document.createElement("button");
    c.type = "button";
    c.id = "ae-step-chip";
    c.className = "ae-step-chip";
    c.hidden = true;
    nav.appendChild(c);
  }
  return c;
}

// The bar's own "Knobs" and "Normal screen", after its buttons (shown on a big screen
// only: static/css/60-steps.css). Added here, once per bar, so they stay in sight under a long
// step's text, which scrolls.
function addTools(bar) {
  if (bar.querySelector(":scope > .ae-step-tools")) return;
  const tools = document.createElement("div");
  tools.className = "ae-step-tools";
  const button = (text, cls, title) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "ae-step-tool " + cls;
    b.textContent = text;
    if (title) b.title = title;
    tools.appendChild(b);
    return b;
  };
  button(
    "Knobs",
    "ae-step-aside",
    "The sentence and the knobs; the step waits behind a 'Back to step' button",
  );
  button("Normal screen", "ae-projector-switch").setAttribute("aria-pressed", "true");
  bar.appendChild(tools);
}

// The chip for ``section`` (the current step's, not on screen), or none (null).
function showChip(section) {
  const c = chip();
  if (!c) return;
  const title = section ? section.querySelector(".ae-step-title")?.textContent || "" : "";
  const text = title ? "↩ Back to " + title.trim().replace(/^Step/, "step") : "";
  if (c.textContent !== text) c.textContent = text; // text, never markup
  if (c.hidden !== !text) c.hidden = !text;
}

async function resume() {
  const c = current;
  root.classList.remove("ae-step-aside");
  if (!c) return;
  const onScreen = () => {
    const s = sectionOf(c);
    return s && s.offsetParent !== null ? s : null;
  };
  if (!onScreen()) clickTab(c.title);
  const section = await waitFor(onScreen, 10000);
  if (!section) return;
  arrange();
  section.querySelector(".ae-step-title")?.focus({ preventScroll: true });
  startFollowing(section);
}

async function putAside() {
  stopFollowing();
  root.classList.add("ae-step-aside");
  arrange();
  window.scrollTo({ top: 0, behavior: "instant" }); // the sentence, the knobs' top
  // focus to the chip, once it can take it (a moment: it was in the hidden left column)
  const c = await waitFor(() => {
    const el = document.getElementById("ae-step-chip");
    return el && !el.hidden && el.checkVisibility({ checkVisibilityCSS: true }) ? el : null;
  }, 2000);
  if (c) c.focus({ preventScroll: true });
}

document.addEventListener("click", (ev) => {
  const t = ev.target instanceof Element ? ev.target : null;
  if (!t) return;
  if (t.closest("#ae-step-chip")) {
    resume();
    return;
  }
  if (t.closest(".ae-step-bar .ae-step-aside")) {
    putAside();
    return;
  }
  // the bar's "Normal screen" (static/page.js switches): it is hidden in the normal
  // layout, so focus goes on to the step's title
  const bar = t.closest(".ae-step-bar");
  if (bar && t.closest(".ae-projector-switch")) {
    requestAnimationFrame(() => bar.querySelector(".ae-step-title")?.focus());
  }
});

// ---------------------------------------------------------------- opening a view
function clickTab(title) {
  // a tab that does not fit the bar sits in Gradio's "More tabs" menu: its item is a
  // button (Gradio also draws a hidden copy of the bar to measure it: not role="tab")
  const buttons = [
    ...document.querySelectorAll('#tabs button[role="tab"], #tabs .overflow-dropdown button'),
  ];
  const b = buttons.find((x) => x.textContent.trim() === title);
  if (b) b.click();
  return !!b;
}

// Resolve when ``find()`` returns something (checked each frame), or null after ``ms``.
function waitFor(find, ms) {
  return new Promise((resolve) => {
    const until = Date.now() + ms;
    const look = () => {
      const found = find();
      if (found || Date.now() > until) resolve(found || null);
      else requestAnimationFrame(look);
    };
    look();
  });
}

async function open(where) {
  let w;
  try {
    w = JSON.parse(where);
  } catch (e) {
    return;
  }
  if (!w || !w.title) return;
  root.classList.remove("ae-step-aside");
  clickTab(w.title);
  // the bar is written by the same event that opened the view: 20 s for a busy server
  const section = await waitFor(() => {
    const s = document.querySelector(
      `#step-${CSS.escape(w.tab)} .ae-step[data-stamp="${CSS.escape(w.stamp)}"]`,
    );
    return s && s.offsetParent !== null ? s : null;
  }, 20000);
  if (!section) return;
  current = { title: w.title, tab: w.tab, stamp: w.stamp };
  arrange();
  stale.mark(section);
  const heading = section.querySelector(".ae-step-title");
  if (heading) heading.focus({ preventScroll: true });
  startFollowing(section);
}

async function back(where) {
  let w;
  try {
    w = JSON.parse(where);
  } catch (e) {
    return;
  }
  stopFollowing();
  stale.clear();
  current = null;
  root.classList.remove("ae-step-aside");
  arrange();
  clickTab(w.title);
  const radio = await waitFor(() => document.querySelector("#start-step input:checked"), 10000);
  if (radio) {
    radio.focus({ preventScroll: true });
    radio.scrollIntoView({ block: "center" });
  }
}

// A bar shown, hidden or changed (also when a view is opened by hand): arrange again.
observeOnceAFrame(document.documentElement, { childList: true, subtree: true }, arrange);

screen.room = room; // static/fit.js sizes a step's figures with it

export const steps = {
  open,
  back,
  room,
  screenTop,
  screenBottom,
  clickTab,
  asked,
  answered,
  state: () => ({ following: following(), current: current && { ...current } }),
};
