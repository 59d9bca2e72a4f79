"""The encoder-decoder: hook names, cross-attention against PyTorch's own attention, the
three masks, greedy decoding, the task's data, training, and the committed checkpoint."""

import json

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from explorer.models.capture import run_with_cache
from explorer.models.checkpoint import load_model, save_model
from explorer.models.config import ModelConfig
from explorer.models.encoder_decoder import BOS_ID, EncoderDecoder
from explorer.models.settings import AttentionSettings
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.training import seq2seq_task as data

ATTN = ["hook_x", "hook_q", "hook_k", "hook_v", "hook_rot_q", "hook_rot_k", "hook_scores",
        "hook_scaled", "hook_masked", "hook_pattern", "hook_z", "hook_concat", "hook_out"]


def tiny(seed=0, **overrides) -> EncoderDecoder:
    base = dict(vocab_size=61, d_model=32, n_layers=2, n_dec_layers=2, n_heads=4, d_ff=64,
                n_ctx=12, pos_encoding="sinusoidal", task="seq2seq")
    base.update(overrides)
    torch.manual_seed(seed)
    return EncoderDecoder(ModelConfig(**base)).eval()


def expected_names(n_enc: int, n_dec: int) -> list[str]:
    names = ["hook_src_embed", "hook_src_pos_embed"]
    for i in range(n_enc):
        names.append(f"enc_blocks.{i}.hook_resid_pre")
        names += [f"enc_blocks.{i}.attn.{h}" for h in ATTN]
        names += [f"enc_blocks.{i}.hook_{h}" for h in ("attn_out", "resid_mid", "mlp_out",
                                                        "resid_post")]
    names += ["hook_memory", "hook_tgt_embed", "hook_tgt_pos_embed"]
    for i in range(n_dec):
        names.append(f"dec_blocks.{i}.hook_resid_pre")
        names += [f"dec_blocks.{i}.self_attn.{h}" for h in ATTN]
        names += [f"dec_blocks.{i}.hook_self_attn_out", f"dec_blocks.{i}.hook_resid_mid"]
        names += [f"dec_blocks.{i}.cross_attn.{h}" for h in ATTN]
        names += [f"dec_blocks.{i}.hook_{h}" for h in ("cross_attn_out", "resid_cross",
                                                        "mlp_out", "resid_post")]
    return names + ["hook_final"]


@pytest.fixture
def src():
    return torch.randint(2, 61, (2, 5), generator=torch.Generator().manual_seed(1))


@pytest.fixture
def tgt():
    return torch.randint(2, 61, (2, 7), generator=torch.Generator().manual_seed(2))


def test_exact_hook_names_in_forward_order(src, tgt):
    model = tiny(n_layers=2, n_dec_layers=1)
    assert sorted(model.hook_points()) == sorted(expected_names(2, 1))
    assert all(hp.name == name for name, hp in model.hook_points().items())
    _, cache = run_with_cache(model, src, tgt=tgt)
    assert list(cache) == expected_names(2, 1)


def test_shapes_and_stacking_by_prefix(src, tgt):
    _, cache = run_with_cache(tiny(), src, tgt=tgt, names="*hook_pattern")
    assert cache.shapes["enc_blocks.1.attn.hook_pattern"] == (2, 4, 5, 5)
    assert cache.shapes["dec_blocks.0.self_attn.hook_pattern"] == (2, 4, 7, 7)
    assert cache.shapes["dec_blocks.1.cross_attn.hook_pattern"] == (2, 4, 7, 5)  # tgt x src
    assert cache.stack("cross_attn.hook_pattern", "dec_blocks.").shape == (2, 2, 4, 7, 5)
    assert cache.stack("attn.hook_pattern", "enc_blocks.").shape == (2, 2, 4, 5, 5)
    with pytest.raises(KeyError):
        cache.stack("attn.hook_pattern")  # no "blocks." here: the language-model default


@pytest.mark.parametrize("norm", ["pre", "post"])
def test_cross_attention_equals_torch_multihead_attention(norm, src, tgt):
    """The same weights in nn.MultiheadAttention give the same weights and output."""
    model = tiny(norm=norm)
    pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
    _, cache = run_with_cache(model, src, tgt=tgt, src_padding_mask=pad)
    attn = model.dec_blocks[1].cross_attn
    mha = nn.MultiheadAttention(32, 4, bias=False, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([attn.W_Q.weight, attn.W_K.weight, attn.W_V.weight]))
        mha.out_proj.weight.copy_(attn.W_O.weight)
        out, weights = mha(cache["dec_blocks.1.cross_attn.hook_x"], cache["hook_memory"],
                           cache["hook_memory"], key_padding_mask=pad,
                           average_attn_weights=False)
    torch.testing.assert_close(cache["dec_blocks.1.cross_attn.hook_pattern"], weights,
                               atol=1e-6, rtol=0)
    torch.testing.assert_close(cache["dec_blocks.1.cross_attn.hook_out"], out, atol=1e-6,
                               rtol=0)
    # and the captured q, k, v through PyTorch's fused kernel give the same z
    q, k, v = (cache[f"dec_blocks.1.cross_attn.hook_{n}"] for n in ("q", "k", "v"))
    z = F.scaled_dot_product_attention(q, k, v, attn_mask=~pad[:, None, None, :])
    torch.testing.assert_close(cache["dec_blocks.1.cross_attn.hook_z"], z, atol=1e-6, rtol=0)


