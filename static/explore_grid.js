// The Explore tab's grid of every head: static/live_grid.js's renderer mounted on the
// gr.HTML of explorer/ui/explore_tab.py (its js_on_load is live_grid.js, then this file;
// Gradio runs it once per mount with element, trigger, props, server, upload and watch in
// scope).
//
// The grid arrives by one way: the page's live loop (static/live.js, which says how a
// keystroke travels) calls update() for every change while Explore is open (one at a time;
// changes made meanwhile collapse into one more call), and the grid asks for its data
// itself: the browser's engine first, else the server (server.grid_data, one plain POST; no
// queue, no server-sent events), with AttentionExplorer.grid.request(ctx.knobs), the one
// shape of a keystroke's request. No answer (the server was busy): the loop asks again.
// The loop also asks for the tab's slower figures once typing pauses (its settled event).
(() => {
  const AE = window.AttentionExplorer;
  const caption = element.querySelector(".ae-grid-caption");
  let where = "server"; // which answered the last request

  // The browser engine first (issue 38): where the app's page loaded it
  // (explorer/server/engine_route.py sets gridInBrowser) and it holds the chosen model,
  // static/engine/payload.js builds the same payload with no request; null (the Lab model,
  // weights not yet here: their download starts) or any error: the server, as before.
  async function inBrowser(req) {
    if (!AE.gridInBrowser || !AE.gridPayload) return null;
    try {
      return await AE.gridPayload(req.text, req.controls, {});
    } catch (e) {
      return null;
    }
  }

  async function data(req) {
    where = "browser";
    const mine = await inBrowser(req);
    if (mine) return mine;
    where = "server";
    return server.grid_data(req);
  }

  // A click on a head (or Enter on it): explorer/ui/explore_tab.py's hidden button reads
  // window.__aeSelect (READ_CLICK) and sets the Layer and Head sliders.
  function onOpen(layer, head) {
    window.__aeSelect = [layer, head];
    document.getElementById("grid-select")?.click();
  }

  // A plain line under the caption says which answered (a page without the engine: none).
  let whereLine = null;
  function sayWhere() {
    if (!AE.gridInBrowser) return;
    if (!whereLine) {
      whereLine = document.createElement("div");
      whereLine.className = "ae-grid-where"; // static/style.css
      caption.after(whereLine);
    }
    const text = where === "browser" ? "Computed in your browser." : "Computed on the server.";
    if (whereLine.textContent !== text) whereLine.textContent = text;
  }

  const grid = AE.grid.mount(element, { data, onOpen });
  AE.live.register(element.querySelector("[data-view]").dataset.view, {
    async update(ctx) {
      const ok = await grid.update(ctx);
      if (ok && ctx.fresh()) sayWhere();
      return ok;
    },
  });
})();
