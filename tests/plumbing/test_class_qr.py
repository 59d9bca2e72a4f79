"""The class's join link as a QR code (explorer/server/class_route.py ``qr``): drawn for that
class's own
link only, so the route is no general QR service, and never for an unknown class."""

from __future__ import annotations

from urllib.parse import quote

from explorer.views.share import qr_modules
from tests.plumbing.test_class_route import make, opened, run


def test_the_join_link_is_drawn_and_nothing_else():
    async def test(c):
        code, _ = await opened(c)
        link = f"http://127.0.0.1:7860/?class={code}"
        r = await c.get(f"/ae-class/{code}/qr?link={quote(link, safe='')}")
        assert r.status_code == 200
        side = len(qr_modules(link)) * 4
        assert r.json()["svg"].startswith("<svg") and f'width="{side}"' in r.json()["svg"]
        for other in ("http://evil.example/?class=XXXXXX", "javascript:alert(1)?class=" + code,
                      "http://127.0.0.1:7860/?class=" + code + "x" * 2001, ""):
            r = await c.get(f"/ae-class/{code}/qr?link={quote(other, safe='')}")
            assert r.status_code == 400 and r.json()["message"], other
        r = await c.get(f"/ae-class/ZZZZZZ/qr?link={quote(link, safe='')}")
        assert r.status_code == 404 and r.json()["ended"]
    run(make(), test)
