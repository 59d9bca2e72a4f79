"""A student's own Lab model in the views (explorer/views/lab_models.py): the per-session
registry (isolation across threads, bounds, dropped with the session), the (zoo, tokenizer)
a request is served with and its messages, and Explore, Inside one head, Compare and Take
it home on a tiny Lab model trained here (a few seeded steps)."""

import threading

import numpy as np
import pytest
import torch

from explorer.models.lab_tokenizer import LAB_WORDS, START_LABEL
from explorer.models.zoo import LAB_MODEL_NAME, Zoo
from explorer.training.lab import LabSettings, run_lab
from explorer.views.compare import compare_view
from explorer.views.controls import LAB_OBJECTIVE, BadControl, Controls, parse_controls
from explorer.views.explore import clear_heads_view, explore, run_request, settled_update
from explorer.views.grid_payload import read_request
from explorer.views.inside import inside_view
from explorer.views.lab import PROBE_SENTENCE, PROBE_TOKENS
from explorer.views.lab_models import (
    LAB_TOKENIZER,
    NOT_OPEN,
    LabModels,
    grid_payloads_by_model,
    lab_knobs,
    route_keystroke,
    source,
)
from explorer.views.take_home import lab_model_file, notebook_code, take_home_view

SETTINGS = LabSettings(max_steps=12, seconds=30.0, update_s=100.0, batch=8, seed=3)
LAB = [LAB_OBJECTIVE, 2, "learned", "as trained", "1/√d_head", 1.0, 1, 1, "light"]
TEXT = "cat sun tree dog cat sun tree"


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """(path of a tiny trained Lab model, its summary): 12 steps, seeded."""
    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("lab-run")
    summary = run_lab(SETTINGS, out=out)
    return out / "model.safetensors", summary


@pytest.fixture
def models(trained):
    registry = LabModels()
    registry.open("mine", *trained)
    return registry


def test_a_session_sees_only_its_own_model_across_threads(trained):
    registry = LabModels()
    seen, errors = {}, []

    def student(n: int) -> None:
        try:
            session = f"s{n}"
            if n % 2 == 0:  # half the class opened a model
                registry.open(session, *trained)
            for _ in range(20):
                opened = registry.get(session)
                seen.setdefault(session, set()).add(None if opened is None else id(opened))
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=student, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(seen[f"s{n}"] == {None} for n in range(1, 12, 2))  # none opened: none seen
    mine = [seen[f"s{n}"] for n in range(0, 12, 2)]
    assert all(len(s) == 1 and None not in s for s in mine)  # each its own, always
    assert len(set().union(*mine)) == 6  # six different models
    assert registry.get(None) is None and registry.get("") is None


def test_the_registry_is_bounded_and_drops_models_with_their_sessions(trained):
    registry = LabModels(max_sessions=3)
    for n in range(5):
        registry.open(f"s{n}", *trained)
    assert len(registry) == 3 and registry.get("s0") is None and registry.get("s4") is not None
    registry.get("s2")  # used recently: kept when the next one comes
    registry.open("s5", *trained)
    assert registry.get("s2") is not None and registry.get("s3") is None
    one = registry.get("s2").nbytes
    small = LabModels(max_bytes=2 * one)  # a memory cap: two models fit
    for n in range(3):
        small.open(f"s{n}", *trained)
    assert len(small) == 2 and small.nbytes <= 2 * one
    assert registry.drop("s2") and not registry.drop("s2")  # the page was closed
    assert registry.keep_only({"s4", "gone"}) == 1 and len(registry) == 1  # the sweep
    registry.open("s4", *trained)  # opening again replaces, never adds
    assert len(registry) == 1


def test_a_model_that_cannot_be_opened_gets_a_message(tmp_path, trained):
    registry = LabModels()
    with pytest.raises(BadControl, match="could not be opened"):
        registry.open("s", tmp_path / "missing.safetensors")
    (tmp_path / "bad.safetensors").write_bytes(b"not a checkpoint")
    with pytest.raises(BadControl, match="could not be opened"):
        registry.open("s", tmp_path / "bad.safetensors")
    with pytest.raises(BadControl):
        registry.open("", *trained)
    assert len(registry) == 0


