"""The "What emerged and what did not" section of ``checkpoints/README.md``.

From the evaluations (``eval/NAME.json``, :mod:`explorer.training.evaluate`): which models beat
the bigram table, grew previous-token, induction and next-token heads, continue a
repeated list, what switching the induction head off costs, and the snapshots' curve.
Every claim is a measured number on held-out text, with the threshold it was held to.
"""

from __future__ import annotations

from explorer.training.head_scores import THRESHOLDS


def head_cell(best: dict) -> str:
    return f"L{best['layer']}H{best['head']} {best['score']:.2f}"


def lists_cell(r: dict) -> str:
    lc = r.get("list_continuation")
    return f"{lc['continued']}/{lc['lists']}" if lc else ""


def on_page_cell(page: dict) -> str:
    return ", ".join(f"L{h['layer']}H{h['head']} {h['kind']} named on {h['named']}/{h['of']}"
                     for h in page["heads"])


def weak_copiers(done: dict[str, dict]) -> bool:
    """Whether every measured induction head is named on under a quarter of the openings."""
    ind = [h for r in done.values() for h in (r.get("on_the_page") or {}).get("heads", [])
           if h["kind"] == "induction"]
    return bool(ind) and all(h["named"] * 4 < h["of"] for h in ind)


def _listing(items: list[str]) -> str:
    return ", ".join(items) if items else "none"


def emerged_section(evals: dict[str, dict | None]) -> list[str]:
    """The section's Markdown lines, one paragraph per finding (:data:`FINDINGS`), over
    the evaluated checkpoints of ``evals`` (name -> its eval, None if not evaluated)."""
    done = {n: r for n, r in evals.items() if r is not None}
    out = ["## What emerged and what did not", ""]
    if not done:
        return out + ["No checkpoint has been evaluated yet "
                      "(`python -m explorer.training.evaluate`).", ""]
    out += ["Measured by `explorer/training/evaluate.py` on held-out text and fresh probe "
            "sentences; "
            "the numbers are in `eval/NAME.json`. \"Emerged\" uses fixed thresholds chosen "
            "before looking at the results, stated with each item.", ""]
    for finding in FINDINGS:
        out += finding(done)
    return out


def _split(done: dict[str, dict], key) -> tuple[list[str], list[str]]:
    """The names whose ``key(eval)["emerged"]`` holds, and the others."""
    return ([n for n, r in done.items() if key(r)["emerged"]],
            [n for n, r in done.items() if not key(r)["emerged"]])


def _bigram(done: dict[str, dict]) -> list[str]:
    beat = [f"`{n}` ({r['loss']['gap_to_bigram']:+.2f})" for n, r in done.items()
            if r["loss"]["gap_to_bigram"] > 0]
    worse = [f"`{n}` ({r['loss']['gap_to_bigram']:+.2f})" for n, r in done.items()
             if r["loss"]["gap_to_bigram"] <= 0]
    return ["**Better than a bigram table.** Gap = bigram loss − model loss on the same "
            "validation tokens, in nats (next-word models: next token from the current one; "
            "masked-word: masked token from both neighbours). "
            f"Beat it: {_listing(beat)}. Did not: {_listing(worse)}.", ""]


def _previous_token(done: dict[str, dict]) -> list[str]:
    t = THRESHOLDS["previous_token_score"]
    yes, no = _split(done, lambda r: r["previous_token"])
    chance = max(r["previous_token"]["chance"] for r in done.values())

    def prev(n):
        return f"`{n}` ({head_cell(done[n]['previous_token']['best'])})"

    return [f"**Previous-token heads** (best head puts ≥ {t} of its attention on the previous "
            "token, 32 validation windows of 64 tokens; attending uniformly would score at most "
            f"{chance:.2f}). Emerged: {_listing([prev(n) for n in yes])}. "
            f"Did not: {_listing([prev(n) for n in no])}.", ""]


def _induction(done: dict[str, dict]) -> list[str]:
    t, g = THRESHOLDS["induction_score"], THRESHOLDS["copy_gain_nats"]
    yes, no = _split(done, lambda r: r["induction"]["random_repeat"])

    def ind(n):
        r = done[n]["induction"]["random_repeat"]
        return f"`{n}` ({head_cell(r['best'])}, copy gain {r['copy_gain_nats']:.2f})"

    return [f"**Induction (copy) heads** (20 random common words repeated: best head puts "
            f"≥ {t} on the token after the earlier occurrence, and the loss on the repeat is "
            f"≥ {g} nat lower than without a copy). Emerged: {_listing([ind(n) for n in yes])}. "
            f"Did not: {_listing([ind(n) for n in no])}.", ""]


def _switched_off(done: dict[str, dict]) -> list[str]:
    def switched(r: dict) -> str:
        n_lists = r["list_continuation"]["lists"]
        after = round(r["switched_off"]["induction"]["list_continuation"] * n_lists)
        return (f"copy gain {r['induction']['random_repeat']['copy_gain_nats']:.2f} → "
                f"{r['switched_off']['induction']['copy_gain_nats']:.2f}, lists "
                f"{lists_cell(r)} → {after}/{n_lists}")

    off = [f"`{n}` ({switched(r)})" for n, r in done.items()
           if r.get("switched_off") and r["induction"]["random_repeat"]["emerged"]]
    if not off:
        return []
    return ["**Switching the induction head off** (the best one alone) where one emerged: "
            f"{_listing(off)}.", ""]


