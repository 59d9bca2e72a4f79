// The static page's sentences about its figures' numbers: pure functions of the numbers
// (no DOM, no engine), so that Node tests them (tests/js/site_words.test.mjs). Where the app
// says the same thing its words are kept (explorer/views/ablate.py guess_change,
// explorer/figures/numbers.py plain_number, explorer/analysis/positional_views.py
// equivariance_gap: its readings come from the configuration, CONFIG.shuffleWords).
// A token is quoted as the grid labels it: display(token) is the engine's displayToken.
import { wordStarts } from "../engine/shuffle.js";

/** 0.634 -> "63%" (a probability or a share, whole percent). */
export function percent(p) {
  return Math.round(p * 100) + "%";
}

/** "L3 H2, L0 H1": heads by layer, then head, as the Ablate view names them. */
export function headsLabel(heads) {
  return [...heads]
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([l, h]) => "L" + l + " H" + h)
    .join(", ");
}

export function quoted(token, display = (s) => s) {
  return "“" + display(token) + "”";
}

/** guess_change: what switching `heads` off did to the top guess (top: engine.ablate's). */
export function guessChange(top, heads, display) {
  const off = headsLabel(heads);
  const was = quoted(top.was, display);
  if (top.was === top.now) {
    return `Top guess still ${was}: ${percent(top.wasOn)} → ${percent(top.wasOff)} with ${off} off.`;
  }
  return (
    `Top guess ${was}: ${percent(top.wasOn)} → ${percent(top.wasOff)} with ${off} off; ` +
    `now ${quoted(top.now, display)} is the top guess, at ${percent(top.nowOff)}.`
  );
}

const TINY = 1e-4;

/** plain_number: a size in ordinary decimals (2 significant digits), never e-notation. */
export function plainNumber(value, digits = 2) {
  const v = Math.abs(Number(value));
  if (v === 0) return "0";
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "not a number" : "∞";
  if (v < TINY) return "less than 0.0001";
  if (v >= 10 ** digits) return Math.round(v).toLocaleString("en-US");
  return String(Number(v.toPrecision(digits)));
}

/** The shuffle test's reading (equivariance_gap's words, `said`: CONFIG.shuffleWords) and
    its numbers, of engine.shuffle's result: [reading, numbers or ""]. */
export function shuffleReading(said, r) {
  if (!r.perm) return [said.none, ""];
  const reading =
    r.maxDiffAll < said.bar ? said.same : said.changed.replace("{diff}", r.maxDiffAll.toFixed(3));
  const numbers =
    `Largest difference for layer ${r.layer}, head ${r.head}: ${plainNumber(r.maxDiffHead)}; ` +
    `over every head: ${plainNumber(r.maxDiffAll)}. The top guess changed at ` +
    `${r.topChanged} of ${r.tokens.length} tokens (compared token by token).`;
  return [reading, numbers];
}

/** The shuffled sentence as words (engine.shuffle's tokens and perm): a word moved from
    the start of the sentence, which had no space before it, gets one. */
export function shuffledWords(r) {
  const starts = new Set(wordStarts(r.tokens));
  return r.perm
    .map((i, j) => (j > 0 && starts.has(i) && !/^\s/u.test(r.tokens[i]) ? " " : "") + r.tokens[i])
    .join("")
    .trim();
}

/** What the patching heatmap says (engine.patch's result with shares), in a sentence. */
export function patchReading(r, display) {
  const cells = r.heads.flatMap((row, l) => row.map((share, h) => ({ l, h, share })));
  cells.sort((a, b) => b.share - a.share || a.l - b.l || a.h - b.h);
  const [top, next] = cells;
  const name = (c) => "L" + c.l + " H" + c.h;
  return (
    `Top cell: ${name(top)} restores ${percent(top.share)} of the difference between the ` +
    `scores of ${quoted(r.answerToken, display)} and ${quoted(r.wrongToken, display)}` +
    (next ? `; next comes ${name(next)} with ${percent(next.share)}.` : ".")
  );
}

/** Why there are no shares: the two runs' logit differences are under MIN_GAP apart. */
export function noShares(r, display) {
  return (
    `No shares: your sentence prefers ${quoted(r.answerToken, display)} over ` +
    `${quoted(r.wrongToken, display)} by ${r.ld_clean.toFixed(2)} and the copy by ` +
    `${r.ld_corrupt.toFixed(2)}, less than 1 apart, so sharing that difference out would ` +
    "divide by almost nothing. Change a word the guess depends on more."
  );
}
