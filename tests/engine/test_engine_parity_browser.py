"""The browser engine (static/engine/model.js, engine.js) against the Python engine, in
real Chromium: every zoo language model, 60 sentences, the knobs (issue 38).

The reference is ``explorer.analysis.run.analyse(..., detail=False)``, the Python engine and
its hooks. For each model every sentence runs with the knobs as trained, and again under one
of a rotating list of knob settings, so every setting meets every encoding. Checked: ids
identical; every attention weight within 1e-3; the same top guess wherever Python's top two
differ by more than 1e-3, and the guesses' probabilities within 1e-3. The page returns its
patterns as base64 float32, one evaluate per model."""

from __future__ import annotations

import base64
import contextlib
from pathlib import Path

import numpy as np
import pytest

from explorer.analysis.run import analyse
from explorer.models.settings import AttentionSettings
from explorer.models.zoo import checkpoint_name
from explorer.views.controls import HEADS, POSITIONAL
from tests.engine.conftest import load_engine

TOLERANCE = 1e-3
ZOO = [checkpoint_name("causal", h, pos) for h in HEADS for pos in POSITIONAL] \
    + [checkpoint_name("bidir", 4, "rotary")]
EVERYDAY = (Path(__file__).resolve().parents[1] / "data" / "everyday_sentences.txt") \
    .read_text(encoding="utf-8").splitlines()
SENTENCES = [
    *EVERYDAY[:44],
    "",
    "   ",
    "héllo wörld: ça va? 日本語のテキスト 🙂👩‍👩‍👧 done",
    "Tim wrote a list: apple chair river moon shoe bell cup. He read it again: apple chair",
    "The dog chased the [mask] into the garden.",
    "She went to the ___ to buy [MASK] and milk.",
    "<|endoftext|>Once upon a time <mask> there was",
    " ".join(["Once there was a girl named Mia who had a red ball."] * 14),  # past 128 tokens
    "a" * 1200,  # past the 1,000-character cut
    "Numbers 123 456 7.5 and punctuation!!! ... ??",
    "Line one\nline two\ttabbed   spaced   ",
    "x",
]
# Knobs as the engine takes them (heads_off filtered to the model's heads).
KNOBS = [
    {"causal": False},
    {"causal": True, "scale": "none"},
    {"scale": "d_model", "temperature": 2.0},
    {"temperature": 0.5},
    {"heads_off": [[0, 0], [3, 1], [2, 3]]},
    {"causal": False, "scale": "none", "temperature": 0.5, "heads_off": [[1, 0]]},
    {"scale": "d_head", "temperature": 2.0, "heads_off": [[3, 0]]},
]
RUN = """async ([items, name]) => {
  const out = [];
  for (const [text, knobs] of items) {
    const r = await AttentionExplorer.engine.runTyped(text, {...knobs, model: name});
    const bytes = new Uint8Array(r.patterns.buffer, r.patterns.byteOffset,
                                 r.patterns.byteLength);
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    out.push({ids: r.ids, p: btoa(s), g: r.guesses.map((x) => [x.token, x.p])});
  }
  return out;
}"""


@pytest.fixture(scope="module")
def page(zoo_page):
    return zoo_page


def settings_of(knobs: dict, n_heads: int) -> tuple[dict, AttentionSettings]:
    off = [[la, h] for la, h in knobs.get("heads_off", []) if h < n_heads]
    knobs = {**knobs, "heads_off": off}
    return knobs, AttentionSettings(causal=knobs.get("causal"), scale=knobs.get("scale"),
                                    temperature=knobs.get("temperature", 1.0),
                                    head_mask=tuple(tuple(x) for x in off))


@pytest.mark.parametrize("name", ZOO)
def test_every_zoo_model_matches_the_python_engine(page, resources, name):
    """The WebAssembly kernel computes the matrix products here (``simd``)."""
    assert page.evaluate("async (n) => (await AttentionExplorer.engine.load(n)).simd", name)
    check_model(page, resources, name, SENTENCES)


@pytest.fixture(scope="module")
def plain(browser, repo_http):
    """One page of its own, configured without WebAssembly SIMD, for the three models below."""
    with fresh_page(browser, repo_http) as page:
        page.evaluate("(base) => AttentionExplorer.engine.configure({base, simd: false})",
                      f"{repo_http}/checkpoints/")
        yield page


@pytest.mark.parametrize("name", ["causal-h4-rotary", "causal-h2-alibi", "bidir-h4-rotary"])
def test_the_plain_loops_match_too(plain, resources, name):
    """Where a browser has no WebAssembly SIMD the plain JavaScript loops compute: the
    same parity on a third of the sentences (the long one, unicode and [mask] among them)."""
    assert plain.evaluate("async (n) => (await AttentionExplorer.engine.load(n)).simd",
                          name) is False
    check_model(plain, resources, name, SENTENCES[::3] + SENTENCES[44:52])


