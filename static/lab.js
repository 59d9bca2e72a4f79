// The Lab's grid of every head on its sequence said twice (explorer/ui/lab_tab.py: the
// bridge's mount of "lab.grid" on its gr.HTML), drawn by the page's own canvas renderer
// (static/live_grid.js) mounted on this element with no data source: the Train stream sets
// this component's value to a payload in grid_payload's format (explorer/views/lab.py), or
// null before a run, and each new value is drawn as it comes.
// Why: a Plotly grid redrawn twice a second kept a projector's page busy 93% of the time
// while a run streamed (issue 42 item 2); one canvas drawImage per head is a few ms.
// Gradio's template is static, so the canvas stays and only watch("value") fires.
import { mount } from "./live_grid.js";

const BEFORE = "Every head appears here once the run starts.";

// {element, props, watch}: Gradio's js_on_load scope.
export function mountLabGrid({ element, props, watch }) {
  const labGrid = mount(element, {});
  const show = () => {
    const p = props.value;
    labGrid.draw(p && typeof p === "object" && p.ok ? p : { ok: false, caption: BEFORE });
  };
  watch("value", show);
  show();
  return labGrid;
}

// Train's inputs as the page has them, the last (the class box) replaced by the page's class
// tag, "CODE student" (static/class.js; "" outside a class). data.n: how many inputs Train has.
export function labClassTag(args, data, tag) {
  const a = args.slice(0, data.n);
  a[data.n - 1] = typeof tag === "function" ? tag() || "" : "";
  return a;
}
