"""The static edition in Chromium (issue 38 item 3): first grid time and a keystroke's compute.

    python -m benchmarks.site                  # builds into a temporary folder
    python -m benchmarks.site --dir /tmp/site  # a folder built already (python -m explorer.site)

Served by a plain local static server (Python's http.server, threaded), as from a USB stick.

- first grid: from ``page.goto`` to ``window.AttentionExplorer?.grid?.state(canvas).ok``
  (static/live_grid.js), a fresh
  browser context each time (no cache), ``--loads`` times; also the bytes transferred before it;
- keystroke: one keystroke's compute in the page, ``AttentionExplorer.gridPayload`` (engine,
  tokenizer and payload) at 32 tokens, timed with performance.now() over ``--keys`` calls
  (each a different sentence: one more character), median and p95.

Prints the load average next to the numbers: the 2-core box is shared, compare within one run.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import statistics
import tempfile
import threading
import time
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
GRID = "window.AttentionExplorer?.grid?.state('#grid canvas')"
# a sentence of exactly 32 tokens is found in the page (the tokenizer says), then timed
KEYS = """async ([n]) => {
  const AE = window.AttentionExplorer, tok = await AE.tokenizer.load("models/tokenizer.json");
  let text = "Once there was a girl named Mia. Mia had a red ball. One day Mia gave the ball to";
  while (tok.encode(text).length < 32) text += " her";
  const controls = {objective: "next word (causal)", heads: 4, pos: "rotary",
    mask: "as trained", scaling: "1/√d_head", temperature: 1, layer: 0, head: 0, theme: "light"};
  const colors = JSON.parse(document.getElementById("ae-config").textContent).colors.light;
  const times = [];
  for (let i = 0; i < n; i++) {
    const typed = text.slice(0, text.length - 1) + "abcdefghijklmnopqrstuvwxyz"[i % 26];
    const t0 = performance.now();
    const p = await AE.gridPayload(typed, controls, {colors});
    times.push(performance.now() - t0);
    if (!p || !p.ok) throw new Error("no grid");
  }
  return {times, tokens: tok.encode(text).length};
}"""


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory: Path) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@contextmanager
def site_browser(directory: Path | None):
    """(Chromium, the URL of the static edition in ``directory``, served locally); the
    folder built into a temporary one first when ``directory`` is None (removed after)."""
    from playwright.sync_api import sync_playwright

    tmp = None
    if directory is None:
        from explorer.site.build import build
        tmp = tempfile.mkdtemp(prefix="ae-site-")
        directory = build(Path(tmp))
    server, url = serve(directory)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
            try:
                yield browser, url
            finally:
                browser.close()
    finally:
        server.shutdown()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def first_grid(browser, url: str) -> tuple[float, int]:
    """Seconds from opening the page to its first grid, and bytes received before it."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sizes: list[int] = []
    page.on("requestfinished", lambda r: sizes.append(r.sizes()["responseBodySize"]))
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(f"{GRID} && {GRID}.ok", timeout=30000, polling=5)
    took = time.perf_counter() - start
    total = sum(sizes)
    context.close()
    return took, total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="a folder built already")
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--keys", type=int, default=100)
    args = parser.parse_args(argv)
    with site_browser(args.dir) as (browser, url):
        loads = [first_grid(browser, url) for _ in range(args.loads)]
        print(f"load average before the keystrokes: {os.getloadavg()}")
        page = browser.new_page()
        page.goto(url)
        page.wait_for_function(f"{GRID} && {GRID}.ok", timeout=30000)
        keys = page.evaluate(KEYS, [args.keys])
    times = sorted(keys["times"])
    seconds = [t for t, _ in loads]
    print(f"first grid: median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s "
          f"over {len(seconds)} fresh loads; {max(b for _, b in loads) / 1e6:.2f} MB "
          "transferred before it")
    print(f"keystroke compute at {keys['tokens']} tokens (gridPayload): median "
          f"{statistics.median(times):.2f} ms, p95 {times[int(0.95 * (len(times) - 1))]:.2f} ms "
          f"over {len(times)}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
