"""The head-recipe calibration study: curves against tokens seen, from the trainers' cards.

``python -m scripts.study --add RUN_DIR VARIANT`` first adds a finished run: its card, its
full evaluation and its page counts, measured on its weights, which are not kept.
``python -m scripts.study`` reads every card under ``checkpoints/study/`` (one per
variant) and writes the figures in ``FIGURES`` (six panels: best previous-token head, best
induction head, copy gain, held-out loss, share of repeated lists continued, written with
spaces (the headline) and with commas) and ``checkpoints/study/README.md`` (the same
numbers as a table, with each variant's command, then each fully evaluated run). Plain
SVG, no plotting library: the page and GitHub both show it.
"""

from __future__ import annotations

import json
import shutil
import sys
from html import escape
from pathlib import Path

from explorer.models.zoo import PAGE_SUFFIX, read_page
from explorer.training.zoo_index import write_index
from explorer.training.zoo_plan import span_pool

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "checkpoints" / "study"
# Okabe-Ito: told apart with the common colour-vision deficiencies
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
PANELS = (  # (title, how to read a point from a history entry, y range, target line)
    ("best previous-token head", lambda h: h["heads"]["previous_token"]["score"], (0, 1), 0.5),
    ("best induction head", lambda h: h["heads"]["induction"]["score"], (0, 1), 0.3),
    ("copy gain (nats)", lambda h: h["heads"]["copy_gain_nats"], (0, 10), 1.0),
    ("held-out loss (nats)", lambda h: h["val_loss"], (2.4, 4.4), 2.8),
    ("lists continued (headline)", lambda h: h["heads"].get("list_continuation"), (0, 1),
     2 / 3),
    ("lists continued, commas", lambda h: h["heads"].get("list_continuation_comma"), (0, 1),
     2 / 3),
)
W, H, PAD = 260, 190, 38
FIGURES = {  # one figure per round of the study, so each has few enough lines to tell apart
    "curves.svg": ("A-frequent", "B-words", "C-text", "D-lists-gap", "E-share-half",
                   "F-any-token"),
    "curves-any-token.svg": ("F-any-token", "G-share-half", "H-share-eighth", "I-no-probes",
                             "J-lr-half", "K-budget-6M"),
    "curves-mixed.svg": ("F-any-token", "G-share-half", "M-mixed-half", "N-mixed-long"),
}


def series(card: dict, read) -> list[tuple[float, float]]:
    out = []
    for h in card["history"]:
        try:
            y = read(h)
        except KeyError:
            continue
        if y is not None:
            out.append((h["tokens"] / 1e6, float(y)))
    return out


def panel(x0: int, title: str, cards: dict[str, dict], read, yr, target) -> list[str]:
    xmax = max(c["tokens_seen"] for c in cards.values()) / 1e6
    lo, hi = yr

    def px(x, y):
        y = min(max(y, lo), hi)
        return (x0 + PAD + (W - PAD - 8) * x / xmax,
                H - PAD + 8 - (H - PAD - 10) * (y - lo) / (hi - lo))

    out = [f'<text x="{x0 + W / 2}" y="14" text-anchor="middle" font-weight="bold">'
           f'{escape(title)}</text>']
    bx0, by0 = px(0, lo)
    bx1, by1 = px(xmax, hi)
    out.append(f'<rect x="{bx0}" y="{by1}" width="{bx1 - bx0}" height="{by0 - by1}" '
               'fill="none" stroke="#999"/>')
    for frac in (0, 0.5, 1):
        y = lo + frac * (hi - lo)
        _, yy = px(0, y)
        out.append(f'<text x="{bx0 - 4}" y="{yy + 4}" text-anchor="end">{y:g}</text>')
    for x in (0, xmax / 2, xmax):
        xx, _ = px(x, lo)
        out.append(f'<text x="{xx}" y="{by0 + 14}" text-anchor="middle">{x:.0f}M</text>')
    tx, ty = px(0, target)
    out.append(f'<line x1="{tx}" y1="{ty}" x2="{bx1}" y2="{ty}" stroke="#666" '
               'stroke-dasharray="4 3"/>')
    for (name, card), colour in zip(cards.items(), COLOURS, strict=False):
        pts = series(card, read)
        if pts:
            path = " ".join(f"{a:.1f},{b:.1f}" for a, b in (px(x, y) for x, y in pts))
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                       f'stroke-width="2"><title>{escape(name)}</title></polyline>')
    return out


