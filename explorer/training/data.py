"""Token streams for training: corpus + probes, splits, on-disk cache, batches.

``build_dataset`` turns the corpus (one story per line) into three flat uint16
token streams, documents separated by ``<|endoftext|>``:

* ``train``: the training stories shuffled together with probe texts, which
  make up about ``probe_share`` of its tokens;
* ``val``: held-out stories only (each story is in exactly one split);
* ``val_probes``: held-out probe texts only (no text also in ``train``).

The arrays are cached under ``runs/cache/`` keyed by the corpus sha256, the
tokenizer's fingerprint and the settings, so a second training run loads them
instead of tokenizing again. ``random_batches`` and ``mlm_batch`` make the
torch tensors for next-token and masked-token training.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch

from explorer.models.tokenizer import SPECIAL_TOKENS, Tokenizer
from explorer.training.probes import generate_probes

DEFAULT_CACHE_DIR = Path(__file__).resolve().parents[2] / "runs" / "cache"
CACHE_FORMAT = 1  # bump when the stream layout changes, to orphan old cache files
PROBE_CHUNK = 256  # probes generated (and tokenized) per round while filling a share
MIN_VAL_PROBES = 64  # keep the probe validation stream usable for tiny val_share
IGNORE_INDEX = -100  # torch cross_entropy's default ignore_index


@dataclass
class DatasetMeta:
    """Where the streams came from and how big they are."""

    corpus_sha256: str
    tokenizer_sha256: str
    seed: int
    val_share: float
    probe_share_target: float
    probe_share: float  # measured share of probe tokens in ``train``
    n_stories: int
    n_train_stories: int
    n_val_stories: int
    n_train_probes: int
    n_val_probes: int
    tokens: dict[str, int] = field(default_factory=dict)  # split name -> length


@dataclass
class Dataset:
    """Flat uint16 token streams, documents joined by ``<|endoftext|>``."""

    train: np.ndarray
    val: np.ndarray
    val_probes: np.ndarray
    meta: DatasetMeta


# --- corpus -------------------------------------------------------------------


def load_corpus(path: str | Path) -> tuple[list[str], str]:
    """(stories, sha256 hex of the file bytes); one story per non-empty line."""
    raw = Path(path).read_bytes()
    stories = [line for line in raw.decode("utf-8").split("\n") if line.strip()]
    return stories, hashlib.sha256(raw).hexdigest()


def split_stories(stories: list[str], val_share: float, seed: int) -> tuple[list[str], list[str]]:
    """(train, val) after a seeded shuffle; val gets at least one story."""
    order = list(range(len(stories)))
    random.Random(seed).shuffle(order)
    n_val = max(1, round(val_share * len(stories)))
    if n_val >= len(stories):
        raise ValueError(f"need more than {n_val} stories to hold out {val_share:.0%}")
    return [stories[i] for i in order[n_val:]], [stories[i] for i in order[:n_val]]


def join_documents(docs: Sequence[list[int]], eot_id: int) -> np.ndarray:
    """One uint16 stream: doc, eot, doc, eot, ..., doc."""
    out: list[int] = []
    for i, doc in enumerate(docs):
        if i:
            out.append(eot_id)
        out.extend(doc)
    return np.asarray(out, dtype=np.uint16)


# --- probes -------------------------------------------------------------------


def _probe_targets(train_tokens: int, probe_share: float, val_share: float) -> tuple[int, int]:
    """Probe tokens needed in train (so they are ``probe_share`` of it) and in val."""
    if not 0 <= probe_share < 1:
        raise ValueError(f"probe_share must be in [0, 1), got {probe_share}")
    train = round(train_tokens * probe_share / (1 - probe_share))
    val = round(train * val_share / (1 - val_share))
    return train, val


def split_probes(
    tok: Tokenizer, train_target: int, val_target: int, seed: int
) -> tuple[list[list[int]], list[list[int]]]:
    """Tokenized probe texts for train and val until both token targets are met.

    Each new distinct text goes to val with the val share of the targets (the
    first ``MIN_VAL_PROBES`` always do). A text seen again stays on its side: a
    train text may repeat in train, a val text is not added twice. So no text is
    in both, even though the short probe kinds repeat often.
    """
    rng = random.Random(seed)
    p_val = val_target / max(1, train_target + val_target)
    side: dict[str, bool] = {}  # text -> is_val
    train: list[list[int]] = []
    val: list[list[int]] = []
    n_train = n_val = 0
    for round_no in range(10_000):
        if n_train >= train_target and (n_val >= val_target and len(val) >= MIN_VAL_PROBES):
            break
        texts = generate_probes(PROBE_CHUNK, seed=seed * 100_003 + round_no)
        for text, ids in zip(texts, tok.encode_batch(texts), strict=True):
            is_new = text not in side
            if is_new:
                side[text] = rng.random() < p_val or len(val) < MIN_VAL_PROBES
            if side[text] and is_new:
                val.append(ids)
                n_val += len(ids)
            elif not side[text] and n_train < train_target:
                train.append(ids)
                n_train += len(ids)
    return train, val


# --- cache --------------------------------------------------------------------


def cache_key(corpus_sha: str, tok: Tokenizer, settings: dict) -> str:
    """Short hash of everything the streams depend on."""
    blob = json.dumps(
        {"corpus": corpus_sha, "tokenizer": tok.fingerprint(), "format": CACHE_FORMAT, **settings},
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def save_cached(path: Path, ds: Dataset) -> None:
    """Write the streams and metadata to one .npz; atomic so a crash leaves no half file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        np.savez(
            f,
            train=ds.train,
            val=ds.val,
            val_probes=ds.val_probes,
            meta=np.array(json.dumps(asdict(ds.meta))),
        )
    os.replace(tmp, path)


