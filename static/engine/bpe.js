// Byte-level BPE as `tokenizers` runs it (the GPT-2 scheme): each word's UTF-8 bytes become
// one "byte character" each (bytes_to_unicode), then the adjacent pair of lowest merge rank
// is joined, leftmost first, until none applies. Also each token's span in the word, in
// code points, and the bytes back from tokens (decode).
import { utf8Length } from "./pretokenize.js";

// GPT-2's bytes_to_unicode: printable bytes stand for themselves, the others are shifted
// to U+0100 onwards, so every byte is one visible character (all in the BMP).
export const BYTE_CHAR = new Array(256);
const CHAR_BYTE = new Map();
let shifted = 0;
for (let b = 0; b < 256; b++) {
  const printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
  BYTE_CHAR[b] = String.fromCharCode(printable ? b : 256 + shifted++);
  CHAR_BYTE.set(BYTE_CHAR[b], b);
}

const utf8 = new TextEncoder();

/** One merge sequence: join the adjacent pair of lowest rank (leftmost on a tie, as the
    heap of `tokenizers` orders them by (rank, position)) until no pair has a rank.
    `symbols`: byte-character strings, changed in place; `ranks`: "a b" -> rank. */
export function bpe(symbols, ranks) {
  while (symbols.length > 1) {
    let best = Infinity;
    let at = -1;
    for (let i = 0; i + 1 < symbols.length; i++) {
      const r = ranks.get(symbols[i] + " " + symbols[i + 1]);
      if (r !== undefined && r < best) {
        best = r;
        at = i;
      }
    }
    if (at < 0) break;
    symbols.splice(at, 2, symbols[at] + symbols[at + 1]);
  }
  return symbols;
}

/** A word's byte characters (before any merge). */
export function byteChars(word) {
  return Array.from(utf8.encode(word), (b) => BYTE_CHAR[b]);
}

/** Flat [start, end) spans in code points, relative to the word, of its BPE tokens
    (byte-character strings): from the character holding a token's first byte to the end of
    the one holding its last. n: the word's code points. */
export function wordSpans(word, symbols) {
  const charEnds = []; // byte end of each character of the word
  let bytes = 0;
  for (const ch of word) charEnds.push((bytes += utf8Length(ch.codePointAt(0))));
  const spans = [];
  let byte = 0;
  let char = 0;
  for (const symbol of symbols) {
    while (charEnds[char] <= byte) char++;
    const start = char;
    byte += symbol.length; // one byte character per byte
    while (charEnds[char] < byte) char++;
    spans.push(start, char + 1);
  }
  return { spans, n: charEnds.length };
}

/** The bytes a token stands for: its byte characters mapped back, or (a special or added
    token, which is no byte-character string) its own UTF-8. */
export function tokenBytes(token) {
  const mapped = [];
  for (const ch of token) {
    const b = CHAR_BYTE.get(ch);
    if (b === undefined) return Array.from(utf8.encode(token));
    mapped.push(b);
  }
  return mapped;
}
