"""static/engine/tokenizer.js against the Python tokenizer, in a real Chromium (issue 38).

The browser's tokenizer must give the ids of ``explorer.models.tokenizer.Tokenizer.encode``
(the `tokenizers` library) on 2,000 corpus lines, and the same pieces, offsets (code points),
decode and ``explorer.analysis.run.prepare`` facts on hand-made hard cases. Its copy of
Oniguruma's letter/number/space classes is re-measured against `tokenizers` over the whole
Basic Multilingual Plane and at every range boundary of the table. Every comparison sends all
its inputs to the page in one ``evaluate`` and big answers come back as one string (Playwright
takes seconds over 2,000 nested arrays), so the file runs in seconds.
"""

import random
import re

import pytest

from explorer.analysis.run import MAX_CHARS, prepare, unfamiliar_notice
from explorer.models.tokenizer import Tokenizer
from explorer.training.train import DEFAULT_CORPUS
from tests.engine.conftest import ROOT

N_CORPUS_LINES = 2000
N_CTX = 128
EMOJI_FAMILY = "\U0001F469\u200D\U0001F469\u200D\U0001F467"
HARD_CASES = [
    "", " ", "   ", "\t", "\n", "\n\n", " \n ", "The cat sat.   ", "end with tab\t",
    "Lines\nand\n\nblank\r\nlines\n", "tabs\tin\t\tthe middle", "  leading spaces",
    "café naïve résumé Ångström", "日本語のテキスト", "中文 和 English", EMOJI_FAMILY,
    f"a {EMOJI_FAMILY} b 👍🏽 🇫🇷!", "e\u0301 combining a\u0300\u0301\u0302 marks",
    "שלום עולם", "مرحبا بالعالم", "abc \u202edef\u202c ghi", "lone \ud800 high",
    "lone \udfff low", "\ud800", "x\udbff\ud800y", "<|endoftext|>",
    "Once upon a time.<|endoftext|>The end", "The <mask> sat on the mat.", "<mask><mask>",
    "<pad> and <MASK> and <Mask>", "[MASK] is [mask] and [Mask]", "Fill ____ and ___ in __",
    "____________", "[ma\u017fk] and [mas\u212a] fold", "<mask", "<|endoftext", "1234567890",
    "3.14159 and 1,000,000 and 42nd", "٣٤٥ ²³ ½ Ⅻ", "It's I'll we've they're I'm he'd don't",
    "IT'S 'S 'll ''", "!!!??? ... ,,, ;;; ---", "\"Quoted,\" she said -- (really?)",
    "bbb ccccc Eeeee llllll",  # BPE ties (one pair twice in a word): leftmost first
    "\ufeffBOM at start", "nel\u0085and\u00a0nbsp\u3000ideographic\u2028line",
    "\u200b\u200c\u200d zero widths", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛", "a" * 300, "word " * 240,
    "The cat sat on the mat. " * 50, ("Lily went to the park and saw a big red ball. " * 25)[:1200],
    *("x" * k + " 🤖" * 150 for k in range(4)), "x " * 130 + "end", "[mask] " * 140,
    "Ünïcödé " * 130, "ok" + " " * 1200, "a" + " " * 998 + "b  ",
    # MAX_CHARS counts code points: 1,200 UTF-16 units but 600 characters; a cut after one
    # of two emoji
    "😀" * 600, "a" * 999 + "😀😀", "Lily 😀 " * 200, "😀" + "_" * 998 + "😀😀",
    # emoji before a mask marker that is the 128th token (offsets after astral characters)
    "😀 " * 10 + "cat " * 77 + "[mask] the end", "😀 " * 10 + "[mask] " + "cat " * 150,
]

LOAD = "async (url) => { window.tok = await AttentionExplorer.tokenizer.load(url); return 1; }"
# Each line's ids (then its pieces' spans) as numbers joined by " ", one line each.
CORPUS_JS = """(lines) => ({
  ids: lines.map((l) => tok.encode(l).join(' ')).join('\\n'),
  spans: lines.slice(0, 300).map((l) => tok.pieces(l).flatMap((p) => [p.start, p.end])
    .join(' ')).join('\\n')})"""
CASES_JS = """([texts, nCtx]) => texts.map((t) => {
  const ids = tok.encode(t);
  return {ids, pieces: tok.pieces(t), decoded: tok.decode(ids),
          prepared: [false, true].map((m) => tok.prepare(t, {nCtx, maskedWord: m}))};
})"""


@pytest.fixture(scope="module")
def py_tok() -> Tokenizer:
    return Tokenizer.load(ROOT / "checkpoints" / "tokenizer.json")


@pytest.fixture(scope="module")
def page(engine_page, repo_http):
    assert engine_page.evaluate(LOAD, f"{repo_http}/checkpoints/tokenizer.json") == 1
    return engine_page


