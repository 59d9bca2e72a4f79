// The heads a payload names switched off (p.off) as panels of the grid drawn
// (static/grid_draw.js offPanels): every head of the model in a grid of every head, only
// its own head in one head drawn large (p.at), each once, in order; none without p.off.
import assert from "node:assert/strict";
import { test } from "node:test";
import { offPanels } from "../../static/grid_draw.js";

const grid = { layers: 4, heads: 4 };

test("a grid of every head dims exactly the heads switched off", () => {
  assert.deepEqual(offPanels(grid), []);
  assert.deepEqual(offPanels({ ...grid, off: [] }), []);
  const p = {
    ...grid,
    off: [
      [3, 2],
      [0, 1],
      [3, 2],
      ["1", "0"],
    ],
  };
  assert.deepEqual(offPanels(p), [
    [0, 1],
    [1, 0],
    [3, 2],
  ]);
});

test("heads outside the grid are not drawn off", () => {
  assert.deepEqual(
    offPanels({
      ...grid,
      off: [
        [4, 0],
        [0, 4],
        [-1, 0],
        [0, 0],
      ],
    }),
    [[0, 0]],
  );
});

test("one head drawn large is off only when that head is", () => {
  const large = { layers: 1, heads: 1, at: [3, 2] };
  assert.deepEqual(
    offPanels({
      ...large,
      off: [
        [3, 2],
        [0, 1],
      ],
    }),
    [[0, 0]],
  );
  assert.deepEqual(offPanels({ ...large, off: [[0, 1]] }), []);
});
