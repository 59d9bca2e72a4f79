// A Start-here step in the view it opened (explorer/ui/step_bar.py declares the bar, explorer/ui/page.py puts
// this file in the page's <head>). Its whole interface is window.AttentionExplorer.steps:
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
// the server.
(() => {
  const AE = (window.AttentionExplorer = window.AttentionExplorer || {});
  if (AE.steps) return;
  const root = document.documentElement;

  const GAP = 8; // px between the screen's top and the bar, and below the figures
  const ROOMY = 300; // px: a revealed step's figure given less is drawn at its own size
  const FOLLOW_MS = 8000; // how long the page keeps the step in view while figures draw

  // The step shown in a view now: the bar's section, if its box is on screen.
  function shownSection() {
    for (const s of document.querySelectorAll(".ae-step-bar .ae-step[data-step]")) {
      if (s.offsetParent !== null) return s;
    }
    return null;
  }

  // The view's column and the direct child of it that holds element ``el``.
  function holder(el) {
    const column = el.closest(".tabitem > .column");
    if (!column) return null;
    let child = el;
    while (child && child.parentElement !== column) child = child.parentElement;
    return child;
  }

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
      requestAnimationFrame(() => AE.fit && AE.fit.all());
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
      (section.dataset.figures || "").split(" ").filter(Boolean).forEach((id) => {
        const el = document.getElementById(id);
        const box = el && holder(el);
        if (!box) return;
        if (keep.has(box)) { box.setAttribute("data-ae-step-together", ""); return; }
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

  // What would give the shown step's answer away (the bar's data-hidden: a selector list,
  // within the step's view) gets data-ae-hidden: static/css/60-steps.css covers it ("Hidden until
  // Reveal") until .ae-revealed. Outside a step nothing is covered.
  function cover(section) {
    let hide = [];
    const within = section && (section.closest(".tabitem") || document);
    if (within && section.dataset.hidden) {
      try { hide = [...within.querySelectorAll(section.dataset.hidden)]; } catch (e) { hide = []; }
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
  const barOf = (section) => section.closest(".ae-step-bar") || section;
  // On a big screen the bar is fixed in the left column (static/css/60-steps.css): out of the
  // view's flow, so the view's first figure goes to the top of the screen instead.
  const fixed = (el) => getComputedStyle(el).position === "fixed";

  // What goes to the top of the screen: the bar, or the first of the step's figures.
  function anchor(section) {
    const bar = barOf(section);
    if (!fixed(bar)) return bar;
    return document.querySelector('[data-ae-step-order="1"]') || bar;
  }

  // The top of what is seen: on a phone the sentence box stays over it (static/page.js).
  const screenTop = () => (AE.sentenceBottom ? AE.sentenceBottom() : 0);

  // The bottom of what is seen: on a phone the knobs drawer's bar is fixed over it.
  function screenBottom() {
    const drawer = root.classList.contains("ae-drawer") && document.querySelector("#controls");
    const r = drawer && drawer.getBoundingClientRect();
    // (hidden in a view where no knob applies, static/css/40-phone.css: the whole screen)
    return r && r.height > 0 ? Math.min(window.innerHeight, r.top) : window.innerHeight;
  }

  function room(gd) {
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

  // The shown step's answer is open: .ae-revealed on <html> gives it the room
  // (static/css/60-steps.css: the instructions fold away; on a big screen the step's column
  // widens, so the answer reads without scrolling and the figure stays beside it).
  function revealed(section) {
    const open = !!(section && section.querySelector(".ae-step-reveal[open]"));
    if (root.classList.contains("ae-revealed") === open) return;
    root.classList.toggle("ae-revealed", open);
    root.classList.remove("ae-reveal-wide");
    requestAnimationFrame(() => {
      // a big screen's step column widens only for an answer that does not fit in it (two
      // heads side by side, step 6, would shrink for nothing)
      if (open && root.classList.contains("ae-projector") && cutOff(section)) {
        root.classList.add("ae-reveal-wide");
      }
      requestAnimationFrame(() => { placeBar(shownSection()); refit(); });
    });
  }

  // Is any of the shown answer scrolled away inside the bar, or under its buttons?
  function cutOff(section) {
    const answer = section.querySelector(".ae-step-reveal[open] > p");
    const bar = section.closest(".ae-step-bar");
    if (!answer || !bar) return false;
    for (let a = answer.parentElement; a && a !== bar.parentElement; a = a.parentElement) {
      if (getComputedStyle(a).overflowY !== "visible" && a.scrollHeight > a.clientHeight + 1) {
        return true;
      }
    }
    const buttons = bar.querySelector(".ae-step-buttons");
    return !!buttons && answer.getBoundingClientRect().bottom
      > buttons.getBoundingClientRect().top + 1;
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
    if (AE.fit) AE.fit.all();
  }
  // "toggle" does not bubble: caught on its way down
  document.addEventListener("toggle", (ev) => {
    if (ev.target.classList && ev.target.classList.contains("ae-step-reveal")) {
      revealed(shownSection());
    }
  }, true);

  // Big screen: the bar takes the place of the left column (sentence, knobs), whose box
  // the page measures here, as CSS variables.
  function placeBar(section) {
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

  function bringIntoView() {
    if (!follow || Date.now() > follow.until) { stopFollowing(); return; }
    const section = shownSection();
    if (!section) return;
    const top = anchor(section).getBoundingClientRect().top + window.scrollY - GAP
      - screenTop();
    if (Math.abs(window.scrollY - top) > 2) window.scrollTo({ top, behavior: "instant" });
  }

  function stopFollowing() {
    if (!follow) return;
    follow.observer.disconnect();
    follow = null;
  }

  function startFollowing(section) {
    stopFollowing();
    const observer = new ResizeObserver(() => bringIntoView());
    const column = section.closest(".tabitem > .column") || document.body;
    observer.observe(column);
    follow = { observer, until: Date.now() + FOLLOW_MS };
    bringIntoView();
  }

  ["wheel", "touchmove", "keydown", "pointerdown"].forEach((type) =>
    window.addEventListener(type, () => stopFollowing(), { capture: true, passive: true }));

  // ---------------------------------------------------------------- a step put aside
  // The step stays the class's until "All steps". In another view (the teacher shows
  // something else, a student wanders off) its bar is not there: a small chip, "Back to
  // step N", says a step is on and brings it back. On a big screen the bar covers the
  // sentence and knobs; its "Knobs" button puts the step aside (the chip
  // again), and its "Normal screen" is the page's switch (static/page.js).
  let current = null; // {title, tab, stamp} of the step opened last, until "All steps"

  const sectionOf = (c) => c && document.querySelector(
    `#step-${CSS.escape(c.tab)} .ae-step[data-stamp="${CSS.escape(c.stamp)}"]`);

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
    button("Knobs", "ae-step-aside",
      "The sentence and the knobs; the step waits behind a 'Back to step' button");
    button("Normal screen", "ae-projector-switch").setAttribute("aria-pressed", "true");
    bar.appendChild(tools);
  }

  // The chip for ``section`` (the current step's, not on screen), or none (null).
  function showChip(section) {
    const c = chip();
    if (!c) return;
    const title = section ? (section.querySelector(".ae-step-title")?.textContent || "") : "";
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
    if (t.closest("#ae-step-chip")) { resume(); return; }
    if (t.closest(".ae-step-bar .ae-step-aside")) { putAside(); return; }
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
    const buttons = [...document.querySelectorAll(
      '#tabs button[role="tab"], #tabs .overflow-dropdown button')];
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
    try { w = JSON.parse(where); } catch (e) { return; }
    if (!w || !w.title) return;
    root.classList.remove("ae-step-aside");
    clickTab(w.title);
    // the bar is written by the same event that opened the view: 20 s for a busy server
    const section = await waitFor(() => {
      const s = document.querySelector(
        `#step-${CSS.escape(w.tab)} .ae-step[data-stamp="${CSS.escape(w.stamp)}"]`);
      return s && s.offsetParent !== null ? s : null;
    }, 20000);
    if (!section) return;
    current = { title: w.title, tab: w.tab, stamp: w.stamp };
    arrange();
    AE.stale.mark(section);
    const heading = section.querySelector(".ae-step-title");
    if (heading) heading.focus({ preventScroll: true });
    startFollowing(section);
  }

  async function back(where) {
    let w;
    try { w = JSON.parse(where); } catch (e) { return; }
    stopFollowing();
    AE.stale.clear();
    current = null;
    root.classList.remove("ae-step-aside");
    arrange();
    clickTab(w.title);
    const radio = await waitFor(() => document.querySelector("#start-step input:checked"),
      10000);
    if (radio) {
      radio.focus({ preventScroll: true });
      radio.scrollIntoView({ block: "center" });
    }
  }

  // A bar shown, hidden or changed (also when a view is opened by hand): arrange again.
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; arrange(); });
  }).observe(document.documentElement, { childList: true, subtree: true });

  AE.steps = { open, back, room, screenTop, screenBottom, clickTab,
    state: () => ({ following: !!follow, current: current && { ...current } }) };
})();
