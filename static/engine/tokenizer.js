// The project's tokenizer in the browser: a dependency-free port of what Python does with
// checkpoints/tokenizer.json (a Hugging Face `tokenizers` byte-level BPE, the GPT-2 scheme)
// and of the text preparation before a forward pass (explorer/analysis/run.py `prepare`).
// Parity with Python: tests/engine/test_tokenizer_parity_browser.py (Chromium) and
// tests/js/tokenizer.test.mjs (Node, fixtures from scripts/export_js_fixtures.py).
//
//   fromJSON(obj) -> Tokenizer;  await load(url, read?) -> Tokenizer;  MAX_CHARS
//   Tokenizer: encode(text) -> ids, pieces(text) -> [{id, piece, start, end}],
//     decode(ids) -> string, prepare(text, {nCtx, maskedWord}) -> {ids, pieces, cutTokens,
//     keptChars, cutChars, text}, preTokenSpans(text), and eotId, padId, maskId.
// Words already seen are cached (word -> ids), so a keystroke re-encodes little.
//
// How `tokenizers` encodes, step by step, as reproduced here:
// 1. Lone UTF-16 surrogates become U+FFFD (explorer.models.tokenizer._clean; same length).
// 2. The three special tokens are split out wherever they are typed (leftmost match).
// 3. Each other segment is cut by the GPT-2 regex (static/engine/pretokenize.js).
// 4. Each word's bytes become byte characters and BPE merges them (static/engine/bpe.js).
// Offsets: every byte of a character maps to that whole character, so a token's span runs
// from the start of the character holding its first byte to the end of the one holding its
// last byte; pieces() then moves each start past what earlier tokens covered, as Python's
// Tokenizer.token_pieces does. All offsets count Unicode code points, as Python does.
import { bpe, byteChars, tokenBytes, wordSpans } from "./bpe.js";
import { fetchBytes, readJSON } from "./io.js";
import {
  clean,
  codePointOffsets,
  preTokenRegex,
  splitMarkers,
  splitSpecials,
} from "./pretokenize.js";

export const MAX_CHARS = 1000; // explorer.analysis.run.MAX_CHARS
const MASK_LABEL = "[mask]"; // explorer.analysis.run.MASK_LABEL
const SPECIALS = ["<|endoftext|>", "<pad>", "<mask>"]; // ids 0, 1, 2 (Python checks this)
const CACHE_LIMIT = 20000; // words remembered (cleared when full: typing reuses few words)
// ignoreBOM: keep a leading U+FEFF, as Rust's String::from_utf8_lossy does.
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

function checkConfig(obj) {
  const m = obj && obj.model;
  const pre = obj && obj.pre_tokenizer;
  const problems = [];
  if (!m || m.type !== "BPE" || !m.vocab || !m.merges) problems.push("model is not a BPE");
  else if (
    m.dropout ||
    m.continuing_subword_prefix ||
    m.end_of_word_suffix ||
    m.byte_fallback ||
    m.ignore_merges
  )
    problems.push("BPE options not supported");
  if (!pre || pre.type !== "ByteLevel" || pre.add_prefix_space || pre.use_regex === false) {
    problems.push("pre_tokenizer is not ByteLevel(add_prefix_space=false, use_regex)");
  }
  if (obj && (obj.normalizer || obj.post_processor)) problems.push("normalizer/post_processor");
  if (((obj && obj.added_tokens) || []).some((t) => t.lstrip || t.rstrip || t.single_word)) {
    problems.push("added tokens with lstrip, rstrip or single_word");
  }
  if (!obj || !obj.decoder || obj.decoder.type !== "ByteLevel") problems.push("decoder");
  if (problems.length) throw new Error("tokenizer.json not supported: " + problems.join("; "));
}

export class Tokenizer {
  constructor(obj) {
    checkConfig(obj);
    this.vocab = new Map(Object.entries(obj.model.vocab));
    this.idToToken = [];
    for (const [token, id] of this.vocab) this.idToToken[id] = token;
    this.ranks = new Map();
    obj.model.merges.forEach((merge, rank) => {
      const key = Array.isArray(merge) ? merge.join(" ") : merge;
      if (!this.ranks.has(key)) this.ranks.set(key, rank);
    });
    // every added token is split out of the text, special or not, as `tokenizers` does
    this.specials = (obj.added_tokens || []).map((t) => ({
      content: t.content,
      id: t.id,
      n: Array.from(t.content).length,
    }));
    for (const t of obj.added_tokens || []) this.idToToken[t.id] = t.content;
    const ids = SPECIALS.map((s) => (this.specials.find((t) => t.content === s) || {}).id);
    if (ids.join() !== "0,1,2") {
      throw new Error(`special tokens must have ids 0, 1, 2, got ${ids.join(", ")}`);
    }
    [this.eotId, this.padId, this.maskId] = ids;
    this.cache = new Map(); // word -> {ids, spans (wordSpans), n (its code points)}
  }

