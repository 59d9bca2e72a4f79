"""Exports read back: CSV values equal the capture, NPZ arrays equal it, JSON round-trips;
files go to fresh per-request directories that are cleaned up; the /export_* API."""

import csv
import io
import json
import os
import time

import httpx
import numpy as np
import pytest
import torch

from explorer.models.settings import AttentionSettings
from explorer.views.controls import parse_controls
from explorer.views.export import (
    CSV_ENCODING,
    EXPORT_ROOT,
    PREFIX,
    clean_old,
    export_capture,
    fresh_dir,
    grid_csv,
    head_csv,
    read_npz,
    to_json,
    token_labels,
    write_files,
)
from tests.plotdata import figure_json, heatmaps

torch.set_num_threads(1)
CONTROLS = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 2, 3, "light"]
# Commas, quotes, a newline, a formula-looking start, markup, an emoji and a NUL.
NASTY = '=SUM(A1) "quoted", text\nnew line <b>bold</b> 👩‍💻 tab\there \x00 end'


@pytest.fixture(scope="module")
def real(resources):
    tok, zoo = resources
    return tok, zoo.get("causal-h4-rotary")


@pytest.fixture(scope="module")
def capture(real):
    tok, model = real
    return export_capture(model, tok, NASTY, "causal-h4-rotary",
                          AttentionSettings(causal=False, temperature=1.5), {"layer": 2})


def read_matrix_csv(text: str) -> tuple[list[str], list[str], np.ndarray]:
    rows = list(csv.reader(io.StringIO(text)))
    header, body = rows[0], rows[1:]
    return header[1:], [r[0] for r in body], np.array([[float(v) for v in r[1:]]
                                                        for r in body])


def test_capture_holds_every_layer_and_head(capture):
    n = len(capture.tokens)
    assert capture.patterns.shape == capture.scores.shape == (4, 4, n, n)
    np.testing.assert_allclose(capture.patterns.sum(-1), 1.0, atol=1e-5)
    assert np.triu(capture.patterns[0, 0], 1).sum() > 0  # mask off was applied
    assert capture.settings["causal"] is False and capture.settings["temperature"] == 1.5
    assert capture.settings["layer"] == 2 and "causal mask off" in " ".join(
        capture.settings["interventions"])
    assert capture.text == NASTY


def test_head_csv_values_equal_the_capture_exactly(capture):
    keys, queries, values = read_matrix_csv(head_csv(capture, 2, 3))
    assert keys == queries == token_labels(capture.tokens)
    assert np.array_equal(values.astype(np.float32), capture.patterns[2, 3])  # bit for bit
    # Labels keep each token's text after its position, so the sentence reads back.
    assert "".join(label.split(":", 1)[1] for label in keys) == NASTY
    assert all(label[0].isdigit() for label in keys)  # never a formula in a spreadsheet


def test_grid_csv_long_form_equals_the_capture(capture):
    rows = list(csv.DictReader(io.StringIO(grid_csv(capture))))
    n = len(capture.tokens)
    assert len(rows) == 16 * n * n
    labels = {label: i for i, label in enumerate(token_labels(capture.tokens))}
    got = np.zeros_like(capture.patterns)
    for r in rows:
        got[int(r["layer"]), int(r["head"]), labels[r["query"]], labels[r["key"]]] = \
            np.float32(float(r["weight"]))
    assert np.array_equal(got, capture.patterns)


def test_written_files_read_back(capture, tmp_path):
    files = write_files(capture, 2, 3, root=tmp_path)
    assert files.head_csv.name == "attention-L2H3.csv"
    assert files.head_csv.read_bytes().startswith(b"\xef\xbb\xbf")  # BOM for spreadsheets
    _, _, values = read_matrix_csv(files.head_csv.read_text(encoding=CSV_ENCODING))
    assert np.array_equal(values.astype(np.float32), capture.patterns[2, 3])

    npz = read_npz(files.npz)
    assert np.array_equal(npz["patterns"], capture.patterns)
    assert np.array_equal(npz["scores"], capture.scores)
    assert npz["patterns"].dtype == np.float32 and npz["ids"].tolist() == capture.ids
    assert npz["tokens"] == capture.tokens  # exact, NUL included (from meta)
    with np.load(files.npz, allow_pickle=False) as raw:  # the plain array, for numpy users
        assert raw["tokens"].tolist() == [t.rstrip("\x00") for t in capture.tokens]
    assert npz["meta"]["settings"]["interventions"] == capture.settings["interventions"]

    doc = json.loads(files.json.read_text(encoding="utf-8"))
    assert doc["format"] == "attention-explorer-capture" and doc["text"] == NASTY
    assert doc["tokens"] == capture.tokens and doc["ids"] == capture.ids
    assert np.array_equal(np.array(doc["patterns"], dtype=np.float32), capture.patterns)
    assert np.array_equal(np.array(doc["scores"], dtype=np.float32), capture.scores)
    assert doc["shape"] == {"layers": 4, "heads": 4, "tokens": len(capture.tokens)}
    assert json.loads(to_json(capture)) == doc  # round-trips


