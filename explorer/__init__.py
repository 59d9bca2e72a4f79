"""Attention Explorer: a small transformer built to be looked inside.

The package holds the model, its positional encodings, the per-request capture
of intermediate tensors, the tokenizer and training code, and the pure figure
builders. Nothing in here imports gradio: the UI lives in ``app.py`` and
``explorer/ui/`` only wires components to these functions.
"""
