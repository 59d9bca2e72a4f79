"""A dependency-free progress line for training: step, loss, tokens/s and ETA.

On a terminal it redraws one line; in a log file (not a TTY) it prints a line
every 5 % so background training leaves a readable record.
"""

from __future__ import annotations

import sys
import time


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 3600:d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Progress:
    def __init__(self, total: int, tokens_per_step: int, quiet: bool = False, start: int = 0,
                 stream=None, unit: str = "tok") -> None:
        self.total, self.tokens_per_step, self.quiet = total, tokens_per_step, quiet
        self.unit = unit  # what tokens_per_step counts: "tok", or e.g. "sentences"
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.start_step, self.t0 = start, time.perf_counter()
        self.last_logged = -1

    def line(self, step: int, loss: float) -> str:
        elapsed = time.perf_counter() - self.t0
        done = step - self.start_step
        rate = done * self.tokens_per_step / elapsed if elapsed > 0 else 0.0
        eta = (self.total - step) * elapsed / done if done else 0.0
        width = 24
        filled = int(width * step / self.total)
        bar = "#" * filled + "." * (width - filled)
        return (f"[{bar}] {step}/{self.total} loss {loss:.3f} "
                f"{rate:,.0f} {self.unit}/s elapsed {_clock(elapsed)} ETA {_clock(eta)}")

    def update(self, step: int, loss: float) -> None:
        if self.quiet:
            return
        if self.tty:
            print("\r" + self.line(step, loss), end="", file=self.stream, flush=True)
            return
        bucket = 20 * step // self.total
        if bucket != self.last_logged:
            self.last_logged = bucket
            print(self.line(step, loss), file=self.stream, flush=True)

    def note(self, text: str) -> None:
        if not self.quiet:
            print(("\n" if self.tty else "") + text, file=self.stream, flush=True)

    def close(self) -> None:
        if self.tty and not self.quiet:
            print(file=self.stream, flush=True)
