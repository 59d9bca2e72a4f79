"""The ``attention-explorer`` command's options: argparse and the standard library only, so
that ``--help`` and a mistyped option answer before torch and gradio are imported
(:mod:`explorer.command` reads them first, :func:`explorer.app.main` again).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

# explorer/models/device.py checks the value; named here so that --help needs no torch
DEVICE_ENV = "AE_DEVICE"
DEVICE_CHOICES = ("auto", "cpu", "cuda", "cuda:N")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="attention-explorer",
                                description="Attention Explorer: serve the page.")
    p.add_argument("--device", default=None,
                   help=f"where the models run: {', '.join(DEVICE_CHOICES)} (default: "
                        f"${DEVICE_ENV} if set, else auto: cuda when this machine has a "
                        "GPU torch can use, else cpu)")
    # 127.0.0.1 by default: only this computer. A classroom's students reach the page at
    # http://THIS-COMPUTER'S-ADDRESS:7860 once it listens on the network (0.0.0.0).
    p.add_argument("--host", default=None,
                   help="the address to listen on (default: $GRADIO_SERVER_NAME if set, "
                        "else 127.0.0.1, this computer only; 0.0.0.0 lets the students "
                        "on the classroom's network open it)")
    p.add_argument("--port", type=int, default=None,
                   help="the port to serve on (default: $GRADIO_SERVER_PORT if set, "
                        "else 7860)")
    # Off by default: a share link goes through Gradio's servers (and fetches their tunnel
    # program the first time), and the app otherwise needs no network at all.
    p.add_argument("--share", action="store_true",
                   help="also make a public gradio.live link (needs the network)")
    return p


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """``argv`` None: called from code (tests, benchmarks) with no command line to read."""
    p = parser()
    return p, p.parse_args([] if argv is None else list(argv))
