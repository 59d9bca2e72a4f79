"""Share links: the sentence and every knob as URL query parameters, and back.

A teacher copies a link such as::

    http://host/?text=The+cat+sat&model=causal&heads=4&pos=rotary&mask=off
               &scale=d_head&temp=1.5&layer=2&head=3

into their slides; opening it shows the same sentence under the same settings.
:func:`share_query` writes the query string from the controls' values,
:func:`parse_query` reads one back. Every value from a URL is untrusted and is
checked like the UI's own: a choice must be one the UI offers, numbers are
bounded (temperature clipped to :data:`~explorer.views.explore.TEMPERATURE_RANGE` and
rounded to the slider's step, layer and head to the sliders' ranges), the text is
cut to :data:`~explorer.analysis.run.MAX_CHARS`. A missing, unknown or malformed
parameter is simply left out of the result (the control keeps its value); unknown
parameter names are ignored. No gradio here.

Parameters (``PARAMS``): ``text``; ``model`` = ``causal`` | ``bidir``; ``heads`` =
1 | 2 | 4 | 8; ``pos`` = none | sinusoidal | learned | rotary | alibi; ``mask`` =
``trained`` | ``on`` | ``off``; ``scale`` = ``d_head`` | ``d_model`` | ``none``;
``temp``; ``layer``; ``head``; ``tab`` = the id of the view to open (``explore``,
``layers``...: only its form is checked here; the page opens it only if it has a view of
that id); ``corrupt`` = Patch's corrupted copy, in a link that opens Patch (cut like the
text). Not ``view``: Gradio's own pages use ``?view=api``.

:func:`qr_modules` draws a link as a QR code (``segno``, pure Python) for a projector: a
class points its phones at it instead of typing the address.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Mapping
from urllib.parse import urlencode, urlsplit

import numpy as np
import segno

from explorer.analysis.run import MAX_CHARS
from explorer.views.controls import (
    HEADS,
    OBJECTIVES,
    POSITIONAL,
    SCALE_CHOICES,
    TEMPERATURE_RANGE,
    Controls,
)

PARAMS = ("text", "model", "heads", "pos", "mask", "scale", "temp", "layer", "head", "tab",
          "corrupt")
CORRUPT_TABS = ("patch",)  # the views that read a corrupted copy: a link to them carries it
# URL word <-> the UI's label for the same choice
MODEL_WORDS = {word: label for label, word in OBJECTIVES.items()}  # causal -> "next word..."
MASK_WORDS = {"trained": "as trained", "on": "on", "off": "off"}
SCALE_WORDS = {word: label for label, word in SCALE_CHOICES.items()}  # d_head -> "1/√d_head"
TEMPERATURE_STEP = 0.05
LAYER_MAX = 3  # the UI's layer slider is 0..3
HEAD_MAX = max(HEADS) - 1  # the last head of the largest model (the UI narrows its slider)
MAX_NUMBER_CHARS = 24  # a number longer than this in a URL is not one a person typed
MAX_BASE_CHARS = 2000
TAB_ID = re.compile(r"[a-z][a-z0-9_-]{0,31}")  # the form of the page's own view ids
TAB_ALIASES = {"export": "take_home"}  # view ids of older links -> the id the view has now
QR_BORDER = 4  # the quiet zone QR readers need around the code, in modules
QR_ERROR = "m"  # error correction: ~15 % of the code may be unreadable (a projector's glare)


def _int(raw: str, low: int, high: int) -> int | None:
    if len(raw) > MAX_NUMBER_CHARS:
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        return None
    return value if low <= value <= high else None


def _temperature(raw: str) -> float | None:
    if len(raw) > MAX_NUMBER_CHARS:
        return None
    try:
        value = float(raw.strip())
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    low, high = TEMPERATURE_RANGE
    value = min(max(value, low), high)
    return round(round(value / TEMPERATURE_STEP) * TEMPERATURE_STEP, 2)


def parse_query(params: Mapping[str, str], layer_max: int = LAYER_MAX,
                head_max: int = HEAD_MAX) -> dict[str, object]:
    """Valid parameters -> ``{panel field: UI value}`` with the panel's field names
    (``text``, ``objective``, ``heads``, ``pos``, ``mask``, ``scaling``,
    ``temperature``, ``layer``, ``head``, and ``tab``, ``corrupt``); anything invalid is
    left out."""
    def get(name: str) -> str | None:
        value = params.get(name)
        return value if isinstance(value, str) else None

    out: dict[str, object] = {}
    text = get("text")
    if text is not None:
        out["text"] = text[:MAX_CHARS]
    if (word := get("model")) in MODEL_WORDS:
        out["objective"] = MODEL_WORDS[word]
    if (raw := get("heads")) is not None and (n := _int(raw, 1, max(HEADS))) in HEADS:
        out["heads"] = n
    if (word := get("pos")) in POSITIONAL:
        out["pos"] = word
    if (word := get("mask")) in MASK_WORDS:
        out["mask"] = MASK_WORDS[word]
    if (word := get("scale")) in SCALE_WORDS:
        out["scaling"] = SCALE_WORDS[word]
    if (raw := get("temp")) is not None and (t := _temperature(raw)) is not None:
        out["temperature"] = t
    if (raw := get("layer")) is not None and (n := _int(raw, 0, layer_max)) is not None:
        out["layer"] = n
    if (raw := get("head")) is not None and (n := _int(raw, 0, head_max)) is not None:
        out["head"] = n
    if (word := get("tab")) is not None and TAB_ID.fullmatch(word):
        out["tab"] = TAB_ALIASES.get(word, word)
    if (copy := get("corrupt")) is not None:
        out["corrupt"] = copy[:MAX_CHARS]
    return out


def share_query(text: str, controls: Controls, tab: str | None = None,
                corrupt: str | None = None) -> str:
    """The query string (no leading ``?``) for a sentence and validated controls; ``tab``
    (a view id) is added when it has the form of one, and ``corrupt`` (Patch's corrupted
    copy) when the link opens a view that reads it."""
    mask_word = {label: word for word, label in MASK_WORDS.items()}[controls.mask]
    values = {
        "text": (text or "")[:MAX_CHARS],
        "model": OBJECTIVES[controls.objective],
        "heads": str(int(controls.heads)),
        "pos": controls.pos,
        "mask": mask_word,
        "scale": SCALE_CHOICES[controls.scaling],
        "temp": f"{float(controls.temperature):g}",
        "layer": str(int(controls.layer)),
        "head": str(int(controls.head)),
    }
    if tab and TAB_ID.fullmatch(tab):
        values["tab"] = tab
        if corrupt and tab in CORRUPT_TABS:
            values["corrupt"] = corrupt[:MAX_CHARS]
    return urlencode(values)


def share_link(base: str, text: str, controls: Controls, tab: str | None = None,
               corrupt: str | None = None) -> str:
    """``base`` (the page's own address, as the browser reports it) + the query.

    ``base`` must be an http(s) address; its own query and fragment are dropped.
    Anything else gives just ``?query`` (still usable after the app's address).
    """
    query = share_query(text, controls, tab, corrupt)
    base = (base or "").strip()
    if len(base) <= MAX_BASE_CHARS:
        parts = urlsplit(base)
        if parts.scheme in ("http", "https") and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}{parts.path or '/'}?{query}"
    return "?" + query


def qr_modules(link: str) -> np.ndarray | None:
    """The QR code of ``link`` as a bool array (True = dark module), quiet zone included,
    or None when the link is too long for any QR code (a long sentence in another script:
    each character is up to 9 bytes once URL-encoded) or is not a full http(s) address."""
    if not link.startswith(("http://", "https://")):
        return None
    try:
        code = segno.make(link, error=QR_ERROR, micro=False)
    except segno.DataOverflowError:
        return None
    return np.array(list(code.matrix_iter(scale=1, border=QR_BORDER)), dtype=bool)


def qr_svg(link: str, scale: int = 4) -> str | None:
    """``link``'s QR code as an SVG document (black on white, quiet zone included), or
    None where :func:`qr_modules` has none."""
    if qr_modules(link) is None:
        return None
    out = io.BytesIO()
    segno.make(link, error=QR_ERROR, micro=False).save(
        out, kind="svg", scale=scale, border=QR_BORDER, light="#fff", dark="#000",
        xmldecl=False)
    return out.getvalue().decode("utf-8")


def qr_image(link: str, size: int = 600) -> np.ndarray | None:
    """``qr_modules`` as an RGB picture (black on white, ``uint8`` [H, W, 3]) of about
    ``size`` pixels, each module a whole square of pixels so it stays sharp when scaled."""
    modules = qr_modules(link)
    if modules is None:
        return None
    pixels_per_module = max(2, size // len(modules))
    grey = np.where(modules, 0, 255).astype(np.uint8)
    big = np.kron(grey, np.ones((pixels_per_module, pixels_per_module), np.uint8))
    return np.repeat(big[:, :, None], 3, axis=2)
