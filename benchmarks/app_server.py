"""``python app.py`` in its own process, and the page's way of talking to it: the events a
keystroke runs (found in ``/config``), each joined on the queue and read from its stream."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import DEFAULT_CONTROLS, DEFAULT_KNOBS, ROOT, free_port


def proc_status(pid: int) -> dict[str, float]:
    """VmRSS / VmHWM of a process in MB (from /proc; psutil is not needed)."""
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value, _unit = line.split()
                out[key.rstrip(":")] = int(value) / 1024  # kB -> MB (MiB)
    except OSError:
        pass
    return out


class AppServer:
    """``python app.py`` in its own process on a free port (the real thing, all of it)."""

    def __init__(self, cmd: list[str] | None = None, env: dict[str, str] | None = None,
                 cwd: Path = ROOT) -> None:
        self.cmd = cmd or [sys.executable, "app.py"]
        self.cwd = cwd
        self.extra_env = env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(tempfile.gettempdir()) / f"bench_app_{self.port}.log"
        self.proc: subprocess.Popen | None = None
        self.startup_s = float("nan")
        self.rss_at_start: dict[str, float] = {}
        self.models = "?"

    def start(self, timeout: float = 60.0) -> None:
        import httpx

        env = {**os.environ, "GRADIO_SERVER_PORT": str(self.port),
               "GRADIO_SERVER_NAME": "127.0.0.1", **self.extra_env}
        self._log = open(self.log_path, "w")  # noqa: SIM115 (closed in stop)
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(self.cmd, cwd=self.cwd, env=env,
                                     stdout=self._log, stderr=subprocess.STDOUT)
        payload = {"data": ["The cat sat on the mat.", *DEFAULT_CONTROLS]}
        with httpx.Client(base_url=self.url, timeout=30) as c:
            while True:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"{' '.join(self.cmd[1:])} exited "
                                       f"({self.proc.returncode}); see {self.log_path}")
                if time.perf_counter() - t0 > timeout:
                    raise RuntimeError(f"{' '.join(self.cmd[1:])} gave no answer in "
                                       f"{timeout:.0f} s; see {self.log_path}")
                try:
                    r = c.post("/gradio_api/call/explore", json=payload)
                    if r.status_code == 200:
                        eid = r.json()["event_id"]
                        body = c.get(f"/gradio_api/call/explore/{eid}").text
                        if "event: complete" in body:
                            break
                except httpx.TransportError:
                    pass
                time.sleep(0.05)
        self.startup_s = time.perf_counter() - t0
        self.rss_at_start = proc_status(self.proc.pid)
        for line in self.log_path.read_text().splitlines():
            if "models:" in line:
                self.models = line.split("models:", 1)[1].strip()

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the server process has used so far, from /proc."""
        return pid_cpu_seconds(self.proc.pid) if self.proc else float("nan")

    def stop(self) -> dict[str, float]:
        final = proc_status(self.proc.pid) if self.proc else {}
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if getattr(self, "_log", None):
            self._log.close()
        return final

    def canvas_grid(self) -> int | None:
        """Component id of the Explore grid's canvas whose ``grid_data`` server function
        the page calls per keystroke (static/live_grid.js), or None for an app from
        before it (whose keystrokes are :meth:`live_chain` events)."""
        import httpx

        config = httpx.get(self.url + "/config", timeout=10).json()
        return next((c["id"] for c in config["components"]
                     if c.get("props", {}).get("elem_id") == "grid"
                     and "grid_data" in (c["props"].get("server_fns") or [])), None)

    def live_tabs(self) -> list[str]:
        """Every view the live loop (static/live.js) runs Gradio events for: the ids of the
        hidden anchors ``ae-live-<view>`` that carry an "update" or "settle" event (older
        apps: a hidden ``ae-live-*`` button's click). Other elements named ``ae-live-...``
        (the loop's ``ae-live-config``, its ``ae-live-status`` marker) are not views."""
        import httpx

        config = httpx.get(self.url + "/config", timeout=10).json()
        fired = {(t[0], t[1]) for d in config["dependencies"] for t in d.get("targets", [])}
        tabs = []
        for c in config["components"]:
            elem = str(c.get("props", {}).get("elem_id"))
            if elem.startswith("ae-live-") and any((c["id"], e) in fired
                                                   for e in ("update", "settle", "click")):
                tabs.append(elem[len("ae-live-"):])
        if not tabs:
            raise RuntimeError("found no view of the live loop in /config (no ae-live-* "
                               "anchor with an update or settle event): the benchmark no "
                               "longer follows the page, see static/live.js")
        return tabs

    def settle_chain(self, tab: str = "explore") -> list[tuple[int, int | None, Callable]]:
        """The events the page runs once typing pauses while ``tab`` is open: the anchor's
        "settle" event (older apps: the hidden ``ae-rest-<tab>`` button's click); empty
        when the view has none."""
        return [(fn, trigger, make) for kind, fn, trigger, make in self._events(tab)
                if kind == "settle"]

    def live_chain(self, tab: str = "explore") -> list[tuple[int, int | None, Callable]]:
        """Every Gradio event of one update of ``tab``, in order: :meth:`_events`."""
        return [(fn, trigger, make) for _, fn, trigger, make in self._events(tab)]

    def _events(self, tab: str) -> list[tuple[str, int, int | None, Callable]]:
        """The Gradio events the page runs for one update while ``tab`` is open, in order,
        as ``(kind, fn_index, trigger_id, text -> data)``, kind "update" or "settle": the
        view's hidden anchor's "update" event (static/live.js starts it after every change
        the view watches; Explore has none, its canvas asks ``grid_data`` itself), then,
        for a view whose slower figures wait for a pause in typing, its "settle" event
        (older apps: the clicks of hidden ``ae-live-*`` / ``ae-rest-*`` buttons; an app
        from before that wiring: the sentence box's listener that draws ``#grid`` and the
        server events chained after it). Data as the page sends it: each input's current
        (default) value, None for ``gr.State`` (the server keeps that per session)."""
        import httpx

        config = httpx.get(self.url + "/config", timeout=10).json()
        comps = {c["id"]: c for c in config["components"]}
        elem = {i: c.get("props", {}).get("elem_id") for i, c in comps.items()}
        box = next(i for i, e in elem.items() if e == "sentence")
        deps = config["dependencies"]
        chain = []
        anchor = next((i for i, e in elem.items() if e == "ae-live-" + tab), None)
        # the live loop (static/live.js): the view's anchor fires "update", then "settle";
        # before it, hidden buttons ae-live-* / ae-rest-* were clicked
        rest = next((i for i, e in elem.items() if e == "ae-rest-" + tab), None)
        for target, event, kind in ((anchor, "update", "update"), (anchor, "settle", "settle"),
                                    (anchor, "click", "update"), (rest, "click", "settle")):
            dep = next((d for d in deps if target is not None and [target, event]
                        in [list(t) for t in d.get("targets", [])]), None)
            if dep is not None:
                chain.append((kind, dep, target))
        if not chain and tab == "explore":  # an app from before explorer/ui/controls.finish_live
            grid = next(i for i, e in elem.items() if e == "grid")
            first = next(d for d in deps if grid in d["outputs"] and [box, "input"]
                         in [list(t) for t in d.get("targets", [])])
            chain = [("update", first, box)] + [
                ("settle", d, None) for d in deps
                if d.get("backend_fn") and d.get("trigger_after") == first["id"]]

        def maker(dep):
            template = [None if comps[i].get("type") == "state"
                        else comps[i]["props"].get("value") for i in dep["inputs"]]
            where = dep["inputs"].index(box) if box in dep["inputs"] else None

            def make(text: str) -> list:
                data = list(template)
                if where is not None:
                    data[where] = text
                return data
            return make

        return [(kind, dep["id"], trigger, maker(dep)) for kind, dep, trigger in chain]


