"""explorer/server/threads.py: the server's threads carry their names into the OS, where a
benchmark (benchmarks/grid_cpu.py) reads them to split the server's CPU by thread."""

import sys
import threading
from pathlib import Path

import pytest

from explorer.server.threads import name_thread


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_a_named_thread_shows_its_name_in_proc_cut_to_15_bytes():
    seen = {}

    def run():
        name_thread("ae-keystrokes-and-more")
        seen["comm"] = Path(f"/proc/self/task/{threading.get_native_id()}/comm").read_text()

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert seen["comm"].strip() == "ae-keystrokes-a"
    assert Path(f"/proc/self/task/{threading.get_native_id()}/comm").read_text().strip() \
        != "ae-keystrokes-a"  # only the calling thread was renamed
