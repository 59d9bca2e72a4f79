"""Keystroke grids per second through ``grid_payloads`` (what the keystroke line hands the
model at once, explorer/server/keystroke_queue.py), by batch size, on CUDA when there is one
and on one CPU thread: what one server process could answer if HTTP cost nothing.

    python -m benchmarks.keystroke_batches

Sentences of a class typing: prefixes of one story, 40-130 characters. Median of 7 calls
(20 on CUDA, synchronised) after one warm-up. Results: benchmarks/README.md.
"""

import statistics
import time

import torch

from benchmarks.common import DEFAULT_KNOBS
from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR, load_zoo
from explorer.views.grid_payload import grid_payloads

torch.set_num_threads(1)
CONTROLS = DEFAULT_KNOBS  # a keystroke's knobs, by name
BASE = ("Once upon a time there was a little girl named Lily. She liked to play with her "
        "ball in the park with her friend Tom, who was kind.")
tok = Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
for device in (["cuda"] if torch.cuda.is_available() else []) + ["cpu"]:
    zoo = load_zoo(CHECKPOINT_DIR, vocab_size=tok.vocab_size)
    zoo.to(device)
    for batch in (1, 8, 32, 64):
        reqs = [{"text": BASE[:40 + (7 * i) % 90], "controls": CONTROLS} for i in range(batch)]
        grid_payloads(zoo, tok, reqs)
        times = []
        for _ in range(7 if device == "cpu" else 20):
            t0 = time.perf_counter()
            grid_payloads(zoo, tok, reqs)
            if device != "cpu":
                torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
        med = statistics.median(times)
        print(f"{device:5s} batch {batch:3d}: {med * 1000:7.1f} ms a call, "
              f"{batch / med:7.0f} keystroke grids/s", flush=True)
