"""Attention Explorer: a small transformer built to be looked inside.

The package holds the model, its positional encodings, the per-request capture
of intermediate tensors, the tokenizer and training code, and the pure figure
builders, and the page (``explorer/ui/``, the one part that imports gradio: it only wires
components to these functions; ``app.py`` at the repository root runs it).
"""
