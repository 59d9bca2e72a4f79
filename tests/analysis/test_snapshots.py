"""Training snapshots: checked loading, the per-snapshot view, the chart, the /training API."""

import json
import shutil

import numpy as np
import plotly.graph_objects as go
import pytest
import torch
from safetensors.torch import load_file, save_file

from explorer.analysis.snapshots import (
    COPY_PROBE,
    cached_snapshots,
    copy_control,
    even_spread,
    induction_trend,
    load_snapshots,
    previous_token_share,
    previous_token_trend,
    snapshot_view,
)
from explorer.figures.layers_and_training import training_chart
from explorer.models.checkpoint import sha256_file
from explorer.models.zoo import CHECKPOINT_DIR
from tests.plotdata import decode_array, figure_json, heatmaps

torch.set_num_threads(1)
NAME = "causal-h4-rotary"
CONTROLS = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0, "light"]
TEXT = "Once there was a girl named Mia. Mia had a red ball."


@pytest.fixture(scope="module")
def tok():
    from explorer.models.tokenizer import Tokenizer

    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


@pytest.fixture(scope="module")
def snaps(tok):
    return cached_snapshots(CHECKPOINT_DIR, NAME, tok.vocab_size)


def card() -> dict:
    return json.loads((CHECKPOINT_DIR / f"{NAME}.json").read_text())


def test_every_listed_snapshot_loads_in_step_order(snaps):
    listed = card()["snapshots"]
    assert [s.step for s in snaps.snapshots] == sorted(e["step"] for e in listed)
    assert not snaps.unavailable and len(snaps) == len(listed)
    assert [s.tokens for s in snaps.snapshots] == [e["tokens"] for e in listed]
    assert snaps.history and all("val_loss" in row for row in snaps.history)
    for s in snaps.snapshots:
        assert all(not p.requires_grad for p in s.model.parameters())
        assert not s.model.training


def test_cache_loads_once(snaps, tok):
    assert cached_snapshots(CHECKPOINT_DIR, NAME, tok.vocab_size) is snaps


def test_last_snapshot_is_the_shipped_model(snaps):
    final = load_file(str(CHECKPOINT_DIR / f"{NAME}.safetensors"))
    state = snaps.snapshots[-1].model.state_dict()
    for key, value in final.items():
        assert torch.equal(state[key], value.float()), key


@pytest.fixture
def copy_dir(tmp_path):
    """A private copy of the checkpoint files the snapshots need, to break on purpose."""
    (tmp_path / "snapshots").mkdir()
    shutil.copytree(CHECKPOINT_DIR / "snapshots" / NAME, tmp_path / "snapshots" / NAME)
    for name in (f"{NAME}.json", f"{NAME}.safetensors", "manifest.json"):
        shutil.copy(CHECKPOINT_DIR / name, tmp_path / name)
    return tmp_path


def edit_json(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_altered_snapshot_is_skipped_by_its_sha256(copy_dir):
    entry = card()["snapshots"][1]
    path = copy_dir / "snapshots" / NAME / entry["file"]
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    snaps = load_snapshots(copy_dir, NAME)
    assert entry["file"] not in [s.file for s in snaps.snapshots]
    assert len(snaps) == len(card()["snapshots"]) - 1
    assert any("sha256" in why for f, why in snaps.unavailable if f == entry["file"])


def test_path_in_the_card_and_unlisted_file_are_refused(copy_dir):
    def change(data):
        data["snapshots"][0]["file"] = f"../../{NAME}.safetensors"
        data["snapshots"][1]["file"] = "step_99999.safetensors"

    edit_json(copy_dir / f"{NAME}.json", change)
    shutil.copy(copy_dir / f"{NAME}.safetensors",
                copy_dir / "snapshots" / NAME / "step_99999.safetensors")
    snaps = load_snapshots(copy_dir, NAME)
    reasons = dict(snaps.unavailable)
    assert "not a snapshot file name" in reasons[f"../../{NAME}.safetensors"]
    assert "manifest" in reasons["step_99999.safetensors"]
    assert len(snaps) == len(card()["snapshots"]) - 2


def test_non_finite_or_misshapen_weights_are_refused_even_with_a_matching_sha(copy_dir):
    entries = card()["snapshots"]
    bad_nan, bad_shape = entries[2]["file"], entries[3]["file"]
    for file, spoil in ((bad_nan, "nan"), (bad_shape, "shape")):
        path = copy_dir / "snapshots" / NAME / file
        from safetensors import safe_open

        with safe_open(str(path), framework="pt") as f:
            meta = f.metadata()
        tensors = load_file(str(path))
        key = next(k for k in tensors if k.endswith("W_Q.weight"))
        if spoil == "nan":
            tensors[key][0, 0] = float("nan")
        else:
            tensors[key] = tensors[key][:-1]
        save_file(tensors, str(path), metadata=meta)
        edit_json(copy_dir / "manifest.json",
                  lambda d, f=file, p=path: d["files"].update(
                      {f"snapshots/{NAME}/{f}": sha256_file(p)}))
    reasons = dict(load_snapshots(copy_dir, NAME).unavailable)
    assert "NaN" in reasons[bad_nan] and "shape" in reasons[bad_shape]


def test_missing_card_or_snapshots_give_an_empty_set(tmp_path):
    snaps = load_snapshots(tmp_path, NAME)
    assert len(snaps) == 0 and snaps.unavailable
    with pytest.raises(IndexError):
        snaps.get(0)


def test_previous_token_share_and_even_spread():
    n = 5
    prev = np.zeros((1, 2, n, n))
    prev[0, 0, 0, 0] = 1.0
    prev[0, 0, np.arange(1, n), np.arange(n - 1)] = 1.0  # a perfect previous-token head
    prev[0, 1] = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]  # even spread
    share = previous_token_share(prev)
    assert share[0, 0] == 1.0
    assert share[0, 1] == pytest.approx(even_spread(n, causal=True))
    assert even_spread(4, causal=False) == 0.25 and even_spread(1, causal=True) == 0.0


