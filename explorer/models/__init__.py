"""The models and everything needed to run one: the bottom layer.

Here: the architecture's config (:mod:`.config`) and the per-call attention experiments
(:mod:`.settings`), positional encodings, the transformer, per-call capture of named
hook points, the encoder classifier and the encoder-decoder, the tokenizer, safetensors
checkpoints and the zoo of trained models the app switches between.

May import: torch, numpy, safetensors, tokenizers, and nothing else of ``explorer``.
Shape convention (written once, here): attention patterns are ``[batch, head, query_pos,
key_pos]``.
"""
