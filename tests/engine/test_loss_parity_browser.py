"""The browser's loss and head ranking (static/engine/losses.js: ``engine.loss``,
``engine.rank``) against the Python functions, in real Chromium, on the zoo (issue 48).

The references: :func:`explorer.analysis.losses.loss_spec` + ``spec_loss`` on the sentence as
:func:`explorer.analysis.run.prepare` reads it (the Ablate view's and the Explore caption's
loss), and :func:`explorer.views.ablate.rank_heads` (the Ablate view's ranking). Checked: for
every zoo model, the 50 everyday sentences of tests/data/ and a handful of hard ones (a [mask],
one token, past 16 words; past the 128-token context on a few models) as trained and under
a rotating knob setting (mask off, scaling none, temperature, heads off), the same positions
and words and the loss within 1e-3; and for the default model and a few others, every head's
rise within 1e-3 and the same top three heads (a place may swap with a head whose rise is
within 1e-3 of it).

Cheap by design: every Python reference is computed first, then ONE page (one load of the
engine for the module) computes every browser number in ONE ``page.evaluate``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.analysis.losses import LossSpec, loss_spec, spec_loss
from explorer.analysis.run import prepare
from explorer.models.settings import AttentionSettings
from explorer.models.zoo import DEFAULT_NAME, checkpoint_name
from explorer.views.ablate import rank_heads
from explorer.views.controls import HEADS, POSITIONAL

TOLERANCE = 1e-3
ZOO = [checkpoint_name("causal", h, pos) for h in HEADS for pos in POSITIONAL] \
    + [checkpoint_name("bidir", 4, "rotary")]
RANKED = [DEFAULT_NAME, "causal-h8-alibi", "causal-h1-learned", "bidir-h4-rotary"]
EVERYDAY = (Path(__file__).resolve().parents[1] / "data" / "everyday_sentences.txt") \
    .read_text(encoding="utf-8").splitlines()
SENTENCES = [
    *EVERYDAY,  # the 50 sentences, each on every model
    "The dog chased the [mask] into the garden.",
    "x",  # one token: no next-word loss
    "Tim wrote a list: apple chair river moon shoe bell cup. He read it again: apple chair "
    "river moon shoe bell cup, and then he went to bed.",  # past 16 words
]
# past the 128-token context: costly (a masked-word model reads it 16 times), so on a few
# models, as trained
LONG = " ".join(["Once there was a girl named Mia who had a red ball."] * 14)
LONG_ON = [DEFAULT_NAME, "causal-h8-sinusoidal", "causal-h2-learned", "bidir-h4-rotary"]
# Knobs as the engine takes them (heads_off filtered to the model's heads).
KNOBS = [
    {"causal": False},
    {"causal": True, "scale": "none"},
    {"heads_off": [[0, 0], [3, 1]]},
    {"scale": "d_model", "temperature": 2.0, "heads_off": [[2, 0]]},
    {"causal": False, "scale": "none", "temperature": 0.5, "heads_off": [[1, 0]]},
    {"temperature": 0.5, "heads_off": [[0, 1], [1, 2], [3, 3]]},
]
RANK_CASES = [(DEFAULT_NAME, EVERYDAY[0], {}), (DEFAULT_NAME, SENTENCES[-1], {"causal": False}),
              ("causal-h8-alibi", EVERYDAY[7], {}),
              ("causal-h1-learned", EVERYDAY[0], {"scale": "none", "heads_off": [[1, 0]]}),
              ("bidir-h4-rotary", SENTENCES[-3], {})]
COMPUTE = """async ([losses, ranks]) => {
  const E = AttentionExplorer.engine;
  const out = {losses: [], ranks: []};
  for (const [name, text, knobs] of losses) {
    out.losses.push(await E.loss(text, {...knobs, model: name}));
  }
  for (const [name, text, knobs] of ranks) {
    out.ranks.push(await E.rank(text, {...knobs, model: name}));
  }
  return out;
}"""


def settings_of(knobs: dict, n_heads: int) -> tuple[dict, AttentionSettings]:
    off = [[la, h] for la, h in knobs.get("heads_off", []) if h < n_heads]
    knobs = {**knobs, "heads_off": off}
    return knobs, AttentionSettings(causal=knobs.get("causal"), scale=knobs.get("scale"),
                                    temperature=knobs.get("temperature", 1.0),
                                    head_mask=tuple(tuple(x) for x in off))


def spec_of(tok, model, text: str) -> LossSpec | str:
    ids = prepare(tok, text, model.config.n_ctx, not model.config.causal).ids
    return loss_spec(ids, model.config.causal, tok.mask_id)


def loss_cases(tok, zoo) -> list[dict]:
    """Every model × sentence, as trained and under one knob setting, with Python's loss."""
    cases = []
    for m, name in enumerate(ZOO):
        model = zoo.get(name)
        assert model is not None, name
        for i, text in enumerate(SENTENCES):
            for raw in ({}, KNOBS[(i + m) % len(KNOBS)]):
                knobs, settings = settings_of(raw, model.config.n_heads)
                spec = spec_of(tok, model, text)
                ok = isinstance(spec, LossSpec)
                cases.append({"name": name, "text": text, "knobs": knobs,
                              "loss": spec_loss(model, spec, settings) if ok else None,
                              "positions": spec.positions if ok else 0,
                              "how": spec.how if ok else spec})
    for name in LONG_ON:
        model = zoo.get(name)
        spec = spec_of(tok, model, LONG)
        cases.append({"name": name, "text": LONG, "knobs": {},
                      "loss": spec_loss(model, spec), "positions": spec.positions,
                      "how": spec.how})
    return cases


