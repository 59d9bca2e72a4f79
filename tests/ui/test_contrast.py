"""Text contrast (#17): WCAG AA, at least 4.5:1, for the figures' text colours in both
themes and for the page colours static/style.css sets over Gradio's theme."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer.figures.themes import THEMES

CSS = (Path(__file__).resolve().parents[2] / "static" / "style.css").read_text()
AA = 4.5


def luminance(colour: str) -> float:
    h = colour.lstrip("#")
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_formula():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#bbbbc2", "#ffffff") == pytest.approx(1.91, abs=0.01)  # Gradio's info


@pytest.mark.parametrize("name", list(THEMES))
@pytest.mark.parametrize("role", ["font", "muted", "accent"])
def test_figure_text_colours_pass_aa(name, role):
    theme = THEMES[name]
    assert contrast(getattr(theme, role), theme.paper) >= AA
    assert contrast(getattr(theme, role), theme.plot) >= AA


def test_masked_cells_text_is_the_font_colour():
    for theme in THEMES.values():  # text drawn on the masked grey (teaching figures)
        assert contrast(theme.font, theme.masked) >= AA


def _declared(selector: str, prop: str) -> str:
    block = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", CSS)
    assert block, selector
    value = re.search(re.escape(prop) + r"\s*:\s*(#[0-9a-fA-F]{6})", block.group(1))
    assert value, (selector, prop)
    return value.group(1)


def test_page_colours_over_gradio_pass_aa():
    white, dark_block = "#ffffff", "#1f2937"  # Gradio's light page and dark blocks
    for prop in ("--body-text-color-subdued", "--block-info-text-color"):
        assert contrast(_declared(":root", prop), white) >= AA
        assert contrast(_declared(".dark", prop), dark_block) >= AA
    assert contrast(_declared('body:not(.dark) button[role="tab"].selected', "color"),
                    white) >= AA
    primary = _declared(":root, .dark", "--button-primary-background-fill")
    assert contrast(primary, "#ffffff") >= AA  # white button text
