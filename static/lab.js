// The Lab's grid of every head on its sequence said twice (explorer/ui/lab_tab.py: the
// js_on_load of its gr.HTML, after static/live_grid.js), drawn by the page's own canvas
// renderer, AttentionExplorer.grid, mounted on this element with no data source: the Train
// stream sets this component's value to a payload in grid_payload's format
// (explorer/views/lab.py), or null before a run, and each new value is drawn as it comes.
// Why: a Plotly grid redrawn twice a second kept a projector's page busy 93% of the time
// while a run streamed (issue 42 item 2); one canvas drawImage per head is a few ms.
// Gradio's template is static, so the canvas stays and only watch("value") fires.

const BEFORE = "Every head appears here once the run starts.";
const labGrid = window.AttentionExplorer.grid.mount(element, {});

function show() {
  const p = props.value;
  labGrid.draw(p && typeof p === "object" && p.ok ? p : { ok: false, caption: BEFORE });
}
watch("value", show);
show();
