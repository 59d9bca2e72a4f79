"""What the classifier tab shows: the checkpoint, then one sentence's figures and status.

:func:`load_classifier` loads the encoder classifier once at start-up, checked against
``checkpoints/manifest.json`` like every model; a missing or damaged file becomes a
sentence for the page, never a crash. :func:`classify_view` turns the sentence and
the explorer's shared knobs (mask, scaling, temperature, layer, head, colours) into
figures: the class probabilities (as trained vs. now when an experiment is on),
the per-token evidence strip, every head's attention and the selected head large.
No gradio here; no user text in any Markdown this module writes.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

import plotly.graph_objects as go

from explorer.analysis.classify import ClassifyAnalysis, classify_sentence
from explorer.analysis.run import plural
from explorer.figures.attention import attention_grid, head_heatmap
from explorer.figures.classify import StripRow, evidence_strip
from explorer.figures.predictions import predictions_bar
from explorer.models.checkpoint import CheckpointError, load_model
from explorer.models.classifier import Classifier
from explorer.models.zoo import CHECKPOINT_DIR, read_manifest
from explorer.training.classify_task import FEELINGS, NEGATORS
from explorer.views.controls import EMPTY_STATE, Controls

log = logging.getLogger(__name__)
DEFAULT_CLASSIFIER = "classify-h4-sentiment"
REBUILD = "python -m explorer.training.train --task classify --name " + DEFAULT_CLASSIFIER


@dataclass
class LoadedClassifier:
    name: str
    model: Classifier | None
    card: dict = field(default_factory=dict)
    missing: str = ""  # why there is no model (Markdown, no user text)

    @property
    def classes(self) -> list[str] | None:
        classes = self.card.get("classes")
        return classes if isinstance(classes, list) else None


def load_classifier(directory: Path = CHECKPOINT_DIR, name: str = DEFAULT_CLASSIFIER,
                    vocab_size: int | None = None, device: str = "cpu") -> LoadedClassifier:
    """The classifier on ``device`` (the zoo's: ``zoo.device``), or why there is none."""
    path = Path(directory) / f"{name}.safetensors"
    if not path.is_file():
        return LoadedClassifier(name, None, missing=(
            f"The classifier checkpoint `{path.name}` is not installed, so this tab has "
            f"nothing to show. Train it (a few minutes on one CPU core) with `{REBUILD}`."))
    try:
        expected = read_manifest(Path(directory)).get(path.name)
        if expected is None:
            raise CheckpointError(f"{path.name}: not listed in manifest.json")
        model = load_model(path, device=device, expected_sha256=expected)
        if model.config.task != "classify":
            raise CheckpointError(f"{path.name}: not a classifier")
        if vocab_size is not None and model.config.vocab_size != vocab_size:
            raise CheckpointError(f"{path.name}: its vocabulary does not match the tokenizer")
        card_path = path.with_suffix(".json")
        card = json.loads(card_path.read_text()) if card_path.is_file() else {}
    except (CheckpointError, OSError, ValueError) as exc:
        log.warning("classifier unavailable: %s", exc)
        return LoadedClassifier(name, None, missing=(
            f"The classifier checkpoint could not be loaded: {str(exc).split(': ', 1)[-1]}. "
            f"Rebuild it with `{REBUILD}`."))
    return LoadedClassifier(name, model, card)


@dataclass
class ClassifyView:
    status: str  # Markdown, no user text
    probs: go.Figure | None
    evidence: go.Figure | None
    grid: go.Figure | None
    head: go.Figure | None
    analysis: ClassifyAnalysis | None = None


def _pct(p: float) -> str:
    return f"{p:.1%}"


def status_text(loaded: LoadedClassifier, a: ClassifyAnalysis) -> str:
    card = loaded.card
    acc = card.get("heldout_accuracy")
    name = f"Model **{loaded.name}**" + (f" (held-out accuracy {acc:.1%})" if acc else "")
    pred = a.classes[a.predicted]
    lines = [f"{name} · {plural(len(a.tokens), 'token')} · predicted: **{pred}** "
             f"({_pct(float(a.probs[a.predicted]))})"]
    if a.rule is None:
        lines.append("ℹ️ This sentence has none of the feeling words the model was trained on ("
                     + ", ".join(FEELINGS) + "), so its answer is a guess from outside what "
                     "it learned.")
    else:
        agree = "agrees" if a.rule == a.predicted else "**disagrees**"
        lines.append(f"The rule the training sentences were made with says **{a.classes[a.rule]}**"
                     f" (the feeling word, flipped by a {' / '.join(NEGATORS)} in its own "
                     f"clause): the model {agree}.")
    if a.interventions:
        text = ("🧪 **Experiment on the trained model:** " + "; ".join(a.interventions)
                + ". The model was not trained this way.")
        if a.baseline_probs is not None:
            before = int(a.baseline_probs.argmax())
            text += (f" P({pred}) {_pct(float(a.baseline_probs[a.predicted]))} → "
                     f"{_pct(float(a.probs[a.predicted]))}"
                     + (f"; as trained it said **{a.classes[before]}**." if before != a.predicted
                        else " (same answer)."))
        lines.append(text)
    lines += [f"⚠️ {n}" for n in a.notices]
    return "\n\n".join(lines)


def evidence_rows(a: ClassifyAnalysis) -> list[StripRow]:
    pred = a.classes[a.predicted]
    return [
        StripRow("last layer<br>reads", a.reads, "weight",
                 "mean attention of the last layer on this token:"),
        StripRow("without<br>this token", a.without, "signed",
                 f"P({pred}) drops by", fmt="+.1f", hover_fmt="+.3f", limit=1.0),
        StripRow("share of<br>the score", a.support, "signed",
                 f"pushes toward {pred} (logit units):", fmt="+.1f", hover_fmt="+.3f"),
    ]


def classify_view(loaded: LoadedClassifier, tok, text: str, controls: Controls) -> ClassifyView:
    """The whole live update of the classifier tab."""
    if loaded.model is None:
        return ClassifyView("⚠️ " + loaded.missing, None, None, None, None)
    if not (text or "").strip():
        return ClassifyView(EMPTY_STATE, None, None, None, None)
    config = loaded.model.config
    layer, head = config.clamp(controls.layer, controls.head)
    a = classify_sentence(loaded.model, tok, text, controls.settings(), layer,
                          classes=loaded.classes)
    status = status_text(loaded, a)
    # The page bounds the Layer slider to the classifier while this view is open; a value
    # from elsewhere (the API, a slider not yet bounded) is named, never shown silently.
    if layer != controls.layer:
        status += (f"\n\nℹ️ This classifier has {plural(config.n_layers, 'layer')}: showing "
                   f"layer {layer}.")
    if head != controls.head:
        status += (f"\n\nℹ️ This classifier has {plural(config.n_heads, 'head')} per layer: "
                   f"showing head {head}.")
    if a.empty:
        return ClassifyView(status, None, None, None, None, a)
    theme = controls.theme
    preds = list(zip(a.classes, (float(p) for p in a.probs), strict=True))
    compare = (None if a.baseline_probs is None else
               list(zip(a.classes, (float(p) for p in a.baseline_probs), strict=True)))
    probs = predictions_bar(preds, theme=theme, title="Class probabilities",
                                    compare=compare)
    evidence = evidence_strip(a.tokens, evidence_rows(a), theme=theme,
                              title=f"What “{a.classes[a.predicted]}” rests on")
    grid = attention_grid(a.patterns, a.tokens, theme=theme, selected=(layer, head))
    big = head_heatmap(a.patterns[layer, head], a.tokens, scores=a.scores[head],
                               scaled=a.scaled[head], mask=a.blocked[head], theme=theme,
                               title=f"Layer {layer}, head {head}")
    return ClassifyView(status, probs, evidence, grid, big, a)
