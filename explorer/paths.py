"""Where the app's files are: the checkpoints (weights, cards, tokenizer) and the page's
static files (scripts, styles).

In a checkout they are the repository's ``checkpoints/`` and ``static/``, beside
``explorer/``. An installed wheel carries them as package data, ``explorer/_data/``
(pyproject.toml maps them there), found through :mod:`importlib.resources`. Every module
asks here instead of climbing from its own file.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _data_root() -> Path:
    package = Path(str(files("explorer")))
    packaged = package / "_data"
    return packaged if (packaged / "checkpoints").is_dir() else package.parent


DATA_ROOT = _data_root()
CHECKPOINTS = DATA_ROOT / "checkpoints"
STATIC = DATA_ROOT / "static"
