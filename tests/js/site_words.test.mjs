// The static edition's pure pieces (static/site/words.js, step_link.js): a step's link read
// as the full app reads ?step=N (static/start_link.js: the first three characters, clamped,
// an unreadable N is step 1), the sentences the steps' figures say about their numbers (the
// Ablate view's guess_change, plain_number, the shuffle test's readings, the patching
// heatmap's top cells), and the shuffled sentence written as words.
import assert from "node:assert/strict";
import { test } from "node:test";
import { stepIndex, stepQuery } from "../../static/site/step_link.js";
import {
  guessChange,
  headsLabel,
  noShares,
  patchReading,
  percent,
  plainNumber,
  shuffledWords,
  shuffleReading,
} from "../../static/site/words.js";

test("?step=N opens step N as the app reads it", () => {
  const cases = [
    ["", null],
    ["?x=1", null],
    ["?step=1", 0],
    ["?step=3", 2],
    ["?step=9", 8],
    ["?step=10", 8],
    ["?step=0", 0],
    ["?step=-4", 0],
    ["?step=abc", 0],
    ["?step=", 0],
    ["?step=4abc", 3],
    ["?step=0004", 0], // the first three characters: "000"
    ["?x=2&step=5", 4],
  ];
  for (const [search, want] of cases) assert.equal(stepIndex(search, 9), want, search);
  assert.equal(stepQuery("", 0), "?step=1");
  assert.equal(stepQuery("?step=3&x=y", 7), "?step=8&x=y");
});

test("the guess change says what took the top guess's place", () => {
  const show = (s) => s.replace(/ /g, "␣");
  const same = { was: " coat", wasOn: 0.634, wasOff: 0.41, now: " coat", nowOff: 0.41 };
  assert.equal(
    guessChange(same, [[3, 2]], show),
    "Top guess still “␣coat”: 63% → 41% with L3 H2 off.",
  );
  const changed = { was: " coat", wasOn: 0.634, wasOff: 0.02, now: " spoon", nowOff: 0.215 };
  assert.equal(
    guessChange(
      changed,
      [
        [3, 2],
        [0, 1],
      ],
      show,
    ),
    "Top guess “␣coat”: 63% → 2% with L0 H1, L3 H2 off; now “␣spoon” is the top guess, at 22%.",
  );
  assert.equal(
    headsLabel([
      [2, 0],
      [1, 3],
      [1, 1],
    ]),
    "L1 H1, L1 H3, L2 H0",
  );
  assert.equal(percent(0.005), "1%");
});

test("plain_number's sizes", () => {
  const cases = [
    [0, "0"],
    [0.00005, "less than 0.0001"],
    [0.0001234, "0.00012"],
    [0.5, "0.5"],
    [0.123456, "0.12"],
    [-0.987, "0.99"],
    [12.34, "12"],
    [1234.5, "1,235"],
    [Infinity, "∞"],
  ];
  for (const [v, want] of cases) assert.equal(plainNumber(v), want, String(v));
});

test("the shuffle test's reading picks the view's words by the bar", () => {
  const said = { none: "one word", same: "the same", changed: "changed by {diff}", bar: 1e-4 };
  const r = { perm: [1, 0], layer: 0, head: 1, tokens: ["a", " b"], topChanged: 0 };
  assert.deepEqual(shuffleReading(said, { ...r, perm: null }), ["one word", ""]);
  const [same, numbers] = shuffleReading(said, { ...r, maxDiffHead: 0, maxDiffAll: 5e-5 });
  assert.equal(same, "the same");
  assert.equal(
    numbers,
    "Largest difference for layer 0, head 1: 0; over every head: less than 0.0001. " +
      "The top guess changed at 0 of 2 tokens (compared token by token).",
  );
  const [changed] = shuffleReading(said, { ...r, maxDiffHead: 0.2, maxDiffAll: 0.23456 });
  assert.equal(changed, "changed by 0.235");
});

test("the shuffled sentence as words", () => {
  const tokens = ["The", " dog", " chased", " the", " cat", "."];
  assert.equal(shuffledWords({ tokens, perm: [2, 0, 1, 3, 4, 5] }), "chased The dog the cat.");
  assert.equal(shuffledWords({ tokens, perm: [0, 3, 4, 5, 1, 2] }), "The the cat. dog chased");
});

test("the patching heatmap's reading names its top two cells", () => {
  const r = {
    heads: [
      [0.01, 0.22],
      [0.73, 1.0],
    ],
    answerToken: " bell",
    wrongToken: ":",
    ld_clean: 3.2,
    ld_corrupt: 2.5,
  };
  const show = (s) => s.replace(/ /g, "␣");
  assert.equal(
    patchReading(r, show),
    "Top cell: L1 H1 restores 100% of the difference between the scores of “␣bell” and “:”; " +
      "next comes L1 H0 with 73%.",
  );
  assert.match(noShares(r, show), /by 3\.20 and the copy by 2\.50, less than 1 apart/);
});
