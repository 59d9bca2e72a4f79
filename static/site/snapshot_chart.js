// Step 7's chart (static/site/fig_snapshots.js), one SVG in two panels as the app's
// Through training chart (explorer/figures/layers_and_training.py training_chart): above,
// the training loss at each snapshot; below, the curves the step asks about: the best
// head's share on the previous word (solid), the best head's weight on the copy target when
// the sentence is said twice (dotted), and what spreading attention evenly would give
// (dashed). x: training tokens seen (log) over the whole run; every curve stops at the
// chosen snapshot (the rest of training is what the student predicts), a dotted line there.
// Text only through textContent; colours the page's CSS variables.
//
//   makeChart() -> {element, draw({snapshots [{tokens, train_loss}], current, prev [],
//                   copy [] | null, baseline}) -> {prev, copy} (the points drawn)}
import { svgEl as svg } from "./page_config.js";

const W = 640,
  LEFT = 52,
  RIGHT = 14;
const UPPER = [16, 104]; // the loss panel's top and bottom
const LOWER = [150, 262]; // the weights' panel
const COPY_COLOR = "#d97706";

function label(x, y, text, anchor = "end") {
  const style = { fill: "var(--muted)", fontSize: "15px" };
  return svg("text", { x, y, "text-anchor": anchor, style }, text);
}

// "10k", "1M": a power of ten of tokens
function tokensLabel(v) {
  if (v >= 1e6) return v / 1e6 + "M";
  if (v >= 1e3) return v / 1e3 + "k";
  return String(v);
}

// x of a token count on the run's log axis
function xScale(snapshots) {
  const logs = snapshots.map((s) => Math.log10(Math.max(s.tokens, 1)));
  const lo = Math.min(...logs),
    hi = Math.max(...logs);
  const span = hi - lo || 1;
  const x = (tokens) => LEFT + ((Math.log10(Math.max(tokens, 1)) - lo) / span) * (W - LEFT - RIGHT);
  return { x, lo, hi };
}

function axes(g, { x, lo, hi }, lossRange) {
  const line = { stroke: "var(--line)", strokeWidth: "1" };
  for (const [top, bottom] of [UPPER, LOWER]) {
    g.append(svg("line", { x1: LEFT, x2: W - RIGHT, y1: bottom, y2: bottom, style: line }));
    g.append(svg("line", { x1: LEFT, x2: LEFT, y1: top, y2: bottom, style: line }));
  }
  for (let p = Math.ceil(lo); p <= Math.floor(hi); p++) {
    g.append(label(x(10 ** p), LOWER[1] + 16, tokensLabel(10 ** p), "middle"));
  }
  g.append(label((LEFT + W - RIGHT) / 2, LOWER[1] + 38, "training tokens seen", "middle"));
  for (const v of [0, 0.5, 1]) {
    const y = LOWER[1] - v * (LOWER[1] - LOWER[0]);
    g.append(label(LEFT - 6, y + 4, Math.round(v * 100) + "%"));
  }
  const [a, b] = lossRange;
  g.append(label(LEFT - 6, UPPER[0] + 4, b.toFixed(1)));
  g.append(label(LEFT - 6, UPPER[1] + 4, a.toFixed(1)));
  g.append(label(LEFT, UPPER[0] - 4, "Loss (training)", "start"));
  g.append(label(LEFT, LOWER[0] - 6, "Best head's weight", "start"));
}

// a curve's polyline and dots (the chosen snapshot's larger), up to `upto`
function curve(g, xs, ys, upto, color, dash, name) {
  const points = [];
  for (let i = 0; i <= upto; i++) if (ys[i] != null) points.push([xs[i], ys[i], i]);
  if (!points.length) return 0;
  const style = { stroke: color, strokeWidth: "2.5", fill: "none" };
  if (dash) style.strokeDasharray = dash;
  g.append(
    svg("polyline", { points: points.map((p) => p.slice(0, 2).join(",")).join(" "), style }),
  );
  for (const [x, y, i] of points) {
    const r = i === upto ? 5.5 : 3.5;
    g.append(svg("circle", { cx: x, cy: y, r, "data-curve": name, style: { fill: color } }));
  }
  return points.length;
}

/** The chart (see the header). */
export function makeChart() {
  const element = svg("svg", {
    id: "snapshot-chart",
    viewBox: `0 0 ${W} ${LOWER[1] + 46}`,
    role: "img",
    style: { width: "100%", maxWidth: W + "px", height: "auto", display: "block" },
  });
  const title = svg("title");

  function draw({ snapshots, current, prev, copy, baseline }) {
    const scale = xScale(snapshots);
    const losses = snapshots.map((s) => s.train_loss).filter((v) => v != null);
    const lossRange = [Math.floor(Math.min(...losses, 0)), Math.ceil(Math.max(...losses, 1))];
    const g = svg("g");
    axes(g, scale, lossRange);
    const xs = snapshots.map((s) => scale.x(s.tokens));
    const yLoss = (v) =>
      v == null ? null : UPPER[1] - ((v - lossRange[0]) / (lossRange[1] - lossRange[0])) * 88;
    const yWeight = (v) => (v == null ? null : LOWER[1] - v * (LOWER[1] - LOWER[0]));
    const here = { stroke: "var(--accent)", strokeWidth: "1.5", strokeDasharray: "2 3" };
    g.append(
      svg("line", { x1: xs[current], x2: xs[current], y1: UPPER[0], y2: LOWER[1], style: here }),
    );
    const even = { stroke: "var(--muted)", strokeWidth: "1.5", strokeDasharray: "8 5" };
    const yb = yWeight(baseline);
    g.append(
      svg("line", { x1: LEFT, x2: W - RIGHT, y1: yb, y2: yb, "data-curve": "even", style: even }),
    );
    curve(
      g,
      xs,
      snapshots.map((s) => yLoss(s.train_loss)),
      current,
      "var(--fg)",
      null,
      "loss",
    );
    const drawn = {
      prev: curve(g, xs, prev.map(yWeight), current, "var(--accent)", null, "prev"),
      copy: copy ? curve(g, xs, copy.map(yWeight), current, COPY_COLOR, "2 5", "copy") : 0,
    };
    title.textContent =
      "Training loss above; below, the best head's share on the previous word (solid) and " +
      "its weight on the copy (dotted), up to the chosen snapshot.";
    element.replaceChildren(title, g);
    return drawn;
  }
  return { element, draw, copyColor: COPY_COLOR };
}