@pytest.mark.parametrize("pos_encoding", ["sinusoidal", "learned", "rotary", "none"])
@pytest.mark.parametrize("norm", ["pre", "post"])
def test_fused_equals_explicit_with_padding(pos_encoding, norm, src, tgt):
    model = tiny(pos_encoding=pos_encoding, norm=norm)
    src_pad = torch.tensor([[False] * 5, [False, False, True, True, True]])
    tgt_pad = torch.tensor([[False] * 7, [False] * 4 + [True] * 3])
    kw = dict(src_padding_mask=src_pad, tgt_padding_mask=tgt_pad)
    with torch.no_grad():
        torch.testing.assert_close(model(src, tgt, **kw), model(src, tgt, fused=True, **kw),
                                   atol=1e-5, rtol=0)


def test_decoder_self_attention_is_causal_and_only_there(src, tgt):
    _, cache = run_with_cache(tiny(), src, tgt=tgt, names="*hook_pattern")
    above = torch.ones(7, 7, dtype=torch.bool).triu(1)
    for i in range(2):
        dec = cache[f"dec_blocks.{i}.self_attn.hook_pattern"]
        assert (dec[..., above] == 0).all()
        torch.testing.assert_close(dec.sum(-1), torch.ones(2, 4, 7))
        assert (cache[f"enc_blocks.{i}.attn.hook_pattern"] > 0).all()  # bidirectional
        assert (cache[f"dec_blocks.{i}.cross_attn.hook_pattern"] > 0).all()  # no causal mask
    # mask off is an experiment on the decoder only
    _, off = run_with_cache(tiny(), src, AttentionSettings(causal=False), tgt=tgt,
                            names="*hook_pattern")
    assert (off["dec_blocks.0.self_attn.hook_pattern"][..., above] > 0).all()
    assert off.interventions


def test_padding_gets_exactly_zero_and_a_batch_equals_each_alone():
    model = tiny(seed=4)
    long, short = torch.tensor([5, 6, 7, 8, 9, 10]), torch.tensor([11, 12, 13])
    src = torch.stack([long, torch.cat([short, torch.ones(3, dtype=torch.long)])])
    src_pad = torch.tensor([[False] * 6, [False] * 3 + [True] * 3])
    tgt_long, tgt_short = torch.tensor([BOS_ID, 20, 21, 22, 23]), torch.tensor([BOS_ID, 30])
    tgt = torch.stack([tgt_long, torch.cat([tgt_short, torch.ones(3, dtype=torch.long)])])
    tgt_pad = torch.tensor([[False] * 5, [False] * 2 + [True] * 3])
    logits, cache = run_with_cache(model, src, names="*hook_pattern", tgt=tgt,
                                   src_padding_mask=src_pad, tgt_padding_mask=tgt_pad)
    for name, pattern in cache.items():
        if name.startswith("enc_blocks") or "cross_attn" in name:
            assert (pattern[1, ..., 3:] == 0).all(), name  # padding keys: exactly 0
            assert (pattern[1, ..., :3] > 0).all(), name
        else:
            assert (pattern[1, ..., 2:] == 0).all(), name  # target padding too
    for i, (s, t) in enumerate([(long, tgt_long), (short, tgt_short)]):
        alone, _ = run_with_cache(model, s[None], tgt=t[None])
        torch.testing.assert_close(logits[i, :len(t)], alone[0], atol=1e-5, rtol=0)
    out = model.generate(src, 6, src_padding_mask=src_pad)
    for i, s in enumerate([long, short]):
        single = model.generate(s[None], 6)[0]
        assert out[i, :len(single)].tolist() == single.tolist()


def test_generate_is_step_by_step_argmax():
    model = tiny(seed=7)
    src = torch.tensor([[5, 9, 14, 3]])
    out = model.generate(src, 8)
    tgt = [BOS_ID]
    for _ in range(8):
        nxt = int(model(src, torch.tensor([tgt]))[0, -1].argmax())
        tgt.append(nxt)
        if nxt == 0:
            break
    assert out[0].tolist() == tgt[1:]


def test_too_long_and_head_mask_are_refused(src):
    model = tiny()
    with pytest.raises(ValueError, match="context"):
        model(src, torch.zeros(1, 13, dtype=torch.long))
    with pytest.raises(ValueError, match="language models"):
        model(src, src, AttentionSettings(head_mask=((0, 0),)))
    with pytest.raises(ValueError, match="n_dec_layers"):
        tiny(n_dec_layers=0)


