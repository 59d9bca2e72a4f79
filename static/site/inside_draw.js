// Inside one head's heatmaps (static/site/inside.js draws every stage with them): one stage
// of static/engine/stages.js (values: Float32Array [rows * cols] row-major; shape [rows,
// cols]; dims, the axes' names; square: a [query, key] matrix; blocked: [query][key]
// booleans on masked and pattern; headColumns: [start, stop) on concat) drawn on a canvas as
// explorer/figures/matrices.py stage_figure draws it in the app: every stage on the
// diverging scale, symmetric about 0, but the attention pattern, on the weights' scale 0..1
// (the grid's); blocked cells grey, saying "−∞" (masked) or "0" (pattern) while they are
// large enough; rows labelled with the tokens, and the columns too on a square stage; on
// concat, this head's columns outlined and a dotted line between heads. Pure functions but
// drawStage, which draws only on the 2D context it is handed.
//
//   stageRange(stage) -> [lo, hi]                   the colour scale's ends
//   stageLayout(stage, width) -> g = {left, top, cw, ch, rows, cols, width, height, labels}
//   cellAt(g, x, y) -> [row, col] | null            css px in the canvas -> its cell
//   cellWords(stage, tokens, row, col, minusInf) -> "query 2 “cat” · key 1 “the” · score
//                                                   0.1234" (what a pointer on it reads)
//   drawStage(ctx, stage, tokens, g, colours)       colours: {paper, font, muted, accent,
//       scale (the weights'), diverging, masked, minusInf} (the page's configuration)
import { FONT, palette } from "../grid_draw.js";

const LABELS_LEFT = 70; // css px for the row labels (the grid's margin for tokens)
const KEYS_BELOW = 56; // css px for a square stage's key labels, slanted
const AXIS_BELOW = 18; // css px for a wide stage's column numbers
const MAX_SQUARE = 360; // css px: a square stage no wider than this
const MIN_LABELLED = 9; // css px: a row's label only when the row is this tall
// "−∞" written in the blocked cells while they are this large (css px) and at most this
// many a row (the app's MASK_TEXT_LIMIT)
const BLOCKED_TEXT_CELL = 20;
const BLOCKED_TEXT_ROWS = 14;

/** The colour scale's ends: 0..1 for the pattern, else ± the largest finite |value| (1
    when there is none), as the app's _symmetric_range. */
export function stageRange(stage) {
  if (stage.key === "pattern") return [0, 1];
  let peak = 0;
  for (const v of stage.values) if (Number.isFinite(v) && Math.abs(v) > peak) peak = Math.abs(v);
  if (!(peak > 0)) peak = 1;
  return [-peak, peak];
}

/** Where the cells go on a canvas `width` css px wide: square cells on a square stage (at
    most MAX_SQUARE wide), on a wide one as wide as the columns allow and rows 10 to 16 px
    (the stage about 240 px tall, taller for a long sentence). */
export function stageLayout(stage, width) {
  const [rows, cols] = stage.shape;
  const left = LABELS_LEFT,
    top = 2,
    right = 4;
  const room = Math.max(cols, width - left - right);
  let cw, ch, bottom;
  if (stage.square) {
    cw = ch = Math.min(room, MAX_SQUARE) / cols;
    bottom = KEYS_BELOW;
  } else {
    cw = room / cols;
    ch = Math.min(16, Math.max(10, 240 / Math.max(rows, 1)));
    bottom = AXIS_BELOW;
  }
  const height = Math.ceil(top + rows * ch + bottom);
  return {
    left,
    top,
    cw,
    ch,
    rows,
    cols,
    width: Math.ceil(left + cols * cw + right),
    height,
    labels: ch >= MIN_LABELLED,
  };
}

/** The cell under (x, y), css px from the canvas's top left corner, or null. */
export function cellAt(g, x, y) {
  const col = Math.floor((x - g.left) / g.cw),
    row = Math.floor((y - g.top) / g.ch);
  if (row < 0 || col < 0 || row >= g.rows || col >= g.cols) return null;
  return [row, col];
}

// the value's name in the app's hover (stage_figure's value_name)
function valueName(stage) {
  if (stage.key === "pattern") return "weight";
  return stage.square ? "score" : "value";
}

/** What a pointer on cell (row, col) reads: where it is (the tokens quoted) and its value
    to 4 decimals, or "masked: −∞" ("masked: 0" on the pattern) on a blocked cell. */
export function cellWords(stage, tokens, row, col, minusInf = "−∞") {
  const quoted = (i) => (tokens[i] == null ? "" : " “" + tokens[i] + "”");
  const place = stage.square
    ? `query ${row}${quoted(row)} · key ${col}${quoted(col)}`
    : `token ${row}${quoted(row)} · dimension ${col} (${stage.dims[1]})`;
  if (stage.blocked && stage.blocked[row][col]) {
    return `${place} · masked: ${stage.key === "pattern" ? "0" : minusInf}`;
  }
  const v = stage.values[row * stage.shape[1] + col];
  return `${place} · ${valueName(stage)} ${v.toFixed(4)}`;
}

