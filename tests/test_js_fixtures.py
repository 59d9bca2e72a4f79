"""The Node tests' fixtures (tests/js/fixtures/, scripts/export_js_fixtures.py) are what
the Python side says today: made again in memory, every file equals the checked-in one
(the weights, the tokenizer and the strings byte for byte, the numbers within 1e-6, the
last bit of a float32 sum being free to differ between machines). A change to the
tokenizer, the models' code or the payload's words that forgets to re-export fails here;
the message says the command."""

from __future__ import annotations

import json
import math

from scripts.export_js_fixtures import OUT, fixtures

TOLERANCE = 1e-6
HOW = "stale: run `python -m scripts.export_js_fixtures` (then `node --test tests/js/`)"


def same(got, want, where: str = "") -> str | None:
    """Where ``got`` and ``want`` (parsed JSON) first differ, or None."""
    if isinstance(want, float) or isinstance(got, float):
        ok = isinstance(got, int | float) and math.isclose(got, want, abs_tol=TOLERANCE)
        return None if ok else where
    if isinstance(want, dict):
        if not isinstance(got, dict) or got.keys() != want.keys():
            return where
        return next((w for k in want if (w := same(got[k], want[k], f"{where}.{k}"))), None)
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return where
        return next((w for i, (a, b) in enumerate(zip(got, want, strict=True))
                     if (w := same(a, b, f"{where}[{i}]"))), None)
    return None if got == want else where


def test_the_checked_in_fixtures_are_current():
    made = fixtures()
    on_disk = {p.relative_to(OUT).as_posix() for p in OUT.rglob("*") if p.suffix != ".mjs"
               and p.is_file()}
    assert on_disk == set(made), HOW
    assert sum(map(len, made.values())) < 1_000_000  # small: the repository carries them
    for name, data in made.items():
        disk = (OUT / name).read_bytes()
        if name.endswith(".json"):
            where = same(json.loads(disk), json.loads(data))
            assert where is None, f"{name}{where}: {HOW}"
        else:
            assert disk == data, f"{name}: {HOW}"


def test_the_comparison_sees_a_difference():
    assert same({"a": [1.0, "x"]}, {"a": [1.0 + 1e-7, "x"]}) is None
    assert same({"a": [1.0, "x"]}, {"a": [1.001, "x"]}) == ".a[0]"
    assert same({"a": [1, "x"]}, {"a": [1, "y"]}) == ".a[1]"
    assert same([1, 2], [1]) == ""