def test_each_request_gets_its_own_directory_and_old_ones_go(tmp_path):
    a, b = fresh_dir(tmp_path), fresh_dir(tmp_path)
    assert a != b and a.name.startswith(PREFIX) and oct(a.stat().st_mode)[-3:] == "700"
    (a / "x.csv").write_text("x")
    old = time.time() - 3600
    os.utime(a, (old, old))
    keep = tmp_path / "not-ours"
    keep.mkdir()
    os.utime(keep, (old, old))
    assert clean_old(tmp_path) == 1
    assert not a.exists() and b.exists() and keep.exists()


def test_empty_text_exports_nothing(real):
    tok, model = real
    assert export_capture(model, tok, "", "m").empty


# --------------------------------------------------------------------------- API


@pytest.fixture(scope="module")
def client(extras_url):
    from gradio_client import Client

    return Client(extras_url, verbose=False)


def fetch(base_url: str, update: dict) -> bytes:
    """Download a DownloadButton's file through the server, as the browser would."""
    assert update.get("visible") is True
    response = httpx.get(f"{base_url}gradio_api/file={update['value']}", timeout=30)
    response.raise_for_status()
    return response.content


def test_api_export_files_equal_a_local_capture(client, extras_url, real, tmp_path):  # noqa: F811
    tok, model = real
    status, head, grid, npz, js = client.predict(NASTY, *CONTROLS, api_name="/export_files")
    local = export_capture(model, tok, NASTY, "causal-h4-rotary",
                           parse_controls(*CONTROLS).settings())
    text = fetch(extras_url, head).decode(CSV_ENCODING)
    keys, _, values = read_matrix_csv(text)
    assert head["value"].endswith("attention-L2H3.csv")
    assert keys == token_labels(local.tokens)
    assert np.array_equal(values.astype(np.float32), local.patterns[2, 3])
    rows = list(csv.DictReader(io.StringIO(fetch(extras_url, grid).decode(CSV_ENCODING))))
    assert len(rows) == 16 * len(local.tokens) ** 2
    (tmp_path / "c.npz").write_bytes(fetch(extras_url, npz))
    arrays = read_npz(tmp_path / "c.npz")
    assert np.array_equal(arrays["patterns"], local.patterns)
    assert arrays["meta"]["settings"]["layer"] == 2
    doc = json.loads(fetch(extras_url, js))
    assert np.array_equal(np.array(doc["patterns"], dtype=np.float32), local.patterns)
    # A second request writes its files into a new directory of its own (Gradio then
    # serves identical content from one content-addressed cache entry).
    before = set(EXPORT_ROOT.glob(PREFIX + "*"))
    client.predict(NASTY, *CONTROLS, api_name="/export_files")
    assert len(set(EXPORT_ROOT.glob(PREFIX + "*")) - before) == 1


def test_api_export_files_for_empty_text_offers_nothing(client):
    status, *downloads = client.predict(" ", *CONTROLS, api_name="/export_files")
    assert "Type a sentence" in str(status)
    assert all(d.get("visible") is False for d in downloads)


def test_api_export_view_draws_the_head_grid_and_link(client):
    status, head, grid, link = client.predict("The cat sat", *CONTROLS, "https://t.example/app",
                                              api_name="/export_view")
    assert "L2 H3" in status
    panels = heatmaps(figure_json(grid))
    assert len(panels) == 16
    np.testing.assert_allclose(np.nan_to_num(heatmaps(figure_json(head))[0]), panels[11],
                               atol=1e-6)
    assert link.startswith("https://t.example/app?text=The+cat+sat&")
