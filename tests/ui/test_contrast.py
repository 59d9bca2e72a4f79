"""Text contrast (#17): WCAG AA, at least 4.5:1, for the figures' text colours in both
themes and for the page colours static/css/ sets over Gradio's theme."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer.figures.themes import THEMES

CSS = "\n".join(part.read_text() for part in sorted(  # the stylesheet's parts (static/css/)
    (Path(__file__).resolve().parents[2] / "static" / "css").glob("*.css")))
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


# Gradio 6's HighlightedText, read in Chromium: a score s is drawn as rgba(239, 68, 60, s)
# over the block (white; #27272a in dark mode), text #27272a (light) or #f4f4f5 (dark).
GRADIO_SCORE_RED = (239, 68, 60)
GRADIO_TEXT = {"light": ("#27272a", "#ffffff"), "dark": ("#f4f4f5", "#27272a")}


def _over(rgb, alpha: float, under: str) -> str:
    base = [int(under.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    mixed = [round(c * alpha + b * (1 - alpha)) for c, b in zip(rgb, base, strict=True)]
    return "#" + "".join(f"{c:02x}" for c in mixed)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_through_the_layers_strongest_word_passes_aa(theme):
    """#30: text on the coloured words of #layers-text measured 3.4-4.4:1 at full red and
    4.57:1 in dark mode at 0.8; every shade up to STRIP_STRONGEST is AA with a margin."""
    from explorer.views.layers import STRIP_STRONGEST

    text, block = GRADIO_TEXT[theme]
    for alpha in (STRIP_STRONGEST, STRIP_STRONGEST / 2, 0.0):
        assert contrast(text, _over(GRADIO_SCORE_RED, alpha, block)) >= AA + 0.5


def test_encoder_decoder_output_is_white_on_its_dark_shades():
    """#30: #s2s-output in dark mode was 2.9:1 (Gradio's black on the dark shades it mixes
    from the colour map); static/css/70-views.css writes it white there."""
    assert re.search(r"\.dark #s2s-output \.highlighted \.text\s*\{\s*color:\s*#ffffff", CSS)


# The contrast of every piece of text inside an element, as Chromium draws it: the text
# colour against the element's background composited over its ancestors' (browser tests).
CONTRAST_JS = r"""(sel) => {
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(',').map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [h, l] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (h + 0.05) / (l + 0.05); };
  const under = (el) => { const layers = [];
    for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let out = [255, 255, 255];
    for (const c of layers.reverse()) out = out.map((v, i) => v * (1 - c[3]) + c[i] * c[3]);
    return out; };
  const out = [];
  document.querySelectorAll(sel + ' *').forEach((el) => {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) return;
    if (el.offsetParent === null) return;
    out.push([el.textContent.trim().slice(0, 20),
              ratio(parse(getComputedStyle(el).color), under(el))]); });
  return out; }"""
