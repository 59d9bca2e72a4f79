"""Inside one head and activation patching in the browser (static/engine/stages.js:
``engine.run(text, {detail: true})``; static/engine/patching.js: ``engine.patch``) against the
Python functions, in real Chromium, on the zoo (issue 48).

The references: :func:`explorer.analysis.stages.head_stages` (the Inside one head view) and
:func:`explorer.analysis.patching.patch` with the Patch view's guesses
(:func:`~explorer.analysis.patching.patch_one` + :func:`explorer.views.compare.
prediction_rows`). Checked: on a few models × sentences × (layer, head) under the page's
knobs (each positional encoding, mask off and on, scaling none, a temperature, the head
switched off), the same stages in the same order with the same names, shapes and words, every
value within 1e-3 and -inf where Python has it; on the Patch view's example pair and a dozen
more (one word changed, on several models, three under ``MIN_GAP``), the same answer and
competitor, the logit differences within 0.02, every share within 0.02 and the same nulls;
and on the example pair, the guesses of the corrupted run with L3 H2 patched.

Cheap by design: every Python reference is computed first, then ONE page (one load of the
engine for the module) computes every browser number in ONE ``page.evaluate``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from explorer.analysis.patching import HEAD_HOOK, MIN_GAP, patch, patch_one
from explorer.analysis.run import prepare
from explorer.analysis.stages import head_stages
from explorer.models.settings import AttentionSettings
from explorer.models.zoo import DEFAULT_NAME
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
COMPUTE = """async ([details, pairs]) => {
  const E = AttentionExplorer.engine;
  const out = {details: [], patches: []};
  for (const [name, text, knobs] of details) {
    out.details.push((await E.run(text, {...knobs, model: name, detail: true})).detail);
  }
  for (const [name, clean, corrupt, head] of pairs) {
    const knobs = {model: name};
    if (head) knobs.patchHead = {layer: head[0], head: head[1]};
    out.patches.push(await E.patch(clean, corrupt, knobs));
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


@pytest.fixture(scope="module")
def computed(zoo_page, resources):
    """(Python's detail and patch cases, the browser's answers): one page, one evaluate."""
    tok, zoo = resources
    details = [detail_case(zoo, tok, *case) for case in DETAIL]
    patches = [patch_case(zoo, tok, *case) for case in PAIRS]
    got = zoo_page.evaluate(COMPUTE, [[list(c) for c in DETAIL],
                                      [[n, a, b, h and list(h)] for n, a, b, h in PAIRS]])
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
