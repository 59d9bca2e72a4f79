// A notebook's attention view (explorer/notebook.py): the page's own grid, static/live_grid.js,
// drawn outside Gradio. explorer/views/notebook_view.py writes one <script> per view holding,
// in order, ROOT_ID (this view's element id), mountGrid(element, server, window, document)
// whose body is static/live_grid.js as the page runs it, and this file. This is the small
// environment live_grid.js expects from Gradio's js_on_load: `element` (the view's box),
// `server.grid_data` (answers with the payload embedded in the page instead of a POST),
// `window.AttentionExplorer.live` (where live_grid.js registers its update(), called here
// once per drawing) and document.getElementById("grid-select").click() (the page's "open this
// head" button: here it opens the head in the large view below the grid). Each view has its
// own copies of all of it, so several views in one notebook never share state or element
// ids, and nothing is fetched: no request leaves the page.

const root = document.getElementById(ROOT_ID);
const data = JSON.parse(root.querySelector("script.ae-nb-data").textContent);

// theme "auto": the notebook's own dark mode (JupyterLab, VS Code), else the system's.
function isDark() {
  if (data.theme !== "auto") return data.theme === "dark";
  const body = document.body;
  if (body && body.dataset.jpThemeLight) return body.dataset.jpThemeLight === "false";
  if (body && /vscode-(dark|high-contrast)(\s|$)/.test(body.className)) return true;
  return !!window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
}
const colors = isDark() ? data.colors.dark : data.colors.light;
root.style.background = colors.paper;
root.style.color = colors.font;

// One live_grid.js on `element`; returns draw(payload) -> Promise.
function mount(element, onOpen) {
  let view = null;
  let answer = null;
  const host = {
    AttentionExplorer: { live: { register: (_name, v) => { view = v; } } },
    get devicePixelRatio() { return window.devicePixelRatio; },
  };
  const doc = {
    createElement: (tag) => document.createElement(tag),
    getElementById: (id) => (id === "grid-select"
      ? { click: () => onOpen(host.__aeSelect) } : null),
  };
  mountGrid(element, { grid_data: async () => answer }, host, doc);
  return (payload) => {
    answer = payload;
    return view.update({ values: [""], fresh: () => true });
  };
}

// The payload of one head, large: panel (layer, head) cut out of the mosaic.
function onePanel(p, layer, head) {
  const s = atob(p.z), n = p.n, width = p.heads * n;
  let z = "";
  for (let q = 0; q < n; q++) z += s.substr((layer * n + q) * width + head * n, n);
  return { ...p, layers: 1, heads: 1, z: btoa(z), selected: [0, 0], at: [layer, head],
    guesses: [], caption: "L" + layer + " H" + head + " large (click another head above to "
      + "open it). Rows: the token that looks; columns: the tokens it looks at." };
}

const payload = { ...data.payload, colors };
const drawGrid = mount(root.querySelector(".ae-nb-grid"), open);
const drawHead = mount(root.querySelector(".ae-nb-head"), () => {});

function open(at) {
  if (!payload.ok || !at) return;
  const [layer, head] = at;
  payload.selected = [layer, head];
  drawGrid(payload);
  drawHead(onePanel(payload, layer, head));
}

drawGrid(payload);
if (payload.ok) drawHead(onePanel(payload, ...payload.selected));
else root.querySelector(".ae-nb-head").hidden = true;