def rank_cases(tok, zoo) -> list[dict]:
    cases = []
    for name, text, raw in RANK_CASES:
        model = zoo.get(name)
        knobs, settings = settings_of(raw, model.config.n_heads)
        ranking = rank_heads(model, spec_of(tok, model, text), settings)
        cases.append({"name": name, "text": text, "knobs": knobs, "base": ranking.base,
                      "rows": [(r.layer, r.head, r.delta) for r in ranking.rows]})
    return cases


@pytest.fixture(scope="module")
def computed(zoo_page, resources):
    """(Python's cases, the browser's answers): one page, one evaluate."""
    tok, zoo = resources
    losses, ranks = loss_cases(tok, zoo), rank_cases(tok, zoo)
    got = zoo_page.evaluate(COMPUTE, [[[c["name"], c["text"], c["knobs"]] for c in losses],
                                      [[c["name"], c["text"], c["knobs"]] for c in ranks]])
    return losses, ranks, got


@pytest.mark.parametrize("name", ZOO)
def test_the_loss_is_pythons_on_every_zoo_model(computed, name):
    losses, _, got = computed
    checked = 0
    for want, js in zip(losses, got["losses"], strict=True):
        if want["name"] != name:
            continue
        where = (name, want["text"][:40], want["knobs"])
        assert js["positions"] == want["positions"], where
        assert js["how"] == want["how"], where
        if want["loss"] is None:
            assert js["loss"] is None, where
            continue
        assert abs(js["loss"] - want["loss"]) <= TOLERANCE, (*where, js["loss"], want["loss"])
        checked += 1
    assert checked >= len(SENTENCES)  # most sentences have a loss, under two settings each


def test_the_cases_cover_what_the_loss_does(computed):
    """Heads off, mask off, scaling none; the 16-word cut; a sentence with no loss."""
    losses, _, _ = computed
    knobs = [c["knobs"] for c in losses if c["loss"] is not None]
    assert any(k.get("heads_off") for k in knobs)
    assert any(k.get("causal") is False for k in knobs)
    assert any(k.get("scale") == "none" for k in knobs)
    assert any(c["positions"] == 16 and c["name"].startswith("bidir") for c in losses)
    assert any(c["loss"] is None for c in losses)
    assert any(c["positions"] == 127 for c in losses)  # the context's 128 tokens


@pytest.mark.parametrize("case", range(len(RANK_CASES)),
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(RANK_CASES)])
def test_the_ranking_is_the_ablate_views(computed, case):
    _, ranks, got = computed
    want, js = ranks[case], got["ranks"][case]
    assert abs(js["base"] - want["base"]) <= TOLERANCE
    rise = {(la, h): d for la, h, d in want["rows"]}
    assert len(js["heads"]) == len(rise)
    for row in js["heads"]:
        assert abs(row["delta"] - rise[row["layer"], row["head"]]) <= TOLERANCE, row
    for place, row in enumerate(js["heads"][:3]):
        la, h, delta = want["rows"][place]
        if (row["layer"], row["head"]) != (la, h):  # only a near tie may swap places
            assert abs(rise[row["layer"], row["head"]] - delta) <= TOLERANCE, (place, row)
