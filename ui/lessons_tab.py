"""The "Lessons" tab: six short guided lessons, each a few sentences and a live computation,
from attention without parameters to the whole block. The texts stand alone: they name
no course material a teacher may not have, only the 2017 paper and this app's own model."""

from __future__ import annotations

import logging

import gradio as gr
import numpy as np

from explorer.analysis import lessons as L
from explorer.analysis.positional_views import ENCODINGS, encodings_side_by_side
from explorer.figures.lessons import block_figure, block_stats_figure, scaling_figures
from explorer.figures.matrices import matrix_figure
from explorer.figures.positional import encoding_panel_figure, small_multiples
from ui.controls import Panel, wire_live

log = logging.getLogger("attention_explorer")
TAB = "lessons"
# Plotly only re-measures visible figures when the window is resized; figures of a tab that
# was hidden during a resize keep their old width. Nudge them once the tab is shown.
FAILED = "⚠️ Something went wrong with this lesson. Please try again."

TEXT1 = """Give every token a vector: the rows of a matrix **X**. Self-attention makes each
output row **yᵢ** a weighted average of *all* the rows of X. The weight that row *i* gives
row *j* starts as a dot product, **xᵢ·xⱼ** — large when the two vectors point the same way —
and a softmax along each row turns those scores into positive weights that sum to 1:

**A = softmax(X Xᵀ)**  and  **Y = A X**.

Nothing here is learned: the weights come from the data itself. The table starts as a
small example: five tokens (the words *This is an example sentence*) with three made-up
features each. Change any number, or add a row, and every matrix below follows."""

TEXT2 = """Real attention does not use X three times. It learns three projections:
a **query** q = W_q x (what this token is looking for), a **key** k = W_k x (what it offers
to be found by) and a **value** v = W_v x (what it passes on). Then
**Y = softmax(Q Kᵀ / √d_k) V**.

Why divide by √d_k? If q and k have d_k independent entries with mean 0 and variance 1,
q·k is a sum of d_k such products: its variance is d_k, its spread √d_k. Large scores push
the softmax towards one-hot — one key gets everything and learning stalls. Dividing by √d_k
brings the spread back to 1 whatever d_k is. Slide d_k and compare. (The *Scaling* knob
does this to the trained model.)"""

TEXT3 = """One head is one attention with its own small W_q, W_k, W_v (d_model × d_head
each). There are two ways to run h heads:

* **stacked** — build h single heads and put their outputs side by side (in PyTorch,
  `torch.cat`);
* **wide** — one d_model × d_model projection, cut into h pieces (in PyTorch, `.view` and
  `.transpose`; this is how this app's model does it).

Head *i* of the wide version is exactly rows *i·d_head … (i+1)·d_head* of the wide matrices,
so both hold the same 3·d_model² numbers and, with the same weights, give the same output.
The wide one is faster: one big matrix product instead of h small ones.

**Which scale?** Some multi-head code divides by √d_model, the full width. The 2017 paper
and standard practice divide by √d_head — the length of the vectors that are actually
dotted, which is what keeps the scores' spread at 1 (lesson 2). The two methods above agree
whichever scale you pick."""

TEXT4 = """A mask removes keys **before** the softmax by setting their scores to **−∞**:
e^−∞ = 0, so a masked key gets exactly zero weight and the other weights still sum to 1.

* **Causal mask** — a model that predicts the next word must not peek at it. Query *i* may
  see keys 0…*i* only: the upper triangle (`torch.triu(..., diagonal=1)`) becomes −∞.
* **Padding mask** — sentences in a batch are padded to one length with `<pad>`. Padding
  keys are masked so no token attends to them. (Rows *of* padding tokens are still computed;
  their outputs are simply ignored.)

Some code writes a very negative number (−1e9) instead of −∞, which gives the same zeros
in practice. Below: this app's own model code on a tiny random model, one head."""

TEXT5 = """Attention lets tokens exchange information; then a **feed-forward network** (two
linear layers with a non-linearity, the hidden layer 4× wider) works on each token alone.
Each of the two sub-layers is wrapped in a **residual connection** — x + f(x), so a sub-layer
only adds a correction — and a **LayerNorm**, which rescales each token's vector to mean 0
and standard deviation 1 (then a learned gain and bias).

Where the LayerNorm goes matters:
**post-LN** LN(x + f(x)) is the 2017 paper's order;
**pre-LN** x + f(LN(x)) is GPT-2's and this app's models' — it trains more stably in deep
stacks because the residual path is never normalised. Below, one block's weights in both
orders on a tiny input (4 tokens, 6 features). Make the input bigger with the slider: the
post-LN output always comes back to standard deviation 1, the pre-LN one keeps the scale.
(The 2017 paper's feed-forward network uses ReLU; this app's models use GELU.)"""

