// Step 9's chart (static/site/fig_lab.js): a Lab run's losses and every head's scores, drawn
// as the events arrive, as SVG (no library): two panels over the training step, as the app's
// Lab chart (explorer/figures/lab.py), but every head's curves in the lower one:
//
//   top:    the loss on the second copy and on the fresh tokens; chance dashed
//   bottom: each head's induction score (solid) and previous-token score (dashed), in the
//           head's colour; the "formed" bar (0.3) dotted; once a head formed, a dotted line
//           across both panels at that step, with "formed at step N"
//
//   makeChart() -> {element, draw(events, {steps, layers, heads, formedAt}), legend(...)}
//   events: static/lab/train.js's ({step, loss_copy, loss_fresh, induction and
//   previous_token [layer][head]}); steps: the run's planned steps (the x axis' end).
import { CONFIG, el, svgEl as svg, theme } from "./page_config.js";

// the drawing's width in its own units: its box's width in css px when drawn (so that its
// words are 12 px on a phone as on a laptop), within these bounds
const WIDTH = { least: 300, most: 760, before: 640 };
let W = WIDTH.before;
const PANEL = { left: 44, right: 10, top: 22, height: 120, gap: 40 };
const LOWER_TOP = PANEL.top + PANEL.height + PANEL.gap;
const H = LOWER_TOP + PANEL.height + 24;
const WORDS = CONFIG.lab;
const C = WORDS.colors[theme];

// the heads' colours: the theme's (Okabe-Ito) but the two the losses use, the black (or
// white) that is the text's and the grey that is chance's
const HEAD_COLOURS = [3, 4, 5, 6].map((i) => C.heads[i]);

/** The colour of head (l, h) in a model of `heads` heads a layer. */
export function headColour(l, h, heads) {
  return HEAD_COLOURS[(l * heads + h) % HEAD_COLOURS.length];
}

function scales(steps, top) {
  const x = (s) => PANEL.left + (s / Math.max(steps, 1)) * (W - PANEL.left - PANEL.right);
  const yLoss = (v) => PANEL.top + PANEL.height * (1 - Math.min(v, top) / top);
  const yScore = (v) => LOWER_TOP + PANEL.height * (1 - Math.max(0, Math.min(1, v)));
  return { x, yLoss, yScore };
}

function line(points, colour, dash = null, width = 2) {
  const attrs = { points: points.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ") };
  Object.assign(attrs, { fill: "none", stroke: colour, "stroke-width": width });
  if (dash) attrs["stroke-dasharray"] = dash;
  return svg("polyline", attrs);
}

function label(x, y, text, anchor = "end", colour = C.font) {
  return svg("text", { x, y, "text-anchor": anchor, fill: colour, "font-size": 12 }, text);
}

// the two panels' frames, titles, ticks and references (chance, the bar)
function frame(g, s, steps, top) {
  const right = W - PANEL.right;
  for (const [y0, title] of [
    [PANEL.top, "Loss: second copy, fresh tokens"],
    [LOWER_TOP, "Every head's score, by training step"],
  ]) {
    const box = { x: PANEL.left, y: y0, width: right - PANEL.left, height: PANEL.height };
    g.append(svg("rect", { ...box, fill: "none", stroke: C.grid }));
    g.append(label(PANEL.left, y0 - 6, title, "start"));
  }
  g.append(label(PANEL.left - 4, s.yLoss(0) + 4, "0"));
  g.append(label(PANEL.left - 4, s.yLoss(top) + 10, top.toFixed(1)));
  for (const v of [0, 0.5, 1]) g.append(label(PANEL.left - 4, s.yScore(v) + 4, v * 100 + "%"));
  g.append(label(PANEL.left, H - 6, "step 0", "start", C.muted));
  g.append(label(right, H - 6, "step " + steps, "end", C.muted));
  const chance = WORDS.chance,
    bar = WORDS.formedBar;
  g.append(
    line(
      [
        [PANEL.left, s.yLoss(chance)],
        [right, s.yLoss(chance)],
      ],
      C.muted,
      "6 4",
      1.5,
    ),
  );
  g.append(
    line(
      [
        [PANEL.left, s.yScore(bar)],
        [right, s.yScore(bar)],
      ],
      C.font,
      "2 3",
      1.5,
    ),
  );
  g.append(label(right - 2, s.yScore(bar) - 4, `bar: formed (${bar * 100}%)`, "end", C.muted));
}

// the dotted line at the step a head formed, and its words on the side with room
function formedMark(g, s, formedAt, steps) {
  const x = s.x(formedAt),
    early = formedAt < steps / 2;
  g.append(
    line(
      [
        [x, PANEL.top],
        [x, LOWER_TOP + PANEL.height],
      ],
      C.accent,
      "3 3",
      2,
    ),
  );
  // in the gap between the panels, a line above the lower panel's title
  const words = label(x + (early ? 4 : -4), LOWER_TOP - 22, "formed at step " + formedAt);
  words.setAttribute("text-anchor", early ? "start" : "end");
  words.setAttribute("fill", C.accent);
  words.setAttribute("class", "ae-lab-formed-mark");
  g.append(words);
}

function curves(g, s, events, layers, heads) {
  const at = (key) => events.map((e) => [s.x(e.step), s.yLoss(e[key])]);
  g.append(line(at("loss_copy"), C.heads[0]), line(at("loss_fresh"), C.heads[1]));
  for (let l = 0; l < layers; l++) {
    for (let h = 0; h < heads; h++) {
      const colour = headColour(l, h, heads);
      const of = (key) => events.map((e) => [s.x(e.step), s.yScore(e[key][l][h])]);
      g.append(line(of("induction"), colour), line(of("previous_token"), colour, "5 3"));
    }
  }
}

// the legend: what each colour and dash is (built with textContent)
function legendItems(layers, heads) {
  const item = (colour, text, dash) => {
    const swatch = el("span", { className: "ae-lab-swatch" + (dash ? " ae-lab-dashed" : "") });
    swatch.style.borderTopColor = colour;
    return el("li", {}, swatch, text);
  };
  const items = [
    item(C.heads[0], "loss: second copy"),
    item(C.heads[1], "loss: fresh tokens"),
    item(C.muted, "chance", true),
  ];
  for (let l = 0; l < layers; l++) {
    for (let h = 0; h < heads; h++) items.push(item(headColour(l, h, heads), `L${l} H${h}`));
  }
  items.push(item(C.font, "solid: induction score"), item(C.font, "previous-token score", true));
  return items;
}

export function makeChart() {
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "ae-lab-chart" });
  root.setAttribute("aria-label", "The run's losses and every head's scores, by step");
  const legend = el("ul", { className: "ae-lab-legend" });
  const element = el("div", { className: "ae-lab-chart-box", id: "lab-chart" }, legend);
  element.prepend(root);

  function draw(events, { steps, layers, heads, formedAt = null }) {
    const box = element.clientWidth || WIDTH.before; // 0 while hidden
    W = Math.max(WIDTH.least, Math.min(WIDTH.most, box));
    root.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const top = Math.max(WORDS.chance * 1.15, ...events.map((e) => e.loss_copy || 0));
    const s = scales(steps, top);
    const g = svg("g");
    frame(g, s, steps, top);
    if (events.length) curves(g, s, events, layers, heads);
    if (formedAt != null) formedMark(g, s, formedAt, steps);
    root.replaceChildren(g);
    legend.replaceChildren(...legendItems(layers, heads));
  }
  return { element, draw };
}
