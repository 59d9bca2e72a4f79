"""The README stays one short page for users (issue 40: at most 200 lines), and every link in
it and in the pages it sends readers to (docs/*.md) points at a file that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s#]+)(#[^)]*)?\)")


def test_the_readme_is_at_most_200_lines():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_relative_links_resolve(page):
    targets = [m.group(1) for m in LINK.finditer(page.read_text(encoding="utf-8"))
               if not m.group(1).startswith(("http://", "https://", "mailto:"))]
    missing = [t for t in targets if not (page.parent / t).exists()]
    assert not missing, f"{page.name} links to missing files: {missing}"
    if page.name == "README.md":
        assert any(t.startswith("docs/") for t in targets)  # the pages it sends readers to