def _on_the_page(done: dict[str, dict]) -> list[str]:
    page = [f"`{n}` ({on_page_cell(r['on_the_page'])})" for n, r in done.items()
            if (r.get("on_the_page") or {}).get("heads")]
    if not page:
        return []
    openings = {r["on_the_page"]["openings"] for r in done.values() if r.get("on_the_page")}
    return ["**On the page** (what a class sees: the page names a head on one sentence "
            "only when it clears the bar there and switching it off does its job; counted "
            f"on the openings, three sentences each, of {' or '.join(map(str, openings))} "
            "held-out stories, said twice for induction, by `python -m "
            "explorer.analysis.page_check`): " + _listing(page) + "."
            + (" None of the induction heads is named on a quarter of them: trained on "
               "repeated spans of random tokens, they copy a list of words said twice "
               "but hardly a story said twice." if weak_copiers(done) else ""), ""]


def _repeated_lists(done: dict[str, dict]) -> list[str]:
    def interval(r: dict) -> str:
        lo, hi = r["list_continuation"].get("ci95") or (None, None)
        return f", {lo:.2f}-{hi:.2f}" if lo is not None else ""

    lists = [f"`{n}` ({lists_cell(r)}{interval(r)})" for n, r in done.items()
             if r.get("list_continuation")]
    if not lists:
        return []
    n_lists = {r["list_continuation"]["lists"] for r in done.values()
               if r.get("list_continuation")}
    return [f"**Continuing a repeated list** ({' or '.join(map(str, sorted(n_lists)))} "
            "lists of 8 everyday words, not the training probes' words or frame, said "
            "once and then again up to the sixth word: is the top guess the seventh? With "
            "its 95 % interval): " + _listing(lists) + ".", ""]


def _next_token(done: dict[str, dict]) -> list[str]:
    nxt = [f"`{n}` ({head_cell(r['next_token']['best'])}"
           + (", emerged" if r["next_token"]["emerged"] else ", below 0.5") + ")"
           for n, r in done.items() if r.get("next_token")]
    if not nxt:
        return []
    return ["**Next-token heads** (masked-word models see both sides; best head's mean "
            "weight on the next token, same windows as above): " + _listing(nxt) + ".", ""]


def _name_probes(done: dict[str, dict]) -> list[str]:
    names = [f"`{n}` ({head_cell(r['induction']['name_probes']['best'])}, chance "
             f"{r['induction']['name_probes']['chance']:.2f})" for n, r in done.items()]
    return [f"On the repeated-name probe stories the best induction score was: "
            f"{_listing(names)}.", ""]


def _agreement(done: dict[str, dict]) -> list[str]:
    causal = {n: r for n, r in done.items() if r.get("agreement")}
    if not causal:
        return []
    yes, no = _split(causal, lambda r: r["agreement"])

    def agr(n):
        a = causal[n]["agreement"]
        unseen = ""
        if a.get("accuracy_unseen") is not None:
            unseen = (f"; {a['accuracy_unseen']:.2f} on the {a['unseen_pairs']} prefixes "
                      "not in the training stream")
        return (f"`{n}` ({a['accuracy']:.2f} [{a['ci95'][0]:.2f}, {a['ci95'][1]:.2f}], "
                f"majority {a['majority_baseline']:.2f}{unseen})")

    return ["**Subject-verb agreement** across a relative clause whose noun has the other "
            "number (\"The dog that the boys liked ___\"; 200 sentences from the template "
            "of the training probes; emerged = the 95 % interval lies above both 0.5 and "
            "always choosing the more common number). "
            f"Emerged: {_listing([agr(n) for n in yes])}. "
            f"Did not: {_listing([agr(n) for n in no])}.", ""]


def _during_training(done: dict[str, dict]) -> list[str]:
    out = []
    for n, r in done.items():
        if not r.get("snapshots"):
            continue
        steps = "; ".join(
            f"{row['tokens']:,} tokens: previous-token {row['previous_token']['score']:.2f}, "
            f"induction {row['induction']['score']:.2f}, copy gain {row['copy_gain_nats']:.2f}"
            for row in r["snapshots"])
        if r["snapshots"][-1]["tokens"] != r["tokens_seen"]:
            steps += (f"; {r['tokens_seen']:,} tokens (final): previous-token "
                      f"{r['previous_token']['best']['score']:.2f}, induction "
                      f"{r['induction']['random_repeat']['best']['score']:.2f}")
        out += [f"**During training** (`{n}`, best head at each snapshot): {steps}.", ""]
    return out


def _pronoun(done: dict[str, dict]) -> list[str]:
    out = []
    for n, r in done.items():
        if not r.get("pronoun"):
            continue
        b = r["pronoun"]["best"]
        verdict = "emerged" if r["pronoun"]["emerged"] else "did **not** emerge"
        out += [f"**Pronoun attention** (`{n}`): the head chosen on 200 sentences, "
                f"L{b['layer']}H{b['head']}, attended more to the noun \"it\" refers to than to "
                f"the other noun in {b['share']:.2f} [{b['ci95'][0]:.2f}, {b['ci95'][1]:.2f}] "
                f"of 200 other sentences: {b['share_when_referent_is_animal']:.2f} when \"it\" "
                f"is the animal (\"... because it was too tired\") and "
                f"{b['share_when_referent_is_object']:.2f} when it is the object (\"... too "
                f"wide\"); flip {b['flip']:+.2f} (0 = the head ignores which noun is meant). "
                f"Resolution by attention {verdict} (needs the interval above 0.5 and both "
                "variants above 0.5). Share of these sentences that occur verbatim in the "
                f"training stream: {r['pronoun']['seen_in_training_share']}.", ""]
    return out


# The section's paragraphs, in order: each takes the evaluated checkpoints, gives lines.
FINDINGS = (_bigram, _previous_token, _induction, _switched_off, _on_the_page,
            _repeated_lists, _next_token, _name_probes, _agreement, _during_training, _pronoun)
