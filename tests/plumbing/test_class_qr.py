"""The class's join link as a QR code (explorer/server/class_route.py ``qr``,
explorer/server/class_qr.py): the link is the class's own, fixed when it opened (the
opening page's address), so the route is no general QR service; it is drawn once per class,
in a worker thread, and never for an unknown class."""

from __future__ import annotations

import asyncio

from explorer.server import class_qr
from explorer.server.class_qr import JoinQRs, join_link
from explorer.views.share import qr_modules
from tests.plumbing.test_class_route import make, run

PAGE = "http://192.0.2.7:7860/?teach=1"


async def opened_from(c, referer: str | None) -> dict:
    headers = {"Referer": referer} if referer else {}
    r = await c.post("/ae-class/open", headers=headers)
    assert r.status_code == 200
    return r.json()


def test_the_class_s_own_link_is_drawn_and_no_other():
    async def test(c):
        body = await opened_from(c, PAGE)
        code = body["code"]
        link = f"http://192.0.2.7:7860/?class={code}"
        assert body["link"] == link  # the opening page's address, its query dropped
        r = await c.get(f"/ae-class/{code}/qr?link=http%3A%2F%2Fevil.example%2F")
        assert r.status_code == 200 and r.json()["link"] == link  # a link asked is ignored
        side = len(qr_modules(link)) * 4
        assert r.json()["svg"].startswith("<svg") and f'width="{side}"' in r.json()["svg"]
        r = await c.get("/ae-class/ZZZZZZ/qr")
        assert r.status_code == 404 and r.json()["ended"]
        # no Referer: this server's own address (the test client's Host)
        assert (await opened_from(c, None))["link"].startswith("http://class/?class=")
    run(make(), test)


def test_many_asks_draw_it_once_off_the_event_loop(monkeypatch):
    import explorer.server.class_qr as class_qr

    drawn, real = [], class_qr.qr_svg

    def counting(link):
        drawn.append(link)
        return real(link)

    monkeypatch.setattr(class_qr, "qr_svg", counting)

    async def test(c):
        code = (await opened_from(c, PAGE))["code"]
        answers = await asyncio.gather(*(c.get(f"/ae-class/{code}/qr") for _ in range(20)))
        assert all(r.status_code == 200 for r in answers)
        assert len({r.json()["svg"] for r in answers}) == 1
        assert len(drawn) == 1  # one drawing for twenty asks
    run(make(), test)


def test_the_drawing_runs_in_a_worker_thread():
    import threading

    seen = []
    qrs = JoinQRs(4)
    qrs.remember("ABCDEF", {"headers": [(b"referer", PAGE.encode())]})

    async def main():
        import explorer.server.class_qr as class_qr

        real = class_qr.qr_svg
        class_qr.qr_svg = lambda link: seen.append(threading.current_thread()) or real(link)
        try:
            assert (await qrs.svg("ABCDEF")).startswith("<svg")
        finally:
            class_qr.qr_svg = real
    asyncio.run(main())
    assert seen and seen[0] is not threading.main_thread()


def test_a_link_is_only_an_http_address_of_bounded_length_and_the_table_is_bounded():
    def scope(referer=None, host="example.org", scheme="http"):
        headers = [(b"host", host.encode())]
        if referer is not None:
            headers.append((b"referer", referer.encode()))
        return {"headers": headers, "scheme": scheme}

    assert join_link(scope("https://x.org/app/?teach=1#a"), "C") == "https://x.org/app/?class=C"
    assert join_link(scope("javascript:alert(1)"), "C") == "http://example.org/?class=C"
    assert join_link(scope("http://x.org/" + "a" * 2100), "C") is None
    assert join_link(scope(host="evil.org/path?x"), "C") is None
    qrs = JoinQRs(2)
    for code in ("A", "B", "C"):
        qrs.remember(code, scope())
    assert qrs.link("A") is None and qrs.link("C") == "http://example.org/?class=C"


def test_a_loopback_link_names_an_address_students_can_reach(monkeypatch):
    """A teacher who opened the page on the serving laptop (127.0.0.1, localhost, [::1]):
    listening on every interface, the link names this machine's network address and says
    so; listening on loopback only, the link stays and the note says how to open the room.
    Any other address is the students' already: no note."""
    monkeypatch.setattr(class_qr, "lan_address", lambda: "198.51.100.23")
    for host in ("127.0.0.1", "localhost", "[::1]"):
        link = f"http://{host}:7860/?class=ABCDEF"
        monkeypatch.setitem(class_qr._listening, "host", "127.0.0.1")
        same, note = class_qr.reachable(link)
        assert same == link and "--host 0.0.0.0" in note and host.strip("[]") in note
        monkeypatch.setitem(class_qr._listening, "host", "0.0.0.0")
        lan, note = class_qr.reachable(link)
        assert lan == "http://198.51.100.23:7860/?class=ABCDEF", lan
        assert "198.51.100.23" in note
    monkeypatch.setattr(class_qr, "lan_address", lambda: None)
    _, note = class_qr.reachable("http://127.0.0.1/?class=ABCDEF")
    assert "no network address" in note
    monkeypatch.setitem(class_qr._listening, "host", "127.0.0.1")
    assert class_qr.reachable("https://school.example/ae/?class=ABCDEF") == (
        "https://school.example/ae/?class=ABCDEF", None)
    assert class_qr.reachable("http://192.0.2.7:7860/?class=ABCDEF")[1] is None


def test_the_network_address_is_not_loopback():
    address = class_qr.lan_address()
    assert address is None or not address.startswith("127.")
