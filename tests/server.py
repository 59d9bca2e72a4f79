"""What API and browser tests need around a real app server: the server itself (the
session's shared ones are fixtures in tests/conftest.py: ``app_url``, ``browser``,
``extras_url``, ``compare_url``, ``resources``; import none of them here or in a test
module), a local client, a server for a purpose-built app, and helpers to wait on a page."""

import contextlib
import importlib
import os
import shutil
import socket
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"  # browser tests' screenshots
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def local_client(url: str):
    """A gradio Client for our plain-HTTP 127.0.0.1 server. ``ssl_verify=False`` only skips
    loading the CA bundle that httpx otherwise parses on *every* request (~70 ms of CPU
    each on this box, most of a request's cost); no TLS is involved on http://.
    httpx's 5 s default is too short for a queue join on a loaded 2-core box while 16
    handlers run (a ReadTimeout was seen there); the tests' own deadlines bound the wait."""
    from gradio_client import Client

    return Client(url, verbose=False, ssl_verify=False, httpx_kwargs={"timeout": 60})


@contextlib.contextmanager
def serve(demo, queue: dict | None = None, **launch):
    """Launch a purpose-built Blocks app on a free port (queue and launch options as the
    test needs them, the app's documented limits otherwise); close it afterwards."""
    from explorer import app

    app.start_queue(demo, queue)
    port = free_port()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True,
                quiet=True, **{**app.LAUNCH, **launch})
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        demo.close()


@contextlib.contextmanager
def app_server(tok, zoo, queue: dict | None = None):
    """The app as ``app.py`` builds it, served on a free port; its URL. The session's
    ``app_url`` is one; a test that floods the server or counts what it keeps starts its own."""
    from explorer import app

    with serve(app.build_app(tok, zoo), queue) as url:
        yield url


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed; .ci/run installs it with apt-get")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return path


def needs_checkpoint(name: str, what: str):
    """Skip a module whose model (``checkpoints/<name>.safetensors``) is not trained yet."""
    from explorer.models.zoo import CHECKPOINT_DIR

    return pytest.mark.skipif(not (CHECKPOINT_DIR / f"{name}.safetensors").exists(),
                              reason=f"the {what} checkpoint is not trained yet")


# The Explore grid has drawn: the page has run its load-time updates (static/live_grid.js).
GRID_DRAWN = "() => !!window.AttentionExplorer?.grid?.state?.('#grid canvas')"


def wait_opened(page, view: str, timeout: float = 60000) -> None:
    """Wait until the live loop (static/live.js) has opened ``view`` (a tab's id) and marked
    which knobs apply there: a tab's click shows it before that."""
    page.wait_for_function("(v) => window.AttentionExplorer?.live?.current() === v",
                           arg=view, timeout=timeout)


# No live update is running: the live loop (static/live.js) marks #ae-live-status and each
# view's panel aria-busy="true" while one is.
LIVE_IDLE = "() => !document.querySelector('[aria-busy=\"true\"]')"


def painted(page, frames: int = 2) -> None:
    """Wait until the browser has painted ``frames`` more frames (what was drawn, and
    Plotly's layout, is on the screen): the condition, not a fixed pause."""
    page.evaluate("(n) => new Promise((done) => { const next = (k) => k > 0 ? "
                  "requestAnimationFrame(() => next(k - 1)) : done(); next(n); })", frames)


def settle(page, timeout: float = 60000) -> None:
    """Wait until no live update is running and the page has painted since."""
    page.wait_for_function(LIVE_IDLE, timeout=timeout)
    painted(page)


def fits_width(page, width: int, timeout: float = 30000) -> None:
    """Wait until the page is no wider than ``width`` (+2 px) and at rest: its figures
    have taken a narrowed window's width. The caller asserts the width (with a message)."""
    try:
        page.wait_for_function("(w) => document.documentElement.scrollWidth <= w + 2",
                               arg=width, timeout=timeout)
    except Exception:  # noqa: BLE001  (the caller's assertion says how wide it is)
        pass
    settle(page)


