"""``python -m explorer.site OUT_DIR [--app-url URL]``: write the static edition."""

from __future__ import annotations

import argparse
from pathlib import Path

from explorer.site.build import build


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m explorer.site",
                                     description="Write the static edition into OUT_DIR.")
    parser.add_argument("out", type=Path, help="the folder to write (created or refreshed)")
    parser.add_argument("--app-url", default=None,
                        help="where the full app's repository lives (linked from the page)")
    args = parser.parse_args(argv)
    out = build(args.out, app_url=args.app_url)
    print(f"Static edition written to {out}")


if __name__ == "__main__":
    main()