def corpus_lines() -> list[str]:
    if not DEFAULT_CORPUS.exists():
        pytest.skip("needs the corpus in ../shared (tinystories.txt)")
    lines = [x for x in DEFAULT_CORPUS.read_text(encoding="utf-8").split("\n") if x.strip()]
    step = max(1, len(lines) // N_CORPUS_LINES)  # spread over the whole file
    return lines[::step][:N_CORPUS_LINES]


def test_corpus_ids_identical(page, py_tok):
    lines = corpus_lines()
    assert len(lines) == N_CORPUS_LINES
    js = page.evaluate(CORPUS_JS, lines)
    expected = py_tok.encode_batch(lines)
    assert sum(map(len, expected)) > 100 * N_CORPUS_LINES  # real text, not empty lines
    got = js["ids"].split("\n")
    bad = [i for i, (a, b) in enumerate(zip(got, expected, strict=True))
           if a != " ".join(map(str, b))]
    assert not bad, f"{len(bad)} lines differ, first: {lines[bad[0]][:200]!r}"
    for line, spans in zip(lines, js["spans"].split("\n"), strict=False):
        assert spans == " ".join(str(x) for *_, span in py_tok.token_pieces(line) for x in span)


def python_prepare(tok: Tokenizer, text: str, masked_word: bool) -> dict:
    """Python prepare's facts in the browser's shape (keptChars read from its notice)."""
    p = prepare(tok, text, N_CTX, masked_word)
    cut = [n for n in p.notices if n.startswith(f"The model reads at most {N_CTX} tokens")]
    kept = int(re.search(r"its first ([\d,]+) character", cut[0])[1].replace(",", "")) \
        if cut else None
    read = text[:MAX_CHARS].rstrip(" ")[:kept]
    return {"ids": p.ids, "pieces": p.pieces, "cutTokens": bool(cut), "keptChars": kept,
            "cutChars": len(text) > MAX_CHARS, "text": read, "notices": p.notices}


def test_hard_cases(page, py_tok):
    js = page.evaluate(CASES_JS, [HARD_CASES, N_CTX])
    for text, got in zip(HARD_CASES, js, strict=True):
        label = repr(text[:60])
        assert got["ids"] == py_tok.encode(text), label
        pieces = [(p["id"], p["piece"], (p["start"], p["end"])) for p in got["pieces"]]
        assert pieces == py_tok.token_pieces(text), label
        assert got["decoded"] == py_tok.decode(got["ids"]), label
        for masked, prepared in zip((False, True), got["prepared"], strict=True):
            expected = python_prepare(py_tok, text, masked)
            notices = expected.pop("notices")
            assert prepared == expected, (label, masked)
            # the facts the browser returns rebuild Python's notice about unfamiliar text
            unfamiliar = unfamiliar_notice(prepared["text"], prepared["pieces"])
            assert (unfamiliar in notices) if unfamiliar else len(notices) <= 1, label


def test_prepare_of_a_huge_text(page, py_tok):
    """Only the first MAX_CHARS characters are read, however long the text."""
    for text in ("The cat sat. " * 20000, "😀" * 100000 + "a"):
        got = page.evaluate("([t, n]) => tok.prepare(t, {nCtx: n, maskedWord: true})",
                            [text, N_CTX])
        expected = python_prepare(py_tok, text, True)
        expected.pop("notices")
        assert got == expected


def test_hard_cases_cover_what_they_claim(py_tok):
    """The list really holds a cut inside a split character, both cuts and mask markers."""
    facts = [python_prepare(py_tok, t, False) for t in HARD_CASES]
    assert sum(f["cutTokens"] for f in facts) >= 5
    assert sum(f["cutChars"] and not f["cutTokens"] for f in facts) >= 1
    assert any(py_tok.mask_id in python_prepare(py_tok, t, True)["ids"] for t in HARD_CASES)
    # the kept text ends with the whole character, which takes more tokens than were kept
    split_cut = [f for f in facts if f["cutTokens"] and len(py_tok.encode(f["text"])) > N_CTX]
    assert split_cut, "no case cuts inside a character split over byte tokens"


def test_decode_of_any_ids(page, py_tok):
    """Random id sequences (byte tokens that are no valid UTF-8 among them) and unknown ids
    decode as in Python."""
    rng = random.Random(0)
    seqs = [[rng.randrange(py_tok.vocab_size) for _ in range(rng.randrange(1, 12))]
            for _ in range(500)]
    seqs += [[0, 1, 2], [py_tok.vocab_size + 5, 40], list(range(256)), []]
    assert page.evaluate("(seqs) => seqs.map((s) => tok.decode(s))", seqs) == \
        [py_tok.decode(s) for s in seqs]


def probe_code_points() -> list[int]:
    """Every BMP code point but surrogates, and each astral range boundary of the JS table
    (with its neighbours), read from static/engine/unicode_classes.js."""
    source = (ROOT / "static" / "engine" / "unicode_classes.js").read_text(encoding="utf-8")
    table = " ".join(re.findall(r'"([0-9a-f -]+)"', source))
    bounds = {int(h, 16) + d for h in re.findall(r"[0-9a-f]+", table) for d in (-1, 0, 1)}
    cps = set(range(0xD800)) | set(range(0xE000, 0x10000)) | {c for c in bounds if c > 0xFFFF}
    return sorted(cps | {0x10FFFF})


def test_pre_tokenizer_classes_match_tokenizers(page, py_tok):
    cps = probe_code_points()
    probes = [a + chr(c) + a for c in cps for a in ("a", "1", "!", " ")]
    pre = py_tok.inner.pre_tokenizer
    expected = [" ".join(str(x) for _, span in pre.pre_tokenize_str(p) for x in span)
                for p in probes]
    got = page.evaluate("(cps) => cps.flatMap((c) => ['a', '1', '!', ' '].map((a) =>"
                        " tok.preTokenSpans(a + String.fromCodePoint(c) + a).join(' ')))"
                        ".join('\\n')", cps).split("\n")
    bad = [hex(cps[i // 4]) for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b]
    assert not bad, f"{len(bad)} probes split differently: {bad[:20]}"


def test_unsupported_tokenizer_json_is_refused(page, repo_http):
    message = page.evaluate("""(url) => fetch(url).then((r) => r.json()).then((j) => {
      j.model.ignore_merges = true;
      try { AttentionExplorer.tokenizer.fromJSON(j); return 'accepted'; }
      catch (e) { return e.message; }
    })""", f"{repo_http}/checkpoints/tokenizer.json")
    assert message.startswith("tokenizer.json not supported"), message
