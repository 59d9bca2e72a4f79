// A step's figure: what the static page draws for the view the step opens (the step's
// `figure`, explorer/site/config.py FIGURES), under the sentence box, computed with the
// browser's engine. Each kind is its own module, made once when a step first needs it:
//
//   make(holder, tools) -> {element, update(ctx), key()?, show()?, hide()?}
//     element   its own markup (built with textContent: no user text as HTML), in holder
//     update    draw for ctx = {knobs, headsOff, fresh()} (static/site/loop.js), and record
//               the numbers drawn (record(); tests read window.AttentionExplorer.site)
//     key       what else its answer depends on (its own box, a cell clicked)
//     show/hide called as its step is shown and left
//
// "large" (Explore's large head over the grid) and "app" (the full app's views) have none.
import { AE } from "../engine/index.js";
import { make as ablate } from "./fig_ablate.js";
import { make as compare } from "./fig_compare.js";
import { make as lab } from "./fig_lab.js";
import { make as losses } from "./fig_losses.js";
import { make as patch } from "./fig_patch.js";
import { make as shuffle } from "./fig_shuffle.js";
import { make as snapshots } from "./fig_snapshots.js";

const MAKERS = { ablate, compare, lab, losses, patch, shuffle, snapshots };
const made = {};
// what each figure drew last: {kind: {drawn, ...numbers}} (read-only, for tests)
const shown = {};
AE.site = { shown };

export function record(kind, numbers) {
  shown[kind] = { drawn: ((shown[kind] && shown[kind].drawn) || 0) + 1, ...numbers };
}

/** The figure of `kind` (made in holder the first time), or null for a kind without one. */
export function figure(kind, holder, tools) {
  if (!MAKERS[kind]) return null;
  if (!made[kind]) {
    made[kind] = MAKERS[kind](holder, { ...tools, record: (n) => record(kind, n) });
    made[kind].kind = kind;
  }
  return made[kind];
}

/** Every figure made so far (to hide the others when a step shows one). */
export function madeFigures() {
  return Object.values(made);
}
