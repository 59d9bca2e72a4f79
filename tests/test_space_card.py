"""The README's front matter is a Space card the Hub accepts (its limits, checked here); the
command says where it runs with its own options (--host, --share), not launch()'s."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def front_matter(text: str) -> dict[str, str]:
    """The ``key: value`` lines between the leading ``---`` fences."""
    block = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert block, "the README starts with a --- front matter block"
    return dict(line.split(": ", 1) for line in block.group(1).splitlines() if ": " in line)


def test_the_card_fits_the_hubs_limits():
    card = front_matter(README.read_text(encoding="utf-8"))
    assert card["sdk"] == "gradio"
    assert (README.parent / card["app_file"]).is_file()
    # the Hub refuses a short_description over 60 characters
    assert 0 < len(card["short_description"]) <= 60


def test_the_command_says_where_it_runs_in_its_own_options():
    from explorer import app

    local = app.started_message(None, "127.0.0.1", 7860, share=False)
    assert "http://127.0.0.1:7860" in local and "--host 0.0.0.0" in local
    assert "--share" in local and "launch()" not in local
    room = app.started_message(None, "0.0.0.0", 8000, share=False)
    assert "THIS-COMPUTER'S-ADDRESS:8000" in room


def test_gradio_is_pinned_to_one_version_everywhere():
    """The code relies on Gradio internals of one release (the queue's fetch path, stamps in
    hidden components): requirements.txt, pyproject.toml and the Space card name the same
    version, and it is the one installed, the one the tests ran with."""
    from importlib.metadata import version

    root = README.parent
    card = front_matter(README.read_text(encoding="utf-8"))["sdk_version"]
    req = re.search(r"^gradio==([\d.]+)", (root / "requirements.txt").read_text(), re.M)
    proj = re.search(r'"gradio==([\d.]+)"', (root / "pyproject.toml").read_text())
    assert req and proj, "gradio is pinned with == in requirements.txt and pyproject.toml"
    assert req.group(1) == proj.group(1) == card == version("gradio")
