"""The head-recipe calibration study: curves against tokens seen, from the trainers' cards.

``python -m scripts.study`` reads every card under ``checkpoints/study/`` (one per
variant, copied there from the run's ``--out`` folder: cards only, no weights), and
writes ``checkpoints/study/curves.svg`` (six panels: best previous-token head, best
induction head, copy gain, held-out loss, share of repeated lists continued, written with
spaces (the headline) and with commas) and
``checkpoints/study/README.md`` (the same numbers as a table, with each variant's
command). Plain SVG, no plotting library: the page and GitHub both show it.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

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
    return (f"| {name} | {recipe} | {card['tokens_seen'] / 1e6:.1f}M | "
            f"{final.get('previous_token', {}).get('score', float('nan')):.2f} | "
            f"{final.get('induction', {}).get('score', float('nan')):.2f} | "
            f"{'%.1fM' % (first_ind / 1e6) if first_ind else 'never'} | "
            f"{final.get('copy_gain_nats', float('nan')):.1f} | "
            f"{_or_dash(final.get('list_continuation'))} | "
            f"{_or_dash(final.get('list_continuation_comma'))} | "
            f"{vals[-1]['val_loss'] if vals else float('nan'):.3f} | "
            f"{card.get('tokens_per_s') or '-'} |")


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
             "![curves](curves.svg)", "",
             "| variant | repeated spans | tokens | previous-token | induction | induction "
             "≥ 0.3 from | copy gain | lists continued | lists (commas) | held-out loss "
             "| tokens/s |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    lines += [row(n, c) for n, c in cards.items()]
    lines += ["", "Commands:", ""]
    lines += [f"- {n}: `{c.get('command', '')}`" for n, c in cards.items()]
    return "\n".join(lines) + "\n\n" + notes.strip() + "\n"


def main() -> None:
    cards = {p.stem: json.loads(p.read_text()) for p in sorted(STUDY.glob("*.json"))}
    if not cards:
        raise SystemExit(f"no study cards in {STUDY}")
    notes_path = STUDY / "NOTES.md"
    notes = notes_path.read_text() if notes_path.exists() else ""
    (STUDY / "curves.svg").write_text(svg(cards))
    (STUDY / "README.md").write_text(readme(cards, notes))
    print(f"wrote {STUDY / 'curves.svg'} and {STUDY / 'README.md'} ({len(cards)} variants)")


if __name__ == "__main__":
    main()
