// Arrow keys in the page's tab lists and radio groups, as a keyboard user expects them
// (WAI-ARIA Authoring Practices: "Tabs" and "Radio Group"). Part of the page's bundle
// (static/app.js), in the page's <head>: it runs before Gradio mounts the app, so it listens
// on the document and keeps up with what Gradio draws (a MutationObserver).
//
// Gradio 6 draws each tab as a plain <button role="tab"> and gives every radio button of a
// gr.Radio its own name ("radio-3", "radio-4", ...): each tab and each radio was a Tab stop
// of its own (13 for the tabs, 17 for the knobs) and the arrow keys did nothing there.
// Here:
//  * a tab list is one Tab stop (the selected tab: tabindex 0, the others -1); Left and
//    Right move to the previous or next tab and open it (Gradio's own click handler does
//    the opening), Home and End to the first and last;
//  * a radio group is one Tab stop: its radios share one name, so the browser's own radio
//    group does the rest (Tab reaches the checked one, the arrows move and select, a
//    screen reader says "2 of 4"). Gradio writes a new name each time it redraws a radio;
//    the observer puts the group's name back at once.
// Presentation only: nothing here talks to the server; a selection is made by the same
// click or change event a pointer makes.
const root = document.documentElement;

// ---------------------------------------------------------------- tab lists
const tabsOf = (list) =>
  [...list.querySelectorAll(':scope > button[role="tab"]')].filter((b) => !b.disabled);

function roveTabs(list) {
  const tabs = tabsOf(list);
  if (!tabs.length) return;
  const selected = tabs.find((b) => b.getAttribute("aria-selected") === "true") || tabs[0];
  tabs.forEach((b) => {
    const want = b === selected ? "0" : "-1";
    if (b.getAttribute("tabindex") !== want) b.setAttribute("tabindex", want);
  });
}

const TAB_KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);

function onTabKey(ev, tab) {
  const list = tab.parentElement;
  const tabs = tabsOf(list);
  const i = tabs.indexOf(tab);
  if (i < 0 || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const rtl = getComputedStyle(list).direction === "rtl";
  let next;
  if (ev.key === "Home") next = 0;
  else if (ev.key === "End") next = tabs.length - 1;
  else {
    const forward = (ev.key === "ArrowRight") !== rtl;
    next = (i + (forward ? 1 : -1) + tabs.length) % tabs.length; // wraps around
  }
  ev.preventDefault(); // the arrows would scroll a row of tabs sideways
  const to = tabs[next];
  tabs.forEach((b) => b.setAttribute("tabindex", b === to ? "0" : "-1"));
  to.focus();
  if (to.getAttribute("aria-selected") !== "true") to.click(); // Gradio opens it
}

// ---------------------------------------------------------------- radio groups
let groups = 0;
function nameRadios(fieldset) {
  const radios = fieldset.querySelectorAll('input[type="radio"]');
  if (radios.length < 2) return;
  if (!fieldset.dataset.aeRadios) {
    groups += 1;
    fieldset.dataset.aeRadios = "ae-radio-" + (fieldset.id || "group") + "-" + groups;
  }
  const name = fieldset.dataset.aeRadios;
  radios.forEach((r) => {
    if (r.name !== name) r.name = name;
  });
}

// ---------------------------------------------------------------- keep up with Gradio
function scan() {
  document.querySelectorAll('[role="tablist"]').forEach(roveTabs);
  document.querySelectorAll("fieldset").forEach((f) => {
    if (f.querySelector('input[type="radio"]')) nameRadios(f);
  });
}

document.addEventListener("keydown", (ev) => {
  const t = ev.target instanceof Element ? ev.target : null;
  if (!t || !TAB_KEYS.has(ev.key)) return;
  if (t.matches('[role="tablist"] > button[role="tab"]')) onTabKey(ev, t);
});

// Names first, at once: a radio Gradio has just redrawn must be in its group before the
// next key press (the observer's callback runs before the browser handles more input).
let pending = false;
new MutationObserver((records) => {
  let again = false;
  for (const r of records) {
    if (r.type === "attributes" && r.attributeName === "name") {
      const f = r.target.closest("fieldset[data-ae-radios]");
      if (f && r.target.name !== f.dataset.aeRadios) r.target.name = f.dataset.aeRadios;
    } else {
      again = true;
    }
  }
  if (again && !pending) {
    // the rest once a frame
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      scan();
    });
  }
}).observe(root, {
  childList: true,
  subtree: true,
  attributes: true,
  attributeFilter: ["name", "aria-selected", "disabled"],
});

export const keys = { scan };