def svg(cards: dict[str, dict]) -> str:
    width = W * len(PANELS)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{H + 30}" '
             'font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{H + 30}" fill="white"/>']
    for i, (title, read, yr, target) in enumerate(PANELS):
        parts += panel(i * W, title, cards, read, yr, target)
    x = 10
    for (name, _), colour in zip(cards.items(), COLOURS, strict=False):
        parts.append(f'<rect x="{x}" y="{H + 14}" width="14" height="4" fill="{colour}"/>'
                     f'<text x="{x + 18}" y="{H + 20}">{escape(name)}</text>')
        x += 18 + 7 * len(name) + 16
    parts.append(f'<text x="{width - 8}" y="{H + 20}" text-anchor="end">dashed: the '
                 'target; x: tokens seen</text></svg>')
    return "\n".join(parts) + "\n"


# --- the full evaluation of each saved run ---------------------------------------------------

RECIPE_F = {"seed": 0, "repeat_share": 0.25, "repeat_kind": "frequent", "repeat_max": 32,
            "repeat_top": 4096, "probe_share": 0.1, "lr": 0.002, "tokens": 12_000_000}
# what a card without the key was trained with (the trainer's defaults then)
OLD_DEFAULTS = {"repeat_top": 2000, "repeat_kind": "frequent", "repeat_max": 32}
# the seed-0 zoo models the study's runs are compared with
ZOO_ROWS = ("causal-h4-learned", "causal-h4-alibi", "causal-h4-sinusoidal", "causal-h4-none",
            "causal-h1-learned", "bidir-h4-rotary")


def differs(card: dict) -> str:
    """What this run changed from the zoo's recipe F (seed 0, on one CPU core)."""
    t, out = card["training"], []
    for key, want in RECIPE_F.items():
        got = t.get(key, OLD_DEFAULTS.get(key))
        if got != want:
            value = (f"{got:g}" if isinstance(got, float)
                     else f"{got:,}" if isinstance(got, int) else str(got))
            out.append(f"{key.replace('_', ' ')} {value}")
    if str(card.get("device", "cpu")).startswith("cuda"):
        out.append("GPU")
    return ", ".join(out) or "(recipe F)"


def md_row(*cells) -> str:
    """One row of a Markdown table: ``| a | b |``."""
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def eval_row(name: str, card: dict, r: dict) -> str:
    heads = r["previous_token"], r["induction"]["random_repeat"]
    lists = r.get("list_continuation") or {}
    agree = r.get("agreement") or {}
    return md_row(name, r["n_heads"], r["pos_encoding"], differs(card),
                  f"{r['loss']['val_loss']:.3f}", f"{heads[0]['best']['score']:.2f}",
                  f"{heads[1]['best']['score']:.2f}", f"{heads[1]['copy_gain_nats']:.1f}",
                  f"{lists.get('continued', '-')}/{lists.get('lists', '-')}",
                  f"{agree.get('accuracy', float('nan')):.2f}", page_cell(r))


def page_cell(r: dict) -> str:
    """How often the page names each clear head on 100 held-out story openings (said twice
    for induction): ``explorer.analysis.page_check``; "-" where not measured."""
    page = r.get("on_the_page")
    if not page:
        return "-"
    cells = [f"{h['kind']} {h['named']}/{h['of']}" for h in page["heads"]]
    return ", ".join(cells) or "no clear head"