def test_snapshots_differ_and_the_trend_covers_all(snaps, tok):
    first = snapshot_view(snaps, tok, TEXT, 0)
    last = snapshot_view(snaps, tok, TEXT, len(snaps) - 1)
    assert first.patterns.shape == last.patterns.shape
    assert not np.allclose(first.patterns, last.patterns, atol=1e-3)
    assert snapshot_view(snaps, tok, TEXT, 99).index == len(snaps) - 1  # bounded
    trend = previous_token_trend(snaps, tok, TEXT)
    assert len(trend) == len(snaps) and trend[-1] > trend[0]
    # Barely trained (the first snapshot is at 0.5 % of training), heads still spread almost
    # evenly: the previous-token share is near the baseline, far below the final head's.
    assert trend[0] == pytest.approx(even_spread(len(first.tokens), True), abs=0.08)
    assert trend[-1] > trend[0] + 0.2


def test_the_copying_head_appears_during_training(snaps, tok):
    """On a list said twice, the best weight on the copy target is near chance at the first
    snapshot and high at the last; a sentence too long to double gives no curve."""
    copying = induction_trend(snaps, tok, "spoon lamp sock bread egg coat fork shoe.")
    assert len(copying) == len(snaps) and copying[0] < 0.2 < 0.5 < copying[-1]
    assert induction_trend(snaps, tok, "word " * 100) is None


def test_the_view_draws_the_built_in_list_beside_the_sentence(snaps, tok):
    """The word-list curve is there whatever the sentence, so the jump shows even on a
    story sentence whose own copy curve stays low."""
    from explorer.views.controls import parse_controls
    from explorer.views.through_training import training_view

    view = training_view(snaps, tok, TEXT, parse_controls(*CONTROLS), len(snaps) - 1)
    curves = {t.name: list(t.y) for t in view.chart.data}
    probe = curves["induction (a word list said twice)"]
    assert probe == pytest.approx(induction_trend(snaps, tok, COPY_PROBE))
    assert probe[0] < 0.2 and probe[-1] > 0.5
    assert f"list of words said twice, the best head puts {probe[-1]:.0%}" in view.status


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_training_chart_is_valid_plotly(snaps, theme):
    points = [(s.step, s.tokens, s.train_loss) for s in snaps.snapshots]
    fig = training_chart(snaps.history, points, 2, trend=[0.1] * len(points), baseline=0.15,
                         theme=theme)
    go.Figure(fig.to_dict())  # validation on
    assert fig.layout.shapes[0].x0 == snaps.snapshots[2].tokens
    both = training_chart(snaps.history, points, 2, trend=[0.1] * len(points),
                          induction=[0.1] * len(points), induction_probe=[0.7] * len(points),
                          theme=theme)
    go.Figure(both.to_dict())
    names = [t.name for t in both.data]
    assert "induction (sentence said twice)" in names
    assert "induction (a word list said twice)" in names
    notes = " ".join(a.text for a in both.layout.annotations)
    assert "dotted" in notes and "dash-dot" in notes
    assert training_chart(snaps.history, points, 0).layout.height < fig.layout.height
    with pytest.raises(ValueError):
        training_chart(snaps.history, points, len(points))


def test_the_chart_stops_at_the_snapshot_on_the_whole_runs_axis(snaps):
    points = [(s.step, s.tokens, s.train_loss) for s in snaps.snapshots]
    n = len(points)
    fig = training_chart(snaps.history, points, 1, trend=[0.1] * n, baseline=0.15,
                         induction=[0.2] * n, induction_probe=[0.3] * n)
    upto = snaps.snapshots[1].tokens
    for trace in fig.data:
        if trace.name != "even spread":  # a reference line across the axis, not data
            assert max(trace.x) <= upto, trace.name  # nothing after this snapshot is drawn
    low, high = fig.layout.xaxis.range
    assert 10 ** high >= snaps.snapshots[-1].tokens * 0.999  # room for the rest of the run
    assert 10 ** low <= snaps.snapshots[0].tokens * 1.001


