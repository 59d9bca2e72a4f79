"""The ``attention-explorer`` command (pyproject.toml), and ``python app.py``: the options
first (:mod:`explorer.options`: ``--help`` and a bad option answer in a fraction of a
second), then the server (:func:`explorer.app.main`, whose imports take seconds).
"""

from __future__ import annotations

import sys

from explorer.options import parse_args


def main_cli() -> None:
    parse_args(sys.argv[1:])  # --help and bad options end here, before the imports
    from explorer.app import main  # noqa: PLC0415  (the heavy imports, once the options are good)

    main(sys.argv[1:])
