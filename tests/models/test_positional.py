"""Each positional encoding's defining property."""

import math

import pytest
import torch

from explorer.models.capture import run_with_cache
from explorer.models.positional import RotaryEncoding, alibi_slopes, sinusoidal_table
from tests.conftest import tiny_config, tiny_model


def test_sinusoidal_matches_the_formula():
    table = sinusoidal_table(50, 16)
    for pos in (0, 1, 7, 49):
        for i in range(8):
            angle = pos / 10000 ** (2 * i / 16)
            assert math.isclose(table[pos, 2 * i].item(), math.sin(angle), abs_tol=1e-6)
            assert math.isclose(table[pos, 2 * i + 1].item(), math.cos(angle), abs_tol=1e-6)


def test_sinusoidal_model_adds_the_table_times_its_learned_scale():
    model = tiny_model(pos_encoding="sinusoidal")
    assert model.pos.scale.item() == pytest.approx(0.02 * 2 ** 0.5)  # entries rms 0.02
    with torch.no_grad():
        model.pos.scale.fill_(0.5)  # as if training had moved it
    _, cache = run_with_cache(model, torch.arange(6), names="hook_pos_embed")
    torch.testing.assert_close(cache["hook_pos_embed"], 0.5 * sinusoidal_table(6, 32))
    assert "pos.scale" in dict(model.named_parameters())  # trained and saved with the model


def test_sinusoidal_table_starts_as_large_as_the_token_embeddings():
    """Unscaled, the table (entries of size ~0.7) would drown the words (~0.02) and the
    model learned far more slowly; see SinusoidalEncoding's docstring for the numbers."""
    model = tiny_model(pos_encoding="sinusoidal", n_ctx=128, d_model=128)
    table_rms = model.pos.embed_table(128).detach().pow(2).mean().sqrt().item()
    token_rms = model.W_E.weight.detach().pow(2).mean().sqrt().item()
    assert table_rms == pytest.approx(token_rms, rel=0.1)


def test_learned_table_is_used():
    model = tiny_model(pos_encoding="learned")
    tokens = torch.arange(6)[None]
    before = model(tokens)
    with torch.no_grad():
        model.pos.W_pos.weight[3] += 1.0
    after = model(tokens)
    assert torch.allclose(before[:, :3], after[:, :3], atol=1e-6)  # causal: earlier unaffected
    assert not torch.allclose(before[:, 3:], after[:, 3:])
    _, cache = run_with_cache(model, tokens, names="hook_pos_embed")
    torch.testing.assert_close(cache["hook_pos_embed"], model.pos.W_pos.weight[:6])


def test_rotary_scores_depend_only_on_offset():
    rope = RotaryEncoding(tiny_config(pos_encoding="rotary"))
    g = torch.Generator().manual_seed(0)
    q_vec, k_vec = torch.randn(8, generator=g), torch.randn(8, generator=g)
    n = 20
    # the same q and k vector at every position: the score may depend only on m - n
    q = q_vec.expand(1, 1, n, 8).clone()
    k = k_vec.expand(1, 1, n, 8).clone()
    rq, rk = rope.rotate(q, k)
    scores = (rq @ rk.transpose(-2, -1))[0, 0]
    for offset in (0, 1, 5):
        diag = torch.diagonal(scores, offset=-offset)
        torch.testing.assert_close(diag, diag[0].expand_as(diag), atol=1e-5, rtol=0)
    assert not torch.isclose(scores[10, 10], scores[10, 5])
    # rotation keeps each vector's length
    torch.testing.assert_close(rq.norm(dim=-1), q.norm(dim=-1))


def test_alibi_slopes_and_bias_shape():
    torch.testing.assert_close(alibi_slopes(8), torch.tensor([2.0 ** -(i + 1) for i in range(8)]))
    torch.testing.assert_close(alibi_slopes(4), torch.tensor([2.0 ** -(2 * (i + 1))
                                                              for i in range(4)]))
    assert len(alibi_slopes(6)) == 6
    model = tiny_model(pos_encoding="alibi")
    bias = model.pos.score_bias(5, 5)
    assert bias.shape == (4, 5, 5)
    assert (torch.diagonal(bias, dim1=1, dim2=2) == 0).all()
    torch.testing.assert_close(bias[:, 4, 0], -4 * alibi_slopes(4))
    _, cache = run_with_cache(model, torch.arange(5), names=["*0.attn.hook_scores",
                                                             "*0.attn.hook_scaled"])
    expected = cache["blocks.0.attn.hook_scores"] * 8 ** -0.5 + bias
    torch.testing.assert_close(cache["blocks.0.attn.hook_scaled"], expected)


def test_no_encoding_is_position_blind():
    """Without a mask and without positions, permuting the input permutes the output."""
    from explorer.models.settings import AttentionSettings

    model = tiny_model(pos_encoding="none", causal=False)
    tokens = torch.tensor([[3, 9, 14, 27, 40, 2]])
    perm = torch.tensor([4, 0, 5, 2, 1, 3])
    settings = AttentionSettings(causal=False)
    out = model(tokens, settings=settings)
    out_perm = model(tokens[:, perm], settings=settings)
    torch.testing.assert_close(out_perm, out[:, perm], atol=1e-5, rtol=0)


def test_position_aware_encodings_are_not_position_blind():
    from explorer.models.settings import AttentionSettings

    for kind in ("sinusoidal", "learned", "rotary", "alibi"):
        model = tiny_model(pos_encoding=kind, causal=False)
        tokens = torch.tensor([[3, 9, 14, 27, 40, 2]])
        perm = torch.tensor([4, 0, 5, 2, 1, 3])
        settings = AttentionSettings(causal=False)
        out = model(tokens, settings=settings)
        assert not torch.allclose(model(tokens[:, perm], settings=settings), out[:, perm],
                                  atol=1e-4), kind
