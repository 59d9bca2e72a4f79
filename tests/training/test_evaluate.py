"""The evaluation metrics: hand-built patterns score what they should, untrained models
give numbers in range, and the bigram baseline matches a hand computation."""

import math
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from explorer.models.tokenizer import Tokenizer
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.training import evaluate as ev
from explorer.training import head_scores as hs
from explorer.training.baseline import K_GRID, Bigram, bigram_counts, fit_bigram, masked_log_prob
from explorer.training.data import random_batches
from explorer.training.train import TrainSettings
from explorer.training.train import evaluate as trainer_evaluate
from tests.conftest import tiny_model


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.load(CHECKPOINT_DIR / "tokenizer.json")


def one_head(pattern: torch.Tensor, layers=2, heads=3, at=(1, 2)) -> torch.Tensor:
    """[layer, batch, head, n, n]: ``pattern`` [batch, n, n] at (layer, head) ``at``,
    uniform causal attention everywhere else."""
    batch, n, _ = pattern.shape
    out = hs.uniform_patterns(layers, batch, heads, n, causal=True).clone()
    out[at[0], :, at[1]] = pattern
    return out


# --- attention-pattern metrics ---------------------------------------------------------


def test_perfect_previous_token_head_scores_one():
    n = 10
    prev = torch.zeros(2, n, n)
    prev[:, 0, 0] = 1.0
    prev[:, torch.arange(1, n), torch.arange(n - 1)] = 1.0
    scores = hs.previous_token_scores(one_head(prev))
    assert scores.shape == (2, 3)
    assert hs.best_head(scores) == {"layer": 1, "head": 2, "score": 1.0}
    # uniform causal attention: row i gives 1/(i+1) to its previous token
    expected = np.mean([1 / (i + 1) for i in range(1, n)])
    assert scores[0, 0] == pytest.approx(expected)


def test_induction_mask_points_after_the_earlier_occurrence():
    tokens = torch.tensor([[5, 7, 9, 5, 7, 5]])
    mask = hs.induction_mask(tokens)[0]
    hits = {(q, k) for q, k in zip(*mask.nonzero(as_tuple=True), strict=True)}
    hits = {(int(q), int(k)) for q, k in hits}
    # 5 at 3 -> key 1 (after the 5 at 0); 7 at 4 -> key 2; 5 at 5 -> keys 1 and 4
    assert hits == {(3, 1), (4, 2), (5, 1), (5, 4)}


def test_perfect_induction_head_is_found_and_previous_token_head_is_not():
    L = 6
    tokens = hs.repeated_sequences(np.arange(10, 40), n_seqs=3, length=L, seed=0, bos=0)
    assert tokens.shape == (3, 1 + 2 * L)
    assert torch.equal(tokens[:, 1:L + 1], tokens[:, L + 1:])
    n = tokens.shape[1]
    induction = torch.eye(n).repeat(3, 1, 1)  # start from "attend to yourself"
    for q in range(L + 1, n):  # second copy: attend to the token after the first occurrence
        induction[:, q] = 0
        induction[:, q, q - L + 1] = 1.0
    targets = hs.induction_mask(tokens)
    queries = torch.zeros(tokens.shape, dtype=torch.bool)
    queries[:, L + 1:] = True
    scores = hs.induction_scores(one_head(induction, at=(0, 1)), targets, queries)
    assert hs.best_head(scores) == {"layer": 0, "head": 1, "score": 1.0}
    prev = torch.zeros(3, n, n)
    prev[:, 0, 0] = 1
    prev[:, torch.arange(1, n), torch.arange(n - 1)] = 1
    prev_scores = hs.induction_scores(one_head(prev, at=(0, 1)), targets, queries)
    assert prev_scores[0, 1] == 0.0