def test_a_request_is_served_by_the_shared_zoo_or_the_sessions_own_model(models):
    shared, tok = Zoo(), object()
    zoo_controls = parse_controls("next word (causal)", 4, "rotary", "as trained",
                                  "1/√d_head", 1.0, 0, 0, "light")
    assert source(models, "mine", shared, tok, zoo_controls, "anything") == (shared, tok)
    lab = parse_controls(*LAB)
    zoo, lab_tok = source(models, "mine", shared, tok, lab, TEXT)
    assert zoo.get(LAB_MODEL_NAME) is models.get("mine").model and lab_tok is LAB_TOKENIZER
    with pytest.raises(BadControl, match="No Lab model is open"):
        source(models, "someone else", shared, tok, lab, TEXT)
    with pytest.raises(BadControl, match="2nd word"):
        source(models, "mine", shared, tok, lab, "cat <b>zebra</b> sun")
    # the shared zoo never serves the Lab name, and says so in words
    assert "only the zoo's models" in Zoo().why_missing(LAB_MODEL_NAME)
    fit = lab_knobs(models.get("mine"), 4, "rotary")
    assert (fit.heads, fit.pos, fit.fixed) == (2, "learned", True) and "2 layers" in fit.note
    assert lab_knobs(None, 4, "rotary").note == NOT_OPEN


def test_explore_and_inside_one_head_read_the_lab_words(models):
    c = parse_controls(*LAB)
    zoo, tok = source(models, "mine", None, None, c, TEXT)
    r = explore(zoo, tok, TEXT, c)
    assert r.grid is not None and "Your Lab model" in r.status
    assert "2 layers × 2 heads" in r.status
    drawn = r.head.to_json()  # the large head's labels: the start token, then the words
    assert "start" in drawn and '"cat"' in drawn and '"tree"' in drawn
    guesses = run_request(zoo, tok, TEXT, c, detail=False).result.predictions
    assert len(guesses) == 8 and all(g in (*LAB_WORDS, START_LABEL) for g, _ in guesses)
    settled = settled_update(zoo, tok, TEXT, c)
    assert settled[0] is not None and "Your Lab model" in settled[4]
    v = inside_view(zoo, tok, TEXT, c)
    assert "Your Lab model" in v.status and "no LayerNorm" in v.status
    assert all(f is not None for f in v.in_order()[:3])
    text, labels = clear_heads_view(None, LAB_OBJECTIVE, 2, "learned")
    assert labels == [] and "Lab tab" in text


def test_keystrokes_of_different_models_never_share_a_batch(models, resources):
    tok, shared = resources
    zoo_request = read_request({"text": "The cat sat.", "controls": Controls().named()})
    lab_request = {"text": TEXT + " d",  # "d" is being typed: dog; the page's JSON, by name
                   "controls": parse_controls(*LAB).named()}
    routed = [route_keystroke(models, s, shared, tok, r)
              for s, r in (("mine", lab_request), ("other", zoo_request))]
    assert routed[0][0] is not shared and routed[1] == (shared, tok)
    answers = grid_payloads_by_model([(lab_request, routed[0]), (zoo_request, routed[1])])
    assert answers[0]["ok"] and answers[0]["tokens"] == [START_LABEL, *TEXT.split()]
    assert answers[1]["ok"] and answers[1]["tokens"][0] == "The"
    for session, text in (("other", TEXT), ("mine", "the cat sat")):  # no model, no words
        answer = route_keystroke(models, session, shared, tok,
                                 {"text": text, "controls": parse_controls(*LAB).named()})
        assert answer["ok"] is False and answer["caption"].startswith("⚠️")
        assert "the cat sat" not in answer["caption"]
    assert route_keystroke(models, "mine", shared, tok, "junk") == (shared, tok)


