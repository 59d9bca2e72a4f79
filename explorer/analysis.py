"""One student request, end to end, as plain data: text -> tokens -> capture -> numbers.

This is the logic behind every live update. It bounds the input on the server
(characters, then tokens), runs one capture of just what the views show, and
returns numpy arrays and strings that the figure builders draw. No gradio here.

Masked-word models predict where the student wrote ``[mask]``, ``<mask>`` or
three or more underscores (``___``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.capture import run_with_cache
from explorer.model import Transformer
from explorer.settings import AttentionSettings
from explorer.stats import HeadStats, head_stats
from explorer.tokenizer import Tokenizer

MAX_CHARS = 1000  # characters accepted per request (more is cut, with a notice)
TOP_K = 8
MASK_MARKER = re.compile(r"\[mask\]|<mask>|_{3,}", re.IGNORECASE)
MASK_LABEL = "[mask]"


@dataclass(frozen=True)
class Prepared:
    ids: list[int]
    pieces: list[str]  # each token's text as the student typed it
    notices: tuple[str, ...]


def prepare(tok: Tokenizer, text: str, n_ctx: int, masked_word: bool) -> Prepared:
    """Bound and tokenize. Never raises on user text: problems become notices."""
    notices = []
    text = "" if text is None else str(text)
    if len(text) > MAX_CHARS:
        notices.append(f"Your text has {len(text):,} characters; only the first "
                       f"{MAX_CHARS:,} were used.")
        text = text[:MAX_CHARS]
    ids: list[int] = []
    pieces: list[str] = []
    # Split on mask markers for masked-word models; for next-word models they are just text.
    segments = MASK_MARKER.split(text) if masked_word else [text]
    for i, segment in enumerate(segments):
        if i > 0:
            ids.append(tok.mask_id)
            pieces.append(MASK_LABEL)
        for token_id, piece, _span in tok.token_pieces(segment):
            ids.append(token_id)
            pieces.append(piece)
    if len(ids) > n_ctx:
        notices.append(f"The model reads at most {n_ctx} tokens; your text has {len(ids)}, "
                       f"so the last {len(ids) - n_ctx} were left out.")
        ids, pieces = ids[:n_ctx], pieces[:n_ctx]
    return Prepared(ids, pieces, tuple(notices))


@dataclass
class Analysis:
    tokens: list[str]
    ids: list[int]
    patterns: np.ndarray  # [layer, head, query_pos, key_pos] float32
    scores: np.ndarray | None  # [head, q, k] raw q.k of the selected layer
    scaled: np.ndarray | None  # [head, q, k] after scaling (+ ALiBi) of the selected layer
    blocked: np.ndarray | None  # [head, q, k] bool, True where the mask set the score to -inf
    predictions: list[tuple[str, float]]
    predict_at: int | None  # the position whose output is predicted
    stats: HeadStats | None
    interventions: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    baseline_predictions: list[tuple[str, float]] | None = None  # as trained
    baseline_stats: HeadStats | None = None
    extra: dict = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.tokens


def top_predictions(tok: Tokenizer, logits: torch.Tensor,
                    k: int = TOP_K) -> list[tuple[str, float]]:
    """logits ``[vocab]`` -> [(token text, probability)], most likely first."""
    probs = torch.softmax(logits.float(), dim=-1)
    values, indices = probs.topk(k)
    return [(tok.decode([int(i)]), float(v)) for v, i in zip(values, indices, strict=True)]


def _predict_position(ids: list[int], mask_id: int, masked_word: bool) -> int | None:
    if not ids:
        return None
    if masked_word:
        return ids.index(mask_id) if mask_id in ids else None
    return len(ids) - 1


def analyse(model: Transformer, tok: Tokenizer, text: str,
            settings: AttentionSettings | None = None, layer: int = 0,
            top_k: int = TOP_K, detail: bool = True) -> Analysis:
    """Everything the live views need for one sentence under one set of knobs.
    ``detail=False`` (a keystroke's grid): the patterns and the guesses only; no scores of
    the selected layer, no head statistics and no second, as-trained run for an
    experiment's "before -> after" (those fields are None)."""
    config = model.config
    masked_word = not config.causal
    prep = prepare(tok, text, config.n_ctx, masked_word)
    settings = settings or AttentionSettings()
    resolved = settings.resolve(config)  # raises ValueError on impossible settings
    notices = list(prep.notices)
    if not prep.ids:
        return Analysis([], [], np.zeros((config.n_layers, config.n_heads, 0, 0), np.float32),
                        None, None, None, [], None, None, resolved.interventions,
                        tuple(notices))
    layer = min(max(int(layer), 0), config.n_layers - 1)
    names = ["*hook_pattern"]
    if detail:
        names += [f"blocks.{layer}.attn.hook_scores", f"blocks.{layer}.attn.hook_scaled",
                  f"blocks.{layer}.attn.hook_masked"]
    tokens = torch.tensor([prep.ids])
    at = _predict_position(prep.ids, tok.mask_id, masked_word)
    # Logits only where the guesses are shown: W_U on one position instead of every one.
    where = torch.tensor([0 if at is None else at])
    logits, cache = run_with_cache(model, tokens, settings, names=names, logits_at=where)
    patterns = cache.stack("attn.hook_pattern")[:, 0].numpy()  # [layer, head, q, k]
    if masked_word and at is None:
        notices.append("Write [mask] (or ___) where you want the model to guess a word.")
    predictions = top_predictions(tok, logits[0, 0], top_k) if at is not None else []
    result = Analysis(
        tokens=prep.pieces, ids=prep.ids, patterns=patterns, scores=None, scaled=None,
        blocked=None, predictions=predictions, predict_at=at, stats=None,
        interventions=resolved.interventions, notices=tuple(notices),
    )
    if not detail:
        return result
    result.scores = cache[f"blocks.{layer}.attn.hook_scores"][0].numpy()
    result.scaled = cache[f"blocks.{layer}.attn.hook_scaled"][0].numpy()
    result.blocked = torch.isneginf(cache[f"blocks.{layer}.attn.hook_masked"][0]).numpy()
    result.stats = head_stats(patterns)
    if resolved.is_intervention:  # the same sentence as trained, for "before -> after"
        base_logits, base = run_with_cache(model, tokens, None, names="*hook_pattern",
                                           logits_at=where)
        result.baseline_stats = head_stats(base.stack("attn.hook_pattern")[:, 0].numpy())
        if at is not None:
            result.baseline_predictions = top_predictions(tok, base_logits[0, 0], top_k)
    return result
