"""Attention Explorer: the Gradio app. Run ``python app.py`` and open the printed address.

This file composes the page from ``explorer/ui/`` and starts the server; every
computation lives in ``explorer/``. Models and the tokenizer are loaded once at
start-up and are read-only shared state; everything a student chooses travels
with their own request (component values and ``gr.State``).
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys
import time
from collections.abc import Sequence

import explorer.ui.fast_import  # first of all: a quicker import of gradio (see there)

import gradio as gr
import torch

from explorer.models.device import (
    DeviceError,
    describe,
    resolve_device,
    warm_up,
)
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, load_zoo
from explorer.options import parse_args
from explorer.paths import STATIC
from explorer.server.class_qr import set_listening
from explorer.server.classroom import ClassroomBlocks
from explorer.server.client_guard import queued_counter
from explorer.server.engine_route import head as engine_head
from explorer.ui import (
    ablate_tab,
    class_mode,
    classify_tab,
    compare_tab,
    explore_tab,
    inside_tab,
    lab_tab,
    layers_tab,
    lessons_tab,
    page,
    patch_tab,
    positional_tab,
    seq2seq_tab,
    shapes_tab,
    start_here_tab,
    take_home_tab,
    through_training_tab,
)
from explorer.ui.bridge import js as bridge_js
from explorer.ui.controls import build_knobs, build_sentence, finish_live
from explorer.views.explore import first_head as explore_first_head

explorer.ui.fast_import.imports_done()


log = logging.getLogger("attention_explorer")

INTRO = """# Attention Explorer
Type a sentence and watch every attention head of a small **trained** transformer: a head
decides, for each word, how much to look at each earlier word (brighter = more). Then flip a
knob (mask, scaling, heads, positions) and see why it exists."""

# The views in sections a teacher can name (section, [(title, id, module), ...]); each
# module's build(demo, tab, tok, zoo, panel) fills its tab. Every view stays a gr.Tab of the
# ONE gr.Tabs below (the live wiring follows the tabs' select events): the sections are
# presentation only, the tab bar wraps instead of hiding tabs behind "More tabs", and the
# page's CSS writes each section's name before its first tab (explorer/ui/page.py).
SECTIONS = [
    ("Look", [("Explore", "explore", explore_tab),
              (start_here_tab.TITLE, start_here_tab.TAB, start_here_tab),
              ("Inside one head", "inside", inside_tab)]),
    ("Learn", [("Shapes", "shapes", shapes_tab),
               ("Positional encodings", "positional", positional_tab),
               ("Lessons", "lessons", lessons_tab)]),
    ("Experiment", [("Compare", "compare", compare_tab),
                    ("Ablate", "ablate", ablate_tab),
                    ("Patch", "patch", patch_tab),
                    ("Through the layers", "layers", layers_tab),
                    ("Through training", "training", through_training_tab),
                    (lab_tab.TITLE, lab_tab.TAB, lab_tab)]),
    ("Other models", [("Classify", "classify", classify_tab),
                      ("Encoder–decoder", "seq2seq", seq2seq_tab)]),
    ("Share", [("Take it home", "take_home", take_home_tab)]),
]
TABS = [tab for _, tabs in SECTIONS for tab in tabs]  # page order; the first opens at load

# Updates of the views other than Explore's grid wait on Gradio's queue, 4 at work at once (Patch,
# the costliest, in a line of its own: explorer/ui/patch_tab.py). A page has one waiting at a time
# (static/live.js) and a session at most QUEUED_PER_SESSION (explorer/server/client_guard.py), so
# 2,048 places hold the 500 sessions one address may open at once, twice over, and a class beside
# them: a flood is refused per session (429), not the class (503).
QUEUE = dict(default_concurrency_limit=4, max_size=2048)
# How often an idle queue looks for new events (Gradio's own: every 1 ms, on the event loop
# that also answers the keystrokes). An event waits at most this much more for its turn,
# far under what its figures take (~70 ms); benchmarks/README.md has the CPU it saves.
QUEUE_POLL_S = 0.005
# Gradio recomputes its monitoring summary (a pandas DataFrame of up to 10,000 past events,
# gradio/queueing.py compute_analytics_summary) after every event, at a cost that grows as a
# class uses the app; nobody here reads it, so once per 1,000 events. A Space's own
# variables still win.
GRADIO_ENV = {"GRADIO_ANALYTICS_CACHE_FREQUENCY": "1000", "GRADIO_ANALYTICS_MAX_EVENTS": "2000"}
# At most this many sessions are kept (Gradio's default is 10,000), least recently used out first;
# with explorer/server/sessions.py each holds ~20 kB, and one idle for 2 hours goes anyway. A class
# of 30-60 with reloads and second tabs keeps a few hundred (README, Limits).
SESSION_CAP = 1000
# head: first the browser engine (explorer/server/engine_route.py), which Explore's grid asks
# before the server; then page.head(): the section names of the tab bar, as CSS, and the
# page's one script, the bundle of static/ (static/app.js: the live loop, which carries
# every change to the open view, projector mode, skip links, the knobs drawer, the steps,
# class mode...); last class mode's CSS and data (explorer/ui/class_mode.py: inert unless the
# address asks for it).
# the stylesheet's parts, in the order of their names (10-base.css ... 70-views.css): the cascade
LAUNCH = dict(css_paths=sorted((STATIC / "css").glob("*.css")), max_file_size="1kb",
              show_error=False,
              state_session_capacity=SESSION_CAP,
              head=engine_head() + "\n"
              + page.head([(name, [tab_id for _, tab_id, _ in tabs]) for name, tabs in SECTIONS])
              + "\n" + class_mode.head({tab_id: title for title, tab_id, _ in TABS}))


def load_resources():
    tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
    zoo = load_zoo(CHECKPOINT_DIR, vocab_size=tok.vocab_size)
    return tok, zoo


def build_app(tok: Tokenizer, zoo) -> gr.Blocks:
    # delete_cache: downloads are copied into Gradio's cache; drop them after 15 minutes.
    # analytics_enabled=False: no usage reports or version checks sent from a classroom
    # (offline they only fail, after costing start-up time in threads of their own).
    # ClassroomBlocks: lean, expiring sessions and a per-address rate limit
    # (explorer/server/classroom.py).
    with ClassroomBlocks(title="Attention Explorer", fill_width=True, analytics_enabled=False,
                         delete_cache=(600, 900)) as demo:
        page.build_top()  # skip links and the "Big screen" switch, first on the page
        gr.Markdown(INTRO, elem_id="intro")
        text = build_sentence()
        with gr.Row(equal_height=False, elem_id="main-row"):
            with gr.Column(scale=1, min_width=280, elem_id="controls"):
                panel = build_knobs(text, explore_first_head(zoo))  # a named head, large
            with (gr.Column(scale=3, min_width=320, elem_id="views"),
                  gr.Tabs(elem_id="tabs", overflow_behavior="wrap")):
                tabs = {}
                for title, tab_id, module in TABS:
                    with gr.Tab(title, id=tab_id) as tab:
                        module.build(demo, tab, tok, zoo, panel)
                    tabs[tab_id] = tab
        finish_live(panel, tabs)  # static/live.js: only the open view updates
        take_home_tab.wire_share_link(demo, panel)  # ?text=...&heads=... reopens a view
        # Match the figures to the page's own light/dark mode once it has loaded.
        demo.load(None, None, panel.theme, js=bridge_js("page.theme"))
    return demo


def start_queue(demo: gr.Blocks, queue: dict | None = None) -> None:
    """``demo.queue`` with our limits (``QUEUE``, or ``queue``) and ``GRADIO_ENV``, which
    Gradio reads when the queue is made."""
    for key, value in GRADIO_ENV.items():
        os.environ.setdefault(key, value)
    demo.queue(**(QUEUE if queue is None else queue))
    demo._queue.sleep_when_free = QUEUE_POLL_S  # Gradio 6.31 reads this every idle turn
    limiter = getattr(demo, "limiter", None)
    if limiter is not None:  # ClassroomBlocks: a session's waiting events are capped, and
        limiter.waiting = queued_counter(demo)  # the keystroke's grid skips Gradio's route
        limiter.blocks = demo


def cap_malloc_arenas(n: int = 2) -> None:
    """Let glibc use at most ``n`` heap arenas. By default every thread that allocates
    while another one does gets an arena of its own (up to 8 per core) whose freed memory
    is rarely given back; Gradio runs requests on a pool of threads, so resident memory
    grows with every thread that was ever busy. Setting ``MALLOC_ARENA_MAX=2`` in the
    environment does the same, but only when set before the process starts (a Space's
    variables are); ``mallopt`` does it from inside, before the server starts threads."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return  # the environment decided
    try:
        ctypes.CDLL("libc.so.6").mallopt(-8, n)  # -8: M_ARENA_MAX in glibc's malloc.h
    except (OSError, AttributeError):  # not glibc (macOS, musl): nothing to cap
        pass