def test_compare_sets_a_lab_model_beside_a_zoo_model_word_by_word(models, resources):
    tok, shared = resources
    a = parse_controls(*LAB)
    b = parse_controls("next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0,
                       1, 1, "light")
    sides = [source(models, "mine", shared, tok, c, TEXT) for c in (a, b)]
    v = compare_view(shared, tok, TEXT, a, b, sources=sides)
    assert v.left_head is not None and v.right_head is not None and v.difference is None
    assert "word by word" in v.status
    assert "head counts" not in v.status and "layers; only" not in v.status  # nothing paired
    rows = v.comparison.predictions
    words = [w for w, _, _ in rows]
    assert len(words) == len(set(words)) and all(w == w.strip().lower() for w in words)
    assert all(0 <= p <= 1 and 0 <= q <= 1 for _, p, q in rows)
    assert any(p > 0 and q > 0 for _, p, q in rows)  # a word both models can say
    same = compare_view(shared, tok, TEXT, a, a, sources=[sides[0], sides[0]])
    assert same.difference is not None  # one Lab model, two knob settings: subtracted
    assert np.allclose(same.comparison.diff, 0)


def test_take_it_home_exports_the_lab_model_but_makes_no_link(models, tmp_path):
    c = parse_controls(*LAB)
    zoo, tok = source(models, "mine", None, None, c, TEXT)
    status, big, grid, link, qr = take_home_view(zoo, tok, TEXT, LAB, "http://x/")
    assert big is not None and grid is not None and link == "" and qr is None
    assert "No link for your Lab model" in status and "Your Lab model" in status
    caption = " ".join(a.text for a in big.layout.annotations)
    assert "cat sun tree dog" in caption  # the words as typed, not run together
    path = lab_model_file(zoo, LAB)
    assert path.endswith(f"{LAB_MODEL_NAME}.safetensors")
    zoo_controls = ["next word (causal)", *LAB[1:]]
    assert lab_model_file(zoo, zoo_controls) is None
    # the notebook cell loads the downloaded file and draws it: run it here
    cell = notebook_code(TEXT, c, 1, 1)
    (tmp_path / f"{LAB_MODEL_NAME}.safetensors").write_bytes(open(path, "rb").read())
    import os

    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        scope: dict = {}
        exec(compile(cell, "cell", "exec"), scope)  # noqa: S102  (our own cell)
    finally:
        os.chdir(here)


def test_the_lab_probe_is_shown_in_words():
    assert PROBE_TOKENS[0] == START_LABEL and all(w in LAB_WORDS for w in PROBE_TOKENS[1:])
    assert PROBE_SENTENCE.split() == PROBE_TOKENS[1:]
    half = len(PROBE_TOKENS[1:]) // 2
    assert PROBE_TOKENS[1:1 + half] == PROBE_TOKENS[1 + half:]  # said twice


def test_ablate_switches_heads_of_the_lab_model_and_its_ranking_is_its_own(models, trained):
    from explorer.views.ablate import ablate_view
    from explorer.views.lab_models import model_key

    c = parse_controls(*LAB)
    zoo, tok = source(models, "mine", None, None, c, TEXT)
    v = ablate_view(zoo, tok, TEXT, c, ["L1 H0", "L3 H3"])  # L3 H3: not in a 2 × 2 model
    assert v.grid is not None and v.ranking is not None and len(v.table) == 4
    assert "L3 H3" not in str(v.grid.to_json())
    assert v.status.startswith("**Your Lab model**") and LAB_MODEL_NAME not in v.status
    first = model_key(zoo, LAB_MODEL_NAME)
    models.open("mine", *trained)  # opened again: another model for a cached ranking
    again = model_key(models.get("mine").zoo, LAB_MODEL_NAME)
    assert first != again and first.startswith(LAB_MODEL_NAME)
    assert model_key(Zoo(), "causal-h4-rotary") == "causal-h4-rotary"
