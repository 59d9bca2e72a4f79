// A notebook's attention view (explorer/notebook.py): the page's own grid renderer,
// static/live_grid.js, drawn outside Gradio. explorer/views/notebook_view.py writes one
// <script> per view holding, in order, ROOT_ID (this view's element id), static/live_grid.js
// (which adds AttentionExplorer.grid) and this file, which mounts it twice: the grid of every
// head, and below it the head a click opens, large. The payload is embedded in the page
// (script.ae-nb-data), so nothing is fetched: no request leaves the page. Each view has its
// own element ids and grids, so several views in one notebook never share state.
(function () {
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

  const G = globalThis.AttentionExplorer.grid;
  // The payload of one head, large
  function onePanel(p, layer, head) {
    return { ...G.panel(p, layer, head), guesses: [],
      caption: "L" + layer + " H" + head + " large (click another head above to open it). "
        + "Rows: the token that looks; columns: the tokens it looks at." };
  }

  const payload = { ...data.payload, colors };
  const grid = G.mount(root.querySelector(".ae-nb-grid"), { colors, onOpen: open });
  const large = G.mount(root.querySelector(".ae-nb-head"), { colors });

  function open(layer, head) {
    if (!payload.ok) return;
    payload.selected = [layer, head];
    grid.draw(payload);
    large.draw(onePanel(payload, layer, head));
  }

  grid.draw(payload);
  if (payload.ok) large.draw(onePanel(payload, ...payload.selected));
  else root.querySelector(".ae-nb-head").hidden = true;
})();
