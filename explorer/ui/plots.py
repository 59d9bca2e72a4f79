"""Figures side by side: one row of Plotly plots that wraps on a narrow screen.

Each plot keeps at least its ``min_width`` (px), so on a phone the row breaks into one plot
a line instead of squeezing them; ``scale`` shares the width out on a wide screen (3 and 2:
the first gets three fifths). Heights stay each figure's own (``equal_height=False``: an
equalised row stretched a short figure to its neighbour's height). No labels: each figure
carries its own title.
"""

from __future__ import annotations

from collections.abc import Sequence

import gradio as gr


def plot_row(*elem_ids: str, min_width: int | Sequence[int] = 280,
             scale: Sequence[int] | None = None) -> list[gr.Plot]:
    """One ``gr.Plot`` per id, in a row (inside the caller's Blocks context); ``min_width``
    one for all or one per plot."""
    widths = [min_width] * len(elem_ids) if isinstance(min_width, int) else list(min_width)
    scales = list(scale) if scale is not None else [None] * len(elem_ids)
    if not len(widths) == len(scales) == len(elem_ids):
        raise ValueError("one min_width and one scale per plot")
    with gr.Row(equal_height=False):
        return [gr.Plot(show_label=False, elem_id=elem_id, min_width=width, scale=share)
                for elem_id, width, share in zip(elem_ids, widths, scales, strict=True)]
