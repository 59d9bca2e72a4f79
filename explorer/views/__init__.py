"""What each view of the page shows for one request: control values in, figures and text out.

One module per view, the UI-free function its ``explorer/ui/<view>_tab.py`` calls: Explore
(:mod:`.explore`, :mod:`.grid_payload`), Start here (:mod:`.start_here`), Inside one head
(:mod:`.inside`), Shapes (:mod:`.shapes`), Positional encodings (:mod:`.positional`),
Lessons (:mod:`.lessons`), Compare, Ablate, Through the layers (:mod:`.layers`), Through
training (:mod:`.through_training`), Classify, the encoder-decoder (:mod:`.seq2seq`,
:mod:`.seq2seq_padding`) and Take it home (:mod:`.take_home`, with :mod:`.export` and
:mod:`.share`). The knobs' values are read and checked in :mod:`.controls`, which also
hands the page the few constants it needs from below (the box's limit, the tokens' help).

May import: every other package of ``explorer``. Never gradio: ``explorer/ui/`` wires these to
the page, and ``explorer/ui/`` reaches the rest of ``explorer`` only through this package.
"""