def wait_until(page, predicate, timeout: float = 60.0, what: str = "the condition"):
    """Poll a Python ``predicate()`` (of what the page's events recorded, or of what it
    reads from the page) once per painted frame pair until it is true; return its value.
    The deadline is the clock's (``timeout`` s), not a count of tries."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} never held in {timeout:.0f} s")
        painted(page)


def wait_stable(page, expression: str, arg=None, timeout: float = 60.0, repeats: int = 4,
                quiet_s: float = 0.4):
    """Wait until ``expression`` (a JavaScript function of ``arg``) gives the same non-null
    value ``repeats`` times in a row, a painted frame pair apart, and for ``quiet_s`` at
    least (Plotly lands a resize ~100 ms after it is asked): a figure refitted after it is
    drawn has settled. Return the value; fail with the last one after ``timeout`` s. An
    expression that throws (what it reads is not drawn yet) counts as null."""
    import time

    from playwright.sync_api import Error

    deadline = time.monotonic() + timeout
    last, same, since, threw = None, 0, time.monotonic(), ""
    while time.monotonic() < deadline:
        painted(page)
        try:
            now, threw = page.evaluate(expression, arg), ""
        except Error as exc:
            threw = str(exc).splitlines()[0]
            last, same, since = None, 0, time.monotonic()
            continue
        if now is None or now != last:
            last, same, since = now, 0, time.monotonic()
            continue
        same += 1
        if same >= repeats - 1 and time.monotonic() - since >= quiet_s:
            return now
    raise AssertionError(f"never settled: last {last!r} {threw} of {expression[:120]!r}")


def click_tab(page, label: str, tries: int = 3) -> None:
    """Open a tab. The page's bar wraps, so every tab is on it; on a bar that does not,
    the tabs that do not fit a phone sit behind Gradio's "More tabs".
    Waits until the page has drawn its first grid: the updates it runs while loading click
    hidden buttons, and any click on the page closes an open "More tabs" menu (seen in
    CI: the menu item never became visible), so the menu is also opened again if needed."""
    page.locator("#tabs [role='tab']").first.wait_for(timeout=30000)  # the bar is drawn
    page.wait_for_function(  # an app without the Explore grid (a purpose-built one): no wait
        f"() => !document.querySelector('#grid') || ({GRID_DRAWN})()", timeout=30000)
    tab = page.get_by_role("tab", name=label, exact=True)
    try:  # the app's bar wraps (as do the test pages'): every tab is on it
        # (20 s: on a loaded machine a wrapping bar took over 5 s to show a tab, and the
        # fallback below then waited for a menu this bar never has)
        tab.wait_for(state="visible", timeout=20000)
        tab.click()
        return
    except Exception:  # noqa: BLE001  (a bar with Gradio's "More tabs" menu)
        pass
    item = page.locator("#tabs .overflow-dropdown button", has_text=label)
    for attempt in range(tries):
        page.locator("#tabs .overflow-menu button[aria-label='More tabs']").click()
        try:
            item.click(timeout=5000)
            return
        except Exception:  # noqa: BLE001  (the menu closed again: open it once more)
            if attempt == tries - 1:
                raise


def open_knobs(page) -> None:
    """Open the knobs: at phone width they are a drawer at the bottom of the screen, closed
    at load (static/page.js); elsewhere the column is open already."""
    bar = page.locator("#controls .label-wrap")
    if bar.get_attribute("aria-expanded") == "false" or "open" not in (
            bar.get_attribute("class") or ""):
        bar.click()
    page.locator("#heads").wait_for(state="visible")


# Plotly graph divs inside an element that really hold data (drawn, not placeholders).
DRAWN = """(sel) => {
  const box = document.querySelector(sel);
  if (!box) return -1;
  return Array.from(box.querySelectorAll('.js-plotly-plot'))
    .filter(gd => gd.offsetParent !== null && gd._fullData && gd._fullData.length &&
                  gd.querySelector('.main-svg') && gd.getBoundingClientRect().width > 50)
    .length;
}"""
def wait_for_text(page, selector: str, *parts: str, timeout: float = 30000) -> str:
    """Wait until the element's text holds every one of ``parts``; return the text."""
    text = f"() => document.querySelector({selector!r})?.innerText || ''"
    checks = " && ".join(f"s.includes({part!r})" for part in parts)
    page.wait_for_function(f"() => {{ const s = ({text})(); return {checks}; }}",
                           timeout=timeout)
    return page.evaluate(text)


