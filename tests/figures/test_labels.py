"""Token display and Plotly escaping: what a student sees, and that it is never markup."""

import html

import pytest

from explorer.figures.labels import (
    EMPTY,
    axis_labels,
    display_token,
    plotly_safe,
    safe_text,
    token_label,
)


@pytest.mark.parametrize(("text", "shown"), [
    (" the", "␣the"),
    ("a\nb", "a↵b"),
    ("\t", "⇥"),
    ("\x00", "␀"),
    ("\x1b[31m", "␛[31m"),
    ("\r", "␍"),
    ("\x7f", "␡"),
    ("\x85", "⟨U+0085⟩"),
    ("a\u200bb", "a⟨ZWSP⟩b"),
    ("\u200d", "⟨ZWJ⟩"),
    ("x\u200dy", "x⟨ZWJ⟩y"),  # a ZWJ between letters is hidden text, not an emoji
    ("\ufeff", "⟨BOM⟩"),
    ("\u202eevil", "⟨RLO⟩evil"),  # bidi override must not silently reorder a label
    ("\u00a0", "⟨NBSP⟩"),
    ("\u2028", "⟨LS⟩"),
    ("\u3164", "⟨U+3164⟩"),  # Hangul filler: a "letter" that draws nothing
    ("\ufe0f", "⟨VS16⟩"),  # a variation selector with nothing to select
    ("\U000e0067", "⟨U+E0067⟩"),  # a tag character outside a flag
    ("\ud83d", "⟨U+D83D⟩"),  # lone surrogate: orjson would refuse it
    ("\u0301", "◌\u0301"),
    ("", EMPTY),
])
def test_display_token_makes_invisible_characters_visible(text, shown):
    assert display_token(text) == shown


@pytest.mark.parametrize("text", [
    "cat", "שלום", "مرحبا", "你好", "日本語", "😀", "👨\u200d💻", "👩🏽\u200d🚀", "❤\ufe0f",
    "🏳\ufe0f\u200d🌈", "1\ufe0f\u20e3",
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "e\u0301", "<b>&amp;", "ß",
])
def test_display_token_leaves_visible_text_alone(text):
    assert display_token(text) == text


def test_display_token_output_is_always_encodable():
    for cp in list(range(0, 0x250)) + list(range(0x2000, 0x2070)) + [0xD800, 0xDFFF, 0xFEFF]:
        display_token(chr(cp)).encode("utf-8")  # raises on a surviving lone surrogate


def test_plotly_safe_escapes_every_markup_character_and_round_trips():
    text = """<a href="https://evil" onclick='x()'>$1 & <br> &amp; &lt;</a>"""
    safe = plotly_safe(text)
    assert not set("<>\"'$") & set(safe)
    assert "&quot;" not in safe  # Plotly.js does not decode &quot;; numeric entities it does
    assert html.unescape(safe) == text  # single pass: &amp; stays the literal text "&amp;"
    assert plotly_safe("&amp;") == "&amp;amp;"


def test_token_label_truncates_before_escaping():
    label = token_label("&" * 40, max_chars=10)
    assert label == "&amp;" * 9 + "…"  # no entity cut in half
    assert token_label("short") == "short"
    assert token_label("x" * 100, max_chars=None) == "x" * 100


def test_axis_labels_keep_one_label_per_position_including_repeats():
    tokens = ["the", " cat", " saw", " the", " cat"]
    labels = axis_labels(tokens)
    assert labels == ["the", "␣cat", "␣saw", "␣the", "␣cat"]
    assert len(labels) == len(tokens)


def test_safe_text_keeps_ordinary_spaces_for_titles():
    assert safe_text("Layer 1 <b>x</b>\n") == "Layer 1 &lt;b&gt;x&lt;/b&gt; "
    assert safe_text("a\u200bb") == "a⟨ZWSP⟩b"


def test_fast_path_agrees_with_the_per_character_rules():
    from explorer.figures.labels import _show_char

    for cp in [*range(0x20, 0x3200), *range(0xFB00, 0x10000), *range(0x1F300, 0x1F700)]:
        text = "a" + chr(cp) + "b"
        assert display_token(text) == "".join(_show_char(text, i, True) for i in range(3)), cp
