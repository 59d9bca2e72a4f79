"""The Gradio layer: declares components and wires events, nothing else.

One module per view, named after the UI-free module it calls: ``<view>_tab.py`` builds
the tab whose content ``explorer/views/<view>.py`` computes (``explore_tab`` ↔
``views.explore``, ``take_home_tab`` ↔ ``views.take_home``, ``start_here_tab`` ↔
``views.start_here``, ...). Beside them: the shared sentence box, knobs and live loop
(:mod:`.controls`), the page frame and its one script (:mod:`.page`), the one form of the JavaScript
strings Gradio takes (:mod:`.bridge`: calls into ``static/``) and a faster gradio import
(:mod:`.fast_import`). The server's plumbing under the page (sessions, admission, the
keystroke line, the routes) is :mod:`explorer.server`.

May import: ``explorer.views`` and ``explorer.server`` only (import-linter contracts):
handlers here translate component values into a call of a view and its result into component
values. No tensor math, no figure building.
"""
