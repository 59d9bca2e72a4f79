"""Share links: every value validated and bounded like the UI's own, and round trips."""

import itertools
from urllib.parse import parse_qsl, urlsplit

import pytest

from explorer.analysis.run import MAX_CHARS
from explorer.views.controls import (
    HEADS,
    MASK_CHOICES,
    OBJECTIVES,
    POSITIONAL,
    SCALE_CHOICES,
    Controls,
)
from explorer.views.share import PARAMS, parse_query, share_link, share_query

FIELDS = ("objective", "heads", "pos", "mask", "scaling", "temperature", "layer", "head")


def round_trip(text: str, controls: Controls) -> dict:
    return parse_query(dict(parse_qsl(share_query(text, controls), keep_blank_values=True)))


def test_every_combination_of_choices_round_trips():
    for objective, heads, pos, mask, scaling in itertools.product(
            OBJECTIVES, HEADS, POSITIONAL, MASK_CHOICES, SCALE_CHOICES):
        c = Controls(objective, heads, pos, mask, scaling, 1.35, 3, 7)
        got = round_trip("The cat", c)
        assert got == {"text": "The cat", **{f: getattr(c, f) for f in FIELDS}}


@pytest.mark.parametrize("text", ["", "a&b=c?d#e", "100% <b>sure</b> +1", "naïve 猫 🐈‍⬛",
                                  "line\nbreak\ttab", "x" * MAX_CHARS])
def test_text_round_trips_exactly(text):
    assert round_trip(text, Controls())["text"] == text


def test_text_is_capped_both_ways():
    long = "ab" * MAX_CHARS
    assert parse_query({"text": long})["text"] == long[:MAX_CHARS]
    assert round_trip(long, Controls())["text"] == long[:MAX_CHARS]


@pytest.mark.parametrize("name,raw", [
    ("model", "gpt"), ("model", "next word (causal)"), ("heads", "3"), ("heads", "16"),
    ("heads", "4.0"), ("heads", "9" * 40), ("pos", "spiral"), ("pos", "ROTARY"),
    ("mask", "as trained"), ("mask", "1"), ("scale", "1/√d_head"), ("scale", "cube"),
    ("temp", "nan"), ("temp", "inf"), ("temp", "-inf"), ("temp", "warm"), ("temp", ""),
    ("temp", "1" * 40), ("layer", "4"), ("layer", "-1"), ("layer", "1.5"), ("head", "8"),
    ("head", "0x1"), ("layer", "99999999999999999999999"),
])
def test_bad_values_are_left_out(name, raw):
    assert parse_query({name: raw}) == {}


@pytest.mark.parametrize("raw,expected", [("1", 1.0), ("0.01", 0.1), ("1e9", 5.0),
                                          ("2.33", 2.35), (" 0.5 ", 0.5), ("-3", 0.1)])
def test_temperature_is_clipped_and_snapped_to_the_slider(raw, expected):
    assert parse_query({"temp": raw}) == {"temperature": expected}


def test_valid_values_map_to_the_ui_labels_and_unknown_names_are_ignored():
    got = parse_query({"model": "bidir", "heads": "8", "pos": "alibi", "mask": "trained",
                       "scale": "none", "layer": "0", "head": "7", "evil": "<script>",
                       "theme": "dark"})
    assert got == {"objective": "masked word (bidirectional)", "heads": 8, "pos": "alibi",
                   "mask": "as trained", "scaling": "none", "layer": 0, "head": 7}


def test_bounds_follow_the_sliders():
    assert parse_query({"layer": "5", "head": "9"}, layer_max=5, head_max=9) == {
        "layer": 5, "head": 9}
    assert parse_query({"layer": "5"}, layer_max=3) == {}


def test_non_string_values_are_ignored():
    assert parse_query({"text": None, "heads": 4, "layer": ["1"]}) == {}


def test_query_names_are_the_documented_ones():
    names = [k for k, _ in parse_qsl(share_query("x", Controls(), tab="patch", corrupt="y"))]
    assert tuple(names) == PARAMS


@pytest.mark.parametrize("base,expected", [
    ("http://127.0.0.1:7860/", "http://127.0.0.1:7860/?"),
    ("https://example.org/space/app?old=1#frag", "https://example.org/space/app?"),
    ("https://example.org", "https://example.org/?"),
    ("javascript:alert(1)", "?"), ("", "?"), ("data:text/html,x", "?"),
    ("https://" + "a" * 3000, "?"),
])
def test_share_link_accepts_only_http_bases(base, expected):
    link = share_link(base, "The cat", Controls())
    assert link.startswith(expected) and link.endswith(share_query("The cat", Controls()))


# --------------------------------------------------------------------------- API


def test_api_link_reopens_the_same_sentence_and_knobs(extras_url):  # noqa: F811
    from gradio_client import Client

    client = Client(extras_url, verbose=False)
    controls = ["masked word (bidirectional)", 4, "rotary", "off", "1/√d_model", 2.5, 1, 2,
                "dark"]
    text = 'Ben & Lily said "hi" <3 — 100%'
    *_, link = client.predict(text, *controls, extras_url, api_name="/export_view")
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == extras_url
    got = parse_query(dict(parse_qsl(parts.query)))
    assert got == {"text": text, "objective": controls[0], "heads": 4, "pos": "rotary",
                   "mask": "off", "scaling": "1/√d_model", "temperature": 2.5, "layer": 1,
                   "head": 2}


# --------------------------------------------------------------------------- Patch's copy


def test_a_link_to_patch_carries_the_corrupted_copy_and_only_there():
    clean, copy = "Tim saw a red hat", "Tim saw a blue hat"
    to_patch = parse_query(dict(parse_qsl(share_query(clean, Controls(), "patch", copy))))
    assert to_patch["tab"] == "patch" and to_patch["corrupt"] == copy
    assert to_patch["text"] == clean
    to_explore = parse_query(dict(parse_qsl(share_query(clean, Controls(), "explore", copy))))
    assert "corrupt" not in to_explore  # no view there reads it
    assert "corrupt" not in parse_query(dict(parse_qsl(share_query(clean, Controls()))))


def test_a_corrupted_copy_in_a_link_is_cut_like_the_text():
    got = parse_query({"corrupt": "x" * (MAX_CHARS + 50), "tab": "patch"})
    assert got["corrupt"] == "x" * MAX_CHARS
    assert len(parse_qsl(share_query("a", Controls(), "patch", "y" * (MAX_CHARS + 9)))[-1][1]) \
        == MAX_CHARS


def test_the_qr_code_as_svg_has_the_modules_of_the_picture():
    from explorer.views.share import qr_modules, qr_svg

    link = "http://127.0.0.1:7860/?class=ABCDEF"
    svg = qr_svg(link, scale=4)
    side = len(qr_modules(link)) * 4
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert f'width="{side}" height="{side}"' in svg
    assert qr_svg("javascript:alert(1)") is None


def test_an_old_links_view_id_opens_the_view_it_became():
    """Take it home's view was "export" before it was named after its module: a link made
    then still opens it, and a link made now names it as the tab does."""
    from explorer.ui.take_home_tab import TAB
    from explorer.views.share import TAB_ALIASES

    assert parse_query({"tab": "export"})["tab"] == TAB == TAB_ALIASES["export"] == "take_home"
    assert parse_query({"tab": "compare"})["tab"] == "compare"
