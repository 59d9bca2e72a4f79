"""explorer/ui/fast_import.py: app.py imports gradio without its stub writer, with IPython marked
absent and the cycle collector paused until the imports are done; gradio still works.
Each check runs in a fresh interpreter: in this one gradio is imported already."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys
from explorer import app
import gradio as gr
import gradio.component_meta as meta
import explorer.ui.fast_import as fast
with gr.Blocks() as demo:  # components still build after the change
    box = gr.Textbox("hello")
try:
    import IPython  # noqa: F401
    ipython = "importable"
except ImportError:
    ipython = "absent"
print(json.dumps({"stubs_skipped": meta.create_or_modify_pyi is fast._no_stubs,
                  "gc_enabled": gc.isenabled(), "frozen": gc.get_freeze_count(),
                  "ipython": ipython, "value": box.value,
                  "finder_left": any(isinstance(f, fast._SkipStubs) for f in sys.meta_path)}))
"""


def run_probe(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_app_imports_gradio_the_quick_way():
    got = run_probe(PROBE)
    assert got["stubs_skipped"] and not got["finder_left"]
    assert got["gc_enabled"] and got["frozen"] > 10_000  # resumed, start-up objects frozen
    assert got["ipython"] == "absent"
    assert got["value"] == "hello"


def test_imported_after_gradio_it_changes_nothing():
    got = run_probe("""
import gc, json, gradio, gradio.component_meta as meta
before = meta.create_or_modify_pyi
import explorer.ui.fast_import as fast
print(json.dumps({"installed": fast.install(), "same": meta.create_or_modify_pyi is before,
                  "gc_enabled": gc.isenabled()}))
""")
    assert got == {"installed": False, "same": True, "gc_enabled": True}
