"""The committed checkpoint folder: every checkpoint loads against the manifest, matches its
card, is finite, small and runs on tokenizer output; nothing but safetensors, JSON and
Markdown lives there. Language models (``causal-*``, ``bidir-*``) and the other transformers
(any card whose task is not "lm": the classifier, the encoder-decoder) are checked apart;
the others must also state a held-out accuracy in ``eval/NAME.json`` that their trainer's
``measure`` reproduces.

"Committed" means listed by ``git ls-files checkpoints`` (files a training run is still
writing are not checked yet); outside a git checkout every file on disk counts.
"""

import importlib
import json
import subprocess
from pathlib import Path

import pytest
import torch

from explorer.models.checkpoint import build_model, load_model, sha256_file
from explorer.models.config import ModelConfig
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, NAME_RE

ROOT = CHECKPOINT_DIR.parent
ALLOWED_SUFFIXES = {".safetensors", ".json", ".md"}
MAX_FILE_BYTES = 10 * 1_000_000
MAX_TOTAL_BYTES = 100 * 1_000_000
SENTENCE = "Once upon a time, a little dog found a red ball in the park."


def committed_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", "checkpoints"], cwd=ROOT,
                             capture_output=True, check=True).stdout.decode()
        return sorted(ROOT / name for name in out.split("\0") if name)
    except (OSError, subprocess.CalledProcessError):
        return sorted(p for p in CHECKPOINT_DIR.rglob("*") if p.is_file())


COMMITTED = committed_files()
TOP = [p for p in COMMITTED if p.suffix == ".safetensors" and p.parent == CHECKPOINT_DIR]


def task_of(path: Path) -> str:
    card = path.with_suffix(".json")
    data = json.loads(card.read_text()) if card.exists() else {}
    return str(data.get("task") or data.get("config", {}).get("task") or "lm")


CHECKPOINTS = [p for p in TOP if task_of(p) == "lm"]
OTHERS = [p for p in TOP if task_of(p) != "lm"]
SNAPSHOTS = [p for p in COMMITTED if p.suffix == ".safetensors" and p.parent != CHECKPOINT_DIR]


def manifest() -> dict[str, str]:
    path = CHECKPOINT_DIR / "manifest.json"
    return json.loads(path.read_text())["files"] if path.exists() else {}


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


def test_tokenizer_is_committed_and_in_the_manifest(tok):
    path = CHECKPOINT_DIR / "tokenizer.json"
    assert path in COMMITTED
    assert tok.vocab_size == 4096
    assert tok.fingerprint() == sha256_file(path)
    files = manifest()
    if TOP or files:
        # the app checks every checkpoint against the manifest, so with any checkpoint there
        # must be one, and it lists the tokenizer
        assert files.get("tokenizer.json") == sha256_file(path)


def test_manifest_entries_exist_and_match():
    for rel, digest in manifest().items():
        path = CHECKPOINT_DIR / rel
        assert path.is_file(), f"manifest lists {rel}, which is not there"
        assert sha256_file(path) == digest, f"{rel} differs from its manifest hash"


@pytest.mark.parametrize("path", CHECKPOINTS, ids=lambda p: p.stem)
def test_checkpoint_loads_matches_card_and_runs(path, tok):
    assert NAME_RE.match(path.stem), f"{path.name} is not a zoo name"
    expected = manifest().get(path.name)
    assert expected, f"{path.name} is not in manifest.json"
    model = load_model(path, expected_sha256=expected)
    card = json.loads(path.with_suffix(".json").read_text())
    assert ModelConfig.from_dict(card["config"]) == model.config
    assert card["weights_sha256"] == sha256_file(path)
    objective, heads, pos = NAME_RE.match(path.stem).groups()
    assert (model.config.causal, model.config.n_heads, model.config.pos_encoding) == (
        objective == "causal", int(heads), pos)
    assert all(torch.isfinite(t).all() for t in model.state_dict().values())
    ids = tok.encode(SENTENCE)
    with torch.inference_mode():
        logits = model(torch.tensor([ids]))
    assert logits.shape == (1, len(ids), tok.vocab_size)
    assert torch.isfinite(logits).all()