def test_save_and_load_round_trip_with_tied_embeddings(tmp_path, src, tgt):
    model = tiny()
    assert model.W_U.weight is model.W_E.weight
    path = save_model(model, tmp_path / "s.safetensors")
    again = load_model(path)
    assert isinstance(again, EncoderDecoder) and again.W_U.weight is again.W_E.weight
    with torch.no_grad():
        torch.testing.assert_close(again(src, tgt), model(src, tgt), atol=0, rtol=0)


# --- the task -----------------------------------------------------------------------------


def test_generator_is_deterministic_and_splits_are_disjoint():
    a, b = data.sample_lists(300, "train", 5), data.sample_lists(300, "train", 5)
    assert a == b and a != data.sample_lists(300, "train", 6)
    held = data.sample_lists(300, "held_out", 5)
    assert not {tuple(x) for x in a} & {tuple(x) for x in held}
    for words in a + held:
        assert data.MIN_WORDS <= len(words) <= data.MAX_WORDS
        assert set(words) <= set(data.WORDS)
    assert {len(w) for w in a} == set(range(data.MIN_WORDS, data.MAX_WORDS + 1))


def test_batch_layout(tokenizer):
    ids = data.word_ids(tokenizer)
    assert len(set(ids.values())) == len(data.WORDS) == 40
    b = data.make_batch([["cat", "sun", "box"], ["dog", "egg", "key", "cup", "bus"]], ids)
    assert b.src[0].tolist() == [ids["cat"], ids["sun"], ids["box"], 1, 1]
    assert b.src_padding_mask[0].tolist() == [False] * 3 + [True] * 2
    assert b.tgt_in[0].tolist() == [0, ids["box"], ids["sun"], ids["cat"], 1, 1]
    assert b.labels[0].tolist() == [ids["box"], ids["sun"], ids["cat"], 0, -100, -100]
    assert b.tgt_padding_mask[1].tolist() == [False] * 6


@pytest.mark.parametrize("text,expect", [
    ("cat sun box", ["cat", "sun", "box"]),
    ("  Apple, milk;bread egg. ", ["apple", "milk", "bread", "egg"]),
    ("", "Type"),
    ("cat sun", "2 words"),
    ("cat " * 9, "9 words"),
    ("cat sun zebra <b>", "2 words are not"),
    ("x" * 500, "longer than"),
])
def test_parse_source(text, expect):
    if isinstance(expect, list):
        assert data.parse_source(text) == expect
    else:
        with pytest.raises(data.BadSource, match=expect) as info:
            data.parse_source(text)
        assert "zebra" not in str(info.value) and "<b>" not in str(info.value)


def test_a_few_training_steps_lower_the_loss(tokenizer):
    from explorer.training.train import lr_at, make_optimizer
    from explorer.training.train_seq2seq import Seq2SeqSettings, loss_on

    torch.manual_seed(0)
    model = tiny(vocab_size=tokenizer.vocab_size, n_layers=1, n_dec_layers=1).train()
    s = Seq2SeqSettings(steps=40, batch_size=16, lr=3e-3, warmup_steps=5)
    opt = make_optimizer(model, s)
    batches = data.train_batches(16, 0, data.word_ids(tokenizer))
    fixed = next(data.train_batches(64, 99, data.word_ids(tokenizer)))
    with torch.no_grad():
        before = loss_on(model, fixed).item()
    for step in range(s.steps):
        for group in opt.param_groups:
            group["lr"] = lr_at(step, s.steps, s)
        loss = loss_on(model, next(batches))
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        after = loss_on(model, fixed).item()
    assert after < before - 1.0, (before, after)


# --- the committed checkpoint -------------------------------------------------------------


@pytest.fixture(scope="module")
def committed(tokenizer_module):
    from explorer.views.seq2seq import CHECKPOINT, load_seq2seq

    loaded = load_seq2seq(tokenizer_module)
    if loaded.model is None:
        pytest.fail(loaded.message)
    return loaded, json.loads((CHECKPOINT_DIR / "eval" / f"{CHECKPOINT}.json").read_text())


def test_committed_checkpoint_reaches_its_stated_accuracy(committed):
    from explorer.training.train_seq2seq import evaluate

    loaded, stated = committed
    assert stated["task"] == "seq2seq" and stated["metric"] == "accuracy"
    assert stated["accuracy"] >= 0.95
    assert loaded.card["held_out_exact_match"] == stated["accuracy"]
    assert loaded.card["command"].startswith("python -m explorer.training.train --task seq2seq")
    measured = evaluate(loaded.model, loaded.ids, stated["n"])
    assert measured["exact_match"] == pytest.approx(stated["accuracy"], abs=0.003)
    assert measured["exact_match"] >= 0.95


@pytest.fixture
def tokenizer():
    from explorer.models.tokenizer import Tokenizer

    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


@pytest.fixture(scope="module")
def tokenizer_module():
    from explorer.models.tokenizer import Tokenizer

    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")
