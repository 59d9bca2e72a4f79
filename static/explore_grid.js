// The Explore tab's grid of every head: static/live_grid.js's renderer mounted on the
// gr.HTML of explorer/ui/explore_tab.py (its js_on_load is the bridge's mount of
// "explore.grid", explorer/ui/bridge.py, with Gradio's element and server).
//
// The grid arrives by one way: the page's live loop (static/live.js, which says how a
// keystroke travels) calls update() for every change while Explore is open (one at a time;
// changes made meanwhile collapse into one more call), and the grid asks for its data
// itself: the browser's engine first, else the server (server.grid_data, one plain POST; no
// queue, no server-sent events), with request(ctx.knobs), the one shape of a keystroke's
// request. No answer (the server was busy): the loop asks again. The loop also asks for the
// tab's slower figures once typing pauses (its settled event).
//
// A click on a head (or Enter on it) moves the Layer and Head sliders in the browser:
// static/head_pick.js.
import { mount } from "./live_grid.js";
import { live } from "./live.js";
import { pickHead } from "./head_pick.js";

const AE = () => window.AttentionExplorer || {};

// The browser engine first (issue 38): where the app's page loaded it
// (explorer/server/engine_route.py sets gridInBrowser) and it holds the chosen model,
// static/engine/payload.js builds the same payload with no request; null (the Lab model,
// weights not yet here: their download starts) or any error: the server, as before.
async function inBrowser(req) {
  const ae = AE();
  if (!ae.gridInBrowser || !ae.gridPayload) return null;
  try {
    return await ae.gridPayload(req.text, req.controls, {});
  } catch {
    return null;
  }
}

// {element, server}: Gradio's js_on_load scope (the gr.HTML's element, its server functions).
export function mountExploreGrid({ element, server }) {
  const caption = element.querySelector(".ae-grid-caption");
  let where = "server"; // which answered the last request
  let whereLine = null;

  async function data(req) {
    where = "browser";
    const mine = await inBrowser(req);
    if (mine) return mine;
    where = "server";
    return server.grid_data(req);
  }

  // A plain line under the caption says which answered (a page without the engine: none).
  function sayWhere() {
    if (!AE().gridInBrowser) return;
    if (!whereLine) {
      whereLine = document.createElement("div");
      whereLine.className = "ae-grid-where"; // static/css/70-views.css
      caption.after(whereLine);
    }
    const text = where === "browser" ? "Computed in your browser." : "Computed on the server.";
    if (whereLine.textContent !== text) whereLine.textContent = text;
  }

  const grid = mount(element, { data, onOpen: pickHead });
  live.register(element.querySelector("[data-view]").dataset.view, {
    async update(ctx) {
      const ok = await grid.update(ctx);
      if (ok && ctx.fresh()) sayWhere();
      return ok;
    },
  });
  return grid;
}
