"""The "Through the layers" view: attention rollout from one output token back to the input.

:func:`layers_view` runs :func:`explorer.analysis.rollout.rollout_for` and returns the
heatmap (one row per layer), the sentence as a strip shaded by the last layer's shares
(:func:`strip_value`), and the position it showed, so the UI can size its slider.
"""

from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from explorer.analysis.rollout import clamp_position, rollout_for
from explorer.analysis.run import plural
from explorer.analysis.stages import pick
from explorer.figures.labels import display_token
from explorer.figures.layers_and_training import rollout_heatmap
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import Zoo
from explorer.views.controls import EMPTY_STATE, Controls

__all__ = ["METHOD_NAMES", "STRIP_MARK", "STRIP_STRONGEST", "LayersView", "layers_view",
           "strip_value"]

# The methods in the page's words: the analysis names the classic one after its authors
# ("Abnar & Zuidema"), a name no student was told (#30).
METHOD_NAMES = {"rollout": "classic rollout (attention and residual half-and-half)",
                "residual": "residual-aware rollout (weighed by what each really writes)"}

STRIP_MARK = " ◀"
# The strongest token's shade: Gradio draws a score of 1 in full red, rgb(239, 68, 60), on
# which neither its light-mode text (4.4:1) nor its dark-mode text (4.0:1) reaches 4.5:1;
# at 0.8 dark mode reached only 4.57:1 (measured in Chromium, #30), at 0.7 both are above
# 5.2:1 (tests/ui/test_contrast.py).
STRIP_STRONGEST = 0.7


def strip_value(tokens: list[str], shares, position: int) -> list[tuple[str, float | None]]:
    """HighlightedText value: each token's text (invisible characters made visible,
    spaces kept) with its share relative to the largest (which gets ``STRIP_STRONGEST``),
    then a marker after the output token. Rendered by Gradio as text, never as HTML."""
    peak = max(float(max(shares, default=0.0)), 1e-12) / STRIP_STRONGEST
    value: list[tuple[str, float | None]] = []
    for i, (piece, share) in enumerate(zip(tokens, shares, strict=True)):
        value.append((display_token(piece, visible_spaces=False) or "∅",
                      round(float(share) / peak, 3)))
        if i == position:
            value.append((STRIP_MARK, None))
    return value


@dataclass(frozen=True)
class LayersView:
    status: str
    heatmap: go.Figure | None = None
    strip: list[tuple[str, float | None]] | None = None
    position: int | None = None  # the output token shown; None: nothing new to size for
    n_tokens: int | None = None


def layers_view(zoo: Zoo, tok: Tokenizer, text: str, c: Controls, method: str, position,
                follow_last: bool) -> LayersView:
    """``follow_last``: show the last token whatever ``position`` says (the slider sat on
    the end of the sentence)."""
    if method not in METHOD_NAMES:
        return LayersView("⚠️ That method is not offered.")
    picked = pick(zoo, c)
    if picked.model is None:
        return LayersView("⚠️ " + picked.missing)
    if not (text or "").strip():
        return LayersView(EMPTY_STATE, position=0, n_tokens=0)
    r = rollout_for(picked.model, tok, text, c.settings())
    n = len(r.tokens)
    if n == 0:
        return LayersView(EMPTY_STATE, position=0, n_tokens=0)
    at = n - 1 if follow_last else clamp_position(position, n)
    shares = r.for_output(method, at)  # [layer, T]
    shown = display_token(r.tokens[at])
    shown = shown if len(shown) <= 14 else shown[:13] + "…"
    fig = rollout_heatmap(shares, r.tokens, position=at, theme=c.theme,
                          title=f"Output token {at} ({shown}) ← input tokens")
    lines = [f"Model **{picked.name}** · {plural(n, 'token')} · output token at position "
             f"**{at}** · {METHOD_NAMES[method]}"]
    if method == "residual":
        per_layer = ", ".join(f"L{la} {a:.2f}" for la, a in enumerate(r.alpha.mean(1)))
        lines.append(f"Share given to attention (mean over tokens; classic rollout uses "
                     f"0.50): {per_layer}.")
    if r.resolved.interventions:
        lines.append("🧪 **Experiment on the trained model:** "
                     + "; ".join(r.resolved.interventions) + ".")
    lines += [f"⚠️ {note}" for note in r.notices]
    return LayersView("\n\n".join(lines), fig, strip_value(r.tokens, shares[-1], at), at, n)
