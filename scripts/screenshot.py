"""Take screenshots of a running app at laptop, projector (1280x720 at 150 %: the big-screen
layout it gets by itself, and the normal one with ?projector=0) and phone width (for
looking, not testing).

Usage: python scripts/screenshot.py [URL] [OUT_DIR]
"""

import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def main() -> None:
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:7860"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "artifacts")
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        # a projector at 1280x720 with the browser at 150 %: 853x480 CSS pixels, 1.5 per pixel
        for name, width, height, scale, query in (
                ("laptop", 1366, 900, 1, ""), ("projector", 853, 480, 1.5, ""),
                ("projector-normal", 853, 480, 1.5, "?projector=0"),
                ("phone", 390, 844, 3, "")):
            page = browser.new_page(viewport={"width": width, "height": height},
                                    device_scale_factor=scale)
            page.goto(url + query)
            page.wait_for_function("() => window.AttentionExplorer?.grid?.state('#grid canvas')",
                                   timeout=30000)
            page.wait_for_timeout(1500)
            page.screenshot(path=str(out / f"{name}.png"), full_page=True)
            print(out / f"{name}.png")
        browser.close()


if __name__ == "__main__":
    main()
