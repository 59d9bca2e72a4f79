// Inside one head's heatmaps on the static page (static/site/inside_draw.js), on stages
// shaped as static/engine/stages.js makes them: the colour scale's ends (the pattern on
// 0..1, the others symmetric about 0, −∞ left out), the cells' place (square cells on a
// square stage, inside the width), the cell under a pointer, what a pointer on a cell
// reads (its tokens, its value to 4 decimals, "masked" on a blocked cell), and the blocked
// cells drawn grey, every other cell in a colour of its scale.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  cellAt,
  cellWords,
  drawStage,
  stageLayout,
  stageRange,
} from "../../static/site/inside_draw.js";

const TOKENS = ["The", "␣cat", "␣sat"];
const CAUSAL = [0, 1, 2].map((i) => [0, 1, 2].map((j) => j > i));

function square(key, values) {
  const dims = ["query pos", "key pos"];
  const stage = { key, square: true, shape: [3, 3], dims, values: Float32Array.from(values) };
  if (key === "masked" || key === "pattern") stage.blocked = CAUSAL;
  return stage;
}

const MASKED = square("masked", [0.5, -Infinity, -Infinity, -2, 1, -Infinity, 0, 3, -1]);
const PATTERN = square("pattern", [1, 0, 0, 0.25, 0.75, 0, 0.2, 0.3, 0.5]);
const WIDE = {
  key: "q",
  square: false,
  shape: [3, 4],
  dims: ["pos", "d_head"],
  values: Float32Array.from([0.12345, -0.5, 0, 0, 1, 2, 3, 4, 0, 0, 0, -8]),
};

test("the colour scale: 0..1 for the pattern, else ± the largest finite |value|", () => {
  assert.deepEqual(stageRange(PATTERN), [0, 1]);
  assert.deepEqual(stageRange(MASKED), [-3, 3]); // −∞ is no value
  assert.deepEqual(stageRange(WIDE), [-8, 8]);
  assert.deepEqual(stageRange({ ...WIDE, values: new Float32Array(12) }), [-1, 1]);
});

test("the cells' place: square cells on a square stage, the width kept", () => {
  for (const width of [300, 500, 1000]) {
    const g = stageLayout(MASKED, width);
    assert.equal(g.cw, g.ch);
    assert.ok(g.width <= width && g.cw * 3 <= 360, JSON.stringify(g));
    const w = stageLayout(WIDE, width);
    assert.equal(w.width, width);
    assert.ok(w.ch >= 10 && w.ch <= 16 && w.labels);
  }
  // a matrix wider than the canvas still gets a pixel a column
  const many = { ...WIDE, shape: [3, 2000], values: new Float32Array(6000) };
  assert.ok(stageLayout(many, 390).cw >= 1);
});

test("the cell under a pointer, and none off the cells", () => {
  const g = stageLayout(MASKED, 400);
  const centre = (r, c) => [g.left + (c + 0.5) * g.cw, g.top + (r + 0.5) * g.ch];
  assert.deepEqual(cellAt(g, ...centre(0, 0)), [0, 0]);
  assert.deepEqual(cellAt(g, ...centre(2, 1)), [2, 1]);
  assert.equal(cellAt(g, g.left - 1, g.top + 1), null); // on the labels
  assert.equal(cellAt(g, g.left + 1, g.top + 3 * g.ch + 1), null); // under the cells
  assert.equal(cellAt(g, g.left + 3 * g.cw + 1, g.top + 1), null);
});

test("what a pointer on a cell reads: where, and the value to 4 decimals", () => {
  assert.equal(cellWords(MASKED, TOKENS, 1, 0), "query 1 “␣cat” · key 0 “The” · score -2.0000");
  assert.equal(cellWords(MASKED, TOKENS, 0, 2), "query 0 “The” · key 2 “␣sat” · masked: −∞");
  assert.equal(cellWords(PATTERN, TOKENS, 1, 1), "query 1 “␣cat” · key 1 “␣cat” · weight 0.7500");
  assert.equal(cellWords(PATTERN, TOKENS, 0, 1), "query 0 “The” · key 1 “␣cat” · masked: 0");
  assert.equal(
    cellWords(WIDE, TOKENS, 0, 0),
    "token 0 “The” · dimension 0 (d_head) · value 0.1235",
  );
  assert.equal(cellWords(WIDE, [], 2, 3), "token 2 · dimension 3 (d_head) · value -8.0000");
});

// a 2D context that keeps the colour of every rectangle filled
function recorder() {
  const fills = [];
  const ctx = {
    fillStyle: "",
    fillRect: (x, y, w, h) => fills.push({ x, y, w, h, colour: ctx.fillStyle }),
  };
  for (const name of ["fillText", "save", "restore", "translate", "rotate", "beginPath"]) {
    ctx[name] = () => {};
  }
  for (const name of ["moveTo", "lineTo", "stroke", "strokeRect", "setLineDash"]) {
    ctx[name] = () => {};
  }
  return { ctx, fills };
}

const COLOURS = {
  paper: "#ffffff",
  font: "#000000",
  muted: "#777777",
  accent: "#ff8800",
  masked: "#d0d4da",
  minusInf: "−∞",
  scale: [
    [0, "#000000"],
    [1, "#ffffff"],
  ],
  diverging: [
    [0, "#0000ff"],
    [0.5, "#ffffff"],
    [1, "#ff0000"],
  ],
};

test("blocked cells are drawn grey, the others in their scale's colours", () => {
  for (const stage of [MASKED, PATTERN]) {
    const { ctx, fills } = recorder();
    const g = stageLayout(stage, 400);
    drawStage(ctx, stage, TOKENS, g, COLOURS);
    const cells = fills.slice(1); // the paper first
    assert.equal(cells.length, 9);
    cells.forEach((f, i) => {
      const [r, c] = [Math.floor(i / 3), i % 3];
      assert.equal(f.colour === COLOURS.masked, c > r, `${stage.key} cell ${r},${c}`);
    });
    if (stage === PATTERN) {
      assert.equal(cells[0].colour, "rgb(255,255,255)"); // weight 1: the scale's top
      assert.equal(cells[6].colour, "rgb(51,51,51)"); // weight 0.2
    } else {
      assert.equal(cells[7].colour, "rgb(255,0,0)"); // 3, the largest: the top
      assert.equal(cells[8].colour, "rgb(168,168,255)"); // −1 of ±3: 33 % up the scale
    }
  }
});
