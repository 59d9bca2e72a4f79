"""The Gradio layer: declares components and wires events, nothing else.

Each module builds one part of the page inside the caller's ``gr.Blocks``
context. Computation lives in ``explorer/``; handlers here only translate
component values into calls and results into component values.
"""