TEXT6 = """Attention by itself has no idea of order: shuffle the tokens and every output is
shuffled the same way. Five answers, side by side — top: what the encoding contributes;
bottom: how two positions compare (cosine similarity of position vectors; for rotary, q·k
of one vector placed at two positions; for ALiBi, the bias itself). Sinusoidal and learned
vectors are **added** to the embeddings; rotary **rotates** q and k inside each head; ALiBi
**subtracts** a distance penalty from the scores. See the *Positional encodings* tab for
the selected model and the shuffle test."""


def _learned_table(zoo) -> np.ndarray | None:
    for model in zoo.models.values():
        if model.config.pos_encoding == "learned":
            return model.pos.W_pos.weight.detach().float().cpu().numpy()
    return None


def _rounded(matrix) -> list[list[float]]:
    return [[float(v) for v in row] for row in np.asarray(matrix, dtype=float)]


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    gr.Markdown("Six short lessons, from attention without parameters to a whole "
                "transformer block. Each has a live computation: change its inputs and watch "
                "the numbers move.",
                elem_id="lessons-intro")

    with gr.Accordion("1 · Self-attention without parameters", open=True,
                      elem_id="lesson-1"):
        gr.Markdown(TEXT1)
        x1 = gr.Dataframe(value=_rounded(L.SEED_X), headers=["feature 1", "feature 2",
                                                            "feature 3"],
                          datatype="number", type="array", interactive=True, column_count=3,
                          label="X (one row per token)", elem_id="lesson1-x")
        reset1 = gr.Button("Back to the example X", size="sm")
        note1 = gr.Markdown(elem_id="lesson1-note")
        with gr.Row(equal_height=False):
            scores1 = gr.Plot(show_label=False, elem_id="lesson1-scores", min_width=280)
            weights1 = gr.Plot(show_label=False, elem_id="lesson1-weights", min_width=280)
        y1 = gr.Plot(show_label=False, elem_id="lesson1-y")

    with gr.Accordion("2 · Queries, keys, values — and why we scale", open=False,
                      elem_id="lesson-2"):
        gr.Markdown(TEXT2)
        dk = gr.Slider(1, 1024, value=64, step=1, label="d_k (length of q and k)",
                       elem_id="lesson2-dk")
        with gr.Row(equal_height=False):
            spread2 = gr.Plot(show_label=False, elem_id="lesson2-spread", min_width=300)
            sat2 = gr.Plot(show_label=False, elem_id="lesson2-saturation", min_width=300)
        row2 = gr.Plot(show_label=False, elem_id="lesson2-example")

    with gr.Accordion("3 · Multi-head: one wide projection = heads stacked", open=False,
                      elem_id="lesson-3"):
        gr.Markdown(TEXT3)
        with gr.Row():
            heads3 = gr.Radio([1, 2, 4, 8], value=2, label="heads (d_model = 8)",
                              elem_id="lesson3-heads")
            scale3 = gr.Radio(["1/√d_model (the full width)",
                               "1/√d_head (standard)"],
                              value="1/√d_model (the full width)", label="scaling",
                              elem_id="lesson3-scale")
            causal3 = gr.Checkbox(value=False, label="causal mask", elem_id="lesson3-causal")
        note3 = gr.Markdown(elem_id="lesson3-note")
        out3 = gr.Plot(show_label=False, elem_id="lesson3-outputs")
        pat3 = gr.Plot(show_label=False, elem_id="lesson3-patterns")

    with gr.Accordion("4 · Masks: causal and padding", open=False, elem_id="lesson-4"):
        gr.Markdown(TEXT4)
        with gr.Row():
            causal4 = gr.Checkbox(value=True, label="causal mask", elem_id="lesson4-causal")
            pad4 = gr.Slider(0, 4, value=2, step=1, label="padding tokens",
                             elem_id="lesson4-pad")
        note4 = gr.Markdown(elem_id="lesson4-note")
        with gr.Row(equal_height=False):
            masked4 = gr.Plot(show_label=False, elem_id="lesson4-masked", min_width=280)
            pattern4 = gr.Plot(show_label=False, elem_id="lesson4-pattern", min_width=280)

    with gr.Accordion("5 · The block: residual, LayerNorm, feed-forward; pre-LN vs post-LN",
                      open=False, elem_id="lesson-5"):
        gr.Markdown(TEXT5)
        x5 = gr.Dataframe(value=_rounded(L.BLOCK_X),
                          headers=[f"f{i + 1}" for i in range(L.BLOCK_D)], datatype="number",
                          type="array", interactive=True, column_count=L.BLOCK_D,
                          label="input X (tokens × features)", elem_id="lesson5-x")
        scale5 = gr.Slider(0.1, 20, value=1, step=0.1, label="multiply the input by",
                           elem_id="lesson5-scale")
        note5 = gr.Markdown(elem_id="lesson5-note")
        stats5 = gr.Plot(show_label=False, elem_id="lesson5-stats")
        steps5 = gr.Plot(show_label=False, elem_id="lesson5-steps")

    with gr.Accordion("6 · Positional encodings side by side", open=False,
                      elem_id="lesson-6"):
        gr.Markdown(TEXT6)
        n6 = gr.Slider(8, 128, value=32, step=1, label="positions", elem_id="lesson6-n")
        note6 = gr.Markdown(elem_id="lesson6-note")
        with gr.Row(equal_height=False):
            pe6 = [gr.Plot(show_label=False, elem_id=f"lesson6-{kind}", min_width=160)
                   for kind in ENCODINGS]

    # ------------------------------------------------------------------ computations

    def lesson1(theme, x):
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

    def lesson2(theme, d_k):
        curves = _curves()
        example = L.scaling_example(int(d_k or 64))
        return scaling_figures(curves, example, theme=theme)

    def lesson3(theme, heads, scale, causal):
        scale_name = "d_head" if str(scale).startswith("1/√d_head") else "d_model"
        r = L.multihead_compare(int(heads or 2), scale_name=scale_name, causal=bool(causal))
        lines = [f"**Largest difference between the two methods: {r.max_diff:.1e}** "
                 "(float32 rounding: they are the same computation). Scale used: "
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
            columns=2, title=f"The output of {r.n_heads} heads, two ways — [4 × {r.d_model}]",
            subtitle=f"d_head = {r.d_head}. Same weights, same numbers (tap or hover over a cell).",
            theme=theme, panel_height=150)
        pats = small_multiples(
            [{"z": p, "title": f"head {h}", "rows": tokens, "cols": tokens}
             for h, p in enumerate(r.patterns)],
            columns=min(4, r.n_heads), title="Each head's own attention pattern",
            subtitle="Heads look at the same tokens in different ways.", theme=theme,
            colors="weights", value_name="weight", panel_height=170, cell_text=".2f")
        return "\n".join(lines), outs, pats

    def lesson4(theme, causal, n_pad):
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

    def lesson5(theme, x, scale):
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

    def lesson6(theme, n):
        table = _learned_table(zoo)
        base = zoo.get(zoo.default_name).config
        d_model, n_heads = base.d_model, base.n_heads
        if table is not None:
            d_model = table.shape[1]
        panels = encodings_side_by_side(int(n or 32), d_model, n_heads, table)
        note = ("" if table is not None else "No model with a learned table is trained yet: "
                "the *learned* panel shows an untrained (random) table.")
        return [note, *(encoding_panel_figure(p, theme=theme) for p in panels)]

    _cache: dict = {}

    def _curves():
        if "curves" not in _cache:  # the same for every student: compute once
            _cache["curves"] = L.scaling_curves()
        return _cache["curves"]

    lessons = [
        (lesson1, [x1], [note1, scores1, weights1, y1]),
        (lesson2, [dk], [spread2, sat2, row2]),
        (lesson3, [heads3, scale3, causal3], [note3, out3, pat3]),
        (lesson4, [causal4, pad4], [note4, masked4, pattern4]),
        (lesson5, [x5, scale5], [note5, stats5, steps5]),
        (lesson6, [n6], [note6, *pe6]),
    ]

    def guarded(fn, n_out):
        def run(theme, *args):
            try:
                out = fn("dark" if theme == "dark" else "light", *args)
            except Exception:
                log.exception("lesson %s failed", fn.__name__)
                return [FAILED] + [None] * (n_out - 1)
            return list(out)
        return run

    all_inputs = [panel.theme] + [c for _, ins, _ in lessons for c in ins]
    all_outputs = [o for _, _, outs in lessons for o in outs]

    def render_all(theme, *values):
        out, i = [], 0
        for fn, ins, outs in lessons:
            out += guarded(fn, len(outs))(theme, *values[i:i + len(ins)])
            i += len(ins)
        return out

    # The lessons use their own controls, not the sentence: only the theme re-renders them all.
    wire_live(panel, TAB, dict(fn=render_all, inputs=all_inputs, outputs=all_outputs),
              watch=("theme",))
    for fn, ins, outs in lessons:
        for control in ins:
            control.change(guarded(fn, len(outs)), [panel.theme, *ins], outs,
                           show_progress="hidden", trigger_mode="always_last",
                           api_name=False)
    reset1.click(lambda: _rounded(L.SEED_X), None, x1, api_name=False)