def load_cached(path: Path) -> Dataset:
    with np.load(path, allow_pickle=False) as z:
        meta = DatasetMeta(**json.loads(str(z["meta"])))
        return Dataset(z["train"], z["val"], z["val_probes"], meta)


# --- dataset ------------------------------------------------------------------


def _tokenize_dataset(
    stories: list[str],
    corpus_sha: str,
    tok: Tokenizer,
    probe_share: float,
    val_share: float,
    seed: int,
) -> Dataset:
    """Split, tokenize, add probes, shuffle documents and join into streams."""
    train_stories, val_stories = split_stories(stories, val_share, seed)
    train_docs = tok.encode_batch(train_stories)
    val_docs = tok.encode_batch(val_stories)
    story_tokens = sum(map(len, train_docs))
    train_target, val_target = _probe_targets(story_tokens, probe_share, val_share)
    probe_train: list[list[int]] = []
    probe_val: list[list[int]] = []
    if train_target:
        probe_train, probe_val = split_probes(tok, train_target, val_target, seed)
    docs = train_docs + probe_train
    random.Random(seed + 1).shuffle(docs)  # mix probes between stories
    train = join_documents(docs, tok.eot_id)
    val = join_documents(val_docs, tok.eot_id)
    val_probes = join_documents(probe_val, tok.eot_id)
    probe_tokens = sum(map(len, probe_train))
    meta = DatasetMeta(
        corpus_sha256=corpus_sha,
        tokenizer_sha256=tok.fingerprint(),
        seed=seed,
        val_share=val_share,
        probe_share_target=probe_share,
        probe_share=probe_tokens / max(1, probe_tokens + story_tokens),
        n_stories=len(stories),
        n_train_stories=len(train_stories),
        n_val_stories=len(val_stories),
        n_train_probes=len(probe_train),
        n_val_probes=len(probe_val),
        tokens={"train": len(train), "val": len(val), "val_probes": len(val_probes)},
    )
    return Dataset(train, val, val_probes, meta)