@pytest.mark.parametrize("path", OTHERS, ids=lambda p: p.stem)
def test_other_transformer_loads_matches_card_and_reaches_its_accuracy(path, tok):
    """A classifier / encoder-decoder: manifest hash, card, the model class its config picks,
    finite weights, and the held-out accuracy its eval file states, measured again."""
    assert not NAME_RE.match(path.stem), f"{path.name} uses a language-model name"
    expected = manifest().get(path.name)
    assert expected, f"{path.name} is not in manifest.json"
    model = load_model(path, expected_sha256=expected)
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["name"] == path.stem and card["task"] == model.config.task != "lm"
    assert ModelConfig.from_dict(card["config"]) == model.config
    assert type(model) is type(build_model(model.config))
    assert card["weights_sha256"] == sha256_file(path)
    assert card["tokenizer_sha256"] == sha256_file(CHECKPOINT_DIR / "tokenizer.json")
    assert card["command"].startswith(f"python -m explorer.training.train --task {card['task']}")
    assert all(torch.isfinite(t).all() for t in model.state_dict().values())
    eval_path = CHECKPOINT_DIR / "eval" / f"{path.stem}.json"
    assert eval_path in COMMITTED, f"{path.stem} has no committed eval/{eval_path.name}"
    result = json.loads(eval_path.read_text())
    assert result["task"] == card["task"] and result["metric"] == "accuracy"
    assert 0.0 <= result["accuracy"] <= 1.0 and result["n"] > 0 and result["what"]
    if "weights_sha256" in result:
        assert result["weights_sha256"] == card["weights_sha256"]
    # The trainer module of the task (explorer.training.train.TASK_TRAINERS) measures it again
    # when it offers measure(model, tok, n) -> {"accuracy": ...}.
    from explorer.training.train import TASK_TRAINERS

    trainer = importlib.import_module(TASK_TRAINERS[card["task"]])
    if not hasattr(trainer, "measure"):
        pytest.skip(f"{trainer.__name__} has no measure(); accuracy not re-measured")
    measured = trainer.measure(model, tok, result["n"])["accuracy"]
    assert measured == pytest.approx(result["accuracy"], abs=1e-3)


@pytest.mark.parametrize("path", SNAPSHOTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_snapshot_loads_and_matches_its_model(path):
    rel = path.relative_to(CHECKPOINT_DIR).as_posix()
    expected = manifest().get(rel)
    assert expected, f"{rel} is not in manifest.json"
    model = load_model(path, expected_sha256=expected)
    card_path = CHECKPOINT_DIR / f"{path.parent.name}.json"
    assert card_path.exists(), f"snapshot of {path.parent.name}, which has no card"
    card = json.loads(card_path.read_text())
    assert ModelConfig.from_dict(card["config"]) == model.config
    assert path.name in {s["file"] for s in card.get("snapshots", [])}


def test_only_small_safetensors_json_and_markdown():
    # on disk too (a stray pickle there is one `git add` from being committed); *.tmp are
    # the trainer's in-progress atomic writes and are git-ignored
    on_disk = [p for p in CHECKPOINT_DIR.rglob("*") if p.is_file() and p.suffix != ".tmp"]
    for path in sorted(set(COMMITTED) | set(on_disk)):
        if path.parent.name == "study" and path.suffix == ".svg":  # scripts/study.py's plot
            assert "<script" not in path.read_text().lower()
            continue
        assert path.suffix in ALLOWED_SUFFIXES, f"{path.name}: only safetensors/JSON/Markdown"
    for path in on_disk:
        assert path.stat().st_size < MAX_FILE_BYTES, f"{path.name} is over 10 MB"
    assert sum(p.stat().st_size for p in on_disk) < MAX_TOTAL_BYTES
