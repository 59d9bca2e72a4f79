"""The browser's grid payload (static/engine/payload.js) against the server's
(explorer/views/grid_payload.py), with the caption's words from one source
(explorer/views/engine_texts.py): in real Chromium, for sentences and knobs that make every
kind of caption (interventions, cut notices, unfamiliar characters, a masked word with no
mask), the browser's caption, labels and guesses equal Python's and the cells agree."""

import base64

import numpy as np
import pytest

from explorer.analysis.run import MASK_HINT, unfamiliar_notice
from explorer.views.controls import CONTROL_NAMES, EMPTY_STATE, parse_controls
from explorer.views.engine_texts import engine_texts
from explorer.views.grid_payload import grid_payload, plain_label
from tests.engine.conftest import engine_page, repo_http  # noqa: F401  (fixtures)

BASE = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 1, 2, "light"]
BIDIR = ["masked word (bidirectional)", 4, "rotary", *BASE[3:]]
LONG = " ".join(["Once upon a time there was a little girl named Lily."] * 20)
CASES = [
    ("The cat sat on the mat.", BASE),
    ("The cat sat on the mat.   ", [*BASE[:3], "off", "none", 2.5, 3, 3, "dark"]),
    ("Tiny dog", [*BASE[:3], "on", "1/√d_model", 9.0, 0, 0, "light"]),  # temperature clipped
    (LONG, BASE),  # over 128 tokens
    ("a" * 1200, BASE),  # over 1,000 characters
    ("Café 東京 😀 naïve ж", [BASE[0], 2, "alibi", *BASE[3:]]),
    ("The cat sat on the mat.", BIDIR),  # masked word without a mask
    ("The [mask] sat on the ___.", [*BIDIR[:3], "on", *BIDIR[4:]]),
    ("x\u200b\u0301 tab\there", [BASE[0], 1, "none", *BASE[3:]]),
    ("   ", BASE),  # the empty state
]


def test_the_texts_come_from_the_python_that_writes_them():
    t = engine_texts()
    assert t["notices"]["mask_hint"] == MASK_HINT and t["empty_state"] == EMPTY_STATE
    what = t["notices"]["unfamiliar"].replace("{what}", "Greek letters")
    assert unfamiliar_notice("αβ", ["αβ"]) == what
    ranges = t["kind_ranges"]
    assert len(ranges) % 3 == 0
    assert all(a <= b for a, b in zip(ranges[::3], ranges[1::3], strict=True))
    assert t["controls"]["models"]["next word (causal)"]["4"]["rotary"] == "causal-h4-rotary"
    assert "{" not in t["notices"]["cut_chars"]


def cells(p: dict) -> np.ndarray:
    z = np.frombuffer(base64.b64decode(p["z"]), dtype=np.uint8)
    return z.reshape(p["layers"], p["n"], p["heads"], p["n"]).astype(int)


@pytest.fixture(scope="module")
def page(engine_page):  # noqa: F811
    engine_page.evaluate("""([texts]) => {
        AttentionExplorer.payload.setTexts(texts);
        AttentionExplorer.engine.configure({base: '/checkpoints/'});
        return Promise.all(['causal-h4-rotary', 'causal-h2-alibi', 'causal-h1-none',
            'bidir-h4-rotary'].map((m) => AttentionExplorer.engine.load(m)));
    }""", [engine_texts()])
    return engine_page


def test_labels_are_python_plain_label(page):
    tokens = ["", " ", "a\tb\n", "\x00\x1b\x7f", "\u200b", "\u200d", "👨\u200d💻", "❤\ufe0f",
              "\u0301e", "\u00a0x", "\u3164", "\u2028", "abcdefghijkl", "東京", "\ufeff"]
    got = page.evaluate("(ts) => ts.map((t) => AttentionExplorer.payload.plainLabel(t, 8))",
                        tokens)
    assert got == [plain_label(t, 8) for t in tokens]


def test_labels_match_on_every_vocabulary_token_and_code_point(page, resources):
    """payload.js's port of display_token / plain_label (explorer/figures/labels.py) against
    the Python on the whole vocabulary (at the grid's and the guesses' widths), on every
    code point of the Basic Multilingual Plane alone and after a letter, and on astral
    ones (emoji, their modifiers and joiners, tags, private use)."""
    tok, _ = resources
    vocab = [tok.decode([i]) for i in range(tok.vocab_size)]
    bmp = [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]
    astral = [chr(c) for c in (*range(0x1F300, 0x1FAFF), *range(0xE0000, 0xE0080),
                               0x10FFFD, 0xF0000, 0x1D400)]
    for tokens, width in ((vocab, 8), (vocab, 24), (bmp, 8), (["a" + c for c in bmp], 8),
                          (astral, 8), (["x" + c + "\u200d" for c in astral], 24)):
        got = page.evaluate("([ts, w]) => ts.map((t) => AttentionExplorer.payload"
                            ".plainLabel(t, w))", [tokens, width])
        want = [plain_label(t, width) for t in tokens]
        wrong = [(t, g, w) for t, g, w in zip(tokens, got, want, strict=True) if g != w]
        assert not wrong, (len(wrong), wrong[:5])


@pytest.mark.parametrize("text,controls", CASES)
def test_the_browser_payload_is_the_servers(page, resources, text, controls):
    tok, zoo = resources
    want = grid_payload(zoo, tok, text, parse_controls(*controls))
    got = page.evaluate("([t, c]) => AttentionExplorer.gridPayload(t, c, {colors: null})",
                        [text, dict(zip(CONTROL_NAMES, controls, strict=True))])
    assert got is not None
    assert got["caption"] == want["caption"]
    assert got["ok"] == want["ok"]
    if not want["ok"]:
        return
    for key in ("tokens", "layers", "heads", "n", "selected", "where", "text"):
        assert got[key] == want[key], key
    assert got["controls"] == want["controls"]
    diff = np.abs(cells(got) - cells(want))
    assert diff.max() <= 1 and (diff > 0).mean() < 0.01
    assert [g[0] for g in got["guesses"]] == [g[0] for g in want["guesses"]]
    assert np.allclose([g[1] for g in got["guesses"]], [g[1] for g in want["guesses"]],
                       atol=2e-4)


def test_what_the_browser_cannot_answer_is_null(page):
    lab = ["my Lab model", *BASE[1:]]
    missing = [BASE[0], 8, "learned", *BASE[3:]]  # a zoo model not loaded in this page
    got = page.evaluate("""([a, b]) => Promise.all([AttentionExplorer.gridPayload('Hi', a, {}),
        AttentionExplorer.gridPayload('Hi', b, {})])""",
                      [dict(zip(CONTROL_NAMES, c, strict=True)) for c in (lab, missing)])
    assert got == [None, None]
