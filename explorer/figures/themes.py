"""Light and dark colour themes shared by every figure in :mod:`explorer.figures.attention`.

A theme is a frozen bag of colours plus :func:`base_layout`, the layout keys
every figure starts from. Colour choices:

* attention weights use ONE sequential, colour-blind-safe scale (Viridis,
  perceptually uniform, readable in greyscale) pinned to 0..1 in both themes,
  so a colour means the same weight in every panel and every figure;
* heads (head view lines) use the Okabe-Ito qualitative palette, reordered per
  theme so the first colours have good contrast on that background (no yellow
  first on white, no black on dark) and the first four (the default model's heads)
  stay apart under simulated deuteranopia and protanopia too: blue, vermillion,
  black/white, green (in Okabe-Ito's own order green and reddish purple, heads 2 and
  3, turn the same grey-brown for a deuteranope; tests/figures/test_head_palette.py);
* the selected-head outline is orange, which Viridis never uses;
* every colour drawn as text (``font``, ``muted``, ``accent``: the selected head's
  title) has a contrast of at least 4.5:1 with ``paper`` (WCAG AA; tests/ui/test_contrast.py),
  which is why light mode's orange is a dark one (#c05000, 4.8:1; #e66100 was 3.5:1).

``template`` is set to an empty dict on purpose: otherwise plotly.py injects
``plotly.io.templates.default`` (~10 kB of JSON per figure, and a process-global
setting another module could change) into every figure it builds.
"""

from __future__ import annotations

from dataclasses import dataclass

# Viridis as explicit stops (the 10 that plotly.py expands the name "Viridis" to), so a
# figure carries the same scale whether or not it went through plotly.py's validation.
_VIRIDIS = ("#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779",
            "#6ece58", "#b5de2b", "#fde725")
COLORSCALE: tuple[tuple[float, str], ...] = tuple(
    (i / (len(_VIRIDIS) - 1), c) for i, c in enumerate(_VIRIDIS))
FONT_FAMILY = (
    'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", '
    "Arial, sans-serif"
)


@dataclass(frozen=True)
class Theme:
    name: str
    paper: str  # figure background
    plot: str  # plotting-area background (behind heatmap gaps, bars, lines)
    font: str  # text
    muted: str  # secondary text, axis lines, faint grid
    grid: str
    accent: str  # selected-head outline
    masked: str  # cells removed by the causal mask
    bar: str  # current predictions
    compare: str  # outline bars for the comparison ("as trained")
    heads: tuple[str, ...]  # one colour per head, 8 entries


THEMES: dict[str, Theme] = {
    "light": Theme(
        name="light", paper="#ffffff", plot="#ffffff", font="#1f2328", muted="#57606a",
        grid="#d8dee4", accent="#c05000", masked="#d0d4da", bar="#0072b2", compare="#d55e00",
        heads=("#0072b2", "#d55e00", "#000000", "#009e73", "#cc79a7", "#56b4e9", "#e69f00",
               "#999999"),
    ),
    "dark": Theme(
        name="dark", paper="#111827", plot="#111827", font="#e5e7eb", muted="#9ca3af",
        grid="#374151", accent="#ffa630", masked="#3b4252", bar="#56b4e9", compare="#f0e442",
        heads=("#56b4e9", "#d55e00", "#ffffff", "#009e73", "#cc79a7", "#e69f00", "#f0e442",
               "#999999"),
    ),
}


def get_theme(theme: str | Theme) -> Theme:
    """A Theme by name ("light"/"dark"); a Theme passes through."""
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r}; expected one of {sorted(THEMES)}") from None


def base_layout(theme: Theme) -> dict:
    """Fresh layout keys common to all figures: colours, font, tight margins, responsive.

    No width anywhere: Gradio's plot fills its container (it forces
    ``autosize``/``responsive``), so figures work at phone width. Callers set a
    height when the content needs one.
    """
    return {
        "template": {},
        "autosize": True,
        "paper_bgcolor": theme.paper,
        "plot_bgcolor": theme.plot,
        "font": {"family": FONT_FAMILY, "size": 12, "color": theme.font},
        "margin": {"l": 8, "r": 8, "t": 28, "b": 8, "pad": 0},
        "hoverlabel": {"font": {"family": FONT_FAMILY, "size": 12}},
        "showlegend": False,
    }
