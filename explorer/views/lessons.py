"""The "Lessons" view: six short lessons, each a live computation on the lesson's own inputs.

One function per lesson, ``lessonN(theme, *inputs) -> (note, figure, ...)``, in the order
of the lesson's outputs on the page. The numbers come from :mod:`explorer.analysis.lessons`
(attention without parameters, scaling, multi-head two ways, masks, the block, positional
encodings); the figures from :mod:`explorer.figures.lessons`, :mod:`.matrices` and
:mod:`.positional`. The lessons read no sentence: only their own controls and the theme.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from explorer.analysis import lessons as L
from explorer.analysis.positional_views import ENCODINGS, encodings_side_by_side
from explorer.figures.lessons import block_figure, block_stats_figure, scaling_figures
from explorer.figures.matrices import matrix_figure
from explorer.figures.numbers import plain_number
from explorer.figures.positional import encoding_panel_figure, small_multiples
from explorer.models.zoo import Zoo
from explorer.views.controls import plural

# The lessons' starting tables and the encodings lesson 6 draws, for the page's controls.
SEED_X, BLOCK_X, BLOCK_D = L.SEED_X, L.BLOCK_X, L.BLOCK_D
__all__ = ["BLOCK_D", "BLOCK_X", "ENCODINGS", "SEED_X", "lesson1", "lesson2", "lesson3",
           "lesson4", "lesson5", "lesson6", "rounded"]


def rounded(matrix) -> list[list[float]]:
    """A matrix as plain lists of floats: a table's value."""
    return [[float(v) for v in row] for row in np.asarray(matrix, dtype=float)]


def _learned_table(zoo: Zoo) -> np.ndarray | None:
    for model in zoo.models.values():
        if model.config.pos_encoding == "learned":
            return model.pos.W_pos.weight.detach().float().cpu().numpy()
    return None


@lru_cache(maxsize=1)
def _curves():
    return L.scaling_curves()


def lesson1(theme: str, x):
    """Lesson 1: A = softmax(X Xᵀ), Y = A X on the table X."""
    X, notes = L.parse_matrix(x)
    r = L.self_attention(X)
    n = X.shape[0]
    names = ([f"x{i + 1} {w}" for i, w in enumerate(L.SEED_WORDS)]
             if n == len(L.SEED_WORDS) else [f"x{i + 1}" for i in range(n)])
    cols = [f"f{j + 1}" for j in range(X.shape[1])]
    if X.shape == np.shape(L.SEED_X) and np.allclose(X, L.SEED_X):
        notes.append("✔ This is the starting example X (4 decimals shown).")
    # Not forced square: four decimals need wide cells on a phone.
    height = 150 + 34 * n
    short = [f"x{i + 1}" for i in range(n)]
    scores = matrix_figure(r.scores, title="Scores A* = X Xᵀ", subtitle=f"[{n} × {n}]",
                             theme=theme, row_names=names, col_names=short,
                             row_title="query", col_title="key", cell_text=".4f",
                             value_name="score", height=height)
    weights = matrix_figure(r.A, title="Weights A = softmax(A*)",
                              subtitle="softmax along each row: every row sums to 1",
                              theme=theme, row_names=names, col_names=short,
                              row_title="query", col_title="key", colors="weights",
                              cell_text=".4f", value_name="weight", height=height)
    notes.append("Row sums of A: " + ", ".join(f"{v:.4f}" for v in r.A.sum(1)) + ".")
    y = matrix_figure(r.Y, title="Outputs Y = A X", subtitle=f"[{n} × {X.shape[1]}]: "
                        "the same shape as X, each row a blend of all rows of X",
                        theme=theme, row_names=[f"y{i + 1}" for i in range(n)],
                        col_names=cols, row_title="token", col_title="feature",
                        cell_text=".4f", value_name="value")
    return "\n\n".join(notes), scores, weights, y


def lesson2(theme: str, d_k):
    """Lesson 2: why scores are divided by √d_k."""
    curves = _curves()  # the same for every student: computed once
    example = L.scaling_example(int(d_k or 64))
    return scaling_figures(curves, example, theme=theme)