// "rgb(r,g,b)" of each whole percent of a scale
function colourList(scale) {
  const p = palette(scale),
    out = [];
  for (let i = 0; i <= 100; i++) out.push(`rgb(${p[i * 3]},${p[i * 3 + 1]},${p[i * 3 + 2]})`);
  return out;
}

// every cell, rounded to whole device-independent pixels so that no seam shows
function drawCells(ctx, stage, g, colours) {
  const list = colourList(stage.key === "pattern" ? colours.scale : colours.diverging);
  const [lo, hi] = stageRange(stage);
  const xs = (c) => Math.round(g.left + c * g.cw),
    ys = (r) => Math.round(g.top + r * g.ch);
  const text = stage.key === "pattern" ? "0" : colours.minusInf;
  const big = g.cw >= BLOCKED_TEXT_CELL && g.cols <= BLOCKED_TEXT_ROWS;
  ctx.font = "11px " + FONT;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let r = 0; r < g.rows; r++) {
    for (let c = 0; c < g.cols; c++) {
      const x = xs(c),
        y = ys(r),
        w = xs(c + 1) - x,
        h = ys(r + 1) - y;
      if (stage.blocked && stage.blocked[r][c]) {
        ctx.fillStyle = colours.masked;
        ctx.fillRect(x, y, w, h);
        if (big) {
          ctx.fillStyle = colours.font;
          ctx.fillText(text, x + w / 2, y + h / 2);
        }
        continue;
      }
      const t = (stage.values[r * g.cols + c] - lo) / (hi - lo);
      ctx.fillStyle = list[Math.round(Math.min(1, Math.max(0, t)) * 100)];
      ctx.fillRect(x, y, w, h);
    }
  }
}

// the tokens left of the rows; under the columns, slanted, on a square stage, else the
// first and last column's numbers and the axis's name
function drawAxes(ctx, stage, tokens, g, colours) {
  ctx.fillStyle = colours.font;
  ctx.font = Math.max(9, Math.min(12, Math.floor(g.ch * 0.85))) + "px " + FONT;
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  if (g.labels) {
    for (let r = 0; r < g.rows; r++) {
      ctx.fillText(tokens[r] || String(r), g.left - 4, g.top + (r + 0.5) * g.ch, g.left - 6);
    }
  }
  const bottom = g.top + g.rows * g.ch + 4;
  if (stage.square) {
    if (g.cw < MIN_LABELLED) return;
    for (let c = 0; c < g.cols; c++) {
      ctx.save();
      ctx.translate(g.left + (c + 0.5) * g.cw, bottom);
      ctx.rotate(-Math.PI / 3);
      ctx.fillText(tokens[c] || String(c), 0, 0, KEYS_BELOW);
      ctx.restore();
    }
    return;
  }
  ctx.font = "10px " + FONT;
  ctx.fillStyle = colours.muted;
  ctx.textBaseline = "top";
  ctx.textAlign = "left";
  ctx.fillText("0", g.left, bottom - 2);
  ctx.textAlign = "right";
  ctx.fillText(String(g.cols - 1), g.left + g.cols * g.cw, bottom - 2);
  ctx.textAlign = "center";
  ctx.fillText(`dimension (${stage.dims[1]})`, g.left + (g.cols * g.cw) / 2, bottom - 2);
}

// concat: this head's columns outlined, a dotted line between heads
function drawHeads(ctx, stage, g, colours) {
  const [a, b] = stage.headColumns,
    width = b - a,
    h = g.rows * g.ch;
  ctx.save();
  ctx.strokeStyle = colours.font;
  ctx.lineWidth = 1;
  ctx.setLineDash([2, 3]);
  for (let c = width; c < g.cols; c += width) {
    ctx.beginPath();
    ctx.moveTo(g.left + c * g.cw, g.top);
    ctx.lineTo(g.left + c * g.cw, g.top + h);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.strokeStyle = colours.accent;
  ctx.lineWidth = 3;
  ctx.strokeRect(g.left + a * g.cw, g.top + 1, width * g.cw, h - 2);
  ctx.restore();
}

/** The stage drawn on ctx (css px: the caller has scaled it for the device's pixels). */
export function drawStage(ctx, stage, tokens, g, colours) {
  ctx.fillStyle = colours.paper;
  ctx.fillRect(0, 0, g.width, g.height);
  drawCells(ctx, stage, g, colours);
  drawAxes(ctx, stage, tokens, g, colours);
  if (stage.headColumns) drawHeads(ctx, stage, g, colours);
}
