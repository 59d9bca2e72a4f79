// Step 7's figure (the Through training view's question, static/site/figures.js): the
// default model at its training snapshots (CONFIG.snapshots, copied by explorer/site/
// build.py), computed in the browser (engine.snapshot, static/engine/snapshots.js:
// explorer.analysis.snapshots' numbers). A slider picks a snapshot; the status says its
// step, tokens seen and loss, its most previous-token-like head and its best copying head;
// the grid of every head at that snapshot (the grid renderer, static/site/grids.js); and the
// chart (snapshot_chart.js) with the two curves across the snapshots, up to the chosen one.
// The summary of the whole run (where each curve reaches half of its highest) gives the
// answer away: the step covers it until Reveal (its hidden selector #training-intro,
// config.py SAME_AS).
//
//   <div class="ae-figure" id="snapshots-figure">
//     <label for="snapshot-slider"> <input type="range" id="snapshot-slider">
//     <p id="snapshot-status"> <p id="snapshot-previous"> <p id="snapshot-copy">
//     <h3> <svg id="snapshot-chart"> <p id="snapshot-legend">
//     <p id="snapshots-summary"> the whole run in one sentence   <p> a note (other knobs)
//     <h3> <div id="snapshot-grid"> the grid of every head
import { engine, gridPayload } from "../engine/index.js";
import { mountGrid } from "./grids.js";
import { CONFIG, colors, el, theme, warning } from "./page_config.js";
import { makeChart } from "./snapshot_chart.js";
import { percent } from "./words.js";

const { model: MODEL, list: SNAPSHOTS } = CONFIG.snapshots;
const MODEL_KNOBS = ["objective", "heads", "pos"]; // set to the default model's

const number = (v) => Number(v).toLocaleString("en-US");

// "Snapshot 3 (0 = first, 9 = last)": explorer/views/through_training.py snapshot_words
function snapshotWords(i) {
  const n = SNAPSHOTS.length;
  return n > 1 ? `Snapshot ${i} (0 = first, ${n - 1} = last)` : `Snapshot ${i}`;
}

function statusLine(i) {
  const s = SNAPSHOTS[i];
  const loss = s.train_loss == null ? "" : ` · training loss ${s.train_loss.toFixed(2)}`;
  return `${snapshotWords(i)} of ${MODEL}: step ${number(s.step)} · ${number(s.tokens)} training tokens seen${loss}`;
}

function previousLine(r) {
  const p = r.previous;
  return (
    `Most previous-token-like head now: L${p.layer} H${p.head}, ${percent(p.share)} of its ` +
    `attention on the word just before (spreading evenly would give ${percent(r.baseline)}).`
  );
}

function copyLine(r) {
  if (!r.copy) return "Copying: this sentence is too short or too long to be said twice here.";
  const c = r.copy;
  return (
    `Copying now: on your sentence said twice, the best head, L${c.layer} H${c.head}, puts ` +
    `${percent(c.score)} of its attention on the word that came next last time.`
  );
}

// the whole run: where each curve first reaches half of its highest value (the answer;
// covered until Reveal)
function summary(prev, copy) {
  const rise = (ys) => {
    const top = Math.max(...ys.filter((v) => v != null));
    const i = ys.findIndex((v) => v != null && v >= top / 2);
    return `reaches half of its highest (${percent(top)}) at step ${number(SNAPSHOTS[i].step)}`;
  };
  return (
    `Across all ${SNAPSHOTS.length} snapshots: the solid previous-word curve ${rise(prev)}; ` +
    `the dotted copy curve ${copy ? rise(copy) : "has no value for this sentence"}.`
  );
}

function build(holder) {
  const slider = el("input", {
    type: "range",
    id: "snapshot-slider",
    min: "0",
    max: String(Math.max(SNAPSHOTS.length - 1, 0)),
    step: "1",
    value: "0",
    style: "width: min(100%, 28rem); vertical-align: middle",
  });
  const parts = {
    slider,
    status: el("p", { id: "snapshot-status" }),
    previous: el("p", { id: "snapshot-previous" }),
    copy: el("p", { id: "snapshot-copy" }),
    gridBox: el("div", { className: "ae-panel", id: "snapshot-grid" }),
    chart: makeChart(),
    summary: el("p", { id: "snapshots-summary" }),
    note: el("p", { className: "ae-muted" }),
  };
  const swatch = (color, line) => el("span", { style: `color:${color};font-weight:700` }, line);
  const legend = el(
    "p",
    { className: "ae-muted", id: "snapshot-legend" },
    swatch("var(--accent)", "━ "),
    "previous word: the best head's share on the word just before · ",
    swatch(parts.chart.copyColor, "┅ "),
    "copy: the best head's weight on the word that came next, the sentence said twice · ",
    swatch("var(--muted)", "╌ "),
    "spreading evenly",
  );
  parts.element = el(
    "div",
    { className: "ae-figure", id: "snapshots-figure" },
    el("label", { htmlFor: "snapshot-slider" }, "Training snapshot "),
    slider,
    parts.status,
    parts.previous,
    parts.copy,
    el("h3", {}, "Across training"),
    parts.chart.element,
    legend,
    parts.summary,
    parts.note,
    el("h3", {}, "Every head at this snapshot"),
    parts.gridBox,
  );
  holder.appendChild(parts.element);
  parts.grid = mountGrid(parts.gridBox, "explore");
  return parts;
}

