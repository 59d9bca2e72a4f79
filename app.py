"""Attention Explorer: ``python app.py`` serves the page (a Gradio Space runs this file too).

The app itself is the package's: :mod:`explorer.app` composes the page, and
``attention-explorer`` (:mod:`explorer.command`) is the same command once installed.
"""

from explorer.command import main_cli

if __name__ == "__main__":
    main_cli()
