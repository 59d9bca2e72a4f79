// Step 9's heads (static/site/fig_lab.js): every head's attention pattern on the Lab's probe
// (its sequence said twice), as the run's events carry it (withProbe: [layer][head][q][k] in
// whole percent, static/lab/train.js), one small canvas a head, a row a layer, on the grid's
// colour scale; the best induction head outlined, the caption the app's (explorer/views/
// lab.py's, through explorer/site/lab_words.py). Each canvas is the pattern cell for cell
// (a pixel a query and key of the probe), scaled by CSS.
//
//   makeHeads() -> {element, draw(event, layers, heads), clear()}
import { palette } from "../grid_draw.js";
import { CONFIG, colors, el } from "./page_config.js";
import { headColour } from "./fig_lab_chart.js";

const WORDS = CONFIG.lab;
const SCALE = palette(colors.scale);

function best(scores) {
  let at = [0, 0];
  scores.forEach((row, l) =>
    row.forEach((v, h) => {
      if (v > scores[at[0]][at[1]]) at = [l, h];
    }),
  );
  return at;
}

function paint(canvas, pattern) {
  const n = pattern.length;
  canvas.width = canvas.height = n;
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(n, n);
  for (let q = 0; q < n; q++) {
    for (let k = 0; k < n; k++) {
      const v = Math.max(0, Math.min(100, pattern[q][k])),
        i = (q * n + k) * 4;
      image.data.set([SCALE[v * 3], SCALE[v * 3 + 1], SCALE[v * 3 + 2], 255], i);
    }
  }
  ctx.putImageData(image, 0, 0);
}

function headBox(event, l, h, heads, outlined) {
  const canvas = el("canvas", { className: "ae-lab-head" });
  paint(canvas, event.probe[l][h]);
  const score = Math.round(event.induction[l][h] * 100);
  canvas.setAttribute(
    "aria-label",
    `L${l} H${h}: induction ${score}%, previous token ` +
      `${Math.round(event.previous_token[l][h] * 100)}%`,
  );
  const name = el("span", {}, `L${l} H${h} · ${score}%`);
  name.style.color = headColour(l, h, heads);
  return el(
    "figure",
    { className: "ae-lab-head-box" + (outlined ? " ae-lab-best" : "") },
    canvas,
    el("figcaption", {}, name),
  );
}

export function makeHeads() {
  const caption = el("p", { className: "ae-lab-caption" });
  const rows = el("div", { className: "ae-lab-heads-rows" });
  const element = el("div", { className: "ae-lab-heads", id: "lab-heads" }, caption, rows);

  function draw(event, layers, heads) {
    if (!event || !event.probe) return;
    const [bl, bh] = best(event.induction);
    caption.textContent = WORDS.caption
      .replace("{step}", String(event.step))
      .replace("{layer}", String(bl))
      .replace("{head}", String(bh));
    const row = (l) =>
      el(
        "div",
        { className: "ae-lab-heads-row" },
        ...Array.from({ length: heads }, (_, h) =>
          headBox(event, l, h, heads, l === bl && h === bh),
        ),
      );
    rows.replaceChildren(...Array.from({ length: layers }, (_, l) => row(l)));
  }
  function clear() {
    caption.textContent = "";
    rows.replaceChildren();
  }
  return { element, draw, clear };
}
