"""The package (issues 34, 40): the wheel installs one import package, ``explorer`` (the page
is ``explorer.ui``), with every model the manifest lists, the tokenizer and the page's
scripts as its package data (``explorer/_data/``), and the ``attention-explorer`` command;
nothing else on sys.path, no .pth; under 100 MB. One test installs it into a fresh
virtualenv and, from a folder holding its own ``app.py`` and ``explorer/ui/`` package, runs the
command and saves a head_view.

The wheel is built offline (``pip wheel --no-build-isolation --no-deps``: hatchling from
requirements-dev.txt, nothing fetched). The virtualenv sees this interpreter's packages (a
.pth of its site-packages: the README's test command runs in a virtualenv too) and installs
the wheel alone (``--no-deps --no-index``), so the test takes seconds and needs no network;
it checks that what runs comes from the venv."""

import json
import os
import re
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MB = 10**6
PREFIX = "explorer/"
DATA = PREFIX + "_data/"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    pytest.importorskip("hatchling", reason="pip install -r requirements-dev.txt (hatchling)")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
                    "--no-index", "-q", "-w", str(out), str(ROOT)], check=True, timeout=300)
    (path,) = out.glob("attention_explorer-*.whl")
    return path


def requirement_lines(path: Path) -> list[str]:
    lines = (line.split("#")[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("-r")]


def test_the_package_depends_on_what_requirements_txt_says():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["dependencies"] == requirement_lines(ROOT / "requirements.txt")
    assert "torch==2.13.0" in project["dependencies"]
    assert project["scripts"]["attention-explorer"] == "explorer.command:main_cli"


def test_the_wheel_holds_the_app_the_whole_zoo_and_the_scripts(wheel):
    assert wheel.stat().st_size < 100 * MB
    names = set(zipfile.ZipFile(wheel).namelist())
    files = json.loads((ROOT / "checkpoints" / "manifest.json").read_text())["files"]
    shipped = {DATA + "checkpoints/" + name for name in files}
    assert any(name.endswith(".safetensors") for name in shipped)
    assert shipped <= names, sorted(shipped - names)[:5]
    for path in [DATA + "checkpoints/tokenizer.json", DATA + "static/live_grid.js",
                 DATA + "static/live.js", DATA + "static/css/60-steps.css",
                 DATA + "static/notebook.js",
                 PREFIX + "app.py", PREFIX + "command.py", PREFIX + "paths.py",
                 PREFIX + "notebook.py", PREFIX + "models/zoo.py", PREFIX + "ui/explore_tab.py"]:
        assert path in names, path
    # One import name: nothing beside explorer/ but its metadata (no .pth, no "app", "ui")
    outside = {name for name in names if not name.startswith(PREFIX)}
    assert all(".dist-info/" in n for n in outside), sorted(outside)
    for name in names:  # what stays in the checkout
        assert not re.match(r"(tests|benchmarks|scripts|runs|artifacts)/", name), name
        assert "__pycache__" not in name, name
    entry = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "attention-explorer = explorer.command:main_cli" in entry


def see_our_packages(python: Path) -> None:
    """Let the virtualenv of ``python`` import the packages this interpreter has: a .pth of
    this interpreter's site-packages. (``system_site_packages`` would show the *base*
    interpreter's, which inside a virtualenv are not the ones the tests run with.)"""
    ours = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "_test_parent_packages.pth").write_text("\n".join(sorted(ours)) + "\n")


def test_the_installed_command_starts_from_outside_the_checkout(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    see_our_packages(python)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # not the checkout's
    run = subprocess.run([str(env_dir / "bin" / "attention-explorer"), "--help"], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    for flag in ["--host", "--port", "--device", "--share"]:
        assert flag in run.stdout
    # a folder of the user's own with an app.py and a ui package: ours must not mind
    (tmp_path / "app.py").write_text("raise SystemExit('the user app.py was imported')\n")
    (tmp_path / "ui").mkdir()
    (tmp_path / "ui" / "__init__.py").write_text("raise SystemExit('the user ui was imported')\n")
    env["PYTHONPATH"] = str(tmp_path)
    run = subprocess.run([str(env_dir / "bin" / "attention-explorer"), "--help"], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "--host" in run.stdout, run.stderr
    probe = ("import explorer.app as a, explorer.models.zoo as z, explorer.ui.page as e; "
             "from explorer.notebook import head_view; "
             "v = head_view([[[[1.0, 0.0], [0.5, 0.5]]]], ['a', 'b']).save('v.html'); "
             "print(a.__file__); print(z.CHECKPOINT_DIR); print(len(e.APP_JS))")
    run = subprocess.run([str(python), "-c", probe], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    app_file, checkpoints, grid_js = run.stdout.split()
    site = str(env_dir)
    assert app_file.startswith(site) and checkpoints.startswith(site)  # not the checkout's
    assert (Path(checkpoints) / "causal-h4-rotary.safetensors").is_file()
    assert int(grid_js) > 1000
    drawn = (tmp_path / "v.html").read_text(encoding="utf-8")  # the installed scripts inlined
    assert "// static/live_grid.js" in drawn and "// static/notebook.js" in drawn
