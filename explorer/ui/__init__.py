"""The Gradio layer: declares components and wires events, nothing else.

One module per view, named after the UI-free module it calls: ``<view>_tab.py`` builds
the tab whose content ``explorer/views/<view>.py`` computes (``explore_tab`` ↔
``views.explore``, ``take_home_tab`` ↔ ``views.take_home``, ``guided_tab`` ↔
``views.guided``, ...). Beside them: the shared sentence box, knobs and live loop
(:mod:`.controls`), the page frame (:mod:`.page`), sessions (:mod:`.sessions`,
:mod:`.client_guard`, :mod:`.classroom`) and a faster gradio import (:mod:`.fast_import`).

May import: ``explorer.views`` only (an import-linter contract): handlers here translate
component values into a call of a view and its result into component values. No tensor
math, no figure building.
"""