// The chosen snapshot's numbers and grid (drawn), then every snapshot's numbers for the
// curves (engine.snapshot, cached by sentence, knobs and file): what record() keeps.
async function drawAll(parts, ctx, i, scores) {
  const defaults = Object.fromEntries(MODEL_KNOBS.map((k) => [k, CONFIG.defaults[k]]));
  const mine = { ...ctx, knobs: { ...ctx.knobs, ...defaults } };
  const { text, ...controls } = mine.knobs;
  const k = await parts.engineKnobs(mine);
  const now = await scores(text, k, i);
  const opts = { colors, theme, fetch: true, snapshot: SNAPSHOTS[i].file };
  const p = await gridPayload(text, controls, opts);
  if (!p || !p.ok) throw new Error((p && p.caption) || "The browser cannot compute this view.");
  if (!ctx.fresh()) return null;
  parts.status.textContent = statusLine(i);
  parts.previous.textContent = previousLine(now);
  parts.copy.textContent = copyLine(now);
  parts.grid.draw(p);
  const all = [];
  for (let j = 0; j < SNAPSHOTS.length; j++) all.push(await scores(text, k, j));
  if (!ctx.fresh()) return null;
  const prev = all.map((r) => r.previous.share);
  const copy = now.copy ? all.map((r) => (r.copy ? r.copy.score : null)) : null;
  const { baseline } = now;
  const points = parts.chart.draw({ snapshots: SNAPSHOTS, current: i, prev, copy, baseline });
  parts.summary.textContent = summary(prev, copy);
  const others = MODEL_KNOBS.some((key) => ctx.knobs[key] !== CONFIG.defaults[key]);
  parts.note.textContent = others
    ? `ℹ️ Training snapshots exist for ${MODEL} only: this figure shows it, whatever the ` +
      "Model / Heads / Positional knobs say."
    : "";
  const step = SNAPSHOTS[i].step;
  return {
    index: i,
    step,
    previous: now.previous,
    copy: now.copy,
    baseline,
    prev,
    copyTrend: copy,
    points,
  };
}

export function make(holder, { engineKnobs, record, kick }) {
  const parts = { ...build(holder), engineKnobs };
  let index = 0;
  const cache = new Map(); // [text, knobs, file] -> engine.snapshot's answer

  function setSlider(i) {
    index = i;
    parts.slider.value = String(i);
    const s = SNAPSHOTS[i];
    const said = `${snapshotWords(i)}: step ${number(s.step)}, ${number(s.tokens)} tokens seen`;
    parts.slider.setAttribute("aria-valuetext", said);
    parts.status.textContent = statusLine(i);
  }
  parts.slider.addEventListener("input", () => {
    setSlider(Number(parts.slider.value));
    kick();
  });

  async function scores(text, k, i) {
    const file = SNAPSHOTS[i].file;
    const key = JSON.stringify([text, k.causal, k.scale, k.temperature, file]);
    if (!cache.has(key)) cache.set(key, await engine.snapshot(text, { ...k, snapshot: file }));
    return cache.get(key);
  }

  async function update(ctx) {
    if (!SNAPSHOTS.length) {
      parts.status.textContent = warning("This copy of the page has no training snapshots.");
      record({ ok: false, error: "no snapshots" });
      return;
    }
    try {
      const numbers = await drawAll(parts, ctx, index, scores);
      if (numbers) record({ ok: true, ...numbers });
    } catch (e) {
      if (!ctx.fresh()) return;
      parts.previous.textContent = warning(e.message);
      parts.copy.textContent = "";
      record({ ok: false, error: e.message });
    }
  }

  return {
    element: parts.element,
    update,
    key: () => index,
    // a step starts at the first snapshot, almost untrained (start_here.py's own)
    show: () => SNAPSHOTS.length && setSlider(0),
  };
}
