"""Hardening, memory: thousands of live updates leave the process as they found it.

``explore`` runs in process (no HTTP: the server adds nothing per request that outlives it,
and this keeps the test fast) on random sentences and random controls, on two threads as the
server's worker pool would. After a warm-up that reaches every steady state (the longest
input, every layer/head/mask/scaling/theme, the figure builders' ``lru_cache``, the
tokenizer's cache, one malloc arena per thread), the resident set size
(``VmRSS`` in ``/proc/self/status``) must stay within ``RSS_BOUND_MB``, and no forward hook
may remain registered on any model.

Why 30 MB: a leak-free run moves VmRSS by a few MB either way (allocator high-water marks,
page reuse; measured -5 .. +5 MB here), and any real per-request leak costs far more over
the measured calls. What a request could leave behind: its figures (the grid alone is tens
to hundreds of kB of Python objects), its Analysis (a 10-token sentence's 4 x 4 x 10 x 10
float32 patterns are 6.4 kB, a 128-token one 1 MB) or its capture Cache and hook closures.
At the target 2,000 calls the bound catches anything >= 15 kB per call, at the minimum 400
calls anything >= 75 kB (every figure). Smaller Python-level leaks are caught by counting
gc-tracked objects instead (``OBJECT_BOUND``; a leak-free run changes it by < 100).
"""

from __future__ import annotations

import ctypes
import gc
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch

from explorer.models.capture import _ACTIVE_CACHE, run_with_cache
from explorer.views.controls import parse_controls
from explorer.views.explore import explore
from tests.random_knobs import random_knobs

WARMUP_CALLS = 120
CALLS = 2000  # measured calls (target; the deadline caps the time on a slow or busy box)
MIN_CALLS = 400  # measured calls that must complete even on a very busy machine
DEADLINE_S = 40  # the measured loop stops here (a busy machine): fewer calls, same bound
RSS_BOUND_MB = 30
OBJECT_BOUND = 1000  # gc-tracked Python objects: a leak of one object per two calls fails
THREADS = 2

WORDS = ("the a cat dog sat on mat and ran to park Lily Ben saw big red ball it was happy "
         "because they were tired . , ! ? 🙂 👩‍💻 中文 é مرحبا <b> & $ [mask] ___").split()


def settle() -> None:
    """Collect garbage and hand the heap's free pages back to the system (glibc's
    ``malloc_trim``): what is left resident is what is still in use, not the high-water
    mark of two long requests that happened to run at once (measured without it: the same
    leak-free code grew 10 to 50 MB from one run to the next)."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the bound still holds, with more noise
        pass


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def hook_count(models) -> int:
    """Forward/backward hooks on every module of every model, plus torch's global ones."""
    from torch.nn.modules import module as nn_module

    per_module = sum(len(m._forward_hooks) + len(m._forward_pre_hooks)
                     + len(m._backward_hooks) + len(getattr(m, "_backward_pre_hooks", {}))
                     for model in models for m in model.modules())
    global_hooks = sum(len(getattr(nn_module, name, {})) for name in (
        "_global_forward_hooks", "_global_forward_pre_hooks", "_global_backward_hooks"))
    return per_module + global_hooks


def random_request(rng: random.Random, zoo, long: bool = False) -> tuple[str, list]:
    """(text, 9 control values): mostly models that exist (the rest answer "not trained")."""
    n = rng.randint(150, 250) if long else rng.choice([0, *range(1, 17)])
    return " ".join(rng.choice(WORDS) for _ in range(n)), random_knobs(rng, zoo)


def test_memory_and_hooks_stay_flat_over_thousands_of_requests(resources):
    tok, zoo = resources
    models = list(zoo.models.values())
    assert hook_count(models) == 0
    rng = random.Random(12345)

    lock = threading.Lock()
    served = {"figures": 0, "calls": 0}

    def run(job) -> None:
        text, controls = job
        result = explore(zoo, tok, text, parse_controls(*controls))
        with lock:
            served["calls"] += 1
            served["figures"] += result.grid is not None

    with ThreadPoolExecutor(THREADS) as pool:
        # Warm-up: every long-input path and a spread of everything else.
        warm = [random_request(rng, zoo, long=i % 12 == 0) for i in range(WARMUP_CALLS)]
        list(pool.map(run, warm))
        settle()
        before, objects_before = rss_mb(), len(gc.get_objects())

        # Measured: submit in small batches so the deadline can stop it.
        start, done, samples = time.monotonic(), 0, [before]
        while done < CALLS and time.monotonic() - start < DEADLINE_S:
            batch = [random_request(rng, zoo, long=rng.random() < 0.02) for _ in range(50)]
            list(pool.map(run, batch))
            done += len(batch)
            if done % 500 == 0:
                settle()
                samples.append(rss_mb())
    settle()
    after, objects_after = rss_mb(), len(gc.get_objects())
    elapsed = time.monotonic() - start
    print(f"\n{done} calls in {elapsed:.1f} s after {WARMUP_CALLS} warm-up; VmRSS "
          f"{before:.1f} -> {after:.1f} MB (samples {[round(s) for s in samples]}); "
          f"gc objects {objects_before} -> {objects_after}")

    assert done >= MIN_CALLS, f"only {done} calls in {DEADLINE_S} s"
    assert served["figures"] > 0.8 * served["calls"]  # real work, not only empty answers
    assert after - before < RSS_BOUND_MB, f"VmRSS grew {after - before:.1f} MB"
    assert objects_after - objects_before < OBJECT_BOUND, "Python objects accumulate"
    assert hook_count(models) == 0
    assert _ACTIVE_CACHE.get() is None


def test_hooks_are_removed_even_when_the_forward_pass_fails(resources):
    tok, zoo = resources
    model = zoo.get(zoo.default_name)
    bad = torch.tensor([[0, model.config.vocab_size + 5]])  # an id past the embedding
    with pytest.raises(IndexError):
        run_with_cache(model, bad)
    assert hook_count([model]) == 0 and _ACTIVE_CACHE.get() is None
