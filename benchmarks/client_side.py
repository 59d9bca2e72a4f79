"""Sections 3-5 of ``benchmarks/run_all.py``, against a running :class:`AppServer`: round
trips the way the page makes them, every tab's update, keystroke -> grid drawn in
Chromium, and 30 students at once."""

from __future__ import annotations

import asyncio
import random
import time
import uuid

import numpy as np

from benchmarks.app_server import GRID_PATH, AppServer, ask_grid, grid_request, run_chain
from benchmarks.common import (
    CHROMIUM_ARGS,
    DEFAULT_CONTROLS,
    KB,
    Sentences,
    log,
    pct,
    require_samples,
)


def bench_roundtrip(server: AppServer, sentences: Sentences, runs: int,
                    max_s: float = 20.0) -> dict:
    """Sequential round trips: ``runs`` per row, fewer (at least 5) after ``max_s``."""
    import httpx
    from gradio_client import Client

    canvas = server.canvas_grid()
    # the canvas asks for the grid itself; what follows a pause is the view's settle event
    chain = server.live_chain() if canvas is None else server.settle_chain()
    if not chain:
        raise RuntimeError("Explore has no Gradio event to time (no settle event of its "
                           "anchor ae-live-explore): the benchmark no longer follows the "
                           "page, see static/live.js and explorer/ui/explore_tab.py")
    res: dict = {}
    texts = {n: [sentences.get(n, v) for v in range(5)] for n in (32, 128)}

    # gradio_client (the Python client Gradio ships) on /explore, the API endpoint (the
    # straightforward path). ssl_verify=False: plain http, no CA bundle to load per call.
    client = Client(server.url + "/", verbose=False, ssl_verify=False)
    for n in (32, 128):
        samples = []
        begin = time.perf_counter()
        for i in range((runs if n == 32 else max(1, runs // 2)) + 2):
            if i >= 7 and time.perf_counter() - begin > max_s:
                break
            t0 = time.perf_counter()
            out = client.predict(texts[n][i % 5], *DEFAULT_CONTROLS, api_name="/explore")
            dt = (time.perf_counter() - t0) * 1e3
            assert out[0] is not None, "no grid in the answer"
            if i >= 2:  # 2 warm-ups
                samples.append(dt)
        res[f"client {n}"] = require_samples(samples, f"gradio_client /explore, T={n}")
    client.close()

    # raw HTTP, one keep-alive connection, one session, like one open page: a keystroke's
    # grid (the canvas's POST; an app from before it: the grid's queue event), then the
    # other figures as after a pause in typing (the settled event, on the queue)
    session = uuid.uuid4().hex[:11]
    with httpx.Client(base_url=server.url, timeout=30, verify=False) as c:
        for n in (32, 128):
            grid, whole, nbytes = [], [], []
            begin = time.perf_counter()
            for i in range(runs + 2):
                if i >= 7 and time.perf_counter() - begin > max_s:
                    break
                text = texts[n][i % 5]
                if canvas is None:
                    ok, received, ends = run_chain(c, chain, session, text)
                else:
                    t0 = time.perf_counter()
                    ok, received = ask_grid(c, canvas, session, text)
                    first = time.perf_counter() - t0
                    ok2, rest, more = run_chain(c, chain, session, text)
                    ok, received, ends = ok and ok2, received + rest, [first] + [
                        first + e for e in more]
                assert ok, "update failed"
                if i >= 2:
                    grid.append(ends[0] * 1e3)
                    whole.append(ends[-1] * 1e3)
                    nbytes.append(received)
            res[f"raw {n}"] = require_samples(grid, f"raw grid, T={n}")
            res[f"raw whole {n}"] = require_samples(whole, f"raw whole update, T={n}")
            res[f"raw bytes {n}"] = float(np.median(nbytes))
    return res


def bench_tabs(server: AppServer, sentences: Sentences, runs: int,
               max_s: float = 8.0) -> dict[str, dict]:
    """Each tab's live update while it is open, at T=32: raw round trip (all its events
    in turn) and bytes received, sequential on one session. Tabs are found from the page
    config (every view anchor of the live loop, :meth:`AppServer.live_tabs`), so a new
    tab is measured without a change here."""
    import httpx

    tabs = server.live_tabs()
    text = sentences.get(32)
    out: dict[str, dict] = {}
    with httpx.Client(base_url=server.url, timeout=60, verify=False) as c:
        for tab in tabs:
            chain = server.live_chain(tab)
            if not chain:
                raise RuntimeError(f"tab {tab}: no Gradio event found to time")
            times, nbytes, failed = [], [], 0
            begin = time.perf_counter()
            for i in range(runs + 1):
                if i >= 4 and time.perf_counter() - begin > max_s:
                    break
                # a new page each time: a tab may resize its own controls per session
                # (Through the layers' position slider), which the defaults sent here
                # would no longer fit
                session = uuid.uuid4().hex[:11]
                ok, received, ends = run_chain(c, chain, session, text, strict=False)
                failed += not ok
                if i >= 1:  # 1 warm-up
                    times.append(ends[-1] * 1e3)
                    nbytes.append(received)
            out[tab] = {"ms": require_samples(times, f"tab {tab}"),
                        "bytes": float(np.median(nbytes)), "failed": failed}
            log(f"tab {tab}: {pct(times, 50):.0f} ms, {out[tab]['bytes'] / KB:.0f} KB")
    return out


# --------------------------------------------------------------------------- 4. browser

INSTRUMENT = """() => {
  // keydown times, and every animation frame at which #grid shows a newly drawn figure:
  // rAF callbacks run only when the main thread is free, right before a paint, so the
  // first frame after Plotly has drawn is when the student can see it.
  window.__keys = []; window.__draws = [];
  const box = document.querySelector('#sentence textarea');
  box.addEventListener('keydown', () => window.__keys.push(performance.now()), true);
  let last = null, lastCanvas = 0;
  const tick = () => {
    // the canvas grid (static/live_grid.js) says what it drew on its node
    const c = document.querySelector('#grid canvas');
    const m = c && window.AttentionExplorer?.grid?.state(c);
    if (m && m.ok && m.drawn !== lastCanvas) {
      lastCanvas = m.drawn;
      const row = Array.from(m.cells.subarray((m.layers * m.n - 1) * m.heads * m.n));
      window.__draws.push({t: performance.now(), n: m.n,
                           print: m.n + ':' + row.join(',')});
    }
    // an app from before it: a Plotly grid
    const gd = document.querySelector('#grid .js-plotly-plot');
    const fd = gd && gd._fullData;
    if (fd && fd !== last && gd._fullLayout && gd.querySelector('image')) {
      last = fd;
      const hm = fd.find(d => d.type === 'heatmap');
      const z = hm && hm.z ? hm.z : [];
      const row = z.length ? Array.from(z[z.length - 1]) : [];
      // a figure may say how many tokens it shows (layout.meta.tokens); else rows of z
      const meta = gd.layout && gd.layout.meta;
      const n = meta && meta.tokens ? meta.tokens : z.length;
      window.__draws.push({t: performance.now(), n: n,
                           print: z.length + ':' + row.map(v => v.toFixed(4)).join(',')});
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""

# The first frame after key k whose grid differs from what was on screen at key k.
AFTER_KEY = """([k, n]) => {
  const t = window.__keys[k];
  if (t === undefined) return null;
  const before = window.__draws.filter(d => d.t <= t);
  const shown = before.length ? before[before.length - 1].print : null;
  const d = window.__draws.find(d => d.t > t && d.print !== shown);
  return d ? [d.t - t, d.n === n, d.n] : null;
}"""


def bench_browser(server: AppServer, sentences: Sentences, n_keys: int,
                  max_s: float = 75.0, pace_ms: float = 250.0) -> dict:
    """Keystroke -> grid drawn for up to ``n_keys`` keys (fewer, at least 5, after
    ``max_s`` seconds of typing)."""
    import shutil

    from playwright.sync_api import sync_playwright

    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        return {"error": "chromium not installed"}
    base = sentences.get(28, 3)
    more = " " + sentences.corpus[len(base) + sentences.starts[3]:][:200].lstrip()
    keys = more[:n_keys]
    res: dict = {"latency": [], "mismatch": 0, "timeouts": 0}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
        page.goto(server.url + "/")
        page.wait_for_function("() => document.querySelector('#grid .js-plotly-plot') || "
                               "window.AttentionExplorer?.grid?.state('#grid canvas')",
                               timeout=30000)
        page.evaluate(INSTRUMENT)
        box = page.locator("#sentence textarea")
        box.fill(base[:-1])  # fill() alone sends no update: the last key does
        box.press(base[-1])
        n0 = sentences.count(base)
        page.wait_for_function(f"() => window.__draws.some(d => d.n === {n0})", timeout=30000)
        page.wait_for_timeout(1500)  # let the other three figures finish
        typed = base
        begin = time.perf_counter()
        for i, ch in enumerate(keys):
            if i >= 5 and time.perf_counter() - begin > max_s:
                break
            typed += ch
            expect = min(sentences.count(typed), 128)
            k = page.evaluate("() => window.__keys.length")
            start = time.perf_counter()
            box.press(ch if ch != " " else "Space")
            try:
                handle = page.wait_for_function(AFTER_KEY, arg=[k, expect], timeout=10000,
                                                polling=50)
                lat = handle.json_value()
            except Exception:  # noqa: BLE001  (a missed draw is a result, not a crash)
                res["timeouts"] += 1
                continue
            res["latency"].append(lat[0])
            res["mismatch"] += 0 if lat[1] else 1
            spent = time.perf_counter() - start
            page.wait_for_timeout(max(100, pace_ms - spent * 1e3))  # a typist: ~4 keys/s
        res["tokens"] = (n0, sentences.count(typed))
        browser.close()
    return res


# --------------------------------------------------------------------------- 5. load


async def load_test(server: AppServer, sentences: Sentences, students: int, seconds: float,
                    seed: int = 0, settled: bool = True) -> dict:
    """``settled``: after each keystroke's grid, also the settled event half a second
    later, as the page sends it when typing pauses (so: every keystroke followed by a
    pause, the heaviest case); False: keystrokes only. An app from before the canvas
    always runs its whole chain of queue events."""
    import httpx
    import orjson

    chain = server.live_chain()
    canvas = server.canvas_grid()  # None: an app from before the canvas grid
    rest = server.settle_chain()  # what the page sends once typing pauses
    if settled and canvas is not None and not rest:
        raise RuntimeError("Explore has no settle event to send after a pause: the "
                           "benchmark no longer follows the page, see static/live.js")
    rng = random.Random(seed)
    lengths = [rng.randint(4, 64) if rng.random() < 0.85 else rng.randint(65, 128)
               for _ in range(4000)]
    pool = {n: [sentences.get(n, v) for v in range(3)] for n in set(lengths)}
    latencies: list[float] = []  # tick -> the whole update (every event of the chain)
    grid_latencies: list[float] = []  # tick -> the grid (and guesses) answered
    rest_latencies: list[float] = []  # canvas app: the settled event, from its start
    errors: list[str] = []
    collapsed = 0
    sent = 0
    limits = httpx.Limits(max_connections=4 * students, max_keepalive_connections=2 * students)
    loop = asyncio.get_running_loop()

    async with httpx.AsyncClient(base_url=server.url, timeout=30, limits=limits) as client:
        async def one(session: str, fn_index: int, trigger, data: list,
                      strict: bool) -> None:
            r = await client.post("/gradio_api/queue/join", headers=from_[session], json={
                "data": data, "fn_index": fn_index, "trigger_id": trigger,
                "session_hash": session, "event_data": None})
            if r.status_code != 200:
                raise RuntimeError(f"join HTTP {r.status_code}: {r.text[:80]}")
            async with client.stream("GET", "/gradio_api/queue/data",
                                     params={"session_hash": session}) as s:
                if s.status_code != 200:
                    raise RuntimeError(f"data HTTP {s.status_code}")
                async for line in s.aiter_lines():
                    if not line.startswith("data:"):
                        continue
                    msg = orjson.loads(line[5:])
                    kind = msg.get("msg")
                    if kind == "process_completed":
                        out = msg.get("output") or {}
                        if not msg.get("success") or not out.get("data") or \
                                (strict and out["data"][0] is None):
                            raise RuntimeError(f"failed: {str(out)[:80]}")
                        return
                    if kind in ("unexpected_error", "close_stream"):
                        raise RuntimeError(f"{kind}: {str(msg)[:80]}")
            raise RuntimeError("stream ended without an answer")

        async def canvas_update(session: str, text: str, tick: float) -> None:
            """The keystroke: the canvas's POST (grid and guesses); then, as the page does
            once typing pauses (SETTLE_MS, 0.5 s), the settled event on the queue."""
            r = await client.post(GRID_PATH, json=grid_request(canvas, session, text),
                                  headers=from_[session])
            if r.status_code != 200 or not r.json().get("ok"):
                raise RuntimeError(f"grid HTTP {r.status_code}: {r.text[:80]}")
            grid_latencies.append((loop.time() - tick) * 1e3)
            latencies.append(grid_latencies[-1])
            if not settled:
                return
            pause = tick + 0.5 - loop.time()
            if pause > 0:
                await asyncio.sleep(pause)
            t_rest = loop.time()
            for fn_index, trigger, make_data in rest:
                await one(session, fn_index, trigger, make_data(text), strict=True)
            rest_latencies.append((loop.time() - t_rest) * 1e3)

        async def queue_update(session: str, text: str, tick: float) -> None:
            """An app from before the canvas: every event of the chain, in turn."""
            for j, (fn_index, trigger, make_data) in enumerate(chain):
                await one(session, fn_index, trigger, make_data(text), strict=True)
                if j == 0:
                    grid_latencies.append((loop.time() - tick) * 1e3)
            latencies.append((loop.time() - tick) * 1e3)

        async def open_page(session: str) -> None:
            """What the page has done before a student types: its session exists on the
            server (Gradio builds a session's state, ~0.1 s of CPU, on its first
            request; a real page does that when it loads, not per keystroke)."""
            if canvas is not None:
                await client.post(GRID_PATH, json=grid_request(canvas, session, "Hello."),
                                  headers=from_[session])
            else:
                fn_index, trigger, make_data = chain[0]
                await one(session, fn_index, trigger, make_data("Hello."), strict=False)

        sessions = [uuid.uuid4().hex[:11] for _ in range(students)]
        # each student from an address of their own, as the server's rate limit sees them
        # (explorer/server/client_guard.py; it trusts X-Forwarded-For from this machine)
        from_ = {s: {"X-Forwarded-For": f"10.30.{i // 250}.{i % 250 + 1}"}
                 for i, s in enumerate(sessions)}
        await asyncio.gather(*(open_page(s) for s in sessions))
        cpu_begin = server.cpu_seconds()  # the server's CPU from here on: the students' part
        t_begin = loop.time() + 0.5

        async def student(i: int) -> None:
            nonlocal collapsed, sent
            srng = random.Random(seed * 1000 + i)
            session = sessions[i]
            offset = t_begin + srng.random()  # students are not in lock-step
            k = 0
            while True:
                tick = offset + k
                if tick >= t_begin + seconds:
                    return
                now = loop.time()
                if now < tick:
                    await asyncio.sleep(tick - now)
                n = lengths[(i * 131 + k) % len(lengths)]
                text = srng.choice(pool[n])
                sent += 1
                try:
                    await (canvas_update if canvas is not None else queue_update)(
                        session, text, tick)
                except Exception as exc:  # noqa: BLE001
                    errors.append(f"{type(exc).__name__}: {exc}"[:120])
                # always_last: ticks that passed meanwhile collapse into the newest one
                behind = int(loop.time() - offset) - k
                if behind > 1:
                    collapsed += behind - 1
                k = max(k + 1, int(loop.time() - offset))

        t0 = time.perf_counter()
        await asyncio.gather(*(student(i) for i in range(students)))
        wall = time.perf_counter() - t0
        server_cpu = server.cpu_seconds() - cpu_begin
    return {"latency": latencies, "grid_latency": grid_latencies,
            "rest_latency": rest_latencies, "canvas": canvas is not None,
            "settled": settled and canvas is not None, "errors": errors,
            "sent": sent, "collapsed": collapsed,
            "wall": wall, "students": students, "seconds": seconds, "server_cpu_s": server_cpu}


