"""Ablate: switching heads off. The loss, the ranking and the captured tensors on tiny
seeded models, then the tab's API (``/ablate``) against a real server."""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer.analysis.head_types import head_types
from explorer.analysis.losses import MAX_MASKED, loss_spec, spec_loss
from explorer.models.capture import run_with_cache
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.views.ablate import (
    RANK_HEADERS,
    ablate,
    head_choices,
    parse_heads,
    rank_heads,
    ranking_rows,
    with_heads_off,
)
from tests.conftest import tiny_model
from tests.plotdata import figure_json, heatmaps
from tests.views.test_compare import SENTENCE, small

torch.set_num_threads(1)  # a shared 2-core machine: one thread per test process


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


REPEATS = "red, cat, tree, box, sun. red, cat, tree, box, sun."


def test_switching_a_head_off_zeroes_its_hook_z_and_changes_the_loss(tok):
    model = small(tok)
    ids = tok.encode(SENTENCE)
    tokens = torch.tensor([ids])
    off = with_heads_off(AttentionSettings(), [(1, 2)])
    _, on_cache = run_with_cache(model, tokens, None, names="*hook_z")
    _, off_cache = run_with_cache(model, tokens, off, names="*hook_z")
    z_on, z_off = on_cache["blocks.1.attn.hook_z"][0], off_cache["blocks.1.attn.hook_z"][0]
    assert z_on[2].abs().sum() > 0 and torch.all(z_off[2] == 0)
    torch.testing.assert_close(z_off[[0, 1, 3]], z_on[[0, 1, 3]])  # the rest of the layer
    torch.testing.assert_close(off_cache["blocks.0.attn.hook_z"], on_cache["blocks.0.attn.hook_z"])
    spec = loss_spec(ids, True, tok.mask_id)
    assert spec_loss(model, spec, off) != pytest.approx(spec_loss(model, spec), abs=1e-6)


def test_the_next_word_loss_is_the_mean_cross_entropy_over_the_sentence(tok):
    model = small(tok)
    ids = tok.encode(SENTENCE)
    spec = loss_spec(ids, True, tok.mask_id)
    assert spec.positions == len(ids) - 1 and "next-word" in spec.how
    with torch.inference_mode():
        logits = model(torch.tensor([ids]))[0]
    expected = F.cross_entropy(logits[:-1], torch.tensor(ids[1:])).item()
    assert spec_loss(model, spec) == pytest.approx(expected, abs=1e-5)  # fused == explicit
    assert isinstance(loss_spec(ids[:1], True, tok.mask_id), str)  # one token: no loss


def test_the_masked_word_loss_hides_each_word_in_turn(tok):
    ids = tok.encode("The cat sat on the mat.")
    with_mask = ids[:3] + [tok.mask_id] + ids[4:]
    spec = loss_spec(with_mask, False, tok.mask_id)
    assert spec.positions == len(ids) - 1  # the student's own [mask] is not scored
    assert 3 not in spec.cols.tolist()
    for row, col, target in zip(spec.rows, spec.cols, spec.targets, strict=True):
        line = spec.tokens[row]
        assert line[col] == tok.mask_id and target == with_mask[col]
        changed = (line != torch.tensor(with_mask)).nonzero().ravel().tolist()
        assert changed == [int(col)]  # exactly one word hidden per copy
    long = loss_spec(list(range(10, 60)), False, tok.mask_id)
    assert long.positions == MAX_MASKED and long.tokens.shape == (MAX_MASKED, 50)
    assert isinstance(loss_spec([tok.mask_id] * 3, False, tok.mask_id), str)
    bidir = small(tok, causal=False)
    assert np.isfinite(spec_loss(bidir, spec))


def test_the_ranking_is_sorted_and_has_a_row_per_head(tok):
    model = small(tok, n_heads=4)
    ids = tok.encode(SENTENCE)
    spec = loss_spec(ids, True, tok.mask_id)
    settings = AttentionSettings(temperature=1.5)
    ranking = rank_heads(model, spec, settings)
    assert len(ranking.rows) == 2 * 4
    assert {(r.layer, r.head) for r in ranking.rows} == {(la, h) for la in range(2)
                                                         for h in range(4)}
    deltas = [r.delta for r in ranking.rows]
    assert deltas == sorted(deltas, reverse=True)
    assert ranking.base == pytest.approx(spec_loss(model, spec, settings))
    top = ranking.rows[0]
    alone = with_heads_off(settings, [(top.layer, top.head)])
    assert top.loss == pytest.approx(spec_loss(model, spec, alone))
    assert top.delta == pytest.approx(top.loss - ranking.base)
    rows = ranking_rows(ranking, None, off=[(top.layer, top.head)])
    assert len(rows[0]) == len(RANK_HEADERS) and rows[0][1].endswith("(off)")


