"""The ``attention-explorer`` command reads its options before the heavy imports (issue 40:
``--help`` in well under a second, not after torch and gradio have loaded)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from explorer import options
from explorer.models import device

ROOT = Path(__file__).resolve().parents[1]


def test_the_device_words_are_the_device_modules():
    assert options.DEVICE_CHOICES == device.CHOICES
    assert options.DEVICE_ENV == device.ENV_VAR


def test_help_and_a_bad_option_import_neither_torch_nor_gradio():
    probe = ("import sys; from explorer.command import main_cli; "
             "sys.argv = ['attention-explorer', sys.argv[1]]\n"
             "try:\n    main_cli()\nexcept SystemExit as e:\n"
             "    print('exit', e.code, 'torch' in sys.modules, 'gradio' in sys.modules)")
    for flag, code in (("--help", 0), ("--no-such-option", 2)):
        run = subprocess.run([sys.executable, "-c", probe, flag], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert run.stdout.strip().splitlines()[-1] == f"exit {code} False False", run
    assert "--host" in subprocess.run([sys.executable, "-c", probe, "--help"], cwd=ROOT,
                                      capture_output=True, text=True, timeout=60).stdout
