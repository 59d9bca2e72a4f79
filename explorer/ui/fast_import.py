"""Make the app's imports quicker: ``import torch, gradio`` took 8 of the 13.7 seconds
from ``python app.py`` to its first answer here; these three changes save about 3.

Import this module before gradio and call :func:`imports_done` after the last import
(app.py does both; ``pyproject.toml`` gives it its own isort section so it stays first).
Imported after gradio it changes nothing.

1. **Type stubs.** Gradio 6 regenerates the ``.pyi`` stub of every component *class* it
   defines, at every import (``gradio/component_meta.py`` ``create_or_modify_pyi``): it
   reads and ``ast.parse``-s each component's source twice and rewrites the stub in
   site-packages. The stubs serve only editors' type checkers, so the server does not
   need them: we wrap the module's loader so that function does nothing in this process.
   If a later gradio no longer has it, nothing is changed.
2. **IPython.** When IPython is installed (it is in most Jupyter/Anaconda set-ups), gradio
   imports it to register its notebook magics (``gradio/ipython_ext.py``, inside a
   ``try/except ImportError``). A process that has not imported IPython by now is not a
   notebook, so we mark IPython absent for it (``sys.modules[name] = None``); where it is
   not installed (a fresh ``pip install -r requirements.txt``) this changes nothing.
3. **Garbage collection.** Importing creates ~300,000 objects that live as long as the
   process, and Python's cycle collector walked all of them again and again while they
   were created (0.85 s here). It is paused until :func:`imports_done`, which then
   *freezes* them (``gc.freeze``): later collections, during students' requests, skip
   them too. The few cycles that imports leave behind (~10,000 small objects, no visible
   change in resident memory) are not worth a full collection's 0.3 s.
"""

from __future__ import annotations

import gc
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import time
from types import ModuleType

STARTED = time.perf_counter()  # app.py's first import: start-up phases count from here

STUB_MODULE = "gradio.component_meta"
STUB_FUNCTION = "create_or_modify_pyi"


def _no_stubs(*_args, **_kwargs) -> None:
    """Stand-in for gradio's stub writer: the server never reads the stubs."""


class _SkipStubs(importlib.abc.MetaPathFinder):
    """Finds ``gradio.component_meta`` with the normal machinery, then makes its loader
    replace the stub writer right after the module's code ran (before any component
    class is created, which is when gradio calls it). Removes itself on first use."""

    def find_spec(self, name: str, path=None, target=None):
        if name != STUB_MODULE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run_module = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run_module(module)
            if callable(getattr(module, STUB_FUNCTION, None)):
                setattr(module, STUB_FUNCTION, _no_stubs)

        spec.loader.exec_module = exec_module
        return spec


_paused_gc = False


def install() -> bool:
    """Install the changes unless gradio is imported already; True when installed."""
    global _paused_gc
    if "gradio" in sys.modules:
        return False
    if gc.isenabled():
        gc.disable()
        _paused_gc = True
    if "IPython" not in sys.modules and importlib.util.find_spec("IPython") is not None:
        sys.modules["IPython"] = None  # import IPython now raises ImportError
    if not any(isinstance(f, _SkipStubs) for f in sys.meta_path):
        sys.meta_path.insert(0, _SkipStubs())
    return True


def imports_done() -> None:
    """Freeze what exists now out of the cycle collector's way and resume it (only if
    :func:`install` paused it). Also worth calling once the app is built."""
    global _paused_gc
    gc.freeze()
    if _paused_gc:
        gc.enable()
        _paused_gc = False


install()