def test_untrained_model_metrics_are_in_range():
    model = tiny_model(seed=3)  # 2 layers, 4 heads, vocab 61, n_ctx 24
    tokens = hs.repeated_sequences(np.arange(3, 61), n_seqs=4, length=10, seed=1, bos=0)
    logits, patterns = hs.patterns_of(model, tokens)
    assert patterns.shape == (2, 4, 4, 21, 21)
    torch.testing.assert_close(patterns.sum(-1), torch.ones(2, 4, 4, 21))
    prev = hs.previous_token_scores(patterns)
    queries = torch.zeros(tokens.shape, dtype=torch.bool)
    queries[:, 11:] = True
    ind = hs.induction_scores(patterns, hs.induction_mask(tokens), queries)
    for scores in (prev, ind):
        assert scores.shape == (2, 4)
        assert np.all((scores >= 0) & (scores <= 1))
    # an untrained model spreads attention: nowhere near a clean head
    assert prev.max() < 0.9 and ind.max() < 0.5
    losses = hs.token_losses(logits, tokens)
    assert losses.shape == (4, 20)
    assert abs(losses.mean().item() - math.log(61)) < 0.5  # about uniform guessing


def test_the_evaluations_list_check_extends_the_training_curves_one(tok):
    """The 12 quick lists of the training curves are the first 12 of the evaluation's 192,
    and the evaluation reports each share with its interval."""
    assert hs.everyday_lists(tok, n=hs.LIST_N_EVAL)[:hs.LIST_N] == hs.everyday_lists(tok)
    from explorer.models.checkpoint import load_model

    model = load_model(CHECKPOINT_DIR / "causal-h4-rotary.safetensors")
    r = ev.lists_with_interval(model, tok)
    assert r["lists"] == r["comma"]["lists"] == hs.LIST_N_EVAL
    assert len(r["guesses"]) == hs.LIST_N  # (the file stays small)
    for part in (r, r["comma"]):
        lo, hi = part["ci95"]
        assert lo <= part["continued"] / part["lists"] <= hi and hi - lo < 0.16