def grid_request(component: int, session: str, text: str) -> dict:
    """The JSON body of one keystroke's grid request, as static/live_grid.js sends it."""
    return {"data": {"text": text, "controls": dict(DEFAULT_KNOBS)},
            "component_id": component, "fn_name": "grid_data", "session_hash": session}


GRID_PATH = "/gradio_api/component_server/"


def ask_grid(client, component: int, session: str, text: str) -> tuple[bool, int]:
    """One keystroke's grid on the canvas path: (answered with a grid, bytes received)."""
    r = client.post(GRID_PATH, json=grid_request(component, session, text))
    return r.status_code == 200 and r.json().get("ok") is True, len(r.content)


def run_chain(client, chain, session: str, text: str,
              strict: bool = True) -> tuple[bool, int, list[float]]:
    """One keystroke's events in turn on one session: (all answered -- each with a first
    output, e.g. a drawn figure, when ``strict`` --, bytes received, seconds from the start
    to the end of each event)."""
    t0 = time.perf_counter()
    ok, nbytes, ends = True, 0, []
    for fn_index, trigger, make_data in chain:
        answered, received = queue_update(client, fn_index, trigger, session, make_data(text),
                                          require_first=strict)
        ok &= answered
        nbytes += received
        ends.append(time.perf_counter() - t0)
    return ok, nbytes, ends


def queue_update(client, fn_index: int, trigger_id, session: str, data: list,
                 require_first: bool = False) -> tuple[bool, int]:
    """One event the way the page's JS client runs it: join, then read the SSE stream.
    Returns (answered with success -- and a first output that is not None, when
    ``require_first`` -- , bytes received on the data stream)."""
    import orjson

    r = client.post("/gradio_api/queue/join", json={
        "data": data, "fn_index": fn_index, "trigger_id": trigger_id, "session_hash": session,
        "event_data": None})
    r.raise_for_status()
    ok = False
    with client.stream("GET", "/gradio_api/queue/data",
                       params={"session_hash": session}) as s:
        s.raise_for_status()
        for line in s.iter_lines():
            if not line.startswith("data:"):
                continue
            msg = orjson.loads(line[5:])
            if msg.get("msg") == "process_completed":
                out = msg.get("output") or {}
                ok = bool(msg.get("success")) and bool(out.get("data")) and \
                    (not require_first or out["data"][0] is not None)
            if msg.get("msg") in ("close_stream", "unexpected_error"):
                break
        received = s.num_bytes_downloaded
    return ok, received


def _cpu_seconds(stat: Path) -> float:
    """utime + stime of a /proc ``stat`` file (a process's or a thread's), in seconds."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu_seconds(pid: int) -> dict[str, float]:
    """CPU time (user + system) of each thread of ``pid`` so far, summed by the thread's OS
    name (``ae-http``, ``ae-keystrokes``: explorer/server/threads.py; others by Python's
    ``python``), from /proc."""
    out: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            name = (task / "comm").read_text().strip()
            out[name] = out.get(name, 0.0) + _cpu_seconds(task / "stat")
        except (OSError, IndexError, ValueError):  # a thread that ended meanwhile
            continue
    return out


def pid_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process ``pid`` has used so far, from /proc (NaN if gone);
    :meth:`AppServer.cpu_seconds` for a server this benchmark did not start (``--url``)."""
    try:
        return _cpu_seconds(Path(f"/proc/{pid}/stat"))
    except (OSError, IndexError, ValueError):
        return float("nan")
