"""The knobs' one named shape (issue 40): Controls' fields are the names the page's live loop,
a keystroke's request and a share link use; read_controls reads them by name, refusing
anything else with BadControl; a share link printed before keeps opening."""

from __future__ import annotations

from dataclasses import fields
from urllib.parse import parse_qsl, urlsplit

import pytest

from explorer.ui.controls import KNOB_NAMES
from explorer.views.controls import CONTROL_NAMES, BadControl, Controls, read_controls
from explorer.views.grid_payload import read_request
from explorer.views.share import parse_query


def test_one_list_of_names_everywhere():
    assert CONTROL_NAMES == tuple(f.name for f in fields(Controls))
    assert KNOB_NAMES == ("text", *CONTROL_NAMES)  # the live loop's ctx.knobs
    assert CONTROL_NAMES == ("objective", "heads", "pos", "mask", "scaling", "temperature",
                             "layer", "head", "theme")


def test_named_round_trips():
    c = Controls(heads=2, pos="alibi", mask="off", temperature=2.5, layer=3, head=1,
                 theme="dark")
    assert read_controls(c.named()) == c
    assert read_request({"text": "hi", "controls": c.named()}).controls == c


@pytest.mark.parametrize("named", [
    None, [], list(Controls().named().values()), {},
    {k: v for k, v in Controls().named().items() if k != "head"},
    {**Controls().named(), "extra": 1},
    {**Controls().named(), "temperature": float("inf")},
    {**Controls().named(), "layer": 1e308 * 10},  # int(inf): OverflowError, not a crash
    {**Controls().named(), "heads": {"a": 1}},
    {**Controls().named(), "scaling": "1/d"},
])
def test_anything_else_is_refused_with_a_message(named):
    with pytest.raises(BadControl) as refused:
        read_controls(named)
    assert str(refused.value) in ("The request could not be read.",
                                  "A control value could not be read.",
                                  "That combination of controls is not offered.")


def test_an_old_share_link_still_opens_with_its_knobs():
    """A link as teachers printed it (explorer/views/share.py's docstring), read back into
    the same named knobs a keystroke carries."""
    link = ("http://host/?text=The+cat+sat&model=causal&heads=4&pos=rotary&mask=off"
            "&scale=d_head&temp=1.5&layer=2&head=3")
    query = parse_query(dict(parse_qsl(urlsplit(link).query)))
    assert query.pop("text") == "The cat sat"
    controls = read_controls({**Controls().named(), **query})
    assert controls == Controls("next word (causal)", 4, "rotary", "off", "1/√d_head", 1.5,
                                2, 3, "light")
