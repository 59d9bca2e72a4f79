"""The words of the browser's grid caption, as one JSON the page fills in (issue 38).

``static/engine/payload.js`` builds the same payload as :func:`explorer.views.grid_payload.
grid_payload` from the browser engine; its caption must read exactly as the server's. The
prose is never copied into JavaScript: every sentence here is produced by the Python code that
writes it (``plural``, ``AttentionSettings.resolve``, ``prepare``, ``unfamiliar_notice``,
``MASK_HINT``, ``EMPTY_STATE``) with marked values, which become ``{placeholders}``.

Shape of :func:`engine_texts` (all plain text, no user text)::

    {"plural": {"token": ["token", "tokens"], "character": [...], "byte token": [...]},
     "caption": {"experiment": " · 🧪 experiment: ", "join": "; ", "notice": " · ⚠️ "},
     "interventions": {"causal": {"true": str, "false": str},   # the mask now on / off
                       "scale": {"<trained>><now>": str, ...},
                       "temperature": "... {t} ...", "heads": "... {heads} ...",
                       "head": "L{layer}H{head}", "heads_join": ", "},
     "notices": {"cut_tokens": "... {n_ctx} ... {kept} ...", "cut_chars": str,
                 "unfamiliar": "... {what} ...", "unfamiliar_bytes": " {chars} ... {tokens} ...",
                 "what_default": "characters", "what_join": ", ", "mask_hint": str},
     "empty_state": str, "grid_label_chars": int, "colors": {"light": {...}, "dark": {...}},
     "kinds": [names], "kind_ranges": [start, end, kind index, ...]  # code points, inclusive
     "label_ranges": [start, end, class, ...]  # the same, every code point with a class
     "controls": {"objectives": {...}, "masks": {...}, "scales": {...},
                  "temperature_range": [low, high], "heads": [...], "positional": [...],
                  "lab": str, "models": {objective: {heads: {pos: checkpoint}}}}}

``kind_ranges`` is what ``_unfamiliar_kinds`` says of every non-ASCII code point, run-length
coded: the browser has no Unicode names table, so it reads this one. ``label_ranges`` is the
class of every code point that explorer/figures/labels.py asks ``unicodedata.category``
about (1 So, 2 Cc/Cs/Zl/Zp, 3 Zs/Cf, 4 other L/N/P/S, 5 M; none: 0), the same way: the
browser's own Unicode tables are of another version than Python's (U+0897 is a mark in
Unicode 16, unassigned in Python 3.11's), and a label must read as the server's.
"""

from __future__ import annotations

import functools
import unicodedata
from types import SimpleNamespace

from explorer.analysis import run as analysis_run
from explorer.analysis.run import MASK_HINT, plural, prepare, unfamiliar_notice
from explorer.figures.attention import GRID_LABEL_CHARS
from explorer.models.config import SCALINGS
from explorer.models.settings import AttentionSettings
from explorer.views import grid_payload as gp
from explorer.views.controls import EMPTY_STATE, KNOBS, Controls


def _words(word: str) -> list[str]:
    """[singular, plural] as :func:`plural` writes them."""
    return [plural(1, word).split(" ", 1)[1], plural(2, word).split(" ", 1)[1]]


def _config(causal: bool = True, scale: str = "d_head"):
    """Just what ``AttentionSettings.resolve`` reads of a model's config."""
    return SimpleNamespace(causal=causal, attn_scale=scale, d_head=32, d_model=128,
                           n_layers=8, n_heads=8)


def _only(items) -> str:
    (item,) = items
    return item


def _marked(text: str, marks: dict[str, str]) -> str:
    """``text`` with each marked value replaced by its ``{placeholder}``; each must occur."""
    for value, name in marks.items():
        if value not in text:
            raise AssertionError(f"{value!r} not in {text!r}")
        text = text.replace(value, "{" + name + "}")
    return text


def _interventions() -> dict:
    resolve = AttentionSettings
    heads1 = _only(resolve(head_mask=((7, 5),)).resolve(_config()).interventions)
    heads2 = _only(resolve(head_mask=((1, 2), (3, 4))).resolve(_config()).interventions)
    one = _marked(heads1, {"L7H5": "heads"})
    prefix = one.split("{heads}")[0]
    return {
        "causal": {str(now).lower(): _only(resolve(causal=now).resolve(
            _config(causal=not now)).interventions) for now in (True, False)},
        "scale": {f"{trained}>{now}": _only(resolve(scale=now).resolve(
            _config(scale=trained)).interventions)
            for trained in SCALINGS for now in SCALINGS if now != trained},
        "temperature": _marked(_only(resolve(temperature=2.75).resolve(
            _config()).interventions), {"2.75": "t"}),
        "heads": one,
        "head": _marked(heads1[len(prefix):], {"7": "layer", "5": "head"}),
        "heads_join": heads2[len(prefix) + len("L1H2"):-len("L3H4")],
    }


