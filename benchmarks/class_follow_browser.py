"""Class mode in real Chromium (issue 43): how fast a teacher's step change reaches students' pages.

    python -m benchmarks.class_follow_browser                  # 5 students, 1 + 6 step changes
    python -m benchmarks.class_follow_browser --students 10 --pushes 8

benchmarks/class_follow.py measures the push over HTTP with 200 simulated followers; this
one measures what a class sees: whole pages of the app in Chromium (Playwright, Debian's
``chromium``). ``python app.py`` runs pinned to ``--server-cpus`` (default core 0); this
process and the Chromium it starts are pinned to ``--client-cpus`` (default core 1). A
teacher's page opens a class (``?teach=1``), ``--students`` pages join it by its link (each
its own browser context, as separate machines), and the teacher sets up ``--pushes`` Start
here steps in turn, as a person does (the step's radio, "Set up this step").

static/class.js keeps, per page, when each lead was sent (the teacher's page, just before
its ``POST .../lead``), got (a student's page: its long poll brought the new version) and
shown (the student's page has set up the same step, the step's bar on screen: Gradio's
events for it answered). All pages share one clock (one machine). Printed, over every
(student, push): lead -> got and lead -> shown p50 / p95 / max and the fraction within 1 s;
the teacher's click -> lead (the page reads itself every 300 ms); the load average before
and after, and the command.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
import time

from benchmarks.app_server import AppServer
from benchmarks.common import CHROMIUM_ARGS, load_avg, log, pct
from benchmarks.lecture import cpu_list, pinned

WAIT_MS = 120_000
SHOWN_STEP = """() => { const s = [...document.querySelectorAll('.ae-step-bar .ae-step')]
  .find((x) => x.offsetParent !== null); return s ? Number(s.dataset.step) : null; }"""
TIMINGS = "() => AttentionExplorer.classMode.timings"
NOW = "() => performance.timeOrigin + performance.now()"
STEPS = (3, 4, 5, 6, 7, 2, 8, 1)  # Start here's steps, in the order the teacher sets them up


def open_page(browser, url: str):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => !!window.AttentionExplorer?.grid?.state('#grid canvas')",
                           timeout=WAIT_MS)
    return page


def set_up(page, n: int) -> float:
    """The teacher sets up step ``n``; when the click on "Set up this step" was made."""
    page.locator('#tabs button[role="tab"]', has_text="Start here").first.click()
    page.locator("#start-step input").nth(n - 1).check()
    page.wait_for_timeout(300)  # the step's text follows its radio
    clicked = page.evaluate(NOW)
    page.locator("#start-setup").click()
    page.wait_for_function(f"() => ({SHOWN_STEP})() === {n}", timeout=WAIT_MS)
    return clicked


def one_push(teacher, students, n: int, clicked: float) -> dict:
    """Every student's page shows step ``n``: the times of this push."""
    for page in students:
        page.wait_for_function(f"() => ({SHOWN_STEP})() === {n}", timeout=WAIT_MS)
    time.sleep(0.5)  # a "shown" mark follows the step bar by a moment
    leads = [t for t in teacher.evaluate(TIMINGS) if t["kind"] == "lead" and t["at"] >= clicked]
    lead = leads[0]  # the first lead after the click carries the step
    got, shown = [], []
    for page in students:
        marks = page.evaluate(TIMINGS)
        got.append(min((t["at"] for t in marks if t["kind"] == "got"
                        and t["version"] >= lead["version"]), default=float("inf")))
        shown.append(min((t["at"] for t in marks if t["kind"] == "shown"
                          and t["version"] >= lead["version"]), default=float("inf")))
    return {"click_lead": lead["at"] - clicked, "got": [g - lead["at"] for g in got],
            "shown": [s - lead["at"] for s in shown]}


def summary(name: str, ms: list[float]) -> str:
    within = sum(x <= 1000 for x in ms) / len(ms)
    return (f"{name}: p50 {pct(ms, 50):.0f} ms, p95 {pct(ms, 95):.0f} ms, max {max(ms):.0f} ms,"
            f" within 1 s {within:.0%} ({sum(x <= 1000 for x in ms)}/{len(ms)})")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--students", type=int, default=5)
    p.add_argument("--pushes", type=int, default=6, help=f"at most {len(STEPS)} in all")
    p.add_argument("--warmup", type=int, default=1,
                   help="step changes first, not counted (pages that just loaded are busy)")
    p.add_argument("--pause", type=float, default=5.0, help="seconds between step changes")
    p.add_argument("--server-cpus", type=cpu_list, default=[0])
    p.add_argument("--client-cpus", type=cpu_list, default=[1])
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    from playwright.sync_api import sync_playwright

    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        sys.exit("chromium is not installed (apt-get install chromium)")
    before = load_avg()
    server = AppServer(pinned([sys.executable, "app.py"], args.server_cpus))
    server.start(timeout=180)
    if args.client_cpus and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(args.client_cpus))  # Chromium inherits it
    pushes = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
            teacher = open_page(browser, server.url + "/?teach=1")
            teacher.wait_for_function("() => /^[A-Z2-9]{6}$/.test(document.querySelector("
                                      "'#class-code')?.textContent || '')", timeout=WAIT_MS)
            teacher.keyboard.press("Escape")  # the class starts: its join screen closes
            teacher.wait_for_selector("#class-join-screen", state="hidden", timeout=WAIT_MS)
            join = teacher.locator("#class-link").get_attribute("href")
            students = []
            for i in range(args.students):
                students.append(open_page(browser, join))
                students[-1].wait_for_function(
                    "() => document.querySelector('#class-follow')?.innerText"
                    ".includes('Following the teacher')", timeout=WAIT_MS)
                log(f"student {i + 1} follows")
            for i, n in enumerate(STEPS[:args.warmup + args.pushes]):
                clicked = set_up(teacher, n)
                times = one_push(teacher, students, n, clicked)
                log(f"step {n}{' (warm-up)' * (i < args.warmup)}: lead -> got max "
                    f"{max(times['got']):.0f} ms, -> shown max {max(times['shown']):.0f} ms")
                if i >= args.warmup:
                    pushes.append(times)
                time.sleep(args.pause)  # the pages settle before the next change
            browser.close()
    finally:
        server.stop()
    print(f"command: python -m benchmarks.class_follow_browser {shlex.join(argv or sys.argv[1:])}")
    print(f"{args.students} students' pages + the teacher's in Chromium, {len(pushes)} step "
          f"changes (after {args.warmup} not counted); server on cores {args.server_cpus}, "
          f"Chromium on {args.client_cpus}")
    print(summary("lead -> got (the long poll brought it)", [x for p in pushes for x in p["got"]]))
    print(summary("lead -> shown (the step set up on the page)",
                  [x for p in pushes for x in p["shown"]]))
    print(summary("teacher's click -> lead sent", [p["click_lead"] for p in pushes]))
    print(f"load average before: {before}; after: {load_avg()}")


if __name__ == "__main__":
    main()
