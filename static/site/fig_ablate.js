// Step 3's figure (the Ablate view's question, static/site/figures.js): the guesses with the
// heads ticked under "Switch heads off" (or clicked in the grid) before -> after, the
// sentence under them saying which token took the top guess's place, the sentence's loss
// both ways (engine.ablate: explorer/views/ablate.py's numbers), and the ranking: every
// head switched off alone, the largest loss rise first (engine.rank, computed once per
// sentence and knobs: it does not depend on the heads off).
//
//   <div class="ae-figure" id="ablate-figure">
//     <h3>Guesses…</h3> <ol id="ablate-predictions"> one row per guess: token, before → after
//     <p id="ablate-status"> the guess change and the loss
//     <h3>…each switched off alone</h3> <table id="ablate-ranking"> rank, head, rise, loss
import { engine, payload } from "../engine/index.js";
import { el, warning } from "./page_config.js";
import { guessChange, headsLabel, percent } from "./words.js";

const ROWS = 5; // guesses shown (the likeliest of both sides' top 8)
const RANKED = 6; // heads of the ranking shown

function guessRow(g, off) {
  const bar = (p, cls) => el("span", { className: "ae-bar " + cls, style: `width:${p * 100}%` });
  const numbers = off ? [percent(g.on), " → ", el("strong", {}, percent(g.off))] : [percent(g.on)];
  return el(
    "li",
    {},
    el("span", { className: "ae-token" }, "“" + payload.displayToken(g.token) + "”"),
    el(
      "span",
      { className: "ae-bars" },
      bar(g.on, "ae-before"),
      off ? bar(g.off, "ae-after") : null,
    ),
    el("span", { className: "ae-nums" }, ...numbers),
  );
}

function rankingTable(rank, off) {
  const offKeys = new Set(off.map(([l, h]) => l + "," + h));
  const head = el(
    "tr",
    {},
    ...["rank", "head", "loss rise", "loss without it"].map((t) => el("th", {}, t)),
  );
  const rows = rank.heads
    .slice(0, RANKED)
    .map((r, i) =>
      el(
        "tr",
        { "data-head": r.layer + "," + r.head },
        el("td", {}, String(i + 1)),
        el(
          "td",
          {},
          "L" + r.layer + " H" + r.head + (offKeys.has(r.layer + "," + r.head) ? " (off)" : ""),
        ),
        el("td", {}, (r.delta >= 0 ? "+" : "") + r.delta.toFixed(3)),
        el("td", {}, r.loss.toFixed(3)),
      ),
    );
  return [el("thead", {}, head), el("tbody", {}, ...rows)];
}

function lossLine(a) {
  if (a.lossOn == null) return "⚠️ " + a.how;
  if (!a.headsOff.length) return `Loss (${a.how}): ${a.lossOn.toFixed(3)} with every head on.`;
  const rise = a.lossOff - a.lossOn;
  return (
    `Loss (${a.how}): all heads on ${a.lossOn.toFixed(3)} → with ${headsLabel(a.headsOff)} off ` +
    `${a.lossOff.toFixed(3)} (${rise >= 0 ? "+" : ""}${rise.toFixed(3)}).`
  );
}

// the figure's markup, in holder: its parts by name
function build(holder) {
  const parts = {
    title: el("h3", {}),
    rows: el("ol", { id: "ablate-predictions", className: "ae-guess-rows" }),
    change: el("p", { id: "ablate-status" }),
    loss: el("p", { className: "ae-muted" }),
    table: el("table", { id: "ablate-ranking", className: "ae-table" }),
    rankIntro: el("p", { className: "ae-muted" }),
  };
  parts.element = el(
    "div",
    { className: "ae-figure", id: "ablate-figure" },
    parts.title,
    parts.rows,
    parts.change,
    parts.loss,
    el("h3", {}, "Which heads matter for this sentence: each switched off alone"),
    parts.table,
    parts.rankIntro,
  );
  holder.appendChild(parts.element);
  return parts;
}

function draw(parts, a, rank) {
  const off = a.headsOff.length > 0;
  parts.title.textContent = off ? "Guesses: before → after" : "Guesses, all heads on";
  parts.rows.replaceChildren(...a.guesses.slice(0, ROWS).map((g) => guessRow(g, off)));
  parts.change.textContent = !a.top
    ? ""
    : off
      ? guessChange(a.top, a.headsOff, payload.displayToken)
      : "Tick a head under Switch heads off, or click its square in the grid, to switch it off.";
  parts.loss.textContent = lossLine(a);
  parts.table.replaceChildren(...(rank.base == null ? [] : rankingTable(rank, a.headsOff)));
  parts.rankIntro.textContent =
    rank.base == null
      ? "⚠️ " + rank.how
      : `Loss = ${rank.how}; with every head on it is ${rank.base.toFixed(3)}. A big rise ` +
        "when a head is removed = the model needed that head here.";
}

function failed(parts, e) {
  parts.rows.replaceChildren();
  parts.table.replaceChildren();
  parts.change.textContent = warning(e.message);
  parts.loss.textContent = parts.rankIntro.textContent = "";
}

export function make(holder, { engineKnobs, record }) {
  const parts = build(holder);
  let ranked = { key: null, rank: null }; // the ranking of the last sentence and knobs

  async function update(ctx) {
    try {
      const k = await engineKnobs(ctx, { headsOff: ctx.headsOff });
      const text = ctx.knobs.text;
      const a = await engine.ablate(text, k);
      const key = JSON.stringify([text, k.model, k.causal, k.scale, k.temperature]);
      if (ranked.key !== key) ranked = { key, rank: await engine.rank(text, k) };
      if (!ctx.fresh()) return;
      draw(parts, a, ranked.rank);
      const { base, heads } = ranked.rank;
      const { headsOff, guesses, top, lossOn, lossOff } = a;
      const ranking = heads.slice(0, RANKED);
      record({ ok: true, headsOff, guesses, top, lossOn, lossOff, base, ranking });
    } catch (e) {
      if (!ctx.fresh()) return;
      failed(parts, e);
      record({ ok: false, error: e.message });
    }
  }
  return { element: parts.element, update };
}
