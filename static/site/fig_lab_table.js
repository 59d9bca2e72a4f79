// Step 9's table (static/site/fig_lab.js): this browser's finished runs, kept in its
// localStorage (nothing leaves the device), newest first, at most KEEP. The headings and the
// "yes, step N" / "no" cells are the app's class table's (explorer/views/lab.py class_table,
// through explorer/site/lab_words.py), with one column of our own: how long the run took on
// this device. Every cell is built with textContent; a stored row is read back as numbers
// and the choices the Lab has (a row that is not one is dropped).
//
//   makeTable() -> {element, add(summary), rows() -> [row]}
//   a row: {layers, heads, pos, mlp, norm, lr, seed, steps, formed, formed_at_step,
//           best_induction, best_previous_token, seconds}
import { CONFIG, el } from "./page_config.js";

const KEY = "attention-explorer lab runs";
const KEEP = 50;
const WORDS = CONFIG.lab.table;
const POSITIONS = ["none", "sinusoidal", "learned", "rotary", "alibi"];
const num = (v) => (Number.isFinite(Number(v)) ? Number(v) : null);

// a stored row as plain numbers and choices, or null
function clean(r) {
  if (!r || typeof r !== "object" || !POSITIONS.includes(r.pos)) return null;
  const row = { pos: r.pos, mlp: r.mlp === true, norm: r.norm === true, formed: r.formed === true };
  for (const k of ["layers", "heads", "lr", "seed", "steps", "best_induction"]) row[k] = num(r[k]);
  for (const k of ["best_previous_token", "seconds", "formed_at_step"]) row[k] = num(r[k]);
  const needed = ["layers", "heads", "lr", "seed", "steps", "best_induction"];
  return needed.some((k) => row[k] == null) ? null : row;
}

function load() {
  try {
    const rows = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(rows) ? rows.map(clean).filter(Boolean).slice(-KEEP) : [];
  } catch {
    return []; // storage refused (a private window) or damaged: an empty table
  }
}

function save(rows) {
  try {
    localStorage.setItem(KEY, JSON.stringify(rows.slice(-KEEP)));
  } catch {
    // storage full or refused: the table lasts as long as the page
  }
}

const pct = (v) => (v == null ? "–" : Math.round(v * 100) + "%");

function cells(r) {
  const formed = r.formed
    ? el("strong", {}, WORDS.yes.replace("{step}", String(r.formed_at_step)))
    : WORDS.no;
  return [
    `${r.layers} × ${r.heads}`,
    r.pos,
    r.mlp ? "yes" : "no",
    r.norm ? "yes" : "no",
    String(r.lr),
    String(r.seed),
    String(r.steps),
    formed,
    pct(r.best_induction),
    pct(r.best_previous_token),
    r.seconds == null ? "–" : r.seconds.toFixed(0) + " s",
  ];
}

export function makeTable() {
  let rows = load();
  const body = el("tbody");
  const headings = [...WORDS.headings, "time here"].map((h) => el("th", { scope: "col" }, h));
  const table = el(
    "table",
    { className: "ae-lab-table" },
    el("thead", {}, el("tr", {}, ...headings)),
    body,
  );
  const empty = el("p", { className: "ae-muted" }, WORDS.empty);
  const element = el("div", { className: "ae-lab-table-box", id: "lab-table" }, empty, table);

  function render() {
    empty.hidden = rows.length > 0;
    table.hidden = rows.length === 0;
    body.replaceChildren(
      ...[...rows].reverse().map((r) => el("tr", {}, ...cells(r).map((c) => el("td", {}, c)))),
    );
  }

  /** A finished run's summary (static/lab/train.js's) into the table. */
  function add(summary) {
    const s = summary.settings;
    const row = clean({
      ...s,
      steps: summary.steps,
      formed: summary.formed,
      formed_at_step: summary.formed_at_step,
      best_induction: summary.best_induction,
      best_previous_token: summary.best_previous_token,
      seconds: summary.wall_s,
    });
    if (!row) return;
    rows = [...load(), row].slice(-KEEP); // another tab's runs kept too
    save(rows);
    render();
  }
  render();
  return { element, add, rows: () => rows };
}
