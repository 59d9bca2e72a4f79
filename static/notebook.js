// A notebook's attention view (explorer/notebook.py), bundled into static/build/notebook.js:
// the page's own grid renderer (static/live_grid.js) drawn outside Gradio.
// explorer/views/notebook_view.py writes each view as one element (class "ae-nb") holding
// its payload as JSON (script.ae-nb-data), the grid's two boxes, and this bundle inlined, so
// the HTML is self-contained and offline: no request leaves the page. Each copy that runs
// draws every view of its document not drawn yet (its own among them), twice: the grid of
// every head, and below it the head a click opens, large. Each view has its own element
// ids and grids, so several views in one notebook never share state.
import { grid, mount, panel } from "./live_grid.js";

const AE = (globalThis.AttentionExplorer = globalThis.AttentionExplorer || {});
if (!AE.grid) AE.grid = grid; // tests read grid.state; views drawn by any copy share it

// theme "auto": the notebook's own dark mode (JupyterLab, VS Code), else the system's.
function isDark(theme) {
  if (theme !== "auto") return theme === "dark";
  const body = document.body;
  if (body && body.dataset.jpThemeLight) return body.dataset.jpThemeLight === "false";
  if (body && /vscode-(dark|high-contrast)(\s|$)/.test(body.className)) return true;
  return !!window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
}

// The payload of one head, large
function onePanel(p, layer, head) {
  return {
    ...panel(p, layer, head),
    guesses: [],
    caption:
      "L" +
      layer +
      " H" +
      head +
      " large (click another head above to open it). " +
      "Rows: the token that looks; columns: the tokens it looks at.",
  };
}

function drawView(root) {
  const data = JSON.parse(root.querySelector("script.ae-nb-data").textContent);
  const colors = isDark(data.theme) ? data.colors.dark : data.colors.light;
  root.style.background = colors.paper;
  root.style.color = colors.font;
  const payload = { ...data.payload, colors };
  const large = mount(root.querySelector(".ae-nb-head"), { colors });
  const all = mount(root.querySelector(".ae-nb-grid"), { colors, onOpen: open });

  function open(layer, head) {
    if (!payload.ok) return;
    payload.selected = [layer, head];
    all.draw(payload);
    large.draw(onePanel(payload, layer, head));
  }

  all.draw(payload);
  if (payload.ok) large.draw(onePanel(payload, ...payload.selected));
  else root.querySelector(".ae-nb-head").hidden = true;
}

for (const root of document.querySelectorAll(".ae-nb")) {
  if (root.dataset.aeDrawn) continue;
  root.dataset.aeDrawn = "1";
  drawView(root);
}
