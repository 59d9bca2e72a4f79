"""Inside one head and activation patching in the browser (static/engine/stages.js:
``engine.run(text, {detail: true})``; static/engine/patching.js: ``engine.patch``), and the
static edition's word-shuffle test and heads switched off (static/engine/shuffle.js:
``engine.shuffle``; ablation.js: ``engine.ablate``), against the Python functions, in real
Chromium, on the zoo (issue 48).

The references: :func:`explorer.analysis.stages.head_stages` (the Inside one head view) and
:func:`explorer.analysis.patching.patch` with the Patch view's guesses
(:func:`~explorer.analysis.patching.patch_one` + :func:`explorer.views.compare.
prediction_rows`). Checked: on a few models × sentences × (layer, head) under the page's
knobs (each positional encoding, mask off and on, scaling none, a temperature, the head
switched off), the same stages in the same order with the same names, shapes and words, every
value within 1e-3 and -inf where Python has it; on the Patch view's example pair and a dozen
more (one word changed, on several models, three under ``MIN_GAP``), the same answer and
competitor, the logit differences within 0.02, every share within 0.02 and the same nulls;
and on the example pair, the guesses of the corrupted run with L3 H2 patched. The shuffle
test (:func:`explorer.analysis.positional_views.shuffle_experiment`) on a few models and
heads: the same word order (numpy's generator), head and count of changed guesses, the
patterns and differences within 1e-3 (none at all without a positional encoding); heads
switched off (:func:`explorer.views.ablate.ablate`): the losses within 1e-3, the same top
guess before and after, each guess's probabilities within 1e-3.

Cheap by design: every Python reference is computed first, then ONE page (one load of the
engine for the module) computes every browser number in ONE ``page.evaluate``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from explorer.analysis.patching import HEAD_HOOK, MIN_GAP, patch, patch_one
from explorer.analysis.positional_views import shuffle_experiment
from explorer.analysis.run import prepare
from explorer.analysis.stages import head_stages
from explorer.models.settings import AttentionSettings
from explorer.models.zoo import DEFAULT_NAME
from explorer.views.ablate import ablate
from explorer.views.compare import prediction_rows
from explorer.views.patch import EXAMPLE_CLEAN, EXAMPLE_CORRUPT

STAGES = 1e-3
SHARES = 0.02
EVERYDAY = (Path(__file__).resolve().parents[1] / "data" / "everyday_sentences.txt") \
    .read_text(encoding="utf-8").splitlines()
MASKED = "The dog chased the [mask] into the garden."
# (model, sentence, knobs with layer and head)
DETAIL = [
    (DEFAULT_NAME, EXAMPLE_CLEAN, {"layer": 3, "head": 2}),
    ("causal-h8-alibi", EVERYDAY[0], {"layer": 1, "head": 5, "temperature": 2.0}),
    ("causal-h2-learned", EVERYDAY[1], {"layer": 2, "head": 1, "causal": False}),
    ("causal-h1-none", EVERYDAY[6], {"layer": 0, "head": 0, "scale": "none"}),
    ("causal-h4-sinusoidal", EVERYDAY[3], {"layer": 3, "head": 3, "heads_off": [[3, 3]]}),
    ("bidir-h4-rotary", MASKED, {"layer": 1, "head": 2}),
    ("bidir-h4-rotary", MASKED, {"layer": 0, "head": 0, "causal": True}),
]
MARY = ("Mary went to the shop and then Mary went to the",
        "Mary went to the park and then Mary went to the")
CAT = ("The cat sat on the mat. The cat sat on the", "The cat sat on the rug. The cat sat on the")
# (model, clean, corrupted, the head to patch or None): the example first
PAIRS = [
    (DEFAULT_NAME, EXAMPLE_CLEAN, EXAMPLE_CORRUPT, (3, 2)),
    (DEFAULT_NAME, "red green blue red green", "red green blue red yellow", None),
    (DEFAULT_NAME, "one two three four five six", "one two three four five seven", None),
    (DEFAULT_NAME, "Tom has a red hat and Sam has a blue cap. Tom has a red",
     "Tom has a red hat and Sam has a blue cap. Sam has a red", None),  # under MIN_GAP
    (DEFAULT_NAME, *MARY, None),
    (DEFAULT_NAME, *CAT, None),
    (DEFAULT_NAME, "I had an apple and a sandwich for lunch. I had an apple and a",
     "I had an apple and a cake for lunch. I had an apple and a", None),
    ("causal-h2-rotary", EXAMPLE_CLEAN, EXAMPLE_CORRUPT, None),
    ("causal-h8-alibi", *MARY, None),
    ("causal-h1-learned", *MARY, None),
    ("causal-h2-none", *MARY, None),
    ("causal-h4-alibi", "one two three four five six", "one two three four five seven", None),
    ("causal-h4-learned", *CAT, None),  # under MIN_GAP
    ("causal-h8-alibi", "The cat sat on the mat. The cat sat on the",
     "The dog sat on the mat. The cat sat on the", None),  # under MIN_GAP
]
# (model, sentence, knobs with layer and head, seed): no positions (nothing changes), the
# default model's copying head, ALiBi, learned, a masked-word model, one word
SHUFFLES = [
    ("causal-h4-none", "The dog chased the cat into the garden.", {"layer": 0, "head": 0}, 0),
    (DEFAULT_NAME, EVERYDAY[0], {"layer": 3, "head": 2}, 0),
    ("causal-h8-alibi", EVERYDAY[1], {"layer": 1, "head": 5, "temperature": 2.0}, 3),
    ("causal-h2-learned", EVERYDAY[6], {"layer": 2, "head": 1, "scale": "none"}, 0),
    ("bidir-h4-rotary", MASKED, {"layer": 0, "head": 2}, 0),
    ("causal-h1-sinusoidal", "Hello", {"layer": 0, "head": 0}, 0),
]
REPEAT = ("Mia made a list: spoon lamp sock bread egg coat fork shoe. "
          "She read it again: spoon lamp sock bread egg")
# (model, sentence, knobs with heads_off)
ABLATES = [
    (DEFAULT_NAME, REPEAT, {"heads_off": [[3, 2]]}),
    (DEFAULT_NAME, EVERYDAY[3], {}),
    ("causal-h8-alibi", EVERYDAY[0], {"heads_off": [[0, 1], [2, 5]], "causal": False}),
    ("bidir-h4-rotary", MASKED, {"heads_off": [[1, 1]]}),
]
COMPUTE = """async ([details, pairs, shuffles, ablates]) => {
  const E = AttentionExplorer.engine;
  const out = {details: [], patches: [], shuffles: [], ablates: []};
  for (const [name, text, knobs] of details) {
    out.details.push((await E.run(text, {...knobs, model: name, detail: true})).detail);
  }
  for (const [name, clean, corrupt, head] of pairs) {
    const knobs = {model: name};
    if (head) knobs.patchHead = {layer: head[0], head: head[1]};
    out.patches.push(await E.patch(clean, corrupt, knobs));
  }
  for (const [name, text, knobs, seed] of shuffles) {
    out.shuffles.push(await E.shuffle(text, {...knobs, model: name, seed}));
  }
  for (const [name, text, knobs] of ablates) {
    out.ablates.push(await E.ablate(text, {...knobs, model: name}));
  }
  return out;
}"""


def settings_of(knobs: dict) -> AttentionSettings:
    return AttentionSettings(causal=knobs.get("causal"), scale=knobs.get("scale"),
                             temperature=knobs.get("temperature", 1.0),
                             head_mask=tuple(tuple(x) for x in knobs.get("heads_off", [])))


def detail_case(zoo, tok, name, text, knobs) -> dict:
    r = head_stages(zoo.get(name), tok, text, settings_of(knobs), knobs["layer"],
                    knobs["head"])
    assert not r.empty
    return {"layer": r.layer, "head": r.head, "stages": r.stages}


def patch_case(zoo, tok, name, clean, corrupt, head) -> dict:
    model = zoo.get(name)
    a, b = (prepare(tok, t, model.config.n_ctx, False).ids for t in (clean, corrupt))
    assert len(a) == len(b), (name, clean)
    p = patch(model, a, b)
    case = {"p": p, "guesses": None}
    if head is not None:
        probs = patch_one(model, b, p.clean, HEAD_HOOK, *head, None)
        corrupt_probs = np.exp(p.corrupt_logits - p.corrupt_logits.max())
        corrupt_probs /= corrupt_probs.sum()
        case["guesses"] = prediction_rows(tok, corrupt_probs, probs)
        case["ld"] = float(np.log(probs[p.answer]) - np.log(probs[p.wrong]))
    return case


def shuffle_case(zoo, tok, name, text, knobs, seed):
    return shuffle_experiment(zoo.get(name), tok, text, settings_of(knobs), knobs["layer"],
                              knobs["head"], seed)


def ablate_case(zoo, tok, name, text, knobs) -> dict:
    heads = [tuple(h) for h in knobs.get("heads_off", [])]
    a = ablate(zoo.get(name), tok, text, settings_of(knobs), heads)
    top = tuple(tok.decode([int(np.argmax(p))]) for p in (a.on.probs, a.off.probs))
    return {"ablation": a, "rows": prediction_rows(tok, a.on.probs, a.off.probs), "top": top}


@pytest.fixture(scope="module")
def computed(zoo_page, resources):
    """(Python's detail and patch cases, the browser's answers): one page, one evaluate;
    the shuffle and heads-off cases as ``computed["shuffles"]`` (Python, browser)."""
    tok, zoo = resources
    details = [detail_case(zoo, tok, *case) for case in DETAIL]
    patches = [patch_case(zoo, tok, *case) for case in PAIRS]
    got = zoo_page.evaluate(COMPUTE, [[list(c) for c in DETAIL],
                                      [[n, a, b, h and list(h)] for n, a, b, h in PAIRS],
                                      [list(c) for c in SHUFFLES], [list(c) for c in ABLATES]])
    got["python_shuffles"] = [shuffle_case(zoo, tok, *case) for case in SHUFFLES]
    got["python_ablates"] = [ablate_case(zoo, tok, *case) for case in ABLATES]
    return details, patches, got


@pytest.mark.parametrize("case", range(len(DETAIL)),
                         ids=[f"{n}-L{k['layer']}H{k['head']}" for n, _, k in DETAIL])
def test_every_stage_of_detail_is_inside_one_heads(computed, case):
    details, _, got = computed
    want, js = details[case], got["details"][case]
    assert (js["layer"], js["head"]) == (want["layer"], want["head"])
    assert list(js["stages"]) == list(want["stages"])
    for key, st in want["stages"].items():
        g = js["stages"][key]
        assert (g["step"], g["title"], g["formula"], g["hook"]) == \
            (st.step, st.title, st.formula, st.hook), key
        assert tuple(g["captured"]) == st.captured and tuple(g["shape"]) == st.shape, key
        assert tuple(g["capturedDims"]) == st.captured_dims and tuple(g["dims"]) == st.dims
        assert g["shapeText"] == st.shape_text and g["square"] == st.square, key
        values = np.array(g["values"], dtype=np.float64)
        assert values.shape == st.values.shape, key
        inf = np.isneginf(st.values)
        assert (np.isneginf(values) == inf).all(), key
        diff = np.abs(values[~inf] - st.values[~inf]).max(initial=0)
        assert diff <= STAGES, (key, diff)
        if st.blocked is not None:
            assert np.array_equal(np.array(g["blocked"]), st.blocked), key


def test_the_stages_cover_what_inside_one_head_shows(computed):
    details, _, _ = computed
    assert any("rot_q" in d["stages"] for d in details)
    assert any(np.isneginf(d["stages"]["masked"].values).any() for d in details)
    assert any(not np.isneginf(d["stages"]["masked"].values).any() for d in details)


@pytest.mark.parametrize("case", range(len(PAIRS)),
                         ids=[f"{n}-{i}" for i, (n, *_) in enumerate(PAIRS)])
def test_patch_is_pythons(computed, case):
    _, patches, got = computed
    p, js = patches[case]["p"], got["patches"][case]
    assert (js["answer"], js["wrong"]) == (p.answer, p.wrong)
    assert abs(js["ld_clean"] - p.ld_clean) <= SHARES
    assert abs(js["ld_corrupt"] - p.ld_corrupt) <= SHARES
    if p.heads is None:
        assert js["heads"] is None and js["positions"] is None and js["guesses"] is None
        return
    heads, positions = np.array(js["heads"]), np.array(js["positions"])
    assert heads.shape == p.heads.shape and positions.shape == p.positions.shape
    assert np.abs(heads - p.heads).max() <= SHARES
    assert np.abs(positions - p.positions).max() <= SHARES


def test_the_pairs_cover_both_sides_of_min_gap(computed):
    _, patches, _ = computed
    gaps = [abs(c["p"].ld_clean - c["p"].ld_corrupt) for c in patches]
    assert sum(g < MIN_GAP for g in gaps) >= 2 and sum(g >= MIN_GAP for g in gaps) >= 10


def test_the_example_pairs_patched_guesses_are_the_patch_views(computed):
    _, patches, got = computed
    want, js = patches[0], got["patches"][0]
    assert (js["patched"]["layer"], js["patched"]["head"]) == (3, 2)
    assert abs(js["patched"]["ld"] - want["ld"]) <= SHARES
    assert [r["token"] for r in js["guesses"]] == [t for t, _, _ in want["guesses"]]
    for row, (_, corrupted, patched) in zip(js["guesses"], want["guesses"], strict=True):
        assert abs(row["corrupted"] - corrupted) <= 1e-3
        assert abs(row["patched"] - patched) <= 1e-3


@pytest.mark.parametrize("case", range(len(SHUFFLES)),
                         ids=[f"{n}-{i}" for i, (n, *_) in enumerate(SHUFFLES)])
def test_the_shuffle_test_is_the_positional_views(computed, case):
    _, _, got = computed
    want, js = got["python_shuffles"][case], got["shuffles"][case]
    assert js["perm"] == (None if want.perm is None else want.perm.tolist())
    assert (js["layer"], js["head"]) == (want.layer, want.head)
    assert js["tokens"] == want.tokens and js["shuffledTokens"] == want.shuffled_tokens
    if want.perm is None:
        assert js["original"] is None and js["maxDiffAll"] == 0
        return
    for key in ("original", "shuffled", "restored"):
        assert np.abs(np.array(js[key]) - getattr(want, key)).max() <= STAGES, key
    assert abs(js["maxDiffHead"] - want.max_diff_head) <= STAGES
    assert abs(js["maxDiffAll"] - want.max_diff_all) <= STAGES
    assert abs(js["topChanged"] - want.top_changed) <= 1  # a near tie may flip one
    if SHUFFLES[case][0].endswith("-none"):  # without positions the orders look the same
        assert js["maxDiffAll"] < 1e-4 and want.max_diff_all < 1e-4
    else:
        assert js["maxDiffAll"] > 0.01


@pytest.mark.parametrize("case", range(len(ABLATES)),
                         ids=[f"{n}-{i}" for i, (n, *_) in enumerate(ABLATES)])
def test_heads_off_are_the_ablate_views(computed, case):
    _, _, got = computed
    want, js = got["python_ablates"][case], got["ablates"][case]
    a = want["ablation"]
    assert js["tokens"] == a.tokens and js["predictAt"] == a.on.predict_at
    for key, value in (("lossOn", a.loss_on), ("lossOff", a.loss_off)):
        assert abs(js[key] - value) <= STAGES, (key, js[key], value)
    assert (js["top"]["was"], js["top"]["now"]) == want["top"]
    # every guess shown, with both probabilities; a place may swap only in a near tie
    rows = {t: (p, q) for t, p, q in want["rows"]}
    assert [r["token"] for r in js["guesses"]][:3] == [t for t, _, _ in want["rows"]][:3] \
        or all(abs(r["on"] - rows[r["token"]][0]) <= STAGES for r in js["guesses"][:3])
    for r in js["guesses"]:
        p, q = rows[r["token"]]
        assert abs(r["on"] - p) <= STAGES and abs(r["off"] - q) <= STAGES, r
    if ABLATES[case][2].get("heads_off"):
        assert a.loss_off != a.loss_on