def eval_table(cards: dict[str, dict], evals: dict[str, dict]) -> list[str]:
    """Seeds, encodings and devices: the trainer's final numbers, re-measured by
    ``explorer/training/evaluate.py`` on each run's saved weights (192 lists, not 12)."""
    lines = ["## Seeds, encodings and the device: each saved run, fully evaluated", "",
             "`python -m explorer.training.evaluate`'s measures (its `evaluate_model`, run on "
             "each run's saved weights; the weights are not kept, `eval/` holds the results): "
             "the best previous-token and induction heads, the copy gain in nats, the share of "
             "192 repeated lists whose seventh word is the top guess, and subject-verb "
             "agreement; *on the page*: on how many of 100 held-out story openings the page "
             "itself names each clear head (said twice for induction; `python -m "
             "explorer.analysis.page_check`), measured for the later runs only. "
             "\"zoo\" rows are the shipped seed-0 models, for comparison. Runs on "
             "a GPU were 12 at once on an H100, fp32.", "",
             "| run | heads | positions | differs from recipe F | held-out loss | "
             "previous-token | induction | copy gain | lists | agreement | on the page |",
             "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    runs = {n: (cards[n], evals[n]) for n in evals if n in cards}
    zoo = ROOT / "checkpoints"
    for name in ZOO_ROWS:
        card_path, eval_path = zoo / f"{name}.json", zoo / "eval" / f"{name}.json"
        if card_path.exists() and eval_path.exists():
            card, r = json.loads(card_path.read_text()), json.loads(eval_path.read_text())
            page = read_page(zoo, name, card["weights_sha256"])
            runs[f"zoo {name}"] = (card, {**r, "on_the_page": page} if page else r)
    lines += [eval_row(n, c, r) for n, (c, r) in runs.items() if r["objective"] != "masked-word"]
    masked = {n: cr for n, cr in runs.items() if cr[1]["objective"] == "masked-word"}
    if masked:
        lines += ["", "The masked-word model (it fills in a hidden word, so no list check): "
                  "its held-out loss, the gap to a table of P(word | both neighbours), its "
                  "previous- and next-token heads, and the pronoun head's share on the "
                  "referent.", "",
                  "| run | differs from recipe F | held-out loss | gap to bigram | "
                  "previous-token | next-token | pronoun |",
                  "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
        for name, (card, r) in masked.items():
            pronoun = ((r.get("pronoun") or {}).get("best") or {}).get("share")
            next_token = (r.get("next_token") or {}).get("best", {}).get("score", 0)
            lines.append(md_row(name, differs(card), f"{r['loss']['val_loss']:.3f}",
                                f"{r['loss']['gap_to_bigram']:+.2f}",
                                f"{r['previous_token']['best']['score']:.2f}",
                                f"{next_token:.2f}", _or_dash(pronoun)))
    return lines


def _or_dash(value) -> str:
    return "-" if value is None else f"{value:.2f}"


def row(name: str, card: dict) -> str:
    heads = [h for h in card["history"] if "heads" in h]
    final = heads[-1]["heads"] if heads else {}
    vals = [h for h in card["history"] if "val_loss" in h]
    first_ind = next((h["tokens"] for h in heads
                      if h["heads"]["induction"]["score"] >= 0.3), None)
    t = card["training"]
    recipe = (f"{t.get('repeat_share', 0):.0%} {t.get('repeat_kind', '-')}, "
              f"{t.get('repeat_min', '-')}-{t.get('repeat_max', '-')} tokens"
              + (f", up to {t['repeat_gap']} between" if t.get("repeat_gap") else "")
              + (", drawn from any token" if span_pool(card) is None
                 else f", drawn from the top {span_pool(card):,}")
              if t.get("repeat_share") else "plain text")
    return md_row(name, recipe, f"{card['tokens_seen'] / 1e6:.1f}M",
                  f"{final.get('previous_token', {}).get('score', float('nan')):.2f}",
                  f"{final.get('induction', {}).get('score', float('nan')):.2f}",
                  f"{first_ind / 1e6:.1f}M" if first_ind else "never",
                  f"{final.get('copy_gain_nats', float('nan')):.1f}",
                  _or_dash(final.get("list_continuation")),
                  _or_dash(final.get("list_continuation_comma")),
                  f"{vals[-1]['val_loss'] if vals else float('nan'):.3f}",
                  card.get("tokens_per_s") or "-")


def readme(cards: dict[str, dict], notes: str) -> str:
    lines = ["# The head-recipe study", "",
             "Generated by `python -m scripts.study` from the cards in this folder (each "
             "variant's trainer card, copied from its run; the weights are not kept). Every "
             "point is measured on held-out text by `explorer/training/head_scores.py` while "
             "training "
             "ran: the best previous-token head on validation stories, the best induction "
             "head and the copy gain on 20 random common words said twice, the held-out story "
             "loss, and the share of 12 lists of everyday words (not the training probes' "
             "words or frame) whose repeat the top guess continues, written with spaces (the "
             "headline of the evaluation) and with commas.", "",
             *[f"![{f}]({f})" for f in FIGURES], "",
             "| variant | repeated spans | tokens | previous-token | induction | induction "
             "≥ 0.3 from | copy gain | lists continued | lists (commas) | held-out loss "
             "| tokens/s |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    lines += [row(n, c) for n, c in cards.items()]
    lines += ["", "Commands:", ""]
    lines += [f"- {n}: `{c.get('command', '')}`" for n, c in cards.items()]
    return "\n".join(lines) + "\n\n" + notes.strip() + "\n"


def study_cards() -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in sorted(STUDY.glob("*.json"))}


def add_run(run_dir: Path, variant: str) -> None:
    """Copy a finished run's card into the study as ``VARIANT.json`` and write its full
    evaluation (``eval/VARIANT.json``) and page counts (``eval/VARIANT.page.json``), measured
    on the run's saved weights, which are not kept."""
    from explorer.analysis.page_check import measure
    from explorer.models.checkpoint import load_model
    from explorer.models.tokenizer import Tokenizer
    from explorer.training.evaluate import evaluate_model

    (card_path,) = [p for p in run_dir.glob("*.json") if p.stem != "tokenizer"]
    name = card_path.stem
    tokenizer = ROOT / "checkpoints" / "tokenizer.json"
    shutil.copy(tokenizer, run_dir / "tokenizer.json")  # evaluate_model reads it beside
    result = evaluate_model(name, run_dir)
    card = json.loads(card_path.read_text())
    model = load_model(run_dir / f"{name}.safetensors")
    page = measure(model, Tokenizer.load(tokenizer), card, result)
    (STUDY / "eval").mkdir(exist_ok=True)
    for path, data in ((STUDY / f"{variant}.json", card),
                       (STUDY / "eval" / f"{variant}.json", result),
                       (STUDY / "eval" / f"{variant}{PAGE_SUFFIX}", page)):
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {path}")


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--add":  # --add RUN_DIR VARIANT
        add_run(Path(sys.argv[2]), sys.argv[3])
    cards = study_cards()
    if not cards:
        raise SystemExit(f"no study cards in {STUDY}")
    for name, text in render(cards).items():
        (STUDY / name).write_text(text)
    print(f"wrote {', '.join(FIGURES)} and README.md in {STUDY} ({len(cards)} runs)")
    # checkpoints/README.md states the folder's size, the study's files included
    for path in write_index():
        print(f"wrote {path}")


def render(cards: dict[str, dict]) -> dict[str, str]:
    """File name in ``STUDY`` -> its generated text (the figures and the README)."""
    notes_path = STUDY / "NOTES.md"
    notes = notes_path.read_text() if notes_path.exists() else ""
    out = {figure: svg({n: cards[n] for n in names if n in cards})
           for figure, names in FIGURES.items()}
    curves = {n: c for n, c in cards.items() if any(n in names for names in FIGURES.values())}
    evals, pages = {}, {}
    for p in sorted((STUDY / "eval").glob("*.json")):
        if p.name.endswith(PAGE_SUFFIX):
            pages[p.name[:-len(PAGE_SUFFIX)]] = json.loads(p.read_text())
        else:
            evals[p.stem] = json.loads(p.read_text())
    for name, r in evals.items():
        if name in pages:
            r["on_the_page"] = pages[name]
    out["README.md"] = (readme(curves, "") + "\n" + "\n".join(eval_table(cards, evals))
                        + "\n\n" + notes.strip() + "\n")
    return out


if __name__ == "__main__":
    main()
