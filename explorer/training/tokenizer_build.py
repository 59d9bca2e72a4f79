"""Train the project tokenizer: ``python -m explorer.training.tokenizer_build``.

The tokenizer (:mod:`explorer.models.tokenizer`) is a byte-level BPE trained on the
corpus stories plus a fixed, seeded set of probe texts (:mod:`explorer.training.probes`),
so the probes' words are whole tokens. The result is the same file every time.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from explorer.models.tokenizer import Tokenizer, read_lines
from explorer.training.probes import generate_probes

TOKENIZER_PROBES, TOKENIZER_PROBE_SEED = 2000, 0


def train_tokenizer(corpus: str | Path) -> Tokenizer:
    """The project tokenizer: corpus stories plus the fixed set of probe texts."""
    probes = generate_probes(TOKENIZER_PROBES, TOKENIZER_PROBE_SEED)
    return Tokenizer.train([*read_lines(corpus), *probes])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="../shared/corpus/tinystories.txt")
    parser.add_argument("--out", default="checkpoints/tokenizer.json")
    args = parser.parse_args(argv)
    tok = train_tokenizer(args.corpus)
    tok.save(args.out)
    size = Path(args.out).stat().st_size
    print(f"vocab {tok.vocab_size}, {size} bytes, sha256 {tok.fingerprint()[:12]} -> {args.out}")


if __name__ == "__main__":
    main()
