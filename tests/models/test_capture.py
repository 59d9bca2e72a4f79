"""run_with_cache: exact hook names, per-call capture, cleanup, and thread safety."""

import random
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch

from explorer.models.capture import run_with_cache
from explorer.models.settings import AttentionSettings
from tests.conftest import tiny_model

ATTN = ["hook_x", "hook_q", "hook_k", "hook_v", "hook_rot_q", "hook_rot_k", "hook_scores",
        "hook_scaled", "hook_masked", "hook_pattern", "hook_z", "hook_concat", "hook_out"]


def expected_names(n_layers: int) -> list[str]:
    names = ["hook_embed", "hook_pos_embed"]
    for i in range(n_layers):
        names.append(f"blocks.{i}.hook_resid_pre")
        names += [f"blocks.{i}.attn.{h}" for h in ATTN]
        names += [f"blocks.{i}.hook_attn_out", f"blocks.{i}.hook_resid_mid",
                  f"blocks.{i}.hook_mlp_out", f"blocks.{i}.hook_resid_post"]
    return names + ["hook_final"]


def test_exact_hook_names_for_two_layers(model, tokens):
    assert sorted(model.hook_points()) == sorted(expected_names(2))
    _, cache = run_with_cache(model, tokens)
    assert list(cache) == expected_names(2)  # in the order the forward pass visits them


def test_shapes_are_reported(model, tokens):
    _, cache = run_with_cache(model, tokens)
    n = tokens.shape[1]
    assert cache.shapes["blocks.0.attn.hook_x"] == (1, n, 32)
    assert cache.shapes["blocks.0.attn.hook_q"] == (1, 4, n, 8)
    assert cache.shapes["blocks.1.attn.hook_pattern"] == (1, 4, n, n)
    assert cache.shapes["blocks.1.attn.hook_z"] == (1, 4, n, 8)
    assert cache.shapes["blocks.1.attn.hook_concat"] == (1, n, 32)
    assert cache.stack("attn.hook_pattern").shape == (2, 1, 4, n, n)


def test_capture_can_be_limited(model, tokens):
    _, cache = run_with_cache(model, tokens, names="*hook_pattern")
    assert list(cache) == ["blocks.0.attn.hook_pattern", "blocks.1.attn.hook_pattern"]
    _, cache = run_with_cache(model, tokens, names=lambda n: n.startswith("blocks.1.attn.hook_q"))
    assert list(cache) == ["blocks.1.attn.hook_q"]
    with pytest.raises(KeyError):
        run_with_cache(model, tokens, names="blocks.9.attn.hook_pattern")


def test_cached_tensors_are_detached_cpu_and_match_logits(model, tokens):
    logits, cache = run_with_cache(model, tokens)
    assert all(not t.requires_grad and t.device.type == "cpu" for t in cache.values())
    torch.testing.assert_close(logits, model(tokens).detach())


def _hook_count(model) -> int:
    return sum(len(m._forward_hooks) for m in model.modules())


def test_no_hook_left_after_call_or_exception(model, tokens):
    run_with_cache(model, tokens)
    assert _hook_count(model) == 0
    with pytest.raises(ValueError):
        run_with_cache(model, torch.zeros(1, 99, dtype=torch.long))  # past the context
    assert _hook_count(model) == 0
    with pytest.raises(ValueError):
        run_with_cache(model, tokens, AttentionSettings(scale="bogus"))
    assert _hook_count(model) == 0


def test_settings_do_not_leak_between_calls(model, tokens):
    _, plain = run_with_cache(model, tokens)
    _, off = run_with_cache(model, tokens, AttentionSettings(causal=False, scale="none",
                                                             temperature=3.0,
                                                             head_mask=((0, 0),)))
    _, again = run_with_cache(model, tokens)
    assert off.interventions and not again.interventions
    for name in plain:
        torch.testing.assert_close(plain[name], again[name], rtol=0, atol=0)
    assert not torch.equal(off["blocks.1.attn.hook_pattern"], plain["blocks.1.attn.hook_pattern"])


def test_two_caches_are_independent_objects(model, tokens):
    _, a = run_with_cache(model, tokens[:, :5])
    _, b = run_with_cache(model, tokens)
    assert a["blocks.0.attn.hook_pattern"].shape[-1] == 5
    assert b["blocks.0.attn.hook_pattern"].shape[-1] == tokens.shape[1]


def test_concurrent_calls_each_get_their_own_cache():
    """16 threads, 240 calls of random lengths and settings on one shared model: every cache
    must equal the single-threaded reference for the same input."""
    torch.set_num_threads(1)
    model = tiny_model(seed=3, pos_encoding="rotary")
    rng = random.Random(0)
    jobs = []
    for _ in range(240):
        n = rng.randint(1, 24)
        toks = torch.tensor([[rng.randrange(61) for _ in range(n)]])
        settings = AttentionSettings(causal=rng.random() < 0.5, temperature=rng.choice([1, 2]))
        jobs.append((toks, settings))
    names = ["*hook_pattern", "*hook_z", "hook_final"]
    reference = [run_with_cache(model, t, s, names=names) for t, s in jobs]

    def work(i):
        return run_with_cache(model, jobs[i][0], jobs[i][1], names=names)

    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(work, range(len(jobs))))
    for (ref_logits, ref_cache), (logits, cache) in zip(reference, results, strict=True):
        assert list(cache) == list(ref_cache)
        torch.testing.assert_close(logits, ref_logits, rtol=0, atol=1e-6)
        for name in ref_cache:
            torch.testing.assert_close(cache[name], ref_cache[name], rtol=0, atol=1e-6)
    assert _hook_count(model) == 0


def test_an_edit_swaps_a_value_for_one_call_only(model, tokens):
    """``edits``: what the rest of the model sees at a hook point (patching), recorded as
    edited where it is also captured; the next call is untouched, an unknown name refused."""
    plain, cache = run_with_cache(model, tokens, names="blocks.0.hook_resid_post")
    zeros = lambda x: torch.zeros_like(x)  # noqa: E731
    edited, ecache = run_with_cache(model, tokens, names="blocks.0.hook_resid_post",
                                    edits={"blocks.0.hook_resid_post": zeros})
    assert not torch.allclose(plain, edited)
    assert torch.count_nonzero(ecache["blocks.0.hook_resid_post"]) == 0
    # zeroing the residual stream after layer 0 = running the rest from zeros: the same
    # logits whatever the input tokens were
    other, _ = run_with_cache(model, tokens.flip(-1), names=[],
                              edits={"blocks.0.hook_resid_post": zeros})
    torch.testing.assert_close(edited, other)
    again, _ = run_with_cache(model, tokens)
    torch.testing.assert_close(again, plain)
    with pytest.raises(KeyError):
        run_with_cache(model, tokens, edits={"blocks.9.nothing": zeros})
