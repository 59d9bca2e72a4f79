"""Names the server's own threads as the operating system sees them (``top -H``, ``py-spy``,
``/proc/<pid>/task/<tid>/comm``), so a benchmark can say which thread spends the CPU:
``ae-http`` the event loop that answers HTTP, ``ae-keystrokes`` the keystroke line's model
thread. Python's thread names stay inside Python; Linux keeps 15 bytes of its own."""

from __future__ import annotations

import ctypes
import ctypes.util

PR_SET_NAME = 15  # linux/prctl.h


def name_thread(name: str) -> None:
    """Give the calling thread ``name`` (cut to 15 bytes) where the OS has prctl; elsewhere
    nothing happens."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_NAME, ctypes.c_char_p(name.encode()[:15]), 0, 0, 0)
    except (OSError, AttributeError):  # not Linux (macOS, Windows): names are a nicety
        pass
