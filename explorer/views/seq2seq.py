"""What the encoder-decoder tab shows for one request (no gradio here).

From the student's list of words: greedy decoding one token per step, each step a real
forward pass captured with :func:`explorer.models.capture.run_with_cache`, so what a step shows
is what the model saw when it chose that word (whatever the knobs). Then:

* three families of heatmaps from the last step: encoder self-attention, decoder masked
  self-attention, decoder->encoder cross-attention;
* for the chosen step, the cross-attention row of the position that chose the word:
  the source words weighted (averaged over every cross-attention head) and each head;
* a padded batch of two unequal inputs (:mod:`explorer.views.seq2seq_padding`).

:func:`step_view` redraws only the step part from a kept :class:`Decoded`, so moving the
step slider runs no model.

Source words are checked against the task's vocabulary (:func:`seq2seq_data.parse_source`)
before anything runs, so the only text shown back is one of the task's own words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import torch

from explorer.figures.attention import attention_grid
from explorer.figures.matrices import matrix_figure
from explorer.figures.seq2seq import batch_figure, cross_grid
from explorer.models.capture import run_with_cache
from explorer.models.checkpoint import CheckpointError, load_model
from explorer.models.encoder_decoder import BOS_ID, EOS_ID
from explorer.models.settings import AttentionSettings
from explorer.models.zoo import CHECKPOINT_DIR, read_manifest
from explorer.training import seq2seq_task as data
from explorer.views.controls import plural
from explorer.views.seq2seq_padding import START, padded_batch, padding_figures, padding_note

# The task's limits and words, for the page's input boxes and word list.
MAX_CHARS, MAX_WORDS, MIN_WORDS, WORDS = data.MAX_CHARS, data.MAX_WORDS, data.MIN_WORDS, data.WORDS
CHECKPOINT = "seq2seq-h4-reverse"
END = "⟨end⟩"  # how the end token is shown (START, PAD: seq2seq_padding)
PATTERNS = ["enc_blocks.*.attn.hook_pattern", "dec_blocks.*.self_attn.hook_pattern",
            "dec_blocks.*.cross_attn.hook_pattern"]
EXAMPLES = ["cat sun box", "dog moon tree cake ball", "owl rain cup bus book key sock egg",
            "fish fish bird", "apple, milk, bread, egg"]
OTHER_DEFAULT = "lion star boat hat door cookie"


@dataclass
class Loaded:
    """The checkpoint, read once at start-up (read-only shared), or why it is missing."""

    model: torch.nn.Module | None
    card: dict
    ids: dict[str, int]  # task word -> token id
    message: str = ""


def load_seq2seq(tok, directory: Path = CHECKPOINT_DIR, name: str = CHECKPOINT,
                 device: str = "cpu") -> Loaded:
    """Load ``name`` checked against ``manifest.json`` onto ``device`` (the zoo's:
    ``zoo.device``); a clear message when it cannot."""
    ids = data.word_ids(tok)
    path = directory / f"{name}.safetensors"
    expected = read_manifest(directory).get(path.name)
    try:
        if not path.is_file():
            raise CheckpointError(f"{path.name}: not trained yet")
        if expected is None:
            raise CheckpointError(f"{path.name}: not listed in manifest.json")
        model = load_model(path, device=device, expected_sha256=expected)
        if model.config.task != "seq2seq" or model.config.vocab_size != tok.vocab_size:
            raise CheckpointError(f"{path.name}: not an encoder-decoder for this tokenizer")
    except CheckpointError as exc:
        return Loaded(None, {}, ids, f"The encoder-decoder checkpoint is not available "
                      f"({exc}). Train it with `python -m explorer.training.train --task seq2seq "
                      f"--name {name}`.")
    card_path = directory / f"{name}.json"
    card = json.loads(card_path.read_text()) if card_path.exists() else {}
    return Loaded(model, card, ids)


@dataclass
class Decoded:
    """Greedy decoding of one source, every step captured."""

    source: list[str]
    output: list[str]  # the words written, then END if the model ended the list
    cross_rows: np.ndarray  # [step, layer, head, src]: what the choosing position read
    enc: np.ndarray  # [layer, head, src, src]   from the last step's pass
    dec_self: np.ndarray  # [layer, head, tgt, tgt]
    cross: np.ndarray  # [layer, head, tgt, src]
    interventions: tuple[str, ...] = ()

    @property
    def dec_tokens(self) -> list[str]:
        """The decoder's input positions of the last pass: start, then the words written."""
        return [START, *self.output[:-1]]

    @property
    def correct(self) -> bool:
        return self.output == [*data.target_of(self.source), END]


def decode_steps(model, ids: dict[str, int], words: list[str],
                 settings: AttentionSettings) -> Decoded:
    """Greedy decoding one step at a time; step t runs the model on BOS + the t - 1 words
    written so far and keeps its captured patterns."""
    names = {i: w for w, i in ids.items()}
    src = torch.tensor([[ids[w] for w in words]])
    tgt = [BOS_ID]
    rows, out, cache = [], [], None
    for _ in range(model.config.n_ctx):
        logits, cache = run_with_cache(model, src, settings, names=PATTERNS,
                                       tgt=torch.tensor([tgt]))
        nxt = int(logits[0, -1].argmax())
        rows.append(cache.stack("cross_attn.hook_pattern", "dec_blocks.")[:, 0, :, -1])
        out.append(END if nxt == EOS_ID else names.get(nxt, "⟨other token⟩"))
        if nxt == EOS_ID or len(tgt) == model.config.n_ctx:
            break
        tgt.append(nxt)
    return Decoded(
        words, out, torch.stack(rows).numpy(),
        cache.stack("attn.hook_pattern", "enc_blocks.")[:, 0].numpy(),
        cache.stack("self_attn.hook_pattern", "dec_blocks.")[:, 0].numpy(),
        cache.stack("cross_attn.hook_pattern", "dec_blocks.")[:, 0].numpy(),
        cache.interventions)


