"""The checkpoint zoo: every trained model the app can switch between.

Checkpoints are named ``{objective}-h{heads}-{pos}`` (``causal-h4-rotary``,
``bidir-h4-rotary``) so the UI's controls map to a file without guessing. All
are loaded once at start-up, each checked against ``checkpoints/manifest.json``
(sha256), its config and finite weights; a missing, altered or broken one is
skipped with a log line and listed as unavailable while the rest still serve.
When no checkpoint exists at all (a fresh clone before training) a seeded,
untrained model stands in and says so.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

import torch

from explorer.models.checkpoint import CheckpointError, load_model
from explorer.models.config import ModelConfig
from explorer.models.transformer import Transformer
from explorer.paths import CHECKPOINTS

log = logging.getLogger(__name__)

CHECKPOINT_DIR = CHECKPOINTS
NAME_RE = re.compile(r"^(causal|bidir)-h(\d+)-(none|sinusoidal|learned|rotary|alibi)$")
OBJECTIVES = {"causal": "next-word (causal)", "bidir": "masked-word (bidirectional)"}
DEFAULT_NAME = "causal-h4-rotary"
# A student's own Lab model, opened for their session (explorer/views/lab_models.py): the
# name the Model knob's "my Lab model" picks. Never in the shared zoo.
LAB_MODEL_NAME = "my-lab-model"
PAGE_SUFFIX = ".page.json"  # eval/NAME.page.json: explorer.analysis.page_check's counts


def checkpoint_name(objective: str, heads: int, pos: str) -> str:
    return f"{objective}-h{heads}-{pos}"


@dataclass
class Zoo:
    models: dict[str, Transformer] = field(default_factory=dict)
    cards: dict[str, dict] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)  # name -> reason
    evals: dict[str, dict] = field(default_factory=dict)  # name -> eval/NAME.json, if current
    untrained: bool = False  # True when only the seeded stand-in is here
    device: str = "cpu"  # where every model above lives ("cpu", "cuda", "cuda:N")

    def get(self, name: str) -> Transformer | None:
        return self.models.get(name)

    def title(self, name: str) -> str:
        """How a status line names the model (Markdown, no user text): "Model **NAME**", or
        "**Your Lab model**" for a student's own (explorer/views/lab_models.py)."""
        if self.cards.get(name, {}).get("lab"):
            return "**Your Lab model**"
        return f"Model **{name}**"

    def why_missing(self, name: str) -> str:
        if name in self.unavailable:
            return f"The checkpoint {name} could not be loaded: {self.unavailable[name]}"
        if name == LAB_MODEL_NAME:
            return ("This view shows only the zoo's models, not your Lab model (that one "
                    "opens in Explore, Inside one head, Ablate, Compare and Take it home): "
                    "pick next word or masked word as the Model here.")
        return f"No model was trained as {name}; " + self._instead(name)

    def _instead(self, name: str) -> str:
        """What to pick instead of the missing ``name``: the one model of its objective when
        only one was trained (the masked-word model: 4 heads, rotary), else any other."""
        m = NAME_RE.match(name)
        kind = m.group(1) if m else ""
        same = sorted(n for n in self.models if NAME_RE.match(n) and n.startswith(kind + "-"))
        if not m or len(same) != 1:
            return "pick another combination."
        heads, pos = NAME_RE.match(same[0]).group(2, 3)
        word = OBJECTIVES[kind].split(" (")[0]
        return (f"the only {word} model is {same[0]}: Heads {heads}, Positional encoding "
                f"{pos}.")

    def to(self, device: str) -> Zoo:
        """Move every model to ``device`` (in place: the models are shared, read-only state,
        loaded once at start-up) and return the zoo."""
        for model in self.models.values():
            model.to(device)
        self.device = str(device)
        return self

    @property
    def default_name(self) -> str:
        if DEFAULT_NAME in self.models:
            return DEFAULT_NAME
        return next(iter(sorted(self.models)))


