// Clicks on the cells of Plotly heatmaps that change a view's own input, in the browser:
// Ablate's grid (a panel, "L2 H3", toggles that head in the ticked list) and Patch's heads,
// positions and lens (a cell names itself, "head L H" / "pos L P" / "lens L P", from its
// customdata). A click keeps its value here and clicks the view's hidden button, whose
// js-only event (fn None; the bridge's "ablate.toggle", "patch.pick", "patch.lens") returns
// the new value of the view's input; its change does the rest. A MutationObserver
// re-attaches the listeners whenever Gradio redraws a plot (a new .js-plotly-plot node).
const attached = new WeakSet(); // plots listened to
const waiting = {}; // slot -> the clicked value, until its button's event reads it
let observing = false;

// sel: the plot's box; slot: where the value waits; button: the hidden button that reads it;
// read(point) -> the value of the clicked point, or null (not a cell)
function attach(sel, slot, button, read) {
  const gd = document.querySelector(sel + " .js-plotly-plot");
  if (!gd || attached.has(gd) || !gd.on) return;
  attached.add(gd);
  gd.on("plotly_click", (ev) => {
    const value = read(ev.points[0] || {});
    if (value == null) return;
    waiting[slot] = value;
    document.querySelector(button)?.click();
  });
}

function panelName(point) {
  const m = /^L(\d+) H(\d+)$/.exec(point.data?.name || "");
  return m ? m[0] : null;
}

// a cell's customdata: [layer, head or position] (heads, positions), [layer, pos, text] (lens)
const cellName = (kind, size) => (point) => {
  const cd = point.customdata;
  return Array.isArray(cd) && cd.length === size ? `${kind} ${cd[0]} ${cd[1]}` : null;
};

const PLOTS = {
  ablate: () => attach("#ablate-grid", "ablate", "#ablate-toggle", panelName),
  patch: () => {
    attach("#patch-heads", "patch", "#patch-pick", cellName("head", 2));
    attach("#patch-positions", "patch", "#patch-pick", cellName("pos", 2));
    attach("#patch-lens", "lens", "#patch-lens-pick", cellName("lens", 3));
  },
};

// The page's load event: listen to every view's plots, now and whenever one is redrawn.
export function listenForPlotClicks() {
  const all = () => Object.values(PLOTS).forEach((f) => f());
  if (!observing) {
    observing = true;
    new MutationObserver(all).observe(document.body, { childList: true, subtree: true });
  }
  all();
}

function take(slot) {
  const v = waiting[slot];
  waiting[slot] = null;
  return v;
}

// Ablate's hidden button: [ticked] -> [the ticked list with the clicked head flipped].
// (A js function returns one value per output, so the list goes out wrapped in a list.)
export function toggleHead([off]) {
  const h = take("ablate");
  const ticked = off || [];
  if (!h) return [ticked];
  return [ticked.includes(h) ? ticked.filter((x) => x !== h) : [...ticked, h]];
}

// Patch's hidden buttons: [cell] -> the clicked cell's name (else the cell as it was).
export const pickCell = ([cell]) => take("patch") || cell;
export const pickLensCell = ([cell]) => take("lens") || cell;
