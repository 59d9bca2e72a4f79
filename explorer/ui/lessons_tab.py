"""The "Lessons" tab: six short guided lessons, each a few sentences and a live computation,
from attention without parameters to the whole block. The texts stand alone: they name
no course material a teacher may not have, only the 2017 paper and this app's own model."""

from __future__ import annotations

import contextlib

import gradio as gr

from explorer.ui.controls import Panel, wire_live
from explorer.ui.errors import guarded
from explorer.ui.plots import plot_row
from explorer.views.lessons import (
    BLOCK_D,
    BLOCK_X,
    ENCODINGS,
    SEED_X,
    lesson1,
    lesson2,
    lesson3,
    lesson4,
    lesson5,
    lesson6,
    rounded,
)

TAB = "lessons"

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


@contextlib.contextmanager
def lesson(n: int, title: str, text: str):
    """Lesson ``n``'s fold (``#lesson-n``; only the first starts open) with its text; the
    caller declares its controls and figures inside."""
    with gr.Accordion(f"{n} · {title}", open=n == 1, elem_id=f"lesson-{n}"):
        gr.Markdown(text)
        yield


def build(demo: gr.Blocks, tab: gr.Tab, tok, zoo, panel: Panel) -> None:
    gr.Markdown("Six short lessons, from attention without parameters to a whole "
                "transformer block. Each has a live computation: change its inputs and watch "
                "the numbers move.",
                elem_id="lessons-intro")
    first, reset1, x1 = _lesson1()
    # each: (its computation, its inputs, its outputs)
    lessons = [first, _lesson2(), _lesson3(), _lesson4(), _lesson5(), _lesson6(zoo)]
    all_inputs = [panel.theme] + [c for _, ins, _ in lessons for c in ins]
    all_outputs = [o for _, _, outs in lessons for o in outs]

    def render_all(theme, *values):
        out, i = [], 0
        for fn, ins, outs in lessons:
            out += _live(fn, outs)(theme, *values[i:i + len(ins)])
            i += len(ins)
        return out

    # The lessons use their own controls, not the sentence: only the theme re-renders them all.
    wire_live(panel, TAB, dict(fn=render_all, inputs=all_inputs, outputs=all_outputs),
              watch=("theme",))
    for fn, ins, outs in lessons:
        for control in ins:
            control.change(_live(fn, outs), [panel.theme, *ins], outs,
                           show_progress="hidden", trigger_mode="always_last",
                           api_name=False)
    reset1.click(lambda: rounded(SEED_X), None, x1, api_name=False)


def _live(fn, outs):
    """``fn`` on the page's theme; a failure says so in the lesson's note (lesson 2 has
    none: its figures go blank) and the server log keeps the trace."""
    def failed(message):
        note = message if isinstance(outs[0], gr.Markdown) else None
        return [note] + [None] * (len(outs) - 1)

    @guarded(f"lesson {fn.__name__}", failed)
    def run(theme, *args):
        return list(fn("dark" if theme == "dark" else "light", *args))
    return run


def _lesson1():
    with lesson(1, "Self-attention without parameters", TEXT1):
        x1 = gr.Dataframe(value=rounded(SEED_X), headers=["feature 1", "feature 2",
                                                            "feature 3"],
                          datatype="number", type="array", interactive=True, column_count=3,
                          label="X (one row per token)", elem_id="lesson1-x")
        reset1 = gr.Button("Back to the example X", size="sm")
        note1 = gr.Markdown(elem_id="lesson1-note")
        scores1, weights1 = plot_row("lesson1-scores", "lesson1-weights")
        y1 = gr.Plot(show_label=False, elem_id="lesson1-y")
    return (lesson1, [x1], [note1, scores1, weights1, y1]), reset1, x1


def _lesson2():
    with lesson(2, "Queries, keys, values — and why we scale", TEXT2):
        dk = gr.Slider(1, 1024, value=64, step=1, label="d_k (length of q and k)",
                       elem_id="lesson2-dk")
        spread2, sat2 = plot_row("lesson2-spread", "lesson2-saturation", min_width=300)
        row2 = gr.Plot(show_label=False, elem_id="lesson2-example")
    return lesson2, [dk], [spread2, sat2, row2]


def _lesson3():
    with lesson(3, "Multi-head: one wide projection = heads stacked", TEXT3):
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
    return lesson3, [heads3, scale3, causal3], [note3, out3, pat3]


def _lesson4():
    with lesson(4, "Masks: causal and padding", TEXT4):
        with gr.Row():
            causal4 = gr.Checkbox(value=True, label="causal mask", elem_id="lesson4-causal")
            pad4 = gr.Slider(0, 4, value=2, step=1, label="padding tokens",
                             elem_id="lesson4-pad")
        note4 = gr.Markdown(elem_id="lesson4-note")
        masked4, pattern4 = plot_row("lesson4-masked", "lesson4-pattern")
    return lesson4, [causal4, pad4], [note4, masked4, pattern4]


def _lesson5():
    with lesson(5, "The block: residual, LayerNorm, feed-forward; pre-LN vs post-LN", TEXT5):
        x5 = gr.Dataframe(value=rounded(BLOCK_X),
                          headers=[f"f{i + 1}" for i in range(BLOCK_D)], datatype="number",
                          type="array", interactive=True, column_count=BLOCK_D,
                          label="input X (tokens × features)", elem_id="lesson5-x")
        scale5 = gr.Slider(0.1, 20, value=1, step=0.1, label="multiply the input by",
                           elem_id="lesson5-scale")
        note5 = gr.Markdown(elem_id="lesson5-note")
        stats5 = gr.Plot(show_label=False, elem_id="lesson5-stats")
        steps5 = gr.Plot(show_label=False, elem_id="lesson5-steps")
    return lesson5, [x5, scale5], [note5, stats5, steps5]


def _lesson6(zoo):
    with lesson(6, "Positional encodings side by side", TEXT6):
        n6 = gr.Slider(8, 128, value=32, step=1, label="positions", elem_id="lesson6-n")
        note6 = gr.Markdown(elem_id="lesson6-note")
        pe6 = plot_row(*(f"lesson6-{kind}" for kind in ENCODINGS), min_width=160)
    return (lambda theme, n: lesson6(theme, n, zoo)), [n6], [note6, *pe6]