def read_manifest(directory: Path) -> dict[str, str]:
    """``{file name: sha256}``; empty when the manifest is absent or unreadable, so every
    checkpoint is then refused as "not listed" (with a log line) instead of stopping the app."""
    path = directory / "manifest.json"
    if not path.exists():
        return {}
    try:
        files = json.loads(path.read_text(encoding="utf-8"))["files"]
        if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
            raise ValueError("'files' is not a mapping of names to sha256 strings")
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        log.error("checkpoints/manifest.json is unreadable (%s): no checkpoint can be "
                  "verified, so none is loaded; regenerate it with "
                  "`python -m explorer.training.evaluate --write-index`", exc)
        return {}
    return files


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def read_eval(directory: Path, name: str, weights_sha256: str) -> dict | None:
    """``eval/NAME.json`` when it was measured on exactly these weights, else None (an old
    evaluation must not name heads of a retrained model)."""
    result = _read_json(directory / "eval" / f"{name}.json")
    if not isinstance(result, dict) or result.get("weights_sha256") != weights_sha256:
        return None
    page = read_page(directory, name, weights_sha256)
    if page is not None:
        result["on_the_page"] = page
    return result


def read_page(directory: Path, name: str, weights_sha256: str | None) -> dict | None:
    """``eval/NAME.page.json`` (how often Explore names each clear head on held-out story
    openings: :mod:`explorer.analysis.page_check`) when measured on these weights."""
    page = _read_json(directory / "eval" / f"{name}{PAGE_SUFFIX}")
    if isinstance(page, dict) and page.get("weights_sha256") == weights_sha256:
        return page
    return None


def untrained_model(vocab_size: int, seed: int = 0) -> Transformer:
    torch.manual_seed(seed)
    return Transformer(ModelConfig(vocab_size=vocab_size)).eval()


def load_zoo(directory: Path = CHECKPOINT_DIR, vocab_size: int = 4096,
             allow_untrained: bool = True, device: str = "cpu") -> Zoo:
    """Every checkpoint of ``directory`` that passes the checks, on ``device``."""
    zoo = Zoo(device=str(device))
    manifest = read_manifest(directory)
    files = sorted(p for p in directory.glob("*.safetensors") if NAME_RE.match(p.stem))
    named = {p.stem for p in files} | {Path(f).stem for f in manifest
                                       if NAME_RE.match(Path(f).stem)}
    for name in sorted(named):
        path = directory / f"{name}.safetensors"
        expected = manifest.get(path.name)
        try:
            if expected is None:
                raise CheckpointError(f"{path.name}: not listed in manifest.json")
            model = load_model(path, device=device, expected_sha256=expected)
            if model.config.vocab_size != vocab_size:
                raise CheckpointError(f"{path.name}: vocabulary {model.config.vocab_size} does "
                                      f"not match the tokenizer's {vocab_size}")
            objective, heads, pos = NAME_RE.match(name).groups()
            cfg = model.config
            if (cfg.n_heads, cfg.pos_encoding, cfg.causal) != (int(heads), pos,
                                                                objective == "causal"):
                raise CheckpointError(f"{path.name}: its config does not match its name")
        except CheckpointError as exc:
            log.warning("skipping checkpoint: %s", exc)
            zoo.unavailable[name] = str(exc).split(": ", 1)[-1]
            continue
        zoo.models[name] = model
        card_path = directory / f"{name}.json"
        zoo.cards[name] = json.loads(card_path.read_text()) if card_path.exists() else {}
        evaluated = read_eval(directory, name, expected)
        if evaluated is not None:
            zoo.evals[name] = evaluated
    if not zoo.models and allow_untrained:
        log.warning("no trained checkpoint found: serving a seeded, untrained model")
        zoo.models[DEFAULT_NAME] = untrained_model(vocab_size).to(device)
        zoo.cards[DEFAULT_NAME] = {"untrained": True}
        zoo.untrained = True
    return zoo
