"""Take it home (#17): the share link keeps the open view, its QR code reads back, and the
exported figures say the model, the sentence and any experiment."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest

from explorer.views.controls import Controls
from explorer.views.share import parse_query, qr_image, qr_modules, share_link, share_query


def test_the_link_keeps_the_open_view():
    link = share_link("http://127.0.0.1:7860/", "The cat", Controls(), tab="layers")
    query = dict(parse_qsl(urlsplit(link).query))
    assert query["tab"] == "layers"
    assert parse_query(query)["tab"] == "layers"
    assert "tab" not in dict(parse_qsl(share_query("The cat", Controls())))


@pytest.mark.parametrize("raw", ["", "Layers", "a b", "<script>", "x" * 40, "1abc",
                                 "layers&x=1", "api\n"])
def test_a_tab_that_is_not_a_view_id_is_left_out(raw):
    assert "tab" not in parse_query({"tab": raw})
    assert "tab" not in dict(parse_qsl(share_query("x", Controls(), tab=raw)))


def _decode_version(modules: np.ndarray) -> int:
    """A QR code's version from its size: 17 + 4 * version modules, plus the quiet zones."""
    return (len(modules) - 8 - 17) // 4


def test_the_qr_code_is_a_real_code_of_the_link():
    import segno

    link = share_link("http://127.0.0.1:7860/", "Once there was a girl named Mia.",
                      Controls(), tab="explore")
    modules = qr_modules(link)
    assert modules is not None and modules.dtype == bool
    assert modules.shape[0] == modules.shape[1]
    expected = segno.make(link, error="m", micro=False)
    assert _decode_version(modules) == expected.version
    # the quiet zone is white and the three finder patterns are where a reader looks
    assert not modules[:4].any() and not modules[:, :4].any()
    assert modules[4, 4:11].all() and modules[4:11, 4].all()  # top-left finder's edges
    assert modules[-5, 4:11].all() and modules[4, -11:-4].all()
    picture = qr_image(link, size=600)
    assert picture.dtype == np.uint8 and picture.shape[2] == 3
    assert set(np.unique(picture)) <= {0, 255}
    scale = picture.shape[0] // len(modules)
    assert picture.shape[0] == scale * len(modules) and scale >= 2
    assert (picture[::scale, ::scale, 0] == 0).tolist() == modules.tolist()


def test_no_qr_code_for_a_link_too_long_or_not_an_address():
    long = share_link("http://127.0.0.1:7860/", "猫" * 1000, Controls())
    assert qr_modules(long) is None and qr_image(long) is None
    assert qr_modules("?text=The+cat") is None
    assert qr_modules("javascript:alert(1)") is None


# --------------------------------------------------------------------------- pictures


CONTROLS = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 1, 2, "light"]
MARKUP = 'Mia said <b>hi</b> & $x$ to %{y} "Ben"'


def annotations(fig) -> list[str]:
    return [a.text for a in fig.layout.annotations]


def test_exported_pictures_say_the_model_the_sentence_and_the_experiment(resources):
    from explorer.views.take_home import take_home_view as view

    tok, zoo = resources
    experiment = [*CONTROLS[:3], "off", *CONTROLS[4:5], 2.5, *CONTROLS[6:]]
    for controls, how in ((CONTROLS, "as trained"),
                          (experiment, "experiment on the trained model: causal mask off")):
        status, big, grid, link, qr = view(zoo, tok, "The cat sat on the mat.", controls,
                                           "http://127.0.0.1:7860/", "layers")
        for fig in (big, grid):
            caption = annotations(fig)[-1]
            assert "causal-h4-rotary" in caption and how in caption
            assert "The cat sat on the mat." in caption
        assert "tab=layers" in link and qr is not None and qr.ndim == 3
        assert "temperature 2.5" in annotations(big)[-1] or controls is CONTROLS


def test_the_caption_escapes_the_sentence_and_grows_the_figure(resources):
    from explorer.figures.attention import head_heatmap
    from explorer.views.export import export_capture, stamp

    tok, zoo = resources
    model = zoo.get("causal-h4-rotary")
    capture = export_capture(model, tok, MARKUP, "causal-h4-rotary")
    fig = head_heatmap(capture.patterns[0, 0], capture.tokens)
    height, top = fig.layout.height, fig.layout.margin.t
    stamp(fig, capture)
    caption = annotations(fig)[-1]
    assert "<b>hi" not in caption and "&lt;b&gt;hi&lt;/b&gt;" in caption
    assert "$" not in caption and "%{" in caption.replace("&#37;", "%")
    assert fig.layout.height > height and fig.layout.margin.t > top


def test_a_long_sentence_is_cut_to_a_few_caption_lines(resources):
    from explorer.views.export import (
        CAPTION_CHARS,
        CAPTION_SENTENCE_LINES,
        caption_lines,
        export_capture,
    )

    tok, zoo = resources
    capture = export_capture(zoo.get("causal-h4-rotary"), tok, "The cat sat. " * 40, "m")
    lines = caption_lines(capture)
    assert len(lines) == 2 + CAPTION_SENTENCE_LINES
    assert all(len(line) <= CAPTION_CHARS for line in lines[2:])
    assert lines[-1].endswith("…")


def test_an_overlong_link_says_there_is_no_qr_code(resources):
    from explorer.views.take_home import NO_QR
    from explorer.views.take_home import take_home_view as view

    tok, zoo = resources
    status, big, grid, link, qr = view(zoo, tok, "猫" * 1000, CONTROLS,
                                       "http://127.0.0.1:7860/")
    assert qr is None and NO_QR in status and big is not None
