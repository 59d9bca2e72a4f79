// A Start-here step's figures marked stale until they show the step's data
// (`stale`, also window.AttentionExplorer.stale: mark(section), clear(); static/steps.js
// calls them when a step is opened and left).
//

// "Set up" and "Next step" change the sentence and knobs; until the view has drawn them,
// its figures show the previous step's data (1-8 s on a busy server). Each of the step's
// figures that shows something gets data-ae-stale (static/css/60-steps.css dims it, with an
// "Updating" note) until it is drawn anew: a Plotly figure once its data are replaced (a
// resize keeps them), anything else once its content changes; all of them once the view
// has had no update under way (static/live.js: data-ae-live on its panel) for IDLE_MS.
const IDLE_MS = 1500;
const STALE_MAX_MS = 60000;
let marked = null; // {timer, entries: [{el, gd, data, html}]}

function clear() {
  if (!marked) return;
  clearInterval(marked.timer);
  marked.entries.forEach((e) => e.el.removeAttribute("data-ae-stale"));
  marked = null;
}

function fresh(e) {
  if (!e.gd) return e.el.innerHTML !== e.html;
  // a new plot, or new data, drawn (Gradio may first put an empty plot in its place)
  const gd = e.el.querySelector(".js-plotly-plot");
  return (
    !!gd &&
    (gd !== e.gd || gd.data !== e.data) &&
    !!gd.data &&
    gd.data.length > 0 &&
    !!gd._fullData &&
    gd._fullData.length > 0 &&
    !!gd.querySelector(".main-svg")
  );
}

function mark(section) {
  clear();
  const entries = [];
  (section.dataset.figures || "")
    .split(" ")
    .filter(Boolean)
    .forEach((id) => {
      const el = document.getElementById(id);
      if (!el) return;
      const gd = el.querySelector(".js-plotly-plot");
      if (gd ? !(gd.data && gd.data.length) : !el.textContent.trim()) return; // nothing shown
      entries.push({ el, gd, data: gd && gd.data, html: gd ? null : el.innerHTML });
      el.setAttribute("data-ae-stale", "");
    });
  if (!entries.length) return;
  const since = Date.now();
  let idleFrom = null;
  const tick = () => {
    const now = Date.now();
    marked.entries = marked.entries.filter((e) => {
      if (!fresh(e)) return true;
      e.el.removeAttribute("data-ae-stale");
      return false;
    });
    const busy = !!section.closest("[data-ae-live]");
    idleFrom = busy ? null : idleFrom || now;
    if (
      !marked.entries.length ||
      now - since > STALE_MAX_MS ||
      (idleFrom && now - idleFrom > IDLE_MS)
    )
      clear();
  };
  marked = { entries, timer: setInterval(tick, 100) };
}

export const stale = { mark, clear };
