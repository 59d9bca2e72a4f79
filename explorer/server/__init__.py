"""The server's plumbing, under the page: who may ask, in what order, with what session.

- :mod:`.classroom`: ``ClassroomBlocks``, a ``gr.Blocks`` whose launch puts the middlewares
  below in front of Gradio and keeps sessions lean;
- :mod:`.client_guard`: admission (rate limits per page and address, bounded bodies) and
  the keystroke's direct answer;
- :mod:`.keystroke_queue`: the class's keystroke grids in one fair line, batched;
- :mod:`.sessions`: Gradio's session state, lean and expiring;
- :mod:`.lab_session`: a session's Lab model, registered and dropped with the session;
- :mod:`.engine_route`: the browser engine's files (``/ae-engine/``);
- :mod:`.class_route`: class mode's routes (``/ae-class/``).

May import ``explorer.views`` and ``explorer.paths``, and Gradio/Starlette where it patches
or wraps the server; never the page (``explorer.ui``), which imports from here (import-linter
contracts in pyproject.toml).
"""