OPEN_FILES = 65536  # the soft limit asked for: each connection is an open file


def raise_open_file_limit(want: int = OPEN_FILES) -> int | None:
    """Raise this process's soft limit on open files to ``want`` (at most its hard limit)
    and return it; None where there is no such limit (not Unix). Linux's soft limit is often
    1,024, so a class's long-polls and a script's connections would otherwise exhaust it
    and stop the server accepting anyone (docs/limits.md)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            log.warning("could not raise the open-file limit from %d", soft)
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def main(argv: Sequence[str] | None = None) -> None:
    """``python app.py [--device D] [--host H] [--port P] [--share]``; ``argv`` is the command line
    after the program name."""
    parser, args = parse_args(argv)
    try:
        device = resolve_device(args.device)
    except DeviceError as exc:  # a typo gets one sentence and exit status 2, no traceback
        parser.error(str(exc))
    cap_malloc_arenas()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    log.info("open files allowed: %s", raise_open_file_limit())
    logging.getLogger("httpx").setLevel(logging.WARNING)  # gradio's own startup pings
    torch.set_num_threads(1)  # one thread per request: two stall when the CPU is shared
    t_imports = time.perf_counter()
    tok, zoo = load_resources()
    # Loaded on the CPU, then moved: the same weights, and the tabs that load models of
    # their own (classifier, encoder-decoder, snapshots) read zoo.device in build_app.
    zoo.to(device)
    warm_up(zoo.get(zoo.default_name))  # a GPU's one-off set-up, not the first keystroke's
    log.info("models: %s; unavailable: %s", sorted(zoo.models), sorted(zoo.unavailable))
    log.info("device: %s", describe(device))
    t_models = time.perf_counter()
    demo = build_app(tok, zoo)
    start_queue(demo)
    explorer.ui.fast_import.imports_done()  # the models and the page live as long as the process
    t_page = time.perf_counter()
    log.info("start-up: imports %.2f s, models %.2f s, page %.2f s; starting the server",
             t_imports - explorer.ui.fast_import.STARTED, t_models - t_imports, t_page - t_models)
    port = args.port if args.port is not None else int(
        os.environ.get("GRADIO_SERVER_PORT", "7860"))
    host = args.host or os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1")
    set_listening(host)  # a class's join link names an address students can reach
    # quiet: Gradio's own lines tell a command-line user to "set share=True in launch()"
    demo.launch(server_name=host, server_port=port, share=args.share, quiet=True,
                prevent_thread_lock=True, **LAUNCH)
    print(started_message(demo, host, port, args.share), flush=True)
    demo.block_thread()


def started_message(demo: gr.Blocks, host: str, port: int, share: bool) -> str:
    """Where the page is, in this command's own words (its options, not launch()'s)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    lines = [f"Attention Explorer is running on http://{shown}:{port}"]
    if host in ("0.0.0.0", "::"):
        lines.append("Students on this network open http://THIS-COMPUTER'S-ADDRESS:"
                     f"{port}")
    else:
        lines.append("Only this computer can open it: --host 0.0.0.0 opens it to the "
                     "classroom's network.")
    if share and getattr(demo, "share_url", None):
        lines.append(f"Public link (through Gradio's servers): {demo.share_url}")
    elif not share:
        lines.append("--share also makes a public gradio.live link (needs the network).")
    return "\n".join(lines)


if __name__ == "__main__":
    main(sys.argv[1:])
