// The text before BPE, as `tokenizers` and explorer.analysis.run cut it: lone surrogates
// cleaned, typed special tokens and mask markers split out, the GPT-2 pre-tokenizer regex
// (with Oniguruma's classes, static/engine/unicode_classes.js), and code-point offsets
// (Python indexes a str by code point, JavaScript by UTF-16 unit).
import { LETTERS, NUMBERS, WS } from "./unicode_classes.js";

// explorer.analysis.run.MASK_MARKER; `u` makes `i` fold like Python's re.IGNORECASE
// (U+017F ſ matches s, U+212A Kelvin sign matches k).
const MASK_MARKER = /\[mask\]|<mask>|_{3,}/giu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

let preToken = null; // built on first use (a regex of a few thousand ranges)

function rangesClass(ranges) {
  return ranges
    .split(" ")
    .map((r) =>
      r
        .split("-")
        .map((h) => `\\u{${h}}`)
        .join("-"),
    )
    .join("");
}

/** The GPT-2 pre-tokenizer regex with Oniguruma's classes (global, unicode). */
export function preTokenRegex() {
  if (preToken === null) {
    const L = rangesClass(LETTERS);
    const N = rangesClass(NUMBERS);
    preToken = new RegExp(
      `'s|'t|'re|'ve|'m|'ll|'d| ?[${L}]+| ?[${N}]+| ?[^${WS}${L}${N}]+` +
        `|[${WS}]+(?![^${WS}])|[${WS}]+`,
      "gu",
    );
  }
  return preToken;
}

/** Lone UTF-16 surrogates as U+FFFD (explorer.models.tokenizer._clean; same length). */
export function clean(text) {
  return typeof text.toWellFormed === "function"
    ? text.toWellFormed()
    : text.replace(LONE_SURROGATE, "\uFFFD");
}

export function utf8Length(codePoint) {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** UTF-16 offset of every code point of `s`, plus s.length at the end: slices by code
    point (Python's text[start:end]) and converts regex indices to code points. */
export function codePointOffsets(s) {
  const offsets = [];
  for (let i = 0; i < s.length; i++) {
    offsets.push(i);
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  offsets.push(s.length);
  return offsets;
}

/** The text split around typed special tokens: [{text, special: {content, id, n}|null}].
    Leftmost match first (none of the three is a prefix of another). */
export function splitSpecials(text, specials) {
  const parts = [];
  let pos = 0;
  while (pos < text.length) {
    let at = -1;
    let hit = null;
    for (const s of specials) {
      const i = text.indexOf(s.content, pos);
      if (i >= 0 && (at < 0 || i < at || (i === at && s.content.length > hit.content.length))) {
        at = i;
        hit = s;
      }
    }
    if (hit === null) break;
    if (at > pos) parts.push({ text: text.slice(pos, at), special: null });
    parts.push({ text: hit.content, special: hit });
    pos = at + hit.content.length;
  }
  if (pos < text.length) parts.push({ text: text.slice(pos), special: null });
  return parts;
}

/** Text between mask markers as UTF-16 ranges [{from, to, markerEnd}] (markerEnd: end of
    the marker after the segment; the last segment has none). */
export function splitMarkers(text) {
  const segments = [];
  let from = 0;
  for (const m of text.matchAll(MASK_MARKER)) {
    segments.push({ from, to: m.index, markerEnd: m.index + m[0].length });
    from = m.index + m[0].length;
  }
  segments.push({ from, to: text.length, markerEnd: null });
  return segments;
}