class _Pieces:
    """A stand-in tokenizer for :func:`prepare`: one token per two characters."""

    mask_id = 2

    def token_pieces(self, text: str):
        return [(9, text[i:i + 2], (i, min(i + 2, len(text)))) for i in range(0, len(text), 2)]


def _notices() -> dict:
    (cut_tokens,) = prepare(_Pieces(), "a" * 999, 337, False).notices  # 337 tokens: 674 chars
    (cut_chars,) = prepare(_Pieces(), "a" * 1001, 10_000, False).notices
    bytes_only = unfamiliar_notice("ab", ["a", "", "", "b", "", ""])  # 2 chars -> 6 tokens
    latin = unfamiliar_notice("é", ["é"])
    two = unfamiliar_notice("éж", ["é", "ж"])
    kinds = analysis_run._unfamiliar_kinds("éж")
    what = _marked(latin, {kinds[0]: "what"})
    head = bytes_only[:bytes_only.index(" " + plural(2, "character"))]
    before, after = what.split("{what}")
    return {
        "cut_tokens": _marked(cut_tokens, {plural(674, "character"): "kept", "337": "n_ctx"}),
        "cut_chars": cut_chars,
        "unfamiliar": what,
        "unfamiliar_bytes": _marked(bytes_only[len(head):], {
            plural(2, "character"): "chars", plural(6, "byte token"): "tokens"}),
        "what_default": head[len(before):len(head) - len(after)],
        "what_join": two[len(before) + len(kinds[0]):two.index(kinds[1])],
        "mask_hint": MASK_HINT,
    }


@functools.lru_cache(maxsize=1)
def _runs(first: int, value) -> list[int]:
    """``value(char)`` (an int, or None for none) of every code point from ``first`` on, as
    flat inclusive runs ``[start, end, value, ...]`` (what payload.js's runOf searches)."""
    flat: list[int] = []
    for cp in range(first, 0x110000):
        v = value(chr(cp))
        if v is None:
            continue
        if flat and flat[-1] == v and flat[-2] == cp - 1:
            flat[-2] = cp
        else:
            flat += [cp, cp, v]
    return flat


def _kind_ranges() -> tuple[list[str], list[int]]:
    """Every non-ASCII code point's kind (``_unfamiliar_kinds``), as inclusive runs."""
    kinds: list[str] = []

    def index(ch: str) -> int | None:
        if unicodedata.category(ch) in ("Cn", "Co", "Cs"):  # nothing to name
            return None
        found = analysis_run._unfamiliar_kinds(ch)
        if not found:
            return None
        if found[0] not in kinds:
            kinds.append(found[0])
        return kinds.index(found[0])

    return kinds, _runs(0x80, index)


LABEL_CLASSES = {"So": 1, "Cc": 2, "Cs": 2, "Zl": 2, "Zp": 2, "Zs": 3, "Cf": 3}


def _label_class(ch: str) -> int:
    cat = unicodedata.category(ch)
    return LABEL_CLASSES.get(cat) or (4 if cat[0] in "LNPS" else 5 if cat[0] == "M" else 0)


@functools.lru_cache(maxsize=1)
def _label_ranges() -> list[int]:
    """Every code point's label class (see the module docstring), as inclusive runs."""
    return _runs(0, lambda ch: _label_class(ch) or None)


def _controls() -> dict:
    """:data:`KNOBS` by field name, and the checkpoint each Model/Heads/Positional names."""
    models = {obj: {str(h): {pos: Controls(obj, h, pos).checkpoint()
                             for pos in KNOBS.positional}
                    for h in KNOBS.heads} for obj in KNOBS.objectives}
    return {**{name: list(value) if isinstance(value, tuple) else value
               for name, value in KNOBS._asdict().items()}, "models": models}


@functools.lru_cache(maxsize=1)
def engine_texts() -> dict:
    """The JSON the browser's payload.js reads (see the module docstring)."""
    kinds, ranges = _kind_ranges()
    return {
        "plural": {w: _words(w) for w in ("token", "character", "byte token")},
        "caption": {"experiment": gp.CAPTION_EXPERIMENT, "join": gp.CAPTION_JOIN,
                    "notice": gp.CAPTION_NOTICE},
        "interventions": _interventions(),
        "notices": _notices(),
        "empty_state": EMPTY_STATE,
        "grid_label_chars": GRID_LABEL_CHARS,
        "colors": {theme: gp.canvas_colors(theme) for theme in ("light", "dark")},
        "kinds": kinds,
        "kind_ranges": ranges,
        "label_ranges": _label_ranges(),
        "controls": _controls(),
    }
