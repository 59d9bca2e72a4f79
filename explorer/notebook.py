"""Attention in a notebook: the page's grid of every head, offline, from one call.

* :func:`head_view` draws the attention of any model: an array-like ``[layers, heads,
  query, key]``, or the tuple of per-layer ``[batch, heads, query, key]`` tensors a
  transformers model returns with ``output_attentions=True`` (nothing of transformers is
  imported; :mod:`explorer.views.notebook_input` reads it and says what is wrong with it).
* :func:`show` runs this project's own models with the page's knobs (heads, positional
  encoding, mask, scaling, temperature) and draws the same view with the model's guesses.

Both return an :class:`AttentionView`: Jupyter, JupyterLab, VS Code and Colab show it
through ``_repr_html_()``; ``.html`` is a whole self-contained page and ``.save(path)``
writes it (:mod:`explorer.views.notebook_view`, which Take it home uses too). The drawing is
the page's own canvas renderer, ``static/live_grid.js``, mounted by ``static/notebook.js``
in place of Gradio (both inlined as one bundle, ``static/build/notebook.js``): the grid, a
click on a head opens it large below, hovering shows the weight and its two tokens, light and
dark. Everything it needs is in the HTML (no CDN, no fonts, no request), and each view has its
own element ids and its own copy of the bundle, so several views in one notebook keep working.

    from explorer.notebook import head_view, show
    head_view(outputs.attentions, tokenizer.convert_ids_to_tokens(ids))
    show("The cat sat on the mat. The cat", heads=4, pos="rotary", mask="off")
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from explorer.models.device import resolve_device
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, Zoo, load_zoo
from explorer.views.controls import (
    MASK_CHOICES,
    OBJECTIVES,
    POSITIONAL,
    SCALE_CHOICES,
    BadControl,
    read_controls,
)
from explorer.views.explore import run_request
from explorer.views.grid_payload import grid_payload
from explorer.views.notebook_input import AttentionInputError, read_attention
from explorer.views.notebook_view import AttentionView, attention_payload

__all__ = ["AttentionInputError", "AttentionView", "head_view", "show"]

THEMES = ("auto", "light", "dark")
# show()'s friendly spellings -> the page's choices (explorer.views.controls)
OBJECTIVE_NAMES = {"next": "next word (causal)", "causal": "next word (causal)",
                   "masked": "masked word (bidirectional)",
                   "bidir": "masked word (bidirectional)"}
MASK_NAMES = {None: "as trained", True: "on", False: "off"}
SCALE_NAMES = {"d_head": "1/√d_head", "d_model": "1/√d_model"}


def _theme(theme: str) -> str:
    if theme not in THEMES:
        raise ValueError(f"theme={theme!r}: use one of {', '.join(THEMES)}.")
    return theme


def head_view(attention: Any, tokens: Sequence[str], *, layer: int = 0, head: int = 0,
              batch_index: int = 0, theme: str = "auto",
              title: str = "Attention") -> AttentionView:
    """Every head of ``attention`` as the page's grid, head (``layer``, ``head``) large.

    ``attention``: ``[layers, heads, query, key]`` array-like, or a tuple of per-layer
    ``[batch, heads, query, key]`` (or ``[heads, query, key]``) tensors; ``tokens``: one
    string per position. ``batch_index`` picks the sequence of a batch. Bad input raises
    :class:`AttentionInputError` saying why; a cut or odd input is drawn with a notice."""
    patterns, tokens, notices = read_attention(attention, tokens, batch_index)
    n_layers, n_heads, n = patterns.shape[:3]
    if not (0 <= layer < n_layers and 0 <= head < n_heads):
        raise AttentionInputError(f"There is no head L{layer} H{head} here: layers 0-"
                                  f"{n_layers - 1}, heads 0-{n_heads - 1}.")
    caption = f"{n} tokens · {n_layers} layers × {n_heads} heads · click a head to open it, " \
              "hover for the weight"
    payload = attention_payload(patterns, tokens, (layer, head),
                                " · ⚠️ ".join([caption, *notices]))
    return AttentionView(payload, _theme(theme), title, patterns, tokens, notices)


@functools.cache
def _resources(device: str) -> tuple[Tokenizer, Zoo]:
    """The tokenizer and the zoo, loaded once per process and device (as app.py does)."""
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    return tok, load_zoo(CHECKPOINT_DIR, vocab_size=tok.vocab_size).to(device)


def _choice(name: str, value: Any, spellings: dict, offered: Sequence) -> str:
    value = spellings.get(value, value)
    if value not in offered:
        friendly = [str(s) for s in spellings if s is not None and not isinstance(s, bool)]
        raise ValueError(f"{name}={value!r}: use one of {', '.join(friendly or map(str, offered))}"
                         f" (or the page's: {', '.join(map(str, offered))}).")
    return value


def show(text: str, heads: int = 4, pos: str = "rotary", *, objective: str = "next",
         mask: str | bool | None = None, scaling: str = "d_head", temperature: float = 1.0,
         layer: int = 0, head: int = 0, theme: str = "auto",
         device: str | None = None) -> AttentionView:
    """This project's model for ``heads`` (1, 2, 4, 8) and ``pos`` (none, sinusoidal,
    learned, rotary, alibi) on ``text``, with the page's knobs: ``objective`` "next" or
    "masked" (write ``[mask]`` in the text), ``mask`` None (as trained), True/"on" or
    False/"off", ``scaling`` "d_head", "d_model" or "none", ``temperature`` 0.1-5.
    The view shows every head, head (``layer``, ``head``) large, and the top guesses
    (also in ``.guesses``). ``device``: as the app's ``--device`` (default: auto)."""
    try:
        controls = read_controls(dict(
            objective=_choice("objective", objective, OBJECTIVE_NAMES, list(OBJECTIVES)),
            heads=heads, pos=_choice("pos", pos, {p: p for p in POSITIONAL}, POSITIONAL),
            mask=_choice("mask", mask, MASK_NAMES, list(MASK_CHOICES)),
            scaling=_choice("scaling", scaling, SCALE_NAMES | {"none": "none"},
                            list(SCALE_CHOICES)),
            temperature=temperature, layer=layer, head=head, theme="light"))
    except BadControl as exc:
        raise ValueError(f"{exc} heads: 1, 2, 4 or 8; temperature: a number.") from None
    tok, zoo = _resources(resolve_device(device))
    run = run_request(zoo, tok, text, controls, detail=False)
    analysed = None if isinstance(run, tuple) else run.result
    payload = grid_payload(zoo, tok, text, controls, analysed=analysed)
    if analysed is None:  # no such model, or no text: the view says so in its caption
        return AttentionView(payload, _theme(theme), "Attention Explorer")
    guesses = [(t, float(p)) for t, p in analysed.predictions[:3]]
    return AttentionView(payload, _theme(theme), f"Attention Explorer: {controls.checkpoint()}",
                         analysed.patterns, list(analysed.tokens), list(analysed.notices),
                         guesses)
