"""The Explore grid's keystroke path (explorer/views/grid_payload.py, served by the canvas's
``grid_data`` server function): the same weights as the straightforward path, plain-text
labels, every malformed request refused with a message, and each concurrent request
answered with its own sentence through the real server."""

import base64
import concurrent.futures as cf
import time

import httpx
import numpy as np
import pytest

from explorer.analysis.run import MAX_CHARS
from explorer.figures.live_grid import to_percent
from explorer.views.controls import CONTROL_NAMES, BadControl, parse_controls
from explorer.views.explore import explore
from explorer.views.grid_payload import grid_payload, plain_label, read_request, safe_grid_payload

CONTROLS = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 1, 2, "light"]


def named(values) -> dict:
    """Controls in parse_controls order -> by name, as a keystroke's request carries them."""
    return dict(zip(CONTROL_NAMES, values, strict=True))


KNOBS = named(CONTROLS)


def cells(payload: dict) -> np.ndarray:
    """The payload's mosaic back as [layer, head, query, key] whole percent."""
    n, layers, heads = payload["n"], payload["layers"], payload["heads"]
    z = np.frombuffer(base64.b64decode(payload["z"]), dtype=np.uint8)
    return z.reshape(layers, n, heads, n).transpose(0, 2, 1, 3)


@pytest.mark.parametrize("mask", ["as trained", "off"])
def test_the_payload_holds_exactly_the_weights_of_the_straightforward_path(resources, mask):
    tok, zoo = resources
    controls = parse_controls(*CONTROLS[:3], mask, *CONTROLS[4:])
    text = "The cat saw the cat. It ran."
    p = grid_payload(zoo, tok, text, controls)
    reference = explore(zoo, tok, text, controls)  # go.Figure grid: one heatmap per head
    assert p["ok"] and (p["layers"], p["heads"]) == (4, 4)
    got = cells(p)
    assert got.shape == (4, 4, p["n"], p["n"])
    for i, trace in enumerate(t for t in reference.grid.data if t.type == "heatmap"):
        want = to_percent(np.asarray(trace.z, dtype=np.float32))
        np.testing.assert_array_equal(got[i // 4, i % 4], want)
    assert (np.triu(got[0, 0], 1).sum() == 0) == (mask == "as trained")
    assert p["selected"] == [1, 2]
    assert p["controls"] == {**KNOBS, "mask": mask}  # echoed, by name
    assert len(p["guesses"]) == 3 and all(0 < q <= 1 for _, q in p["guesses"])
    assert ("experiment" in p["caption"]) == (mask == "off")


def test_labels_are_the_characters_typed_as_plain_text(resources):
    tok, zoo = resources
    p = grid_payload(zoo, tok, 'a <b>x</b> & "$y"', parse_controls(*CONTROLS))
    joined = "".join(p["tokens"])
    assert "<" in joined and "&" in joined and "&lt;" not in joined and "&amp;" not in joined
    assert plain_label(" the") == "␣the"
    assert plain_label("abcdefghijklmnopq") == "abcdefghijk…"


@pytest.mark.parametrize("request_", [
    None, "text", [], {"text": "hi"}, {"controls": KNOBS}, {"text": 5, "controls": KNOBS},
    {"text": "hi", "controls": "abc"},
    {"text": "hi", "controls": CONTROLS},  # the old nine values by position
    {"text": "hi", "controls": {k: v for k, v in KNOBS.items() if k != "theme"}},
    {"text": "hi", "controls": {**KNOBS, "nope": 1}},
    {"text": "hi", "controls": KNOBS, "more": 1},
    {"text": "hi", "controls": {**KNOBS, "objective": "nope"}},
    {"text": "hi", "controls": {**KNOBS, "heads": 3}},
    {"text": "hi", "controls": {**KNOBS, "temperature": float("nan")}},
    {"text": "hi", "controls": {**KNOBS, "layer": "x"}},
    {"text": "hi", "controls": {**KNOBS, "layer": float("inf")}},
    {"text": "hi", "controls": {**KNOBS, "head": [1]}},
    {"text": "hi", "controls": {**KNOBS, "heads": "9" * 5000}},
])
def test_a_malformed_request_gets_a_message_that_echoes_nothing(resources, request_):
    tok, zoo = resources
    with pytest.raises(BadControl):
        read_request(request_)
    p = safe_grid_payload(zoo, tok, request_)
    assert p == {"ok": False, "caption": p["caption"]} and p["caption"].startswith("⚠️")
    assert "nope" not in p["caption"]


def test_empty_long_and_out_of_range_requests(resources):
    tok, zoo = resources
    empty = safe_grid_payload(zoo, tok, {"text": "   ", "controls": KNOBS})
    assert not empty["ok"] and "Type a sentence" in empty["caption"]
    long = safe_grid_payload(zoo, tok, {"text": "cat " * 5000, "controls": KNOBS})
    assert long["ok"] and len(long["text"]) == MAX_CHARS + 1  # cut before any work
    assert long["n"] <= 128 and "⚠️" in long["caption"]  # the notice says what was cut
    far = safe_grid_payload(zoo, tok, {"text": "a b",
                                       "controls": {**KNOBS, "layer": 99, "head": -5}})
    assert far["selected"] == [3, 0]  # layer and head clamped to the model


def _grid_id(url: str) -> int:
    config = httpx.get(url + "config", timeout=10).json()
    return next(c["id"] for c in config["components"]
                if c.get("props", {}).get("elem_id") == "grid")


def _ask(url: str, component: int, data, fn_name: str = "grid_data",
         session: str = "test-grid") -> httpx.Response:
    return httpx.post(url + "gradio_api/component_server/", timeout=30, json={
        "data": data, "component_id": component, "fn_name": fn_name,
        "session_hash": session})


def test_the_server_answers_the_canvas_and_nothing_else(app_url, resources):  # noqa: F811
    tok, zoo = resources
    grid = _grid_id(app_url)
    r = _ask(app_url, grid, {"text": "The dog ran.", "controls": KNOBS})
    assert r.status_code == 200
    assert r.json() == grid_payload(zoo, tok, "The dog ran.", parse_controls(*CONTROLS))
    assert _ask(app_url, grid, {"text": 1}).json()["ok"] is False
    assert _ask(app_url, grid, None, fn_name="__init__").status_code == 404  # only grid_data


def same_grid(got: dict, want: dict) -> None:
    """Two payloads of one sentence, one computed with others (a batch) and one alone: the
    same tokens, guesses and knobs; the weights the same up to float32's last bits (a
    weight on the edge of a whole percent may round the other way), see analyse_batch."""
    assert {k: v for k, v in got.items() if k not in ("z", "guesses")} == \
        {k: v for k, v in want.items() if k not in ("z", "guesses")}
    assert [t for t, _ in got["guesses"]] == [t for t, _ in want["guesses"]]
    np.testing.assert_allclose([q for _, q in got["guesses"]], [q for _, q in want["guesses"]],
                               atol=2e-4)
    a, b = cells(got).astype(int), cells(want).astype(int)
    assert np.abs(a - b).max() <= 1 and (a != b).mean() < 0.002


def test_concurrent_keystrokes_each_get_their_own_sentence(app_url, resources):  # noqa: F811
    """24 sentences from 8 threads at once (several share a pass through the model): each
    answer is that sentence's answer computed alone (see same_grid)."""
    tok, zoo = resources
    grid = _grid_id(app_url)
    texts = [f"Tom had {i} red balls and " + "a big dog " * (i % 5) for i in range(24)]
    alone = [grid_payload(zoo, tok, t, parse_controls(*CONTROLS)) for t in texts]

    def one(text):
        """As the page asks: a keystroke refused because the server is behind ("retry":
        how far behind depends on the box's speed) is asked again after a pause."""
        deadline = time.monotonic() + 120
        while True:
            got = _ask(app_url, grid, {"text": text, "controls": KNOBS}, session=text).json()
            if not got.get("retry") or time.monotonic() > deadline:
                return got
            time.sleep(0.25)  # the page's own pause before it asks again (static/live.js)

    with cf.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(one, texts))
    for got, want in zip(answers, alone, strict=True):
        same_grid(got, want)


def test_a_batch_of_keystrokes_equals_each_alone(resources):
    """grid_payloads (the queue's run_batch) of mixed requests: models, knobs, lengths,
    empty and malformed ones, each as safe_grid_payload gives it alone."""
    from explorer.views.grid_payload import grid_payloads

    tok, zoo = resources
    off = {**KNOBS, "mask": "off"}
    masked = {**KNOBS, "objective": "masked word (bidirectional)"}
    requests = [{"text": t, "controls": c} for c in (KNOBS, off, masked)
                for t in ("The cat", "The dog ran to the park.", "She saw a [mask] there.",
                          "A", "Lily and Ben went to the park. Lily said")]
    requests += [{"text": "  ", "controls": KNOBS}, {"text": 5}, None,
                 {"text": "hi", "controls": {**KNOBS, "heads": 3}}]
    together = grid_payloads(zoo, tok, requests)
    for request, got in zip(requests, together, strict=True):
        want = safe_grid_payload(zoo, tok, request)
        if want["ok"]:
            same_grid(got, want)
        else:
            assert got == want


@pytest.mark.parametrize("mask", ["as trained", "off"])
def test_the_lean_analysis_of_a_keystroke_matches_the_full_one(resources, mask):
    """detail=False (the keystroke's grid) skips the selected layer's scores, the
    statistics and the as-trained second run, and changes nothing it does compute."""
    from explorer.analysis.run import analyse

    tok, zoo = resources
    model = zoo.get("causal-h4-rotary")
    settings = parse_controls(*CONTROLS[:3], mask, *CONTROLS[4:]).settings()
    text = "Lily and Ben went to the park. Lily said"
    full = analyse(model, tok, text, settings, layer=2)
    lean = analyse(model, tok, text, settings, layer=2, detail=False)
    np.testing.assert_array_equal(lean.patterns, full.patterns)
    assert lean.predictions == full.predictions and lean.tokens == full.tokens
    assert lean.interventions == full.interventions
    assert lean.stats is None and lean.scores is None and lean.baseline_predictions is None
    assert (full.baseline_predictions is not None) == (mask == "off")
