"""The Lab trained in Chromium, in the static edition's Web Worker (issue 50's targets): the
default 2-layer run to its formed step, at full speed and with the CPU throttled 4×.

    python -m benchmarks.lab_browser                  # builds the static edition first
    python -m benchmarks.lab_browser --dir /tmp/site  # a folder built already
    python -m benchmarks.lab_browser --seeds 0 1 2 --rates 1 4 --steps 1000

Each run is ``window.AttentionExplorer.lab.train({layers, seed, steps})`` on the page
(static/site/fig_lab_run.js: one Worker per run), timed from the call to the event in which
the head is first seen formed (``formed_now``), and to the run's end. Throttled: DevTools'
``Emulation.setCPUThrottlingRate`` on the page's session (it applies to the page's Workers
too: measured here, not assumed). Prints the load average beside each run: the 2-core box is
shared, compare within one run.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from benchmarks.site import GRID, site_browser

TRAIN = """async ([layers, seed, steps]) => {
  const t0 = performance.now();
  let formedAt = null;
  const summary = await window.AttentionExplorer.lab.train({layers, seed, steps}, {
    onEvent: (e) => { if (e.formed_now && formedAt === null) formedAt = performance.now(); },
  });
  return {formed: summary.formed, step: summary.formed_step,
          toFormed: formedAt === null ? null : (formedAt - t0) / 1000,
          total: (performance.now() - t0) / 1000, steps: summary.steps,
          best: summary.best_induction};
}"""


def run(browser, url: str, rate: int, layers: int, seed: int, steps: int) -> dict:
    page = browser.new_page()
    page.goto(url)
    page.wait_for_function(f"{GRID} && {GRID}.ok", timeout=60000)
    if rate > 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                                {"rate": rate})
    got = page.evaluate(TRAIN, [layers, seed, steps])
    page.close()
    return got


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="a folder built already")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--rates", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=1000)
    args = parser.parse_args(argv)
    with site_browser(args.dir) as (browser, url):
        for rate in args.rates:
            for seed in args.seeds:
                got = run(browser, url, rate, args.layers, seed, args.steps)
                formed = (f"formed at step {got['step']} after {got['toFormed']:.1f} s"
                          if got["formed"] else f"no head (best {got['best']:.2f})")
                print(f"rate {rate}x, {args.layers} layers, seed {seed}: {formed}; "
                      f"{got['steps']} steps in {got['total']:.1f} s "
                      f"(load average {os.getloadavg()})", flush=True)

if __name__ == "__main__":
    main()
