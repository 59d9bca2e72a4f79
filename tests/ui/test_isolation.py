"""Hardening, load and isolation, against a real server on 127.0.0.1 (bounded in count and
time):

* two students never see each other's attention: hundreds of concurrent ``/explore`` calls
  with random text and random controls, from many threads (one gradio Client each), against
  an app whose queue runs 16 at once; every response must equal the single-request result
  of ``explorer.views.explore.explore`` for the same input;
* a bounded queue: a burst beyond ``max_size`` is refused with gradio's "queue full" answer
  and the server keeps serving.

What a client receives when the queue is full (gradio 6, ``gradio/queueing.py``
``Queue.push``): ``push`` returns ``(False, "Queue is full. Max size is N and size is M.",
"queue_full")`` when ``len(queue) >= max_size`` (events waiting, not those running);
``routes.py`` ``queue_join_helper`` maps ``queue_full`` to HTTP 503 with that text as
``detail``; ``gradio_client`` turns a 503 into ``QueueError("Queue is full! Please try
again.")`` and the browser client shows the same. Nothing is queued for a refused request.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait

import httpx
import numpy as np
import pytest
from gradio_client.utils import QueueError

from explorer import app
from explorer.views.controls import OBJECTIVES, parse_controls
from explorer.views.explore import explore
from tests.plotdata import decode_array, figure_json
from tests.random_knobs import random_knobs
from tests.server import call_outcome, local_client, serve  # noqa: F401  (fixture)

N_REQUESTS = 200
N_THREADS = 12
BURST_DEADLINE_S = 150  # generous for a busy 2-core box; a healthy run takes ~20-40 s

WORDS = ("the a cat dog sat on mat and ran to park Lily Ben saw big red ball it was happy "
         "because they were tired . , ! ? she he said home time go 42 1999 🙂 👩‍💻 中文 é "
         "naïve مرحبا <b> & $").split()


# --- what a response is, decoded --------------------------------------------------------------

def digest_figure(fig: dict | None):
    """Everything a student sees in one figure: each trace's arrays (heatmap weights, hover
    scores, head-view segments, bar lengths), its labels, tick text, titles, colours."""
    if fig is None:
        return None
    traces = []
    for t in fig["data"]:
        arrays = {k: decode_array(t[k]).astype(np.float64)
                  for k in ("z", "x", "y", "customdata") if k in t}
        traces.append((t.get("type"), t.get("name"), t.get("text"), arrays))
    layout = fig["layout"]
    ticks = [(k, v.get("ticktext"), v.get("tickvals")) for lay in
             (layout, layout.get("template", {}).get("layout", {}))
             for k, v in sorted(lay.items()) if k[1:5] == "axis" and isinstance(v, dict)]
    notes = [a.get("text") for a in layout.get("annotations", [])]
    return traces, ticks, notes, layout.get("paper_bgcolor")


def digest(outputs) -> tuple:
    """The six outputs as gradio_client returns them -> comparable digest."""
    figs = [digest_figure(None if o is None else figure_json(o)) for o in outputs[:4]]
    return (*figs, outputs[4], outputs[5])


def expected_outputs(zoo, tok, case) -> tuple:
    """The single-request answer, made the way the server serialises it (plotly to_json)."""
    text, *controls = case
    r = explore(zoo, tok, text, parse_controls(*controls))
    figs = [None if f is None else {"plot": f.to_json()} for f in
            (r.grid, r.head, r.lines, r.predictions)]
    return digest((*figs, r.status, r.head_table))


def assert_same(got: tuple, want: tuple, where: str) -> None:
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if i >= 4 or g is None or w is None:
            assert g == w, f"{where}: output {i} differs: {str(g)[:200]!r} != {str(w)[:200]!r}"
            continue
        (g_traces, *g_rest), (w_traces, *w_rest) = g, w
        assert g_rest == w_rest, f"{where}: figure {i} labels/titles differ"
        assert len(g_traces) == len(w_traces), f"{where}: figure {i} trace count"
        for gt, wt in zip(g_traces, w_traces, strict=True):
            assert gt[:3] == wt[:3], f"{where}: figure {i} trace {gt[:2]} != {wt[:2]}"
            assert gt[3].keys() == wt[3].keys()
            for key in gt[3]:
                np.testing.assert_allclose(gt[3][key], wt[3][key], rtol=0, atol=1e-6,
                                           equal_nan=True, err_msg=f"{where}: fig {i} {key}")


# --- random requests ---------------------------------------------------------------------

def random_case(rng: random.Random, zoo) -> list:
    """(text, 9 control values) as the UI could send them; mostly models that exist."""
    knobs = random_knobs(rng, zoo)
    # Mostly short and medium sentences, a fifth long enough to hit the 128-token limit.
    n_words = rng.choices([rng.randint(1, 6), rng.randint(7, 40), rng.randint(41, 220)],
                          weights=[35, 45, 20])[0]
    words = [rng.choice(WORDS) for _ in range(n_words)]
    if OBJECTIVES[knobs[0]] == "bidir" and rng.random() < 0.8:
        words.insert(rng.randrange(len(words) + 1), "[mask]")
    text = " ".join(words)
    if rng.random() < 0.05:
        text = rng.choice(["", "   ", "\n"])
    return [text, *knobs]


def test_concurrent_students_each_get_exactly_their_own_result(resources, monkeypatch):
    tok, zoo = resources
    rng = random.Random(20240521)
    cases = [random_case(rng, zoo) for _ in range(N_REQUESTS)]
    assert len({c[0] for c in cases}) > N_REQUESTS * 0.9  # nearly all different sentences
    # The single-request answers, one at a time, before any concurrency.
    start = time.monotonic()
    expected = [expected_outputs(zoo, tok, case) for case in cases]
    single = time.monotonic() - start
    assert sum(e[0] is not None for e in expected) > N_REQUESTS * 0.8  # mostly real figures

    running, peak, lock = 0, 0, threading.Lock()

    def counted(*args, **kwargs):  # the real explore, counting how many run at once
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        try:
            return explore(*args, **kwargs)
        finally:
            with lock:
                running -= 1

    patch_explore(monkeypatch, counted)
    demo = app.build_app(tok, zoo)
    with serve(demo, dict(default_concurrency_limit=16, max_size=None)) as url:
        counter = iter(range(N_REQUESTS))

        def next_index():
            with lock:
                return next(counter, None)

        def student(worker: int) -> int:
            client = local_client(url)  # one client (one session) per thread
            done = 0
            while (i := next_index()) is not None:
                got = digest(client.predict(*cases[i], api_name="/explore"))
                assert_same(got, expected[i], f"request {i} (thread {worker}): "
                                              f"{cases[i][0][:40]!r}")
                done += 1
            return done

        start = time.monotonic()
        with ThreadPoolExecutor(N_THREADS) as pool:
            futures = [pool.submit(student, w) for w in range(N_THREADS)]
            finished, unfinished = wait(futures, timeout=BURST_DEADLINE_S)
            assert not unfinished, f"not done within {BURST_DEADLINE_S} s"
            served = sum(f.result() for f in futures)  # re-raises any mismatch
        elapsed = time.monotonic() - start
        assert served == N_REQUESTS
    assert peak >= 4, peak  # the handler really ran several requests at once
    print(f"\n{N_REQUESTS} single requests in {single:.1f} s; concurrently from {N_THREADS} "
          f"threads in {elapsed:.1f} s, up to {peak} in explore at once")


def test_the_explore_capture_itself_is_isolated_across_threads(resources):
    """The same property with no server in between: ``explore`` on 6 threads at once over the
    shared models (a ContextVar keeps each call's hooks to its own cache)."""
    tok, zoo = resources
    rng = random.Random(7)
    cases = [random_case(rng, zoo) for _ in range(24)]
    expected = [expected_outputs(zoo, tok, c) for c in cases]
    with ThreadPoolExecutor(6) as pool:
        got = list(pool.map(lambda c: expected_outputs(zoo, tok, c), cases, timeout=120))
    for i, (g, w) in enumerate(zip(got, expected, strict=True)):
        assert_same(g, w, f"case {i}")


# --- bounded queue ---------------------------------------------------------------------------

def patch_explore(monkeypatch, replacement) -> None:
    """Replace ``explorer.views.explore.explore`` wherever the UI imported it (app.py once,
    explorer/ui/explore_tab.py now), before the app is built."""
    original = sys.modules["explorer.views.explore"].explore
    patched = [name for name, module in list(sys.modules.items())
               if name != __name__ and getattr(module, "explore", None) is original]
    for name in patched:
        monkeypatch.setattr(sys.modules[name], "explore", replacement)
    assert "explorer.views.explore" in patched and len(patched) >= 2, patched


def join(base: str, text: str) -> httpx.Response:
    body = {"data": [text, "next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0,
                     0, 0, "light"]}
    return httpx.post(f"{base}/call/explore", json=body, timeout=30, verify=False)


def result(base: str, event_id: str) -> tuple[str, object]:
    return call_outcome(httpx.get(f"{base}/call/explore/{event_id}", timeout=60,
                                  verify=False).text)


def test_a_burst_beyond_the_queue_gets_queue_full_and_the_server_stays_responsive(
        resources, monkeypatch):
    tok, zoo = resources
    max_size, burst = 3, 12
    gate, entered = threading.Event(), threading.Event()

    def held(zoo, tok, text, controls):  # "HOLD" occupies the only worker until released
        if text == "HOLD":
            entered.set()
            assert gate.wait(60)
        return explore(zoo, tok, text, controls)

    patch_explore(monkeypatch, held)
    demo = app.build_app(tok, zoo)
    with serve(demo, dict(default_concurrency_limit=1, max_size=max_size)) as url:
        base = url + "gradio_api"
        try:
            hold = join(base, "HOLD")
            assert hold.status_code == 200 and entered.wait(30)
            # A burst while the worker is busy: exactly max_size wait, the rest are refused.
            with ThreadPoolExecutor(burst) as pool:
                answers = list(pool.map(lambda i: join(base, f"burst {i}"), range(burst)))
            codes = sorted(r.status_code for r in answers)
            assert codes == [200] * max_size + [503] * (burst - max_size), codes
            for r in answers:
                if r.status_code == 503:
                    detail = r.json()["detail"]
                    assert detail.startswith(f"Queue is full. Max size is {max_size}"), detail
            # The same through gradio_client: a clear, catchable "queue full" error.
            with pytest.raises(QueueError, match="Queue is full"):
                local_client(url).predict(
                    "one more", "next word (causal)", 4, "rotary", "as trained", "1/√d_head",
                    1.0, 0, 0, "light", api_name="/explore")
        finally:
            gate.set()
        # Everything that was accepted is served; then the server is normal again.
        accepted = [hold] + [r for r in answers if r.status_code == 200]
        for r in accepted:
            event, outputs = result(base, r.json()["event_id"])
            assert event == "complete" and outputs[0] is not None
        grid, *_, status, _ = local_client(url).predict(
            "Back to normal.", "next word (causal)", 4, "rotary", "as trained", "1/√d_head",
            1.0, 0, 0, "light", api_name="/explore")
        assert grid is not None and "tokens" in status
