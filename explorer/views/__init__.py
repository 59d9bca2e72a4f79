"""What each view of the page shows for one request: control values in, figures and text out.

One module per view, the UI-free function its ``ui/`` tab calls: the knobs' values
(:mod:`.controls`), Explore (:mod:`.explore`, :mod:`.grid_payload`), Compare, Ablate,
Classify, the encoder-decoder, Take it home (:mod:`.export`, :mod:`.share`) and Start
here (:mod:`.guided`).

May import: every other package of ``explorer``. Never gradio: ``ui/`` wires these to
the page.
"""
