"""Tests for the training token streams and batches (explorer/training/data.py)."""

import itertools
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer.models.tokenizer import Tokenizer
from explorer.training import data
from explorer.training.data import build_dataset, load_corpus, mlm_batch, random_batches

TOKENIZER_JSON = Path(__file__).resolve().parents[2] / "checkpoints" / "tokenizer.json"
COLORS = ("red", "blue", "green", "pink", "yellow")
PETS = ("dog", "cat", "frog", "duck", "bear", "fish", "bird", "cow")


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(TOKENIZER_JSON)


@pytest.fixture()
def corpus(tmp_path) -> Path:
    """60 distinct little stories, one per line."""
    lines = [
        f"Story {i}. Once there was a {c} {p}. The {p} liked to play. The end."
        for i, (c, p) in enumerate(itertools.product(COLORS, PETS))
    ] + [f"Story {i}. A girl had {i} apples and shared them." for i in range(40, 60)]
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def documents(tok: Tokenizer, stream: np.ndarray) -> list[str]:
    """Decode a stream and cut it back into documents at <|endoftext|>."""
    return tok.decode(stream.tolist()).split("<|endoftext|>") if len(stream) else []


def build(corpus, tok, tmp_path, **kw):
    kw = {"probe_share": 0.2, "val_share": 0.1, "seed": 0, "cache_dir": tmp_path / "cache"} | kw
    return build_dataset(corpus, tok, **kw)


def test_load_corpus(corpus):
    stories, sha = load_corpus(corpus)
    assert len(stories) == 60 and stories[0].startswith("Story 0.")
    assert len(sha) == 64 and int(sha, 16) >= 0


def test_splits_are_disjoint_and_complete(corpus, tok, tmp_path):
    ds = build(corpus, tok, tmp_path, cache_dir=None)
    stories, _ = load_corpus(corpus)
    train_docs, val_docs = documents(tok, ds.train), documents(tok, ds.val)
    assert len(val_docs) == 6  # 10 % of 60
    assert not set(train_docs) & set(val_docs)
    assert set(train_docs) | set(val_docs) >= set(stories)
    train_probes = set(train_docs) - set(stories)
    val_probes = set(documents(tok, ds.val_probes))
    assert set(val_docs) <= set(stories)
    assert train_probes and val_probes and not train_probes & val_probes
    for arr in (ds.train, ds.val, ds.val_probes):
        assert arr.dtype == np.uint16


def test_probe_share_and_meta(corpus, tok, tmp_path):
    ds = build(corpus, tok, tmp_path, cache_dir=None)
    stories, sha = load_corpus(corpus)
    story_tokens = sum(len(tok.encode(s)) for s in documents(tok, ds.train) if s in stories)
    probe_tokens = (
        len(ds.train) - story_tokens - (ds.meta.n_train_stories + ds.meta.n_train_probes - 1)
    )
    assert probe_tokens / (probe_tokens + story_tokens) == pytest.approx(0.2, abs=0.03)
    assert ds.meta.probe_share == pytest.approx(0.2, abs=0.03)
    assert ds.meta.corpus_sha256 == sha and ds.meta.n_stories == 60
    assert ds.meta.tokens == {
        "train": len(ds.train),
        "val": len(ds.val),
        "val_probes": len(ds.val_probes),
    }


def test_no_probes_when_share_is_zero(corpus, tok, tmp_path):
    ds = build(corpus, tok, tmp_path, probe_share=0.0, cache_dir=None)
    stories, _ = load_corpus(corpus)
    assert set(documents(tok, ds.train)) <= set(stories)
    assert len(ds.val_probes) == 0


def test_deterministic_in_seed(corpus, tok, tmp_path):
    a = build(corpus, tok, tmp_path, cache_dir=None)
    b = build(corpus, tok, tmp_path, cache_dir=None)
    c = build(corpus, tok, tmp_path, seed=1, cache_dir=None)
    assert np.array_equal(a.train, b.train) and np.array_equal(a.val_probes, b.val_probes)
    assert set(documents(tok, a.val)) != set(documents(tok, c.val))


def test_cache_is_reused_and_keyed_on_settings(corpus, tok, tmp_path, monkeypatch):
    first = build(corpus, tok, tmp_path)
    assert len(list((tmp_path / "cache").glob("*.npz"))) == 1

    def fail(*args, **kwargs):
        raise AssertionError("tokenized again instead of using the cache")

    monkeypatch.setattr(data, "_tokenize_dataset", fail)
    again = build(corpus, tok, tmp_path)
    assert np.array_equal(first.train, again.train) and again.meta == first.meta
    assert again.train.dtype == np.uint16
    with pytest.raises(AssertionError, match="tokenized again"):
        build(corpus, tok, tmp_path, seed=5)


def test_random_batches_shapes_and_shift():
    arr = np.arange(500, dtype=np.uint16)
    gen = torch.Generator().manual_seed(0)
    batches = list(itertools.islice(random_batches(arr, 4, 16, gen), 3))
    for x, y in batches:
        assert x.shape == y.shape == (4, 16) and x.dtype == y.dtype == torch.int64
        # arange stream: every row is a contiguous window and y = x + 1.
        assert torch.equal(y, x + 1)
        assert torch.equal(x - x[:, :1], torch.arange(16).expand(4, 16))
        assert int(y.max()) <= 499
    again = next(random_batches(arr, 4, 16, torch.Generator().manual_seed(0)))
    assert torch.equal(again[0], batches[0][0])


def test_random_batches_rejects_short_stream():
    with pytest.raises(ValueError):
        next(random_batches(np.zeros(16, np.uint16), 2, 16, torch.Generator()))


def test_mlm_batch_rates():
    gen = torch.Generator().manual_seed(0)
    vocab = 4096
    x = torch.randint(3, vocab, (64, 256), generator=gen)
    x[:, ::10] = 0  # sprinkle <|endoftext|> and <pad>, which must never be masked
    x[:, 5::10] = 1
    inputs, targets = mlm_batch(x, mask_id=2, vocab_size=vocab, generator=gen)
    special = x < 3
    picked = targets != -100
    assert not (picked & special).any() and torch.equal(inputs[special], x[special])
    assert torch.equal(targets[picked], x[picked])
    assert torch.equal(inputs[~picked], x[~picked])
    assert picked.sum() / (~special).sum() == pytest.approx(0.15, abs=0.01)
    masked = inputs[picked] == 2
    changed = (inputs[picked] != x[picked]) & ~masked
    assert masked.float().mean() == pytest.approx(0.8, abs=0.02)
    assert changed.float().mean() == pytest.approx(0.1, abs=0.015)
    assert (inputs[picked][changed] >= 3).all()


def test_mlm_batch_every_row_gets_a_target():
    gen = torch.Generator().manual_seed(1)
    x = torch.tensor([[5, 6, 7], [0, 8, 1], [0, 1, 0]])
    _, targets = mlm_batch(x, mask_id=2, vocab_size=16, generator=gen, p=0.0)
    assert (targets[:2] != -100).sum(dim=1).tolist() == [1, 1]
    assert targets[1, 1] == 8  # the only maskable token in row 1
    assert (targets[2] == -100).all()  # nothing maskable in row 2