@contextlib.contextmanager
def fresh_page(browser, repo_http):  # noqa: F811
    """A page of its own with the engine's scripts and nothing in memory yet."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{repo_http}/blank.html")
        load_engine(page, repo_http)
        yield page
    finally:
        context.close()


def check_model(page, resources, name, sentences):
    tok, zoo = resources
    model = zoo.get(name)
    assert model is not None, name
    items = []
    for i, text in enumerate(sentences):
        items.append((text, {}))
        items.append((text, KNOBS[(i + ZOO.index(name)) % len(KNOBS)]))
    runs = [settings_of(knobs, model.config.n_heads) for _, knobs in items]
    got = page.evaluate(RUN, [[[text, knobs] for (text, _), (knobs, _) in zip(items, runs,
                                                                               strict=True)],
                              name])
    worst = 0.0
    for (text, _), (knobs, settings), js in zip(items, runs, got, strict=True):
        want = analyse(model, tok, text, settings, detail=False)
        assert js["ids"] == want.ids, (name, text)
        patterns = np.frombuffer(base64.b64decode(js["p"]), np.float32)
        assert patterns.size == want.patterns.size, (name, text)
        if want.ids:
            diff = float(np.abs(patterns.reshape(want.patterns.shape) - want.patterns).max())
            worst = max(worst, diff)
            assert diff <= TOLERANCE, (name, text, knobs, diff)
        assert len(js["g"]) == min(3, len(want.predictions)), (name, text)
        if want.predictions:
            (top, p_top), (_, p_second) = want.predictions[:2]
            if p_top - p_second > TOLERANCE:
                assert js["g"][0][0] == top, (name, text, knobs)
            for (token, p), (want_token, want_p) in zip(js["g"], want.predictions,
                                                        strict=False):
                if token == want_token:
                    assert abs(p - want_p) <= TOLERANCE, (name, text, token)
    assert worst > 0 or name  # (the numbers are compared, not just the shapes)


def test_the_masked_word_model_guesses_at_the_mask_and_says_when_there_is_none(page):
    got = page.evaluate("""async () => [
      await AttentionExplorer.engine.run('The dog chased the [mask] away.',
                                         {model: 'bidir-h4-rotary'}),
      await AttentionExplorer.engine.run('The dog chased the cat away.',
                                         {model: 'bidir-h4-rotary'})]""")
    with_mask, without = got
    assert with_mask["predictAt"] == with_mask["tokens"].index("[mask]")
    assert len(with_mask["guesses"]) == 3 and not with_mask["maskMissing"]
    assert without["guesses"] == [] and without["maskMissing"]
    layers = with_mask["patterns"]
    assert len(layers) == 4 and len(layers[0]) == 4
    row = layers[0][0][0]
    assert abs(sum(row) - 1) < 1e-4 and row[-1] > 0  # no causal mask: it sees later words


@pytest.mark.parametrize("knobs, message", [
    ({"model": "no-such-model"}, "no model of that name"),
    ({"model": "causal-h4-rotary", "temperature": 0}, "temperature"),
    ({"model": "causal-h4-rotary", "temperature": "abc"}, "temperature"),
    ({"model": "causal-h4-rotary", "scale": "sqrt"}, "scale"),
    ({"model": "causal-h4-rotary", "heads_off": [[4, 0]]}, "does not exist"),
    ({"model": "causal-h1-rotary", "heads_off": [[0, 1]]}, "does not exist"),
    ({"model": "causal-h4-rotary", "causal": "yes"}, "causal"),
])
def test_impossible_knobs_get_a_plain_message(page, knobs, message):
    got = page.evaluate("""async (knobs) => {
      try { await AttentionExplorer.engine.run('The cat sat.', knobs); return null; }
      catch (e) { return String(e.message); } }""", knobs)
    assert got is not None and message in got


def test_loaded_says_a_model_and_the_tokenizer_are_in_memory(browser, repo_http):  # noqa: F811
    """payload.js computes in the browser only where loaded() says so: after load(), with
    no run needed (the page loads the default model at idle time). A fresh page: the
    module's page has every model in memory by now."""
    with fresh_page(browser, repo_http) as fresh:
        got = fresh.evaluate("""async (base) => {
          const E = AttentionExplorer.engine;
          E.configure({base});
          const before = E.loaded('causal-h2-learned');
          await E.load('causal-h2-learned');
          for (let i = 0; i < 50 && !E.loaded('causal-h2-learned'); i++) {
            await new Promise((r) => setTimeout(r, 100));  // the tokenizer, loading beside it
          }
          let refused = null;
          try { await E.load('../README'); } catch (e) { refused = String(e.message); }
          return [before, E.loaded('causal-h2-learned'), E.loaded('causal-h8-none'), refused];
        }""", f"{repo_http}/checkpoints/")
    assert got[:3] == [False, True, False] and "no model of that name" in got[3]