def test_ablating_changes_later_layers_only(tok):
    model = small(tok)
    a = ablate(model, tok, SENTENCE, AttentionSettings(), [(0, 1)])
    change = a.attention_change
    assert np.all(change[0] == 0)  # the ablated head's own layer sees nothing of it
    assert change[1].max() > 0
    assert a.loss_off != a.loss_on and a.off.probs is not None
    assert not np.allclose(a.off.probs, a.on.probs)
    none = ablate(model, tok, SENTENCE, AttentionSettings(), [])
    assert none.loss_off == none.loss_on and none.off is none.on


def test_head_labels_round_trip_and_strangers_are_dropped():
    assert head_choices(2, 2) == ["L0 H0", "L0 H1", "L1 H0", "L1 H1"]
    heads, dropped = parse_heads(["L1 H1", "L0 H0", "L0 H0", "L4 H0", "L0 H9", "nope"], 4, 4)
    assert heads == ((0, 0), (1, 1)) and dropped == ["L4 H0", "L0 H9", "nope"]
    assert parse_heads(None, 4, 4) == ((), [])


def test_head_types_of_a_real_sentence_cover_every_head(tok):
    model = tiny_model(vocab_size=tok.vocab_size)
    a = ablate(model, tok, REPEATS, AttentionSettings(), [])
    types = head_types(a.on.patterns, a.on.ids)
    assert types.kinds.shape == (2, 4) and types.induction_measurable


# --------------------------------------------------------------------------- the API

PANEL = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0, "light"]


@pytest.fixture(scope="module")
def client(compare_url):
    from gradio_client import Client

    return Client(compare_url, verbose=False)


def ablate_api(client, heads, text=SENTENCE, panel=None):
    return client.predict(text, *(panel or PANEL), heads, api_name="/ablate")


def table_rows(table) -> list[list]:
    assert table["headers"] == RANK_HEADERS
    return table["data"]


# The ranking's columns by name (the loss change sits next to the head, #30).
CHANGE, LOSS, PATTERN = (RANK_HEADERS.index(h)
                         for h in ("loss change", "loss without it", "pattern here"))


def test_api_ranking_has_a_row_per_head_sorted_by_loss_rise(client):
    status, grid, preds, change, intro, table, legend, pushes = ablate_api(client, [])
    rows = table_rows(table)
    assert len(rows) == 4 * 4
    rises = [float(r[CHANGE]) for r in rows]
    assert rises == sorted(rises, reverse=True)
    assert [int(r[0]) for r in rows] == list(range(1, 17))
    assert {r[1] for r in rows} == {f"L{la} H{h}" for la in range(4) for h in range(4)}
    assert all(r[PATTERN] for r in rows) and "next-word cross-entropy" in intro
    bases = [float(r[LOSS]) - float(r[CHANGE]) for r in rows]  # without it − change = all on
    assert max(bases) - min(bases) < 2e-3
    import re

    shown = float(re.search(r"it is \*\*([\d.]+)\*\*", intro)[1])
    assert abs(shown - np.mean(bases)) < 2e-3
    assert "What the patterns mean" in legend
    assert change is None and "Tick heads" in status
    assert len(heatmaps(figure_json(grid))) == 16
    assert np.array(heatmaps(figure_json(pushes))[0]).shape == (4, 4)  # layer x head
    assert "Which heads push" in str(figure_json(pushes)["layout"]["annotations"])


def test_api_switching_a_head_off_changes_loss_and_guesses(client):
    *_, table, _, _ = ablate_api(client, [])
    worst = table_rows(table)[0]
    status, grid, preds, change, intro, table, legend, pushes = ablate_api(client, [worst[1]])
    assert f"with {worst[1]} off" in status and "→" in status
    loss_on, loss_off = (float(x) for x in re.findall(r"\*\*(\d+\.\d+)\*\*", status)[:2])
    assert loss_off - loss_on == pytest.approx(float(worst[CHANGE]), abs=2e-3)
    bars = figure_json(preds)["data"]
    assert [b["name"] for b in bars] == ["all heads on", "heads off"]
    assert "off" in [a["text"].replace("<b>", "").replace("</b>", "")
                     for a in figure_json(grid)["layout"]["annotations"]]
    moved = heatmaps(figure_json(change))[0]
    layer = int(worst[1][1])
    assert np.all(moved[: layer + 1] == 0)  # nothing before or beside it moves
    assert table_rows(table)[0][1] == worst[1] + " (off)"
    layer, head = (int(x) for x in re.findall(r"\d+", worst[1]))
    assert heatmaps(figure_json(pushes))[0][layer][head] == 0  # off: it writes nothing


def test_api_sentence_that_repeats_itself_measures_copy_heads(client):
    *_, legend, _ = ablate_api(client, [], text=REPEATS)
    assert "cannot show" not in legend
    *_, legend, _ = ablate_api(client, [], text="One two three four.")
    assert "No token repeats" in legend


def test_api_refuses_heads_the_ui_never_offers(client):
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError):
        ablate_api(client, ["L9 H9"])
    status, *_ = ablate_api(client, [])
    assert "causal-h4-rotary" in status