def build_dataset(
    corpus_path: str | Path,
    tokenizer: Tokenizer,
    probe_share: float = 0.1,
    val_share: float = 0.02,
    seed: int = 0,
    cache_dir: str | Path | None = DEFAULT_CACHE_DIR,
) -> Dataset:
    """Train / val / val_probes streams for ``corpus_path``; cached unless ``cache_dir=None``."""
    if tokenizer.vocab_size > np.iinfo(np.uint16).max + 1:
        raise ValueError("vocabulary too large for uint16 token streams")
    stories, corpus_sha = load_corpus(corpus_path)
    settings = {"probe_share": probe_share, "val_share": val_share, "seed": seed}
    path = None
    if cache_dir is not None:
        path = Path(cache_dir) / f"{cache_key(corpus_sha, tokenizer, settings)}.npz"
        if path.exists():
            return load_cached(path)
    ds = _tokenize_dataset(stories, corpus_sha, tokenizer, probe_share, val_share, seed)
    if path is not None:
        save_cached(path, ds)
    return ds


# --- batches ------------------------------------------------------------------


def random_batches(
    arr: np.ndarray, batch_size: int, n_ctx: int, generator: torch.Generator
) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """Endless (x, y) int64 batches of shape [batch_size, n_ctx]; y is x moved one left.

    Windows start anywhere (they may cross document boundaries, like GPT-2).
    """
    if len(arr) < n_ctx + 1:
        raise ValueError(f"stream of {len(arr)} tokens is too short for n_ctx={n_ctx}")
    offsets = np.arange(n_ctx + 1)
    while True:
        starts = torch.randint(0, len(arr) - n_ctx, (batch_size,), generator=generator)
        # [batch, n_ctx + 1] windows; int64 because embedding lookups want it.
        windows = torch.from_numpy(arr[starts.numpy()[:, None] + offsets].astype(np.int64))
        yield windows[:, :-1], windows[:, 1:]


def mlm_batch(
    x: torch.Tensor,
    mask_id: int,
    vocab_size: int,
    generator: torch.Generator,
    p: float = 0.15,
    special_ids: Sequence[int] = tuple(range(len(SPECIAL_TOKENS))),
) -> tuple[torch.Tensor, torch.Tensor]:
    """BERT-style corruption of token ids ``x`` [batch, seq] -> (inputs, targets).

    Each non-special token is picked with probability ``p``; a picked token
    becomes ``<mask>`` (80 %), a random non-special token (10 %) or stays (10 %).
    ``targets`` holds the original id where picked and -100 elsewhere. A row
    with maskable tokens but no pick gets one, so no row has an empty loss.
    """
    special = torch.tensor(list(special_ids), dtype=x.dtype)
    maskable = ~torch.isin(x, special)
    picked = (torch.rand(x.shape, generator=generator) < p) & maskable
    picked |= _one_pick_for_empty_rows(picked, maskable, generator)
    action = torch.rand(x.shape, generator=generator)  # <.8 mask, <.9 random, else keep
    allowed = torch.tensor([i for i in range(vocab_size) if i not in set(special_ids)])
    random_ids = allowed[torch.randint(0, len(allowed), x.shape, generator=generator)]
    inputs = torch.where(picked & (action < 0.8), torch.full_like(x, mask_id), x)
    inputs = torch.where(picked & (action >= 0.8) & (action < 0.9), random_ids.to(x.dtype), inputs)
    targets = torch.where(picked, x, torch.full_like(x, IGNORE_INDEX))
    return inputs, targets


def _one_pick_for_empty_rows(
    picked: torch.Tensor, maskable: torch.Tensor, generator: torch.Generator
) -> torch.Tensor:
    """[batch, seq] bool with one random maskable position in each row that has no pick."""
    needs = ~picked.any(dim=-1) & maskable.any(dim=-1)
    # Random scores, -1 on unmaskable positions, so argmax is a random maskable one.
    scores = torch.rand(picked.shape, generator=generator).masked_fill(~maskable, -1.0)
    extra = torch.zeros_like(picked)
    extra[torch.arange(len(picked)), scores.argmax(dim=-1)] = True
    return extra & needs[:, None]
