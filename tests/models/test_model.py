"""The explicit attention path against PyTorch's fused reference, and its invariants."""

import pytest
import torch
import torch.nn.functional as F

from explorer.models.capture import run_with_cache
from explorer.models.settings import AttentionSettings
from tests.conftest import tiny_model


@pytest.mark.parametrize("pos_encoding", ["none", "sinusoidal", "learned", "rotary", "alibi"])
@pytest.mark.parametrize("norm", ["pre", "post"])
@pytest.mark.parametrize("causal", [True, False])
def test_explicit_equals_fused(pos_encoding, norm, causal, tokens):
    model = tiny_model(pos_encoding=pos_encoding, norm=norm)
    settings = AttentionSettings(causal=causal)
    with torch.no_grad():
        explicit = model(tokens, settings=settings)
        fused = model(tokens, settings=settings, fused=True)
    torch.testing.assert_close(explicit, fused, atol=1e-5, rtol=0)


@pytest.mark.parametrize("causal", [True, False])
def test_pattern_equals_sdpa_on_captured_qkv(model, tokens, causal):
    _, cache = run_with_cache(model, tokens, AttentionSettings(causal=causal))
    q, k, v = (cache[f"blocks.1.attn.hook_rot_{n}"] if n != "v" else cache["blocks.1.attn.hook_v"]
               for n in ("q", "k", "v"))
    reference = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    torch.testing.assert_close(cache["blocks.1.attn.hook_z"], reference, atol=1e-5, rtol=0)


def test_softmax_rows_sum_to_one_and_causal_zero_above_diagonal(any_pe_model, tokens):
    _, cache = run_with_cache(any_pe_model, tokens, names="*hook_pattern")
    n = tokens.shape[1]
    for name, pattern in cache.items():
        assert pattern.shape == (1, 4, n, n), name
        torch.testing.assert_close(pattern.sum(-1), torch.ones(1, 4, n))
        above = torch.ones(n, n, dtype=torch.bool).triu(1)
        assert (pattern[..., above] == 0).all(), f"{name} attends to the future"


def test_mask_off_puts_weight_above_diagonal(model, tokens):
    _, cache = run_with_cache(model, tokens, AttentionSettings(causal=False),
                              names="blocks.0.attn.hook_pattern")
    n = tokens.shape[1]
    above = torch.ones(n, n, dtype=torch.bool).triu(1)
    assert (cache["blocks.0.attn.hook_pattern"][..., above] > 0).all()


def test_masked_scores_are_minus_inf_exactly_above_diagonal(model, tokens):
    _, cache = run_with_cache(model, tokens, names="blocks.0.attn.hook_masked")
    masked = cache["blocks.0.attn.hook_masked"][0, 0]
    above = torch.ones_like(masked, dtype=torch.bool).triu(1)
    assert torch.isneginf(masked[above]).all() and torch.isfinite(masked[~above]).all()


@pytest.mark.parametrize("scale,factor", [("d_head", 8 ** -0.5), ("d_model", 32 ** -0.5),
                                          ("none", 1.0)])
@pytest.mark.parametrize("temperature", [1.0, 2.5])
def test_scaling_options(model, tokens, scale, factor, temperature):
    settings = AttentionSettings(scale=scale, temperature=temperature)
    _, cache = run_with_cache(model, tokens, settings, names=["*hook_scores", "*hook_scaled"])
    torch.testing.assert_close(cache["blocks.0.attn.hook_scaled"],
                               cache["blocks.0.attn.hook_scores"] * factor / temperature)


@pytest.mark.parametrize("temperature", [1.0, 2.5])
def test_temperature_divides_the_whole_score_alibi_bias_included(tokens, temperature):
    """(q·k × scale + ALiBi bias) / T: dividing only q·k would leave softmax(bias), not
    uniform, as the limit of a high temperature (issue 31)."""
    model = tiny_model(pos_encoding="alibi")
    settings = AttentionSettings(temperature=temperature)
    _, cache = run_with_cache(model, tokens, settings, names=["*hook_scores", "*hook_scaled"])
    n = tokens.shape[1]
    bias = model.pos.score_bias(n, n)[None]
    torch.testing.assert_close(cache["blocks.0.attn.hook_scaled"],
                               (cache["blocks.0.attn.hook_scores"] * 8 ** -0.5 + bias)
                               / temperature)
    with torch.no_grad():  # the fused path divides the same whole score
        explicit = model(tokens, settings=settings)
        fused = model(tokens, settings=settings, fused=True)
    torch.testing.assert_close(explicit, fused, atol=1e-5, rtol=0)


@pytest.mark.parametrize("pos_encoding", ["rotary", "alibi"])
def test_high_temperature_flattens_toward_uniform(tokens, pos_encoding):
    model = tiny_model(pos_encoding=pos_encoding)
    _, cache = run_with_cache(model, tokens, AttentionSettings(causal=False, temperature=1e4),
                              names="*hook_pattern")
    n = tokens.shape[1]
    for pattern in cache.values():
        torch.testing.assert_close(pattern, torch.full_like(pattern, 1 / n), atol=1e-3,
                                   rtol=0)


def test_padding_mask_gives_padding_keys_zero_weight(model):
    tokens = torch.tensor([[5, 6, 7, 8, 9], [5, 6, 7, 1, 1]])
    pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
    logits, cache = run_with_cache(model, tokens, AttentionSettings(causal=False),
                                   names="*hook_pattern", key_padding_mask=pad)
    pattern = cache["blocks.0.attn.hook_pattern"]
    assert (pattern[1, :, :, 3:] == 0).all()
    # The unpadded prefix of row 1 matches the same sentence run alone.
    alone, _ = run_with_cache(model, tokens[1:, :3], AttentionSettings(causal=False))
    torch.testing.assert_close(logits[1:, :3], alone, atol=1e-5, rtol=0)


def test_head_mask_zeroes_that_heads_output_only(model, tokens):
    settings = AttentionSettings(head_mask=((1, 2),))
    _, cache = run_with_cache(model, tokens, settings, names=["*hook_z", "*hook_pattern"])
    _, clean = run_with_cache(model, tokens, names=["*hook_z", "*hook_pattern"])
    z = cache["blocks.1.attn.hook_z"]
    assert (z[:, 2] == 0).all() and (z[:, [0, 1, 3]] != 0).any()
    torch.testing.assert_close(z[:, [0, 1, 3]], clean["blocks.1.attn.hook_z"][:, [0, 1, 3]])
    # the ablated head still attends: its pattern is unchanged
    torch.testing.assert_close(cache["blocks.1.attn.hook_pattern"],
                               clean["blocks.1.attn.hook_pattern"])


def test_too_long_input_is_refused(model):
    with pytest.raises(ValueError, match="context"):
        model(torch.zeros(1, 25, dtype=torch.long))