def lesson3(theme: str, heads, scale, causal):
    """Lesson 3: one wide projection equals heads stacked."""
    scale_name = "d_head" if str(scale).startswith("1/√d_head") else "d_model"
    r = L.multihead_compare(int(heads or 2), scale_name=scale_name, causal=bool(causal))
    lines = [f"**Largest difference between the two methods: {plain_number(r.max_diff)}** "
             "(rounding in the computer's arithmetic: they are the same computation). "
             "Scale used: "
             f"1/√{r.d_model if scale_name == 'd_model' else r.d_head} = {r.scale:.4f}.",
             "", "| wide (split after projecting) | shape | stacked (separate heads) | "
             "shape |", "|---|---|---|---|"]
    n = max(len(r.wide_shapes), len(r.stacked_shapes))
    for i in range(n):
        w = r.wide_shapes[i] if i < len(r.wide_shapes) else ("", ())
        s = r.stacked_shapes[i] if i < len(r.stacked_shapes) else ("", ())

        def cell(pair):
            return (f"`{pair[0]}`" if pair[0] else "",
                    " × ".join(map(str, pair[1])) if pair[1] else "")
        lines.append("| {} | {} | {} | {} |".format(*cell(w), *cell(s)))
    tokens = [f"t{i}" for i in range(r.X.shape[0])]
    outs = small_multiples(
        [{"z": r.wide, "title": "wide: .view / .transpose / .reshape", "rows": tokens},
         {"z": r.stacked, "title": "stacked: torch.cat of single heads", "rows": tokens}],
        columns=2, title=f"The output of {plural(r.n_heads, 'head')}, two ways — [4 × {r.d_model}]",
        subtitle=f"d_head = {r.d_head}. Same weights, same numbers (tap or hover over a cell).",
        theme=theme, panel_height=150)
    pats = small_multiples(
        [{"z": p, "title": f"head {h}", "rows": tokens, "cols": tokens}
         for h, p in enumerate(r.patterns)],
        columns=min(4, r.n_heads), title="Each head's own attention pattern",
        subtitle="Heads look at the same tokens in different ways.", theme=theme,
        colors="weights", value_name="weight", panel_height=170, cell_text=".2f")
    return "\n".join(lines), outs, pats


def lesson4(theme: str, causal, n_pad):
    """Lesson 4: causal and padding masks."""
    r = L.mask_example(bool(causal), int(n_pad or 0))
    pad_weight = float(r.pattern[:, r.pad_blocked[0]].max(initial=0.0))
    above = float(r.pattern[r.causal_blocked].max(initial=0.0))
    lines = []
    if r.n_pad:
        lines.append(f"Weight on padding keys: **{pad_weight:g}** (exactly zero).")
    if r.causal:
        lines.append(f"Largest weight above the diagonal: **{above:g}** (exactly zero).")
    lines.append("Row sums: " + ", ".join(f"{s:.4f}" for s in r.pattern.sum(1)) + ".")
    masked = matrix_figure(r.masked, title="Scores after the mask",
                             subtitle="grey −∞ cells: masked before the softmax",
                             theme=theme, row_tokens=r.tokens, col_tokens=r.tokens,
                             row_title="query", col_title="key", cell_text=".2f",
                             square=True, value_name="score")
    pattern = matrix_figure(r.pattern, title="Weights after the softmax",
                              subtitle="masked keys get exactly 0", theme=theme,
                              row_tokens=r.tokens, col_tokens=r.tokens,
                              row_title="query", col_title="key", colors="weights",
                              cell_text=".2f", row_sums=True, square=True,
                              value_name="weight")
    return " ".join(lines), masked, pattern


def lesson5(theme: str, x, scale):
    """Lesson 5: one block, pre-LN against post-LN."""
    X, notes = L.parse_matrix(x, default=L.BLOCK_X)
    if X.shape[1] != L.BLOCK_D:  # the block is 6 wide: pad or cut the columns
        fixed = np.zeros((X.shape[0], L.BLOCK_D))
        fixed[:, : min(L.BLOCK_D, X.shape[1])] = X[:, : L.BLOCK_D]
        X = fixed
        notes.append(f"The block is {L.BLOCK_D} features wide: missing columns are 0.")
    factor = float(np.clip(float(scale or 1), 0.1, 20))
    r = L.block_orders(X * factor)
    pre_std, post_std = L.output_std(r)
    notes.append(f"Output std per token (mean): pre-LN **{pre_std:.2f}**, post-LN "
                 f"**{post_std:.2f}**. Both step-by-step computations equal this app's "
                 "own transformer block: "
                 f"{'✔' if r.pre_matches_model and r.post_matches_model else '✘'}")
    sweep = L.block_sweep(X)
    return ("\n\n".join(notes),
            block_stats_figure(sweep, factor, (pre_std, post_std), theme=theme),
            block_figure(r, theme=theme))


def lesson6(theme: str, n, zoo: Zoo):
    """Lesson 6: the five encodings side by side (the learned table from a trained model)."""
    table = _learned_table(zoo)
    base = zoo.get(zoo.default_name).config
    d_model, n_heads = base.d_model, base.n_heads
    if table is not None:
        d_model = table.shape[1]
    panels = encodings_side_by_side(int(n or 32), d_model, n_heads, table)
    note = ("" if table is not None else "No model with a learned table is trained yet: "
            "the *learned* panel shows an untrained (random) table.")
    return [note, *(encoding_panel_figure(p, theme=theme) for p in panels)]
