// The app's grid renderer (static/live_grid.js) on the static page: the grid of every head,
// the head drawn large, and the steps' one-head panels (the shuffle test's, the scaling
// comparison's), each mounted in the grid's own markup and CSS (explorer/views/
// grid_markup.py, our constant markup, from the configuration).
//
//   mountGrid(holder, view, options) -> Grid   (live_grid.js mount(), this page's noAnswer)
//   oneHead(payload, layer, head) -> the payload of that one head, captioned with its name
//   matrixPayload(rows, tokens, at, caption) -> a one-head payload of a [query][key] matrix
//       of values in 0..1 (drawn as whole percents), for a panel that is not a run's head
import { mount, panel } from "../live_grid.js";
import { payload } from "../engine/index.js";
import { mosaic } from "../engine/payload.js";
import { CONFIG, colors } from "./page_config.js";
import { noAnswer } from "./loop.js";

const style = document.createElement("style");
style.textContent = CONFIG.gridCss;
document.head.appendChild(style);

export function mountGrid(holder, view, options = {}) {
  const element = document.createElement("div");
  element.className = "ae-grid-box";
  element.innerHTML = CONFIG.gridHtml[view]; // our own constant markup
  holder.appendChild(element);
  return mount(element, { noAnswer, ...options });
}

export function oneHead(p, l, h) {
  if (!p || !p.ok) return p;
  return { ...panel(p, l, h), caption: "Layer " + l + ", head " + h + " · " + p.caption };
}

export function matrixPayload(rows, tokens, at, caption) {
  const chars = CONFIG.engineTexts.grid_label_chars;
  return {
    ok: true,
    layers: 1,
    heads: 1,
    n: tokens.length,
    tokens: tokens.map((t) => payload.plainLabel(t, chars)),
    z: mosaic(Float32Array.from(rows.flat()), 1, 1, tokens.length), // as a run's grid
    selected: [0, 0],
    at,
    colors,
    guesses: [],
    where: "",
    caption,
  };
}
