"""One student request, end to end, as plain data: text -> tokens -> capture -> numbers.

This is the logic behind every live update. It bounds the input on the server
(characters, then tokens), runs one capture of just what the views show, and
returns numpy arrays and strings that the figure builders draw. No gradio here.

Masked-word models predict where the student wrote ``[mask]``, ``<mask>`` or
three or more underscores (``___``).

The notices :func:`prepare` gives are plain sentences that never quote the student's
text (they are shown as Markdown): one when the text was cut, saying what was kept, and
one when the text holds what this model never learned (other scripts, emoji, characters
that fall apart into byte tokens). :data:`TOKENS_HELP` explains the token labels.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer.analysis.head_stats import HeadStats, head_stats
from explorer.models.capture import run_with_cache
from explorer.models.settings import AttentionSettings
from explorer.models.tokenizer import Tokenizer
from explorer.models.transformer import Transformer

MAX_CHARS = 1000  # characters accepted per request (more is cut, with a notice)
TOP_K = 8
MASK_MARKER = re.compile(r"\[mask\]|<mask>|_{3,}", re.IGNORECASE)
MASK_LABEL = "[mask]"
MASK_HINT = "Write [mask] (or ___) where you want the model to guess a word."
# What a student needs to read the token labels of every view (Markdown, our own text).
TOKENS_HELP = (
    "**Tokens** are the pieces the model reads: a word, part of a word or a punctuation "
    "mark. **␣** marks a space: most words carry the space before them, so ␣cat and cat "
    "are different tokens, and a space at the end of your text is left out (alone, before "
    "the word it belongs to is typed, it would ask the model for pieces of words). **↵** is "
    "a new line; **∅** is a token that only finishes a "
    "character split into bytes. **`<|endoftext|>`** separates the stories the model was "
    "trained on: as a guess it means \"the story ends here\". The model knows only the "
    "simple English of children's stories (TinyStories).")
# Unicode name's first word -> what to call such letters (anything else: the word itself).
_SCRIPTS = {"CJK": "Chinese or Japanese", "HIRAGANA": "Japanese", "KATAKANA": "Japanese",
            "HANGUL": "Korean", "CYRILLIC": "Cyrillic", "LATIN": "accented Latin"}


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 token"``, ``"2 tokens"``, ``"1,000 characters"``."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


@dataclass(frozen=True)
class Prepared:
    ids: list[int]
    pieces: list[str]  # each token's text as the student typed it
    notices: tuple[str, ...]


def _byte_tokens(pieces: list[str]) -> tuple[int, int]:
    """(characters split over several tokens, tokens they took): a split character shows on
    its first token and leaves the following ones empty (``Tokenizer.token_pieces``)."""
    chars = tokens = 0
    for i, piece in enumerate(pieces):
        if piece == "" and i > 0:
            tokens += 1
            if pieces[i - 1] != "":  # the first continuation: count the character's start
                chars, tokens = chars + 1, tokens + 1
    return chars, tokens


def _unfamiliar_kinds(text: str) -> list[str]:
    """Kinds of characters in ``text`` outside the plain English the model learned, named
    from Unicode (never the characters themselves), in order of first appearance."""
    kinds: dict[str, None] = {}
    for ch in text:
        if ch.isascii():
            continue
        category = unicodedata.category(ch)
        if category.startswith("L"):
            script = unicodedata.name(ch, "OTHER").split(" ")[0]
            kinds[_SCRIPTS.get(script, script.title()) + " letters"] = None
        elif category == "So":
            kinds["emoji or symbols"] = None
    return list(kinds)


def unfamiliar_notice(text: str, pieces: list[str]) -> str | None:
    """A plain sentence when ``text`` (tokenized into ``pieces``) holds what the model never
    learned: letters of another script, emoji, or characters that became byte tokens."""
    kinds = _unfamiliar_kinds(text)
    chars, tokens = _byte_tokens(pieces)
    if not kinds and not chars:
        return None
    what = ", ".join(kinds) if kinds else "characters"
    notice = (f"Your text has {what} that this model never learned: it was trained only on "
              "the simple English of children's stories (TinyStories).")
    if chars:
        notice += (f" {plural(chars, 'character')} became {plural(tokens, 'byte token')} "
                   "(pieces of a character: ∅ marks the pieces after the first), so what "
                   "the heads and guesses do there means little.")
    return notice


def prepare(tok: Tokenizer, text: str, n_ctx: int, masked_word: bool) -> Prepared:
    """Bound and tokenize. Never raises on user text: problems become notices.

    Text is cut twice, to MAX_CHARS characters and then to ``n_ctx`` tokens; one notice
    says what was kept (the text the page sends may already be cut to MAX_CHARS by the
    box, so the notice counts what was kept, not what was typed)."""
    text = "" if text is None else str(text)
    cut_chars = len(text) > MAX_CHARS
    # Spaces at the end are left out (TOKENS_HELP says so): the tokenizer joins a space to
    # the word after it (" ball"), so in everything the model read a lone " " never came
    # before a word, and after one its guesses were pieces of words ("ing", "r", "el" for
    # "The cat sat on the "). A student typing pauses there between every two words.
    text = text[:MAX_CHARS].rstrip(" ")
    ids: list[int] = []
    pieces: list[str] = []
    ends: list[int] = []  # each token's end in ``text`` (characters)
    # Split on mask markers for masked-word models; for next-word models they are just text.
    starts = [0]
    segments = [text]
    if masked_word:
        spans = [(m.start(), m.end()) for m in MASK_MARKER.finditer(text)]
        bounds = [0, *(x for span in spans for x in span), len(text)]
        segments = [text[bounds[i]:bounds[i + 1]] for i in range(0, len(bounds), 2)]
        starts = bounds[0::2]
        marker_ends = [end for _, end in spans]
    for i, (segment, at) in enumerate(zip(segments, starts, strict=True)):
        if i > 0:
            ids.append(tok.mask_id)
            pieces.append(MASK_LABEL)
            ends.append(marker_ends[i - 1])
        for token_id, piece, (_start, end) in tok.token_pieces(segment):
            ids.append(token_id)
            pieces.append(piece)
            ends.append(at + end)
    notices = []
    if len(ids) > n_ctx:
        ids, pieces, kept = ids[:n_ctx], pieces[:n_ctx], ends[n_ctx - 1]
        notices.append(f"The model reads at most {n_ctx} tokens, so only the beginning of "
                       f"your text was used: its first {plural(kept, 'character')} "
                       f"({n_ctx} tokens). The rest was left out.")
        text = text[:kept]
    elif cut_chars:
        notices.append(f"Only the first {MAX_CHARS:,} characters of your text were used; "
                       "the rest was left out.")
    if (unfamiliar := unfamiliar_notice(text, pieces)) is not None:
        notices.append(unfamiliar)
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


# ---- Many sentences in one forward pass: the keystrokes of a class typing at once. One
# pass over 8 sentences costs far less than 8 (one CPU thread, 25 tokens: 3.9 ms for one,
# 10.7 ms for 8, 31.9 ms for 32). Sentences are sorted by length and each is padded on the
# right to the longest of its chunk. Padding after a sentence changes nothing it computes:
# with the causal mask a query never sees a later key, and without it ``key_padding_mask``
# hides the padding keys; positions count from 0 in every row, so absolute, rotary and
# ALiBi positions are those of the sentence alone. What can move is the last bits of a
# float32 sum (a matrix product of 3 rows and one of 6 add in different orders): a weight
# differs by at most ~1e-6 from the same sentence's alone (tests/analysis/test_batch.py).
MAX_BATCH = 32  # sentences in one forward pass (the measured gain flattens past this)


def _nothing(config, resolved, notices: tuple[str, ...]) -> Analysis:
    """The analysis of a text with no tokens: an empty grid and the notices."""
    return Analysis([], [], np.zeros((config.n_layers, config.n_heads, 0, 0), np.float32),
                    None, None, None, [], None, None, resolved.interventions, notices)


def analyse_batch(model: Transformer, tok: Tokenizer, texts: list[str],
                  settings: AttentionSettings | None = None, top_k: int = TOP_K,
                  max_batch: int = MAX_BATCH) -> list[Analysis]:
    """One :class:`Analysis` per text (patterns and guesses only, as ``analyse(...,
    detail=False)``, which is this with one text), ``max_batch`` sentences per pass."""
    config = model.config
    masked_word = not config.causal
    settings = settings or AttentionSettings()
    resolved = settings.resolve(config)  # raises ValueError on impossible settings
    preps = [prepare(tok, text, config.n_ctx, masked_word) for text in texts]
    out = [_nothing(config, resolved, p.notices) for p in preps]  # kept where nothing runs
    ranked = sorted((i for i, p in enumerate(preps) if p.ids), key=lambda i: len(preps[i].ids))
    for chunk in (ranked[j:j + max_batch] for j in range(0, len(ranked), max_batch)):
        lengths = [len(preps[i].ids) for i in chunk]
        tokens = torch.zeros(len(chunk), max(lengths), dtype=torch.long)  # [batch, pos]
        padding = torch.ones(len(chunk), max(lengths), dtype=torch.bool)  # True: padding
        for row, i in enumerate(chunk):
            tokens[row, :lengths[row]] = torch.tensor(preps[i].ids)
            padding[row, :lengths[row]] = False
        pad_mask = padding if padding.any() and not resolved.causal else None
        # logits_at one position: the forward's own W_U is skipped (each row's guess
        # position differs, so W_U is applied below to hook_final at those positions)
        _, cache = run_with_cache(model, tokens, settings, names=["*hook_pattern", "hook_final"],
                                  key_padding_mask=pad_mask,
                                  logits_at=torch.zeros(1, dtype=torch.long))
        patterns = cache.stack("attn.hook_pattern").numpy()  # [layer, batch, head, q, k]
        ats = [_predict_position(preps[i].ids, tok.mask_id, masked_word) for i in chunk]
        rows = [row for row, at in enumerate(ats) if at is not None]
        if rows:  # W_U on each guess's own position only: [rows, d_model] -> [rows, vocab]
            with torch.inference_mode():
                final = cache["hook_final"][rows, [ats[row] for row in rows]]
                logits = model.W_U(final.to(model.W_U.weight.device)).float().cpu()
        for row, i in enumerate(chunk):
            n, at, notices = lengths[row], ats[row], list(preps[i].notices)
            if masked_word and at is None:
                notices.append(MASK_HINT)
            out[i] = Analysis(
                tokens=preps[i].pieces, ids=preps[i].ids,
                patterns=patterns[:, row, :, :n, :n].copy(),  # [layer, head, q, k]
                scores=None, scaled=None, blocked=None,
                predictions=[] if at is None else top_predictions(
                    tok, logits[rows.index(row)], top_k),
                predict_at=at, stats=None, interventions=resolved.interventions,
                notices=tuple(notices))
    return out


def analyse(model: Transformer, tok: Tokenizer, text: str,
            settings: AttentionSettings | None = None, layer: int = 0,
            top_k: int = TOP_K, detail: bool = True) -> Analysis:
    """Everything the live views need for one sentence under one set of knobs.
    ``detail=False`` (a keystroke's grid): the patterns and the guesses only; no scores of
    the selected layer, no head statistics and no second, as-trained run for an
    experiment's "before -> after" (those fields are None)."""
    if not detail:  # a keystroke's grid: the batched path, with one sentence
        return analyse_batch(model, tok, [text], settings, top_k)[0]
    config = model.config
    masked_word = not config.causal
    prep = prepare(tok, text, config.n_ctx, masked_word)
    settings = settings or AttentionSettings()
    resolved = settings.resolve(config)  # raises ValueError on impossible settings
    notices = list(prep.notices)
    if not prep.ids:
        return _nothing(config, resolved, tuple(notices))
    layer, _ = config.clamp(layer)
    names = ["*hook_pattern", f"blocks.{layer}.attn.hook_scores",
             f"blocks.{layer}.attn.hook_scaled", f"blocks.{layer}.attn.hook_masked"]
    tokens = torch.tensor([prep.ids])
    at = _predict_position(prep.ids, tok.mask_id, masked_word)
    # Logits only where the guesses are shown: W_U on one position instead of every one.
    where = torch.tensor([0 if at is None else at])
    logits, cache = run_with_cache(model, tokens, settings, names=names, logits_at=where)
    patterns = cache.stack("attn.hook_pattern")[:, 0].numpy()  # [layer, head, q, k]
    if masked_word and at is None:
        notices.append(MASK_HINT)
    predictions = top_predictions(tok, logits[0, 0], top_k) if at is not None else []
    result = Analysis(
        tokens=prep.pieces, ids=prep.ids, patterns=patterns, scores=None, scaled=None,
        blocked=None, predictions=predictions, predict_at=at, stats=None,
        interventions=resolved.interventions, notices=tuple(notices),
    )
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
