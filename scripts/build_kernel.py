"""Compile static/engine/kernel.wat and put its bytes into static/engine/model.js.

    python scripts/build_kernel.py

The browser engine's matrix product is WebAssembly (128-bit SIMD). Its source is the text
format in kernel.wat; the page gets the compiled bytes as one base64 line in model.js
(``const KERNEL = "...";``), so the engine stays the same scripts in the same order and asks
for no other file. Compiling needs Node.js: ``npx`` fetches wabt's wat2wasm from the npm
registry once (a developer's step; the app and the static edition never run it).
"""

from __future__ import annotations

import base64
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "static" / "engine"
LINE = re.compile(r'^  const KERNEL = "[A-Za-z0-9+/=]*";$', re.M)


def compile_wat(source: Path) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "kernel.wasm"
        subprocess.run(["npx", "--yes", "-p", "wabt@1.0.36", "wat2wasm", str(source),
                        "-o", str(out)], check=True)
        return out.read_bytes()


def main() -> int:
    wasm = compile_wat(ENGINE / "kernel.wat")
    model = ENGINE / "model.js"
    text = model.read_text(encoding="utf-8")
    if len(LINE.findall(text)) != 1:
        print("model.js has no single 'const KERNEL = \"...\";' line", file=sys.stderr)
        return 1
    line = f'  const KERNEL = "{base64.b64encode(wasm).decode()}";'
    model.write_text(LINE.sub(lambda _: line, text), encoding="utf-8")
    print(f"{len(wasm)} bytes of WebAssembly written into {model}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
