"""Token text as a student should see it, made safe for Plotly's pseudo-HTML.

Two separate steps, always applied in this order:

1. :func:`display_token` makes every character *visible*: a token is text exactly
   as typed, and a space, a tab, a NUL or a zero-width joiner would otherwise be
   an empty-looking tick label. The mapping (documented, stable, tested):

   ========================================  ===================================
   space U+0020                              ``␣`` (U+2423)
   newline ``\\n``                             ``↵``
   tab ``\\t``                                 ``⇥``
   other C0 controls, NUL, DEL               Unicode control pictures (U+2400
                                             block): NUL -> ``␀``, ESC -> ``␛``,
                                             CR -> ``␍``, DEL -> ``␡``
   C1 controls, lone surrogates, invisible   ``⟨U+0085⟩`` (code point in hex)
   fillers (Hangul filler, braille blank)
   zero-width / bidi / other format chars,   a short name: ``⟨ZWSP⟩``,
   odd spaces, line/paragraph separators     ``⟨ZWJ⟩``, ``⟨RLO⟩``, ``⟨NBSP⟩``,
                                             ``⟨LS⟩`` ... else ``⟨U+XXXX⟩``
   a combining mark that starts a token      prefixed with ``◌`` (U+25CC)
   the empty token                           ``∅``
   ========================================  ===================================

   Everything else (letters of any script including RTL, CJK, emoji) is left
   alone. Emoji sequences stay intact: a ZWJ *between two pictographs*
   (👨‍💻), a variation selector after a base character (❤️) and tag characters
   after a black flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿) are part of the glyph, not hidden text.
   Lone surrogates (possible when text was decoded badly) must go: the JSON
   encoder Plotly uses (orjson) refuses them, which would crash the figure.

2. :func:`plotly_safe` escapes for Plotly.js, which renders a small HTML subset
   (``<a href>``, ``<b>``, ``<i>``, ``<span style>``, ``<br>``, ``<sup>``...) in
   tick labels, hover labels, titles, legends and annotations. Checked in the
   plotly.js source (``svg_text_utils.js``, identical in plotly.py's bundled
   v4.1.1 and Gradio 6's bundled v3.3.1): the string is split on ``<...>``;
   recognised tags become SVG elements and every other piece is passed through
   ``convertEntities`` and inserted with ``createTextNode``. ``convertEntities``
   decodes numeric entities (``&#34;``, ``&#x27;``) and only the named ones
   ``&amp; &lt; &gt; &nbsp; &mu; &times; &plusmn; &deg;`` -- so ``&quot;`` would
   be shown literally and we use numeric entities for quotes. Decoding is a
   single regex pass, so ``&amp;lt;`` shows as the literal text ``&lt;``: the
   student sees exactly the characters typed, never markup. ``$`` is escaped
   too (``&#36;``) because Plotly typesets ``$...$`` as LaTeX when a page has
   MathJax loaded; the check runs on the raw string, before entity decoding.

:func:`axis_labels` composes both (plus truncation of very long tokens) for
tick text. Never put user text into a ``hovertemplate``/``texttemplate``
string: ``%{...}`` in it would be interpreted; pass it as data (tick text,
``text``) and reference it instead.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

SPACE = "\u2423"  # ␣
NEWLINE = "\u21b5"  # ↵
TAB = "\u21e5"  # ⇥
EMPTY = "\u2205"  # ∅
DOTTED_CIRCLE = "\u25cc"  # ◌ carrier for a combining mark with nothing to combine with
ELLIPSIS = "\u2026"  # …

# Short names for the invisible characters a student is most likely to meet.
_NAMES = {
    0x00A0: "NBSP", 0x00AD: "SHY", 0x034F: "CGJ", 0x061C: "ALM", 0x180E: "MVS",
    0x200B: "ZWSP", 0x200C: "ZWNJ", 0x200D: "ZWJ", 0x200E: "LRM", 0x200F: "RLM",
    0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO", 0x202E: "RLO",
    0x202F: "NNBSP", 0x2028: "LS", 0x2029: "PS", 0x2060: "WJ", 0x2066: "LRI",
    0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI", 0xFE0E: "VS15", 0xFE0F: "VS16",
    0xFEFF: "BOM",
}
# Letters/symbols that draw nothing (used to fake "empty" names) and are not Cf/Zs.
_BLANK_LOOKING = frozenset({0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0, 0x034F})
_FITZPATRICK = range(0x1F3FB, 0x1F400)  # skin-tone modifiers inside emoji sequences
_TAGS = range(0xE0020, 0xE0080)  # subdivision-flag tag characters
_BLACK_FLAG = 0x1F3F4

# Printable (str.isprintable) yet invisible or selector-like: still need the slow path.
_PRINTABLE_SPECIAL = re.compile(
    "[\u034f\u115f\u1160\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]")

# Escapes for Plotly.js pseudo-HTML; numeric entities for quotes (see module doc).
_PLOTLY_ESCAPES = str.maketrans({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;", "$": "&#36;",
})


def _marker(cp: int) -> str:
    return "\u27e8" + _NAMES.get(cp, f"U+{cp:04X}") + "\u27e9"  # ⟨NAME⟩


def _is_variation_selector(cp: int) -> bool:
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF or 0x180B <= cp <= 0x180F


def _pictograph_before(text: str, i: int) -> bool:
    """Is the last real character before index i a pictograph (skipping VS16/skin tone)?"""
    j = i - 1
    while j >= 0 and (ord(text[j]) == 0xFE0F or ord(text[j]) in _FITZPATRICK):
        j -= 1
    return j >= 0 and unicodedata.category(text[j]) == "So"


def _keeps_emoji(text: str, i: int, cp: int) -> bool:
    """True when the invisible character at i is part of a visible emoji glyph."""
    if cp == 0x200D:  # ZWJ glues two pictographs: 👨 ZWJ 💻
        return (_pictograph_before(text, i) and i + 1 < len(text)
                and unicodedata.category(text[i + 1]) == "So")
    if _is_variation_selector(cp):  # ❤ + VS16; needs a visible base right before it
        return i > 0 and _visible_base(text[i - 1])
    if cp in _TAGS:  # 🏴 + tag letters + cancel tag
        return _BLACK_FLAG in map(ord, text[:i])
    return False


def _visible_base(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] in "LNPS" and ord(ch) not in _BLANK_LOOKING


def _show_char(text: str, i: int, visible_spaces: bool) -> str:
    ch = text[i]
    cp = ord(ch)
    if ch == " ":
        return SPACE if visible_spaces else " "
    if ch == "\n":
        return NEWLINE if visible_spaces else " "
    if ch == "\t":
        return TAB if visible_spaces else " "
    if cp < 0x20:
        return chr(0x2400 + cp)  # control pictures: ␀ ␁ ... ␛ ... ␟
    if cp == 0x7F:
        return "\u2421"  # ␡
    if cp < 0x80:
        return ch  # printable ASCII: the common case, skip the Unicode lookup
    cat = unicodedata.category(ch)
    if cat in ("Cc", "Cs", "Zl", "Zp") or cp in _BLANK_LOOKING:
        return _marker(cp)
    if cat == "Zs" or cat == "Cf" or _is_variation_selector(cp):
        return ch if _keeps_emoji(text, i, cp) else _marker(cp)
    return ch


def display_token(text: str, *, visible_spaces: bool = True) -> str:
    """What a student sees for one token: every character visible, nothing hidden.

    ``visible_spaces=False`` is for free text such as titles: ordinary spaces stay
    spaces and newlines/tabs become spaces, while NUL, zero-width and bidi
    characters are still made visible. The result is NOT yet safe for Plotly;
    pass it through :func:`plotly_safe`.
    """
    if not text:
        return EMPTY if visible_spaces else ""
    if text.isprintable() and not _PRINTABLE_SPECIAL.search(text):
        # Fast path (nearly every token): isprintable() is False for every control,
        # format, separator, surrogate and unassigned character and for every space
        # except U+0020, so the only thing left to show is the ordinary space.
        shown = text.replace(" ", SPACE) if visible_spaces else text
    else:
        shown = "".join(_show_char(text, i, visible_spaces) for i in range(len(text)))
    if unicodedata.category(text[0])[0] == "M" and not _is_variation_selector(ord(text[0])):
        shown = DOTTED_CIRCLE + shown  # a lone accent needs something to sit on
    return shown


def plotly_safe(text: str) -> str:
    """Escape ``& < > " ' $`` so Plotly.js shows the characters literally, never markup."""
    return text.translate(_PLOTLY_ESCAPES)


def safe_text(text: str) -> str:
    """Free text (titles, legend names, which may quote the student's sentence):
    spaces kept, invisible characters shown, escaped for Plotly."""
    return plotly_safe(display_token(text, visible_spaces=False))


def token_label(text: str, max_chars: int | None = 24) -> str:
    """One token for a tick or legend: visible, truncated with ``…`` past max_chars
    characters (of the visible form, before escaping so no entity is cut), escaped."""
    shown = display_token(text)
    if max_chars is not None and len(shown) > max_chars:
        shown = shown[: max(1, max_chars - 1)] + ELLIPSIS
    return plotly_safe(shown)


def axis_labels(tokens: Iterable[str], max_chars: int | None = 24) -> list[str]:
    """Tick text for positions 0..T-1, one label per token, duplicates kept.

    Use with a numeric axis (``tickmode="array"``, ``tickvals=range(T)``,
    ``ticktext=axis_labels(tokens)``), never a categorical axis keyed by token
    text: "the cat saw the cat" must keep five positions, not three categories.
    """
    return [token_label(t, max_chars) for t in tokens]
