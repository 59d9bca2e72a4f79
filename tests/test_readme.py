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


def test_the_lab_row_says_how_often_the_page_updates():
    """The Lab's row says how often a run's page updates, from the constants the page uses."""
    from explorer.ui.lab_tab import CHART_S, UPDATE_S

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    every = {1.0: "once a second"}[UPDATE_S]
    assert f"watch, {every} (the curves every {CHART_S:g} s)" in text
