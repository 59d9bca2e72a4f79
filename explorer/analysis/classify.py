"""One sentence through the encoder classifier, as plain data: classes, evidence, attention.

:func:`classify_sentence` bounds and tokenizes the text like the explorer
(:func:`explorer.analysis.run.prepare`), runs one capture under the student's
:class:`~explorer.models.settings.AttentionSettings` and returns numpy arrays. Three
per-token answers to "which words does the decision rest on", each exact for what
it measures:

* ``support``: each position's share of the class score at the pool, toward the
  predicted class and against the others (``hook_token_logits``; they add up,
  with the bias, to the logit difference). After the blocks every position has
  mixed in what it attended to, so these are often nearly equal: mean pooling
  rewards every position for carrying the answer.
* ``reads``: how much the *last* attention layer, averaged over heads and over
  the positions that are pooled, reads each token. The pooled vector's
  attention input from that layer is exactly ``sum_j reads_j * v_j`` per head.
* ``without``: P(predicted class) minus P(predicted class) with that one token
  removed; large where the answer depends on the word.

No gradio here; no user text in any string this module writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from explorer.analysis.run import prepare
from explorer.models.capture import run_with_cache
from explorer.models.classifier import Classifier
from explorer.models.device import model_device
from explorer.models.settings import AttentionSettings
from explorer.training.classify_task import rule_label


@dataclass
class ClassifyAnalysis:
    tokens: list[str]  # what the student typed, one piece per token (for Plotly labels only)
    ids: list[int]
    classes: tuple[str, ...]
    probs: np.ndarray  # [n_classes] under the student's settings
    baseline_probs: np.ndarray | None  # [n_classes] as trained; None when nothing differs
    predicted: int
    patterns: np.ndarray  # [layer, head, query_pos, key_pos]
    scores: np.ndarray | None  # [head, q, k] raw q.k of the selected layer
    scaled: np.ndarray | None  # [head, q, k] scaled (+ bias) of the selected layer
    blocked: np.ndarray | None  # [head, q, k] True where a mask set the score to -inf
    token_logits: np.ndarray  # [pos, n_classes] each token's exact share of each logit
    bias: np.ndarray  # [n_classes] the head's bias: the part no token owns
    support: np.ndarray  # [pos] share toward the predicted class (see module docstring)
    reads: np.ndarray  # [pos] last layer's attention on each key, mean of heads and queries
    without: np.ndarray  # [pos] P(predicted) - P(predicted without this token)
    rule: int | None  # the class the data generator's rule gives the text (None: no rule)
    interventions: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.tokens


def support_for(token_logits: np.ndarray, c: int) -> np.ndarray:
    """``[pos, n_classes]`` -> ``[pos]``: share of logit c minus the mean share of the other
    classes (only differences between logits change the probabilities)."""
    others = np.delete(token_logits, c, axis=1)
    return token_logits[:, c] - others.mean(axis=1)


def pool_reads(pattern_last: np.ndarray) -> np.ndarray:
    """``[head, q, k]`` -> ``[k]``: mean over heads and queries (every query is pooled)."""
    return pattern_last.mean(axis=(0, 1))


@torch.inference_mode()
def leave_one_out(model: Classifier, ids: list[int], settings: AttentionSettings,
                  c: int) -> np.ndarray:
    """P(class c) with each token removed in turn, ``[pos]`` (one batched forward pass)."""
    n = len(ids)
    if n < 2:
        return np.full(n, np.nan, dtype=np.float32)
    device = model_device(model)  # the batch is built where the model runs (a GPU or not)
    full = torch.tensor(ids, device=device)
    keep = ~torch.eye(n, dtype=torch.bool, device=device)  # row i: every position but i
    batch = full.expand(n, n)[keep].view(n, n - 1)
    log_probs = model(batch, settings=settings)
    return log_probs[:, c].exp().float().cpu().numpy()


def classify_sentence(model: Classifier, tok, text: str,
                      settings: AttentionSettings | None = None,
                      layer: int = 0, classes: Sequence[str] | None = None) -> ClassifyAnalysis:
    """Everything the classifier tab shows for one sentence under one set of knobs;
    ``classes`` names the classes (from the checkpoint's card)."""
    config = model.config
    settings = settings or AttentionSettings()
    resolved = settings.resolve(config)  # raises ValueError on impossible settings
    prep = prepare(tok, text, config.n_ctx, masked_word=False)
    if classes is None or len(classes) != config.n_classes:
        classes = [f"class {i}" for i in range(config.n_classes)]
    classes = tuple(str(c) for c in classes)
    rule = rule_label(text)
    if not prep.ids:
        empty = np.zeros(0, np.float32)
        return ClassifyAnalysis([], [], classes, np.zeros(config.n_classes, np.float32), None,
                                0, np.zeros((config.n_layers, config.n_heads, 0, 0),
                                            np.float32), None, None, None,
                                np.zeros((0, config.n_classes), np.float32),
                                np.zeros(config.n_classes, np.float32), empty, empty, empty,
                                rule, resolved.interventions, prep.notices)
    layer, _ = config.clamp(layer)
    names = ["*hook_pattern", "hook_token_logits", f"blocks.{layer}.attn.hook_scores",
             f"blocks.{layer}.attn.hook_scaled", f"blocks.{layer}.attn.hook_masked"]
    tokens = torch.tensor([prep.ids])
    log_probs, cache = run_with_cache(model, tokens, settings, names=names)
    probs = log_probs[0].exp().numpy()
    predicted = int(probs.argmax())
    patterns = cache.stack("attn.hook_pattern")[:, 0].numpy()  # [layer, head, q, k]
    token_logits = cache["hook_token_logits"][0].numpy()
    baseline = None
    if resolved.is_intervention:  # the same sentence as trained, for "before -> after"
        with torch.inference_mode():
            baseline = model(tokens.to(model_device(model)))[0].exp().float().cpu().numpy()
    p_without = leave_one_out(model, prep.ids, settings, predicted)
    return ClassifyAnalysis(
        tokens=list(prep.pieces), ids=list(prep.ids), classes=classes, probs=probs,
        baseline_probs=baseline, predicted=predicted, patterns=patterns,
        scores=cache[f"blocks.{layer}.attn.hook_scores"][0].numpy(),
        scaled=cache[f"blocks.{layer}.attn.hook_scaled"][0].numpy(),
        blocked=torch.isneginf(cache[f"blocks.{layer}.attn.hook_masked"][0]).numpy(),
        token_logits=token_logits, bias=model.W_C.bias.detach().float().cpu().numpy(),
        support=support_for(token_logits, predicted), reads=pool_reads(patterns[-1]),
        without=probs[predicted] - p_without, rule=rule,
        interventions=resolved.interventions, notices=prep.notices)
