// Token labels as explorer/figures/labels.py writes them: display_token (visible spaces,
// hidden and format characters as named markers, emoji sequences kept whole) and
// grid_payload.plain_label (cut with … past a number of code points). ``ranges``: Python's
// unicodedata classes as flat inclusive runs [start, end, class, ...] (engine_texts.py
// label_ranges), so a label does not depend on the browser's Unicode version; without
// them (the texts not here yet) the browser's own classes.

const NAMES = {
  0xa0: "NBSP",
  0xad: "SHY",
  0x34f: "CGJ",
  0x61c: "ALM",
  0x180e: "MVS",
  0x200b: "ZWSP",
  0x200c: "ZWNJ",
  0x200d: "ZWJ",
  0x200e: "LRM",
  0x200f: "RLM",
  0x202a: "LRE",
  0x202b: "RLE",
  0x202c: "PDF",
  0x202d: "LRO",
  0x202e: "RLO",
  0x202f: "NNBSP",
  0x2028: "LS",
  0x2029: "PS",
  0x2060: "WJ",
  0x2066: "LRI",
  0x2067: "RLI",
  0x2068: "FSI",
  0x2069: "PDI",
  0xfe0e: "VS15",
  0xfe0f: "VS16",
  0xfeff: "BOM",
};
const BLANK_LOOKING = new Set([0x115f, 0x1160, 0x2800, 0x3164, 0xffa0, 0x034f]);
// Python's unicodedata classes (engine_texts.py label_ranges), not the browser's: the
// browser's Unicode is of another version. Until the texts arrive, the browser's own.
const SO = 1,
  HIDDEN = 2,
  FMT = 3,
  VISIBLE = 4,
  MARK = 5;
const OWN = [
  null,
  /^\p{So}$/u,
  /^[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]$/u,
  /^[\p{Zs}\p{Cf}]$/u,
  /^[\p{L}\p{N}\p{P}\p{S}]$/u,
  /^\p{M}$/u,
];
// the value of the inclusive run [start, end, value] of flat ``runs`` holding ``cp``, or
// null (binary search: engine_texts.py writes kind_ranges and label_ranges so)
export function runOf(runs, cp) {
  let lo = 0,
    hi = runs.length / 3 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1,
      s = runs[mid * 3],
      e = runs[mid * 3 + 1];
    if (cp < s) hi = mid - 1;
    else if (cp > e) lo = mid + 1;
    else return runs[mid * 3 + 2];
  }
  return null;
}
// is ``ch`` of class ``want``: by Python's ``ranges`` (label_ranges), else the browser's own
const cat = (ch, want, ranges) => {
  if (!ranges) return OWN[want].test(ch);
  const c = runOf(ranges, ch.codePointAt(0)) || 0;
  return want === VISIBLE ? c === VISIBLE || c === SO : c === want;
};
const hex = (cp) => cp.toString(16).toUpperCase().padStart(4, "0");
const marker = (cp) => "\u27e8" + (NAMES[cp] || "U+" + hex(cp)) + "\u27e9";
const isVS = (cp) =>
  (cp >= 0xfe00 && cp <= 0xfe0f) ||
  (cp >= 0xe0100 && cp <= 0xe01ef) ||
  (cp >= 0x180b && cp <= 0x180f);

// code points as Python indexes a str (lone surrogates stay one element each)
export const points = (s) => Array.from(s);

function pictographBefore(chars, i, ranges) {
  let j = i - 1;
  while (j >= 0) {
    const cp = chars[j].codePointAt(0);
    if (cp === 0xfe0f || (cp >= 0x1f3fb && cp < 0x1f400)) j--;
    else break;
  }
  return j >= 0 && cat(chars[j], SO, ranges);
}

function keepsEmoji(chars, i, cp, ranges) {
  if (cp === 0x200d) {
    return (
      pictographBefore(chars, i, ranges) && i + 1 < chars.length && cat(chars[i + 1], SO, ranges)
    );
  }
  if (isVS(cp)) {
    return (
      i > 0 && cat(chars[i - 1], VISIBLE, ranges) && !BLANK_LOOKING.has(chars[i - 1].codePointAt(0))
    );
  }
  if (cp >= 0xe0020 && cp < 0xe0080) {
    return chars.slice(0, i).some((c) => c.codePointAt(0) === 0x1f3f4);
  }
  return false;
}

function showChar(chars, i, ranges) {
  const ch = chars[i],
    cp = ch.codePointAt(0);
  if (ch === " ") return "\u2423";
  if (ch === "\n") return "\u21b5";
  if (ch === "\t") return "\u21e5";
  if (cp < 0x20) return String.fromCodePoint(0x2400 + cp);
  if (cp === 0x7f) return "\u2421";
  if (cp < 0x80) return ch;
  if (cat(ch, HIDDEN, ranges) || BLANK_LOOKING.has(cp)) return marker(cp);
  if (cat(ch, FMT, ranges) || isVS(cp)) return keepsEmoji(chars, i, cp, ranges) ? ch : marker(cp);
  return ch;
}

// labels.display_token(text) with visible spaces (the slow path gives the fast path's result)
export function displayToken(text, ranges = null) {
  if (!text) return "\u2205";
  const chars = points(text);
  let shown = "";
  for (let i = 0; i < chars.length; i++) shown += showChar(chars, i, ranges);
  const first = chars[0];
  if (cat(first, MARK, ranges) && !isVS(first.codePointAt(0))) shown = "\u25cc" + shown;
  return shown;
}

// grid_payload.plain_label: cut with … past maxChars code points
export function plainLabel(token, maxChars = 8, ranges = null) {
  const shown = points(displayToken(token, ranges));
  return shown.length <= maxChars
    ? shown.join("")
    : shown.slice(0, maxChars - 1).join("") + "\u2026";
}
