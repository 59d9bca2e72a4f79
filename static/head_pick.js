// A click on a head of a grid moves the Layer and Head sliders in the browser, with no
// server round trip. Explore's canvas (static/explore_grid.js) calls pickHead(layer, head);
// that clicks the hidden #grid-select button, whose js-only event (fn None, the bridge's
// "explore.pick", explorer/ui/explore_tab.py) returns the picked pair as the sliders' new
// values; their change events then update the page as a slider drag would. (Gradio sets
// component values only from an event's outputs: the hidden button is that event's
// trigger, and the pair waits here, not in a global, for the instant between.)
let picked = null; // [layer, head] waiting for #grid-select's event, or null

export function pickHead(layer, head) {
  picked = [layer, head];
  const button = document.getElementById("grid-select");
  if (button) button.click();
  else picked = null;
}

// The event's js: (layer, head) as the sliders are -> the new [layer, head].
export function readPick([layer, head]) {
  const p = picked;
  picked = null;
  return p || [layer, head];
}
