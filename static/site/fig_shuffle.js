// Step 5's figure (the Positional encodings view's word-shuffle test, static/site/
// figures.js): the sentence's words shuffled, the model reading both orders with the causal
// mask off, and the shuffled attention put back in the original order to compare
// (engine.shuffle: explorer/analysis/positional_views.py's shuffle_from_ids, the same
// order numpy's generator gives). Drawn as three one-head panels of the grid renderer for
// the head the knobs point at: the difference (its size, in percentage points of
// attention), the sentence as typed, the words as the model read them shuffled; then the
// reading in the view's words (CONFIG.shuffleWords) and its numbers.
//
//   <div class="ae-figure" id="shuffle-figure">
//     <p id="pe-shuffle-order"> the shuffled words
//     <div class="ae-panels"> #pe-shuffle-difference, #pe-shuffle-original, #pe-shuffle-shuffled
//     <p id="pe-shuffle-summary"> the reading and the numbers
// (The elem ids are the app's, so the step's `hidden` selectors cover the same figures.)
import { engine } from "../engine/index.js";
import { matrixPayload, mountGrid } from "./grids.js";
import { CONFIG, el, warning } from "./page_config.js";
import { plainNumber, shuffledWords, shuffleReading } from "./words.js";

function panel(id, title) {
  const holder = el("div", { className: "ae-panel", id }, el("h3", {}, title));
  return { holder, grid: mountGrid(holder, "head") };
}

// the figure's markup, in holder: its parts by name
function build(holder) {
  const parts = {
    order: el("p", { id: "pe-shuffle-order" }),
    diff: panel("pe-shuffle-difference", "Difference"),
    original: panel("pe-shuffle-original", "Your sentence"),
    shuffled: panel("pe-shuffle-shuffled", "Words shuffled"),
    summary: el("div", { id: "pe-shuffle-summary" }),
  };
  const { order, diff, original, shuffled, summary } = parts;
  parts.panels = el(
    "div",
    { className: "ae-panels" },
    diff.holder,
    original.holder,
    shuffled.holder,
  );
  parts.element = el(
    "div",
    { className: "ae-figure", id: "shuffle-figure" },
    order,
    parts.panels,
    summary,
  );
  holder.appendChild(parts.element);
  return parts;
}

function drawPanels({ order, diff, original, shuffled }, r) {
  const at = [r.layer, r.head],
    where = `layer ${r.layer}, head ${r.head}, mask off`;
  const gap = r.original.map((row, q) => row.map((v, k) => Math.abs(v - r.restored[q][k])));
  const largest = Math.max(0, ...gap.flat());
  const what = "Your sentence − shuffled (put back in your order), its size; largest ";
  diff.grid.draw(matrixPayload(gap, r.tokens, at, what + plainNumber(largest)));
  original.grid.draw(matrixPayload(r.original, r.tokens, at, "As typed · " + where));
  const read = "The same words in a new order, as the model read them";
  shuffled.grid.draw(matrixPayload(r.shuffled, r.shuffledTokens, at, read));
  order.textContent = "Shuffled: " + shuffledWords(r);
}

function draw(parts, r) {
  parts.panels.hidden = !r.perm;
  if (r.perm) drawPanels(parts, r);
  else parts.order.textContent = "";
  const lines = shuffleReading(CONFIG.shuffleWords, r);
  parts.summary.replaceChildren(...lines.filter(Boolean).map((t) => el("p", {}, t)));
}

export function make(holder, { engineKnobs, record }) {
  const parts = build(holder);

  async function update(ctx) {
    try {
      const k = await engineKnobs(ctx);
      const r = await engine.shuffle(ctx.knobs.text, { ...k, seed: 0 });
      if (!ctx.fresh()) return;
      draw(parts, r);
      const { perm, layer, head, maxDiffHead, maxDiffAll, topChanged, shuffledTokens } = r;
      record({ ok: true, perm, layer, head, maxDiffHead, maxDiffAll, topChanged, shuffledTokens });
    } catch (e) {
      if (!ctx.fresh()) return;
      parts.panels.hidden = true;
      parts.order.textContent = "";
      parts.summary.replaceChildren(el("p", {}, warning(e.message)));
      record({ ok: false, error: e.message });
    }
  }
  return { element: parts.element, update };
}
