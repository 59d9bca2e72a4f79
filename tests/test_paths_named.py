"""Every repository path that the docs and the code's comments name exists.

A file that moves leaves its old name behind in docstrings, comments and ``docs/`` (the CSS
once moved from one stylesheet into ``static/css/`` and nine comments kept the old name).
This walks every tracked source and text file, finds what reads as a path into the
repository (``explorer/…``, ``static/…``, ``tests/…`` and the rest, or a package-relative
``views/…``, ``server/…`` inside ``explorer/``), and asserts each names a file or folder
that exists. Names of files a program writes elsewhere (the static site's own ``models/``
folder, ``checkpoints/eval/NAME.json`` with a placeholder) are said explicitly below."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP = r"(?:explorer|static|tests|scripts|benchmarks|docs|checkpoints|examples)"
PACKAGE = r"(?:models|training|analysis|figures|views|ui|server|site)"
EXT = r"(?:py|js|mjs|css|md|json|wat|html|txt|toml)"
PATH = re.compile(rf"(?<![\w/.$-])((?:{TOP}|{PACKAGE})/[\w./-]*?\.{EXT})(?!\w)")
SCANNED = re.compile(r"\.(?:py|js|mjs|md|css|toml|wat|html)$")
# Paths that name what a program writes, not the repository: the static edition's own
# layout (explorer/site/build.py writes site/models/…) and placeholders.
NOT_IN_THE_REPOSITORY = {"models/tokenizer.json"}
PLACEHOLDER = re.compile(r"NAME|\{|<|\*")


def _tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:  # not a git checkout (an unpacked wheel or sdist)
        pytest.skip("not a git checkout")
    return [f for f in out.stdout.split() if SCANNED.search(f)
            and not f.startswith("static/build/")]


def _exists(path: str) -> bool:
    if re.match(TOP, path):
        return (ROOT / path).exists()
    return (ROOT / "explorer" / path).exists() or (ROOT / path).exists()


def named_paths() -> dict[str, set[str]]:
    """{file: the repository paths it names that do not exist}."""
    missing: dict[str, set[str]] = {}
    for name in _tracked():
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        for match in PATH.finditer(text):
            path = match.group(1).rstrip(".")
            if path in NOT_IN_THE_REPOSITORY or PLACEHOLDER.search(path) or _exists(path):
                continue
            missing.setdefault(name, set()).add(path)
    return missing


def test_every_path_named_in_docs_and_comments_exists():
    assert named_paths() == {}


def test_the_walk_finds_paths(tmp_path):
    """The pattern reads the forms the code uses (a wrong pattern passes the test above
    with nothing found)."""
    gone = "static/" + "style.css"  # written in two parts, so this file does not name it
    text = (f"see static/css/10-base.css and views/notebook_view.py, not {gone}; "
            "(explorer/server/class_route.py) and `docs/layout.md`.")
    found = [m.group(1) for m in PATH.finditer(text)]
    assert found == ["static/css/10-base.css", "views/notebook_view.py", gone,
                     "explorer/server/class_route.py", "docs/layout.md"]
    assert [p for p in found if not _exists(p)] == [gone]
