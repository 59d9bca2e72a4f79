"""The static edition's lesson in Chromium (issue 48's targets): each step's figure after
Set up, a patch at 32 tokens and the keystroke, at full speed and with the CPU throttled 4×.

    python -m benchmarks.site_steps                  # builds into a temporary folder
    python -m benchmarks.site_steps --dir /tmp/site  # a folder built already

- a step's figure: from the click on the step in the list to its figure drawn anew
  (``AttentionExplorer.site.shown[kind].drawn`` grows; Explore's large head for a step
  whose figure is the large head), each step ``--rounds`` times (the steps walked in
  order, round after round), median and max per step. Step 9 (the Lab) draws when a run is
  trained, not at Set up: its row is the run's own (``benchmarks/lab_js.mjs``).
- a patch: ``AttentionExplorer.engine.patch`` on a 32-token clean/corrupted pair (one
  word changed), every head at every position, timed in the page, ``--patches`` times.
- the keystroke: benchmarks/site.py's, the 32-token ``gridPayload``.
Throttled: DevTools' ``Emulation.setCPUThrottlingRate`` 4 (a low-end Chromebook's
stand-in), set on the page's CDP session after it loaded.

Prints the load average next to the numbers: the 2-core box is shared, compare within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from benchmarks.site import GRID, KEYS, site_browser

LARGE = "window.AttentionExplorer?.grid?.state('#head-large canvas')"
SHOWN = "window.AttentionExplorer?.site?.shown"
# a 32-token pair (one word changed) found in the page, then patched `n` times
PATCH = """async ([n]) => {
  const AE = window.AttentionExplorer, tok = await AE.tokenizer.load("models/tokenizer.json");
  const model = JSON.parse(document.getElementById("ae-config").textContent).defaultModel;
  let clean = "When Mia and Tom went to the park, Mia gave a red ball to";
  while (tok.encode(clean).length < 32) clean = "Then " + clean;
  const corrupt = clean.replace("Mia gave", "Tom gave");
  const times = [];
  let out = null;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    out = await AE.engine.patch(clean, corrupt, {model});
    times.push(performance.now() - t0);
  }
  return {times, tokens: tok.encode(clean).length, ok: !!out && out.heads !== undefined};
}"""


def drawn_of(page, kind: str) -> int:
    which = LARGE if kind == "large" else f"{SHOWN}?.[{kind!r}]"
    return page.evaluate(f"({which} || {{drawn: 0}}).drawn")


def step_time(page, n: int, kind: str) -> float | None:
    """Seconds from the click on step n (1-based) to its figure drawn anew; None when it is
    not drawn within 30 s."""
    before = drawn_of(page, kind)
    which = LARGE if kind == "large" else f"{SHOWN}?.[{kind!r}]"
    start = time.perf_counter()
    page.locator("#step-list button").nth(n - 1).click()
    try:
        page.wait_for_function(f"({which} || {{drawn: 0}}).drawn > {before}", timeout=30000,
                               polling=5)
    except Exception:  # Playwright's timeout: reported as not drawn
        return None
    return time.perf_counter() - start


def walk(page, steps: list[dict], rounds: int) -> dict[int, list[float | None]]:
    """Every step with a figure at Set up, ``rounds`` times, in order."""
    page.click("#tab-steps")
    times: dict[int, list[float | None]] = {}
    for _ in range(rounds):
        for n, step in enumerate(steps, 1):
            kind = step["figure"]
            if kind in ("app", "lab"):
                continue
            times.setdefault(n, []).append(step_time(page, n, kind))
    return times


def measure(browser, url: str, rate: int, args) -> dict:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(url)
    page.wait_for_function(f"{GRID} && {GRID}.ok", timeout=60000)
    if rate > 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                                {"rate": rate})
    config = json.loads(page.evaluate("document.getElementById('ae-config').textContent"))
    result = {"steps": walk(page, config["steps"], args.rounds),
              "kinds": [s["figure"] for s in config["steps"]],
              "patch": page.evaluate(PATCH, [args.patches]),
              "keys": page.evaluate(KEYS, [args.keys])}
    page.close()
    return result


def median_ms(times: list[float]) -> str:
    return f"{statistics.median(times):.1f} ms"


def report(rate: int, result: dict) -> None:
    label = "full speed" if rate == 1 else f"CPU throttled {rate}x"
    print(f"\n## {label} (load average {os.getloadavg()})")
    for n, times in result["steps"].items():
        kind = result["kinds"][n - 1]
        got = [t for t in times if t is not None]
        missed = len(times) - len(got)
        line = (f"median {statistics.median(got) * 1000:.0f} ms, max {max(got) * 1000:.0f} ms"
                if got else "never drawn")
        print(f"step {n} ({kind}): {line} over {len(got)}" + (f", {missed} not drawn in 30 s"
                                                              if missed else ""))
    patch, keys = result["patch"], result["keys"]
    print(f"patch at {patch['tokens']} tokens: median {median_ms(patch['times'])}, "
          f"max {max(patch['times']):.1f} ms over {len(patch['times'])}")
    print(f"keystroke at {keys['tokens']} tokens: median {median_ms(keys['times'])} over "
          f"{len(keys['times'])}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="a folder built already")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--patches", type=int, default=10)
    parser.add_argument("--keys", type=int, default=50)
    parser.add_argument("--rates", type=int, nargs="+", default=[1, 4])
    args = parser.parse_args(argv)
    with site_browser(args.dir) as (browser, url):
        for rate in args.rates:
            report(rate, measure(browser, url, rate, args))

if __name__ == "__main__":
    main()
