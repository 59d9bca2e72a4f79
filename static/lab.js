// The Lab's grid of every head on its sequence said twice (explorer/ui/lab_tab.py: the js_on_load of
// its gr.HTML), drawn by the page's own canvas renderer, static/live_grid.js, unchanged.
// explorer/ui/lab_tab.py writes mountGrid(element, server, window, document), whose body is
// live_grid.js, before this file; this file gives it the small environment it expects from
// Explore (as static/notebook.js does for a notebook): `server.grid_data` answers with the
// payload the Train stream last sent (explorer/views/lab.py, grid_payload's format) and
// `window.AttentionExplorer.live` is where live_grid.js registers the update() called here.
// Why: a Plotly grid redrawn twice a second kept a projector's page busy 93% of the time
// while a run streamed (issue 42 item 2); one canvas drawImage per head is a few ms.
// The stream sets this component's value (a dict, or null before a run); Gradio's template
// is static, so the canvas stays and only watch("value") fires.

const BEFORE = "Every head appears here once the run starts.";
let view = null;
let answer = null;
const host = {
  AttentionExplorer: { live: { register: (_name, v) => { view = v; } } },
  get devicePixelRatio() { return window.devicePixelRatio; },
};
const doc = {
  createElement: (tag) => document.createElement(tag),
  getElementById: () => null, // no "open this head" button in the Lab
};
// element: the box around .ae-grid, as Explore's
mountGrid(element, { grid_data: async () => answer }, host, doc);

function show() {
  const p = props.value;
  answer = p && typeof p === "object" && p.ok ? p : { ok: false, caption: BEFORE };
  if (view) view.update({ values: [""], fresh: () => true });
}
watch("value", show);
show();