# How many heatmaps the plot inside an element holds (a grid: one per head), 0 undrawn.
HEATMAPS = """(sel) => { const gd = document.querySelector(sel + ' .js-plotly-plot');
  return gd && gd._fullData ? gd._fullData.filter(t => t.type === 'heatmap').length : 0; }"""
# The first heatmap of a plot as nested lists (NaN -> null), or null when not drawn.
READ_Z = """(sel) => {
  const gd = document.querySelector(sel + ' .js-plotly-plot');
  if (!gd || !gd._fullData) return null;
  const t = gd._fullData.find(t => t.type === 'heatmap');
  return t ? Array.from(t.z, r => Array.from(r, v => Number.isNaN(v) ? null : v)) : null;
}"""


def tabs_page(title: str, tok, zoo, tabs, share_link: bool = False):
    """A page of the shared sentence box and knobs with only ``tabs``, ``[(label, id,
    module)]``, as ``app.py`` lays them out, so a test does not depend on the whole page.
    ``share_link``: also read a share link's query on load (Take it home's wiring)."""
    import gradio as gr

    from explorer.ui.controls import build_knobs, build_sentence, finish_live

    with gr.Blocks(title=f"Attention Explorer ({title})", fill_width=True) as demo:
        text = build_sentence()
        with gr.Row(equal_height=False, elem_id="main-row"):
            with gr.Column(scale=1, min_width=280, elem_id="controls"):
                panel = build_knobs(text)
            with (gr.Column(scale=3, min_width=320),
                  gr.Tabs(elem_id="tabs", overflow_behavior="wrap")):  # as the app's bar
                for label, tab_id, module in tabs:
                    with gr.Tab(label, id=tab_id, elem_id=f"tab-{tab_id}") as tab:
                        module.build(demo, tab, tok, zoo, panel)
        finish_live(panel)  # the page's one live wiring (explorer/ui/controls.py)
        if share_link:
            from explorer.ui import take_home_tab

            take_home_tab.wire_share_link(demo, panel)
    return demo


@contextlib.contextmanager
def serve_tabs(title: str, resources, tabs: list[tuple[str, str, str]],
               share_link: bool = False):
    """:func:`tabs_page` of ``tabs``, ``[(label, id, module of explorer.ui)]``, served on a
    free port; its URL."""
    built = [(label, tab_id, importlib.import_module(f"explorer.ui.{module}"))
             for label, tab_id, module in tabs]
    with serve(tabs_page(title, *resources, built, share_link=share_link)) as address:
        yield address


def tabs_server(title: str, tabs: list[tuple[str, str, str]], share_link: bool = False):
    """A module fixture: :func:`serve_tabs`; its value is the page's URL."""
    @pytest.fixture(scope="module")
    def url(resources):
        with serve_tabs(title, resources, tabs, share_link=share_link) as address:
            yield address
    return url


# The extra tabs' page (the ``extras_url`` fixture): Explore first as in the real page, then
# Through the layers, Through training and Take it home.
EXTRAS_TABS = [("Explore", "explore", "explore_tab"),
               ("Through the layers", "layers", "layers_tab"),
               ("Through training", "training", "through_training_tab"),
               ("Take it home", "take_home", "take_home_tab")]


@contextlib.contextmanager
def compare_server(tok, zoo):
    """The Compare and Ablate page (``tests.views.test_compare.build_tabs_app``) as those
    tests have always served it: Gradio's queue with 4 workers and a line of 64, the page's
    CSS and the page's bundle in its head, errors hidden."""
    from explorer.ui.page import scripts_head
    from tests.views.test_compare import build_tabs_app

    demo = build_tabs_app(tok, zoo)
    demo.queue(default_concurrency_limit=4, max_size=64)
    port = free_port()
    root = Path(__file__).resolve().parents[1]
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True,
                quiet=True, css_paths=sorted((root / "static" / "css").glob("*.css")),
                show_error=False,
                head=scripts_head())  # the page's bundle (static/app.js), as app.LAUNCH has it
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        demo.close()


def call_outcome(stream: str) -> tuple[str, object]:
    """("complete" | "error", data) of the event stream a ``/call/<api>/<event_id>`` GET
    answers (Gradio's REST API); the stream without either fails the test."""
    import json

    event = None
    for line in stream.splitlines():
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event in ("complete", "error"):
            return event, json.loads(line.split(":", 1)[1])
    raise AssertionError(f"no complete/error event in {stream[:500]!r}")