def test_wilson_interval():
    lo, hi = ev.wilson(50, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert ev.wilson(0, 10)[0] == 0.0 and ev.wilson(10, 10)[1] == pytest.approx(1.0)


# --- bigram baseline -------------------------------------------------------------------


def test_bigram_matches_hand_computation():
    stream = np.array([0, 1, 0, 1, 1], dtype=np.uint16)
    counts = bigram_counts(stream, 2)
    assert counts.tolist() == [[0, 2], [1, 1]]
    bigram = fit_bigram(stream, 2, k_grid=(1.0,))
    # add-one: P(1|0) = (2+1)/(2+2), P(0|1) = (1+1)/(2+2)
    assert bigram.loss(np.array([0, 1]), np.array([1, 0])) == pytest.approx(
        -(math.log(3 / 4) + math.log(1 / 2)) / 2)
    table = bigram.log_table()
    assert torch.allclose(table.exp().sum(1), torch.ones(2))
    # both neighbours: P(t | l=0, r=0) ∝ P(t|0) P(0|t) = [1/4 * 1/4, 3/4 * 2/4]
    unnorm = np.array([1 / 16, 6 / 16])
    logp = masked_log_prob(table, bigram.log_unigram(), torch.tensor([0, -1]),
                           torch.tensor([0, -1]), torch.tensor([1, 1]))
    assert logp[0].item() == pytest.approx(math.log(unnorm[1] / unnorm.sum()), rel=1e-5)
    # no neighbours at all: the add-one unigram of the next-token counts, P(1) = (3+1)/(4+2)
    assert logp[1].item() == pytest.approx(math.log(4 / 6), rel=1e-5)


def test_fit_bigram_picks_small_k_for_a_deterministic_stream():
    stream = np.tile(np.arange(8, dtype=np.uint16), 200)  # 0 1 2 ... 7 0 1 ...
    assert fit_bigram(stream, 8).k == min(K_GRID)


def test_loss_vs_bigram_uses_the_trainers_validation_batches():
    model = tiny_model(seed=0)
    fake_tok = SimpleNamespace(mask_id=2, vocab_size=61)
    stream = np.random.default_rng(0).integers(3, 61, size=3000).astype(np.uint16)
    s = TrainSettings(batch_size=2)
    bigram = Bigram(bigram_counts(stream, 61), k=1.0)
    out = ev.loss_vs_bigram(model, fake_tok, s, stream, bigram, n_batches=3)
    same = trainer_evaluate(model, stream, model.config, fake_tok, s, "cpu", 3)
    assert out["val_loss_fp16"] == pytest.approx(same, abs=1e-4)
    assert out["target_tokens"] == 3 * 2 * 24
    # the bigram is scored on the very same (current, next) pairs
    gen = torch.Generator().manual_seed(ev.VAL_SEED)
    batches = random_batches(stream, 2, 24, gen)
    by_hand = np.mean([bigram.loss(x.numpy().ravel(), y.numpy().ravel())
                       for x, y in (next(batches) for _ in range(3))])
    assert out["bigram_val_loss"] == pytest.approx(by_hand, abs=1e-4)
    assert out["gap_to_bigram"] == pytest.approx(by_hand - same, abs=2e-4)
    bidir = tiny_model(seed=0, causal=False)
    masked = ev.loss_vs_bigram(bidir, fake_tok, s, stream, bigram, n_batches=3)
    assert 0 < masked["target_tokens"] < 3 * 2 * 24
    assert masked["bigram_kind"].startswith("masked")
    assert math.isfinite(masked["bigram_val_loss"])


# --- probe-based measurements on untrained models with the real tokenizer ---------------


def test_agreement_and_pronoun_give_shares(tok):
    causal = tiny_model(seed=1, vocab_size=tok.vocab_size, n_ctx=64)
    a = ev.agreement(causal, tok, train_bytes=np.zeros(5, np.uint16).tobytes())
    assert a["pairs"] == 200 and a["unseen_pairs"] == 200
    assert 0 <= a["ci95"][0] <= a["accuracy"] <= a["ci95"][1] <= 1
    assert 0.5 <= a["majority_baseline"] <= 1
    bidir = tiny_model(seed=1, vocab_size=tok.vocab_size, n_ctx=64, causal=False)
    p = ev.pronoun(bidir, tok)
    shares = np.array(p["referent_share"])
    assert shares.shape == (2, 4) and np.all((shares >= 0) & (shares <= 1))
    best = p["best"]
    # share = mean of the two variants' shares (the report set alternates them evenly)
    assert best["share"] == pytest.approx((best["share_when_referent_is_animal"]
                                           + best["share_when_referent_is_object"]) / 2,
                                          abs=1e-3)
    assert p["emerged"] in (True, False)


def test_token_at_finds_the_pronoun_and_nouns(tok):
    text = "The dog didn't cross the street because it was too wide."
    pieces = tok.token_pieces(text)
    assert pieces[ev.token_at(tok, text, text.index("it was"))][1] == " it"
    assert pieces[ev.token_at(tok, text, text.index("street"))][1] == " street"
    assert ev.find_subsequence([1, 2, 3, 1, 2], [1, 2]) == [0, 3]


def test_occurs_in_ignores_matches_across_token_boundaries():
    # as bytes, 0x0201 0x0403 contains 0x0302 at an odd offset: not a token match
    stream = np.array([0x0201, 0x0403, 7, 8], dtype=np.uint16).tobytes()
    assert not ev.occurs_in(stream, [0x0302])
    assert ev.occurs_in(stream, [0x0403, 7]) and ev.occurs_in(stream, [7, 8])
    assert not ev.occurs_in(stream, [8, 7])


def test_induction_names_on_an_untrained_model(tok):
    model = tiny_model(seed=2, vocab_size=tok.vocab_size, n_ctx=128)
    out = ev.induction_names(model, tok)
    assert out["query_tokens"] > 50
    assert 0 <= out["best"]["score"] <= 1 and 0 < out["chance"] < 1
    assert out["name_loss_first_mention"] > 0 and out["name_loss_later_mentions"] > 0