  /* BPE of one pre-token, remembered. */
  word(word) {
    let hit = this.cache.get(word);
    if (hit !== undefined) return hit;
    const symbols = bpe(byteChars(word), this.ranks);
    hit = { ids: symbols.map((s) => this.vocab.get(s)), ...wordSpans(word, symbols) };
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(word, hit);
    return hit;
  }

  /* ids of a cleaned text, and with `spans` (an array) each token's [start, end) in code
     points pushed flat onto it, as `tokenizers` reports offsets. */
  scan(text, spans) {
    const ids = [];
    let cp = 0; // code points before the current word
    for (const part of splitSpecials(text, this.specials)) {
      if (part.special !== null) {
        ids.push(part.special.id);
        if (spans) spans.push(cp, cp + part.special.n);
        cp += part.special.n;
        continue;
      }
      for (const match of part.text.matchAll(preTokenRegex())) {
        const w = this.word(match[0]);
        for (const id of w.ids) ids.push(id);
        if (spans) for (const x of w.spans) spans.push(cp + x);
        cp += w.n;
      }
    }
    return ids;
  }

  /* The pre-tokenizer's words of `text` (no special tokens split out) as a flat list of
     [start, end) in code points: what `tokenizers`' pre_tokenize_str reports (tests). */
  preTokenSpans(text) {
    const spans = [];
    let cp = 0;
    for (const match of clean(String(text)).matchAll(preTokenRegex())) {
      const n = this.word(match[0]).n;
      spans.push(cp, cp + n);
      cp += n;
    }
    return spans;
  }

  /* Token ids: Python Tokenizer.encode. */
  encode(text) {
    return this.scan(clean(String(text)));
  }

  /* [{id, piece, start, end}]: Python Tokenizer.token_pieces (a character split over byte
     tokens shows on its first token; the following ones get "" and an empty span). */
  pieces(text) {
    text = clean(String(text));
    const spans = [];
    const ids = this.scan(text, spans);
    const at = codePointOffsets(text);
    let covered = 0;
    return ids.map((id, i) => {
      const start = Math.max(spans[2 * i], covered);
      const end = Math.max(spans[2 * i + 1], covered);
      covered = end;
      return { id, piece: text.slice(at[start], at[end]), start, end };
    });
  }

  /* Text for ids: Python Tokenizer.decode (special tokens kept; unknown ids left out, as
     `tokenizers` does; bytes that are no valid UTF-8 become U+FFFD). */
  decode(ids) {
    const bytes = [];
    for (const id of ids) {
      const token = this.idToToken[id];
      if (token !== undefined) for (const b of tokenBytes(token)) bytes.push(b);
    }
    return utf8Decoder.decode(new Uint8Array(bytes));
  }

  /* Python explorer.analysis.run.prepare's facts: the MAX_CHARS cut (code points), trailing
     spaces left out, mask markers when `maskedWord`, the `nCtx` token cut. Never throws on
     user text. Returns {ids, pieces, cutTokens, keptChars (or null), cutChars, text (what
     was read)}. */
  prepare(text, { nCtx, maskedWord = false } = {}) {
    if (!Number.isInteger(nCtx) || nCtx < 1) throw new Error("nCtx must be a positive integer");
    text = text === null || text === undefined ? "" : String(text);
    // 2 * MAX_CHARS + 2 UTF-16 units hold at least MAX_CHARS + 1 code points
    const head = codePointOffsets(text.slice(0, 2 * MAX_CHARS + 2));
    const cutChars = head.length - 1 > MAX_CHARS;
    if (cutChars) text = text.slice(0, head[MAX_CHARS]);
    let end = text.length; // Python's rstrip(" "): spaces only, not tabs or new lines
    while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
    text = text.slice(0, end);
    const at = codePointOffsets(text);
    const cpOf = new Map(at.map((u, i) => [u, i])); // UTF-16 offset -> code point
    const ids = [];
    const pieces = [];
    const ends = []; // each token's end in `text`, in code points
    const segments = maskedWord ? splitMarkers(text) : [{ from: 0, to: text.length }];
    segments.forEach((seg, i) => {
      if (i > 0) {
        ids.push(this.maskId);
        pieces.push(MASK_LABEL);
        ends.push(cpOf.get(segments[i - 1].markerEnd));
      }
      const base = cpOf.get(seg.from);
      for (const p of this.pieces(text.slice(seg.from, seg.to))) {
        ids.push(p.id);
        pieces.push(p.piece);
        ends.push(base + p.end);
      }
    });
    const cutTokens = ids.length > nCtx;
    let keptChars = null;
    if (cutTokens) {
      keptChars = ends[nCtx - 1];
      ids.length = nCtx;
      pieces.length = nCtx;
      text = text.slice(0, at[keptChars]);
    }
    return { ids, pieces, cutTokens, keptChars, cutChars, text };
  }
}

export function fromJSON(obj) {
  return new Tokenizer(obj);
}

/** The tokenizer of tokenizer.json at `url`, read by `read` (default: fetch). */
export async function load(url, read = fetchBytes) {
  return new Tokenizer(await readJSON(url, read));
}