@dataclass
class StepView:
    """The output so far and what the chosen step read."""

    output_spans: list  # (text, label) per output token: "written", "this step", or None
    source_spans: list  # (word, weight) per source word, mean over cross-attention heads
    fig: go.Figure | None  # every cross-attention head's row for this step
    step: int  # 1-based, clamped


def step_view(d: Decoded | None, step: int, theme: str = "light") -> StepView:
    if d is None:
        return StepView([], [], None, 1)
    step = min(max(int(step), 1), len(d.output))
    spans = []
    for i, word in enumerate(d.output, start=1):
        label = "this step" if i == step else ("written" if i < step else None)
        spans += [(word if i <= step else "…", label), (" ", None)]
    row = d.cross_rows[step - 1]  # [layer, head, src]
    source = []
    for word, weight in zip(d.source, row.mean(axis=(0, 1)), strict=True):
        source += [(word, round(float(weight), 3)), (" ", None)]
    n_layers, n_heads = row.shape[:2]
    fig = matrix_figure(
        row.reshape(n_layers * n_heads, -1), colors="weights", cell_text=".2f",
        title=f"Step {step}: where each cross-attention head looked",
        subtitle=f"Choosing word {step} ({d.output[step - 1]}), the decoder read these source "
                 "words; one row per head (layer L, head H); each row sums to 1.",
        row_names=[f"L{la} H{h}" for la in range(n_layers) for h in range(n_heads)],
        col_tokens=d.source, row_title="head", col_title="source word", value_name="weight",
        theme=theme)
    return StepView(spans, source, fig, step)


@dataclass
class Seq2SeqView:
    status: str  # Markdown, our own text only
    decoded: Decoded | None = None  # kept per user, for step_view
    step: StepView | None = None
    enc_fig: go.Figure | None = None
    dec_fig: go.Figure | None = None
    cross_fig: go.Figure | None = None
    pad_note: str = ""
    batch_fig: go.Figure | None = None
    pad_enc_fig: go.Figure | None = None
    pad_cross_fig: go.Figure | None = None

    @property
    def n_steps(self) -> int:
        return len(self.decoded.output) if self.decoded else 1


def _status(loaded: Loaded, d: Decoded) -> str:
    acc = loaded.card.get("held_out_exact_match")
    lines = [f"Model **{CHECKPOINT}**"
             + (f" (held-out exact match {acc:.1%})" if acc is not None else "")
             + f" · {len(d.source)} source words · {len(d.output)} decoding steps · "
             + ("✅ the output is the list reversed" if d.correct
                else "❌ the output is not the list reversed")]
    if d.interventions:
        lines.append("🧪 **Experiment on the trained model:** " + "; ".join(d.interventions)
                     + ". The model was not trained this way.")
    return "\n\n".join(lines)


def seq2seq_view(loaded: Loaded, source_text: str, other_text: str, step: int,
                 settings: AttentionSettings, theme: str = "light", layer: int = 0,
                 head: int = 0) -> Seq2SeqView:
    """The whole tab for one request; never raises for bad input (a message instead)."""
    if loaded.model is None:
        return Seq2SeqView("⚠️ " + loaded.message)
    try:
        words = data.parse_source(source_text)
    except data.BadSource as exc:
        return Seq2SeqView(f"✏️ {exc}")
    model = loaded.model
    d = decode_steps(model, loaded.ids, words, settings)
    view = Seq2SeqView(
        _status(loaded, d), d, step_view(d, step, theme),
        attention_grid(d.enc, d.source, theme=theme),
        attention_grid(d.dec_self, d.dec_tokens, theme=theme),
        cross_grid(d.cross, d.dec_tokens, d.source, theme=theme, q_name="output position"))
    try:
        other = data.parse_source(other_text)
    except data.BadSource as exc:
        view.pad_note = f"✏️ Second list: {exc}"
        return view
    if len(other) == len(words):
        view.pad_note = ("✏️ Give the second list a different number of words, so one of "
                         "the two has to be padded.")
        return view
    longer_first = len(other) > len(words)
    p = padded_batch(model, loaded.ids, [other, words] if longer_first else [words, other],
                     settings)
    names = (["A: second list", "B: your list"] if longer_first
             else ["A: your list", "B: second list"])
    cfg = model.config
    # one layer index for both stacks: clamp to the shorter of encoder and decoder
    layer_c = min(max(layer, 0), min(cfg.n_layers, cfg.n_dec_layers) - 1)
    head_c = min(max(head, 0), cfg.n_heads - 1)
    view.batch_fig = batch_figure(p.rows, p.padding, row_names=names, theme=theme)
    view.pad_enc_fig, view.pad_cross_fig = padding_figures(p, layer_c, head_c, theme)
    view.pad_note = padding_note(p)
    if (layer_c, head_c) != (layer, head):
        view.pad_note += (f" (This model has {cfg.n_layers} + {cfg.n_dec_layers} layers of "
                          f"{plural(cfg.n_heads, 'head')}: showing layer {layer_c}, "
                          f"head {head_c}.)")
    return view