def test_the_early_bump_on_the_list_is_not_copying(snaps, tok):
    """Step 7 read the list's 33 % at snapshot 1 as copying before the previous-word head:
    the best head there looks a fixed distance back (the same places, the list's second
    half swapped: about as much); the last snapshot's copies (far less without the copy)."""
    from explorer.views.controls import parse_controls
    from explorer.views.through_training import training_view

    early, late = copy_control(snaps, tok, 1), copy_control(snaps, tok, len(snaps) - 1)
    assert early[0] > 0.25 and early[1] >= early[0] / 2
    assert late[0] > 0.5 and late[1] < late[0] / 4
    status = training_view(snaps, tok, TEXT, parse_controls(*CONTROLS), 1).status
    assert "Not copying yet" in status
    assert "It copies" in training_view(snaps, tok, TEXT, parse_controls(*CONTROLS),
                                        len(snaps) - 1).status


# --------------------------------------------------------------------------- API


@pytest.fixture(scope="module")
def client(extras_url):
    from gradio_client import Client

    return Client(extras_url, verbose=False)


def test_api_training_redraws_for_each_snapshot(client, snaps, tok):
    grids = []
    for index in (0, len(snaps) - 1):
        status, chart, grid, big = client.predict(TEXT, *CONTROLS, index,
                                                  api_name="/training")
        snap = snaps.snapshots[index]
        assert f"Snapshot {index} (0 = first, {len(snaps) - 1} = last)" in status
        assert f"{snap.tokens:,}" in status and f"{snap.train_loss:.2f}" in status
        expected = snapshot_view(snaps, tok, TEXT, index).patterns
        panels = heatmaps(figure_json(grid))
        np.testing.assert_allclose(panels[0], expected[0, 0], atol=1e-6)
        marker = [t for t in figure_json(chart)["data"] if t.get("name") == "this snapshot"]
        assert decode_array(marker[0]["x"]).tolist() == [snap.tokens]
        grids.append(panels)
        assert figure_json(big)["data"]
    assert not np.allclose(grids[0][5], grids[1][5], atol=1e-3)


def test_api_training_notes_other_models_and_experiments(client):
    controls = list(CONTROLS)
    controls[1], controls[3] = 2, "off"  # another head count; mask off
    status, chart, grid, _ = client.predict(TEXT, *controls, 0, api_name="/training")
    assert "Snapshots exist for **causal-h4-rotary** only" in status
    assert "Experiment on the trained model" in status
    z = heatmaps(figure_json(grid))[0]
    assert np.triu(z, 1).sum() > 0


def test_api_training_empty_text(client):
    status, chart, grid, big = client.predict("", *CONTROLS, 0, api_name="/training")
    assert "Type a sentence" in status and grid is None


def test_tab_without_snapshots_or_with_bad_controls_explains(tok):
    from explorer.analysis.snapshots import SnapshotSet
    from explorer.ui.through_training_tab import compute
    from explorer.views.through_training import NO_SNAPSHOTS

    assert compute(SnapshotSet(NAME, (), ()), tok, TEXT, CONTROLS, 0)[0] == NO_SNAPSHOTS
    bad = list(CONTROLS)
    bad[2] = "spiral"
    status, *figs = compute(SnapshotSet(NAME, (), ()), tok, TEXT, bad, 0)
    assert status.startswith("⚠️") and figs == [None, None, None]


def test_step_7s_answer_holds_on_its_own_sentence(snaps, tok):
    """Step 7 (issue 51 item 15): on the step's sentence, the solid previous-word curve
    climbs to about half while the dotted copy curve stays near zero; then, between two
    snapshots, copying jumps and the previous-word head sharpens with it. So "The previous
    word (solid)" is the one choice that holds: not "Both at once" (the solid curve had
    risen well before), not "The copy" (it was flat until the jump)."""
    from explorer.views.start_here import REPEAT
    from explorer.views.start_here_choices import CHOICES

    prev = previous_token_trend(snaps, tok, REPEAT)
    copy = induction_trend(snaps, tok, REPEAT)
    jump = int(np.argmax(np.diff(copy))) + 1  # the snapshot copying appears at
    assert copy[jump] - copy[jump - 1] > 0.3  # suddenly
    assert max(copy[:jump]) < 0.1  # near zero before it
    assert 0.35 < prev[jump - 1] < 0.6  # "about half" before the copy appears ...
    assert prev[jump - 1] > prev[0] + 0.25  # ... climbed to over the first snapshots
    assert prev[jump] - prev[jump - 1] > 0.2  # sharpens at the same moment
    assert CHOICES[7][0].startswith("The previous word")
