// Step 8's figure (the Patch view's question, static/site/figures.js): your sentence (the
// page's sentence box) and its copy with one word changed (this figure's own box), every
// head of the copy's run patched alone from your sentence's run (engine.patch:
// explorer.analysis.patching.patch), drawn as a heatmap: a table, one row per layer, one
// cell per head, coloured by the share of the difference it brings back. A click on a cell
// patches that head and shows the guesses corrupted → patched (the best head until then).
//
//   <div class="ae-figure" id="patch-figure">
//     <div id="patch-pair"> <label> the copy <textarea id="corrupt-box">
//     <p id="patch-status">   <div id="patch-heads"> <table class="ae-heatmap">
//     <p id="patch-reading">  <div id="patch-guesses"> <h3> <ol> token, corrupted → patched
// (The elem ids are the app's, so the step's `hidden` selectors cover the same figures.)
import { engine, payload } from "../engine/index.js";
import { palette } from "../grid_draw.js";
import { $, colors, el, warning } from "./page_config.js";
import { noShares, patchReading, percent } from "./words.js";

const COLOURS = palette(colors.scale);
const GUESSES = 5;

// one cell of the heatmap: a button (a click patches that head), coloured by its share
function cell(share, l, h, chosen, choose) {
  const v = Math.round(Math.min(Math.max(share, 0), 1) * 100);
  const [r, g, b] = [0, 1, 2].map((i) => COLOURS[v * 3 + i]);
  const light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 140;
  const button = el(
    "button",
    {
      type: "button",
      "aria-pressed": String(chosen),
      "aria-label": `L${l} H${h}: ${percent(share)}`,
    },
    percent(share),
  );
  button.style.background = `rgb(${r}, ${g}, ${b})`;
  button.style.color = light ? "#111" : "#fff";
  button.addEventListener("click", () => choose(l, h));
  return el("td", { "data-head": l + "," + h }, button);
}

function heatmap(r, choose) {
  const heads = r.heads[0].length;
  const top = el(
    "tr",
    {},
    el("th", {}),
    ...Array.from({ length: heads }, (_, h) => el("th", {}, "H" + h)),
  );
  const rows = r.heads.map((row, l) =>
    el(
      "tr",
      {},
      el("th", {}, "L" + l),
      ...row.map((share, h) =>
        cell(share, l, h, r.patched.layer === l && r.patched.head === h, choose),
      ),
    ),
  );
  return el("table", { className: "ae-heatmap" }, el("thead", {}, top), el("tbody", {}, ...rows));
}

function guessRows(r) {
  return r.guesses
    .slice(0, GUESSES)
    .map((g) =>
      el(
        "li",
        {},
        el("span", { className: "ae-token" }, "“" + payload.displayToken(g.token) + "”"),
        el(
          "span",
          { className: "ae-nums" },
          percent(g.corrupted),
          " → ",
          el("strong", {}, percent(g.patched)),
        ),
      ),
    );
}

// the figure's markup, in holder: its parts by name
function build(holder) {
  const box = el("textarea", { id: "corrupt-box", rows: 2, maxLength: 10000, spellcheck: false });
  const label = el("label", { htmlFor: "corrupt-box" }, "The copy, one word changed");
  const parts = {
    box,
    pair: el("div", { id: "patch-pair" }, label, box),
    status: el("p", { id: "patch-status", className: "ae-muted" }),
    heads: el("div", { id: "patch-heads" }),
    reading: el("p", { id: "patch-reading" }),
    guessTitle: el("h3", {}),
    guessList: el("ol", { className: "ae-guess-rows ae-no-bars" }),
  };
  parts.guesses = el("div", { id: "patch-guesses" }, parts.guessTitle, parts.guessList);
  const { pair, status, heads, reading, guesses } = parts;
  parts.element = el(
    "div",
    { className: "ae-figure", id: "patch-figure" },
    pair,
    status,
    heads,
    reading,
    guesses,
  );
  holder.appendChild(parts.element);
  return parts;
}

function draw(parts, r, choose) {
  const show = payload.displayToken;
  parts.status.textContent =
    `The guess for your sentence is “${show(r.answerToken)}”; for the copy the ` +
    `competitor is “${show(r.wrongToken)}”.`;
  const shares = r.heads != null;
  parts.heads.replaceChildren(...(shares ? [heatmap(r, choose)] : []));
  parts.reading.textContent = shares ? patchReading(r, show) : noShares(r, show);
  parts.guesses.hidden = !shares;
  if (!shares) return;
  const { layer, head } = r.patched;
  parts.guessTitle.textContent = `Guesses: the copy → with L${layer} H${head} patched`;
  parts.guessList.replaceChildren(...guessRows(r));
}

function failed(parts, e) {
  parts.heads.replaceChildren();
  parts.status.textContent = warning(e.message);
  parts.reading.textContent = "";
  parts.guesses.hidden = true;
}

export function make(holder, { engineKnobs, record, step, kick }) {
  const parts = build(holder);
  let chosen = null; // the cell clicked: {layer, head}
  parts.box.addEventListener("input", () => ((chosen = null), kick()));
  const choose = (layer, head) => ((chosen = { layer, head }), kick());

  async function update(ctx) {
    try {
      const k = await engineKnobs(ctx);
      if (chosen && chosen.head >= Number(ctx.knobs.heads)) chosen = null; // a smaller model
      const r = await engine.patch(ctx.knobs.text, parts.box.value, { ...k, patchHead: chosen });
      if (!ctx.fresh()) return;
      draw(parts, r, choose);
      const { heads, patched, guesses, answerToken: answer, wrongToken: wrong } = r;
      record({ ok: true, heads, patched, guesses, answer, wrong });
    } catch (e) {
      if (!ctx.fresh()) return;
      failed(parts, e);
      record({ ok: false, error: e.message });
    }
  }
  function show() {
    parts.box.value = (step() && step().own.corrupt) || parts.box.value;
    chosen = null;
    $("sentence-label").textContent = "Your sentence";
  }
  const hide = () => ($("sentence-label").textContent = "Sentence");
  return { element: parts.element, update, key: () => [parts.box.value, chosen], show, hide };
}
