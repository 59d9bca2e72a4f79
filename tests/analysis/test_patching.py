"""Activation patching, the logit lens and direct logit attribution, against hand
computations on tiny seeded models (and the issue's example on the default model)."""

import threading

import numpy as np
import pytest
import torch

from explorer.analysis.logit_lens import (
    attribute,
    direct_logit_attribution,
    lens_logits,
    logit_lens,
)
from explorer.analysis.patching import (
    CAPTURED,
    HEAD_HOOK,
    RESID_HOOK,
    logit_diff,
    patch,
    patch_one,
    patched_logits,
    shares,
)
from explorer.models.capture import run_with_cache
from explorer.models.settings import AttentionSettings
from tests.conftest import tiny_model

CLEAN = [5, 17, 3, 40, 22, 9, 17, 3, 40, 22]
CORRUPT = [5, 17, 3, 41, 22, 9, 17, 3, 40, 22]  # one token changed (position 3)
# The tiny models' two runs differ by less than the page's MIN_GAP: the arithmetic tests
# below share out whatever difference there is.
ANY_GAP = 1e-4


def lively(model):
    """Weights 5x their tiny init: the two sentences' guesses then differ clearly (at
    GPT-2's init a post-norm model's logit difference barely moves with one token)."""
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() == 2:
                p.mul_(5)
    return model


def _caches(model, a=CLEAN, b=CORRUPT):
    la, ca = run_with_cache(model, torch.tensor(a), names=CAPTURED)
    lb, cb = run_with_cache(model, torch.tensor(b), names=CAPTURED)
    return la[0], ca, lb[0], cb


def test_head_patch_matches_a_hand_computation():
    # Attention only, last layer: patching head h changes the final residual stream by
    # exactly (z_clean[h] - z_corrupt[h]) @ W_O_h^T at the last position; nothing after it.
    model = tiny_model(seed=3, mlp=False)
    _, clean, corrupt_logits, corrupt = _caches(model)
    last, d_head = model.config.n_layers - 1, model.config.d_head
    w_o = model.blocks[last].attn.W_O.weight.detach()
    for h in range(model.config.n_heads):
        name = f"blocks.{last}.attn.hook_z"
        dz = clean[name][0, h, -1] - corrupt[name][0, h, -1]
        resid = corrupt[f"blocks.{last}.hook_resid_post"][0, -1] \
            + dz @ w_o[:, h * d_head:(h + 1) * d_head].T
        by_hand = model.W_U(model.ln_final(resid)).detach()
        got = patched_logits(model, torch.tensor(CORRUPT), clean, HEAD_HOOK, [(last, h)])[0]
        torch.testing.assert_close(got, by_hand, atol=1e-5, rtol=1e-4)
        assert not torch.allclose(got, corrupt_logits, atol=1e-6)  # the patch did something


def test_patching_a_run_with_its_own_values_changes_nothing():
    model = tiny_model(seed=1)
    _, _, corrupt_logits, corrupt = _caches(model)
    n, cfg = len(CORRUPT), model.config
    cells = [(la, h) for la in range(cfg.n_layers) for h in range(cfg.n_heads)]
    got = patched_logits(model, torch.tensor(CORRUPT), corrupt, HEAD_HOOK, cells)
    torch.testing.assert_close(got, corrupt_logits[-1].expand_as(got), atol=1e-5, rtol=0)
    cells = [(la, p) for la in range(cfg.n_layers) for p in range(n)]
    got = patched_logits(model, torch.tensor(CORRUPT), corrupt, RESID_HOOK, cells)
    torch.testing.assert_close(got, corrupt_logits[-1].expand_as(got), atol=1e-5, rtol=0)


def test_attribute_runs_once_and_a_head_switched_off_pushes_nothing():
    model = tiny_model(seed=9)
    logits, cache = run_with_cache(model, torch.tensor(CLEAN), names=CAPTURED)
    whole = attribute(model, CLEAN, 11, 29)
    np.testing.assert_allclose(whole.heads, direct_logit_attribution(model, cache, 11, 29).heads)
    off = attribute(model, CLEAN, 11, 29, settings=AttentionSettings(head_mask=((1, 2),)))
    assert off.heads[1, 2] == 0.0 and whole.heads[1, 2] != 0.0
    ablated, _ = run_with_cache(model, torch.tensor(CLEAN),
                                AttentionSettings(head_mask=((1, 2),)), names=[])
    assert off.total == pytest.approx(float(ablated[0, -1, 11] - ablated[0, -1, 29]), abs=1e-5)


@pytest.mark.parametrize("norm", ["pre", "post", "none"])
def test_patching_the_whole_residual_stream_restores_exactly_one(norm):
    model = lively(tiny_model(seed=2, norm=norm))
    p = patch(model, CLEAN, CORRUPT, min_gap=ANY_GAP)
    assert p.restorable and p.ld_clean != pytest.approx(p.ld_corrupt)
    cells = [(la, None) for la in range(model.config.n_layers)]
    ld = logit_diff(patched_logits(model, torch.tensor(CORRUPT), p.clean, RESID_HOOK, cells),
                    p.answer, p.wrong)
    share = (ld - p.ld_corrupt) / (p.ld_clean - p.ld_corrupt)
    # 1 up to float32 rounding: the patched batch runs the last norm and unembedding in
    # another batch shape than the clean run (and torch's thread count changes the kernel),
    # ~1e-4 of a logit, divided by the gap
    np.testing.assert_allclose(share.numpy(), 1.0, atol=1e-3)
    # Per position: only the changed token (3) and later ones can carry anything in a causal
    # model; before it the two runs are identical, so those cells restore exactly 0.
    assert model.config.causal
    assert not p.positions[:, :3].any()  # not run at all: exactly 0
    assert np.abs(p.positions[:, 3:]).max() > 0.01
    # ... and the places skipped restore what running them gives (0, up to float32)
    every = [(la, i) for la in range(model.config.n_layers) for i in range(len(CLEAN))]
    ld = logit_diff(patched_logits(model, torch.tensor(CORRUPT), p.clean, RESID_HOOK, every),
                    p.answer, p.wrong)
    ran = shares(ld, p.ld_clean, p.ld_corrupt).reshape(p.positions.shape)
    np.testing.assert_allclose(ran, p.positions, atol=1e-3)


def test_batched_cells_equal_one_at_a_time():
    model = tiny_model(seed=4)
    p = patch(model, CLEAN, CORRUPT, min_gap=ANY_GAP)
    for layer, head in [(0, 1), (1, 3)]:
        probs = patch_one(model, CORRUPT, p.clean, HEAD_HOOK, layer, head)
        ld = np.log(probs[p.answer]) - np.log(probs[p.wrong])  # log-softmax keeps differences
        share = (ld - p.ld_corrupt) / (p.ld_clean - p.ld_corrupt)
        assert share == pytest.approx(p.heads[layer, head], abs=1e-3)


def test_answer_and_competitor_and_identical_sentences():
    model = tiny_model(seed=5)
    p = patch(model, CLEAN, CORRUPT, min_gap=ANY_GAP)
    assert p.answer == int(np.argmax(p.clean_logits))
    top_corrupt = int(np.argmax(p.corrupt_logits))
    assert p.wrong == (top_corrupt if top_corrupt != p.answer
                       else int(np.argsort(p.corrupt_logits)[-2]))
    same = patch(model, CLEAN, CLEAN, min_gap=ANY_GAP)  # nothing differs: no division by 0
    assert not same.restorable and same.heads is None and same.positions is None
    with pytest.raises(ValueError, match="same number of tokens"):
        patch(model, CLEAN, CORRUPT[:-1])


def test_hooks_are_removed_and_other_threads_are_untouched():
    model = tiny_model(seed=6)
    _, clean, _, _ = _caches(model)
    points = model.hook_points()
    seen = {}

    def other_request():  # a forward pass in another thread while this one patches
        with torch.inference_mode():
            seen["logits"] = model(torch.tensor([CORRUPT]))[0, -1]

    original = points["blocks.0.attn.hook_z"].forward

    def slow_forward(x):  # give the other thread a forward pass with our hook registered
        if "logits" not in seen and threading.current_thread() is threading.main_thread():
            seen["logits"] = None
            t = threading.Thread(target=other_request)
            t.start()
            t.join()
        return original(x)

    points["blocks.0.attn.hook_z"].forward = slow_forward
    try:
        patched_logits(model, torch.tensor(CORRUPT), clean, HEAD_HOOK, [(0, None)])
    finally:
        del points["blocks.0.attn.hook_z"].forward
    with torch.inference_mode():
        plain = model(torch.tensor([CORRUPT]))[0, -1]
    torch.testing.assert_close(seen["logits"], plain)  # the patch never reached it
    assert all(not pt._forward_hooks for pt in points.values())


@pytest.mark.parametrize("norm", ["pre", "none"])
@pytest.mark.parametrize("mlp", [True, False])
def test_dla_parts_sum_to_the_logit_difference(norm, mlp):
    model = tiny_model(seed=7, norm=norm, mlp=mlp, pos_encoding="learned")
    logits, cache = run_with_cache(model, torch.tensor(CLEAN), names=CAPTURED)
    answer, wrong = 11, 29
    dla = direct_logit_attribution(model, cache, answer, wrong)
    want = float(logits[0, -1, answer] - logits[0, -1, wrong])
    assert dla.total == pytest.approx(want, abs=1e-5)
    assert dla.heads.shape == (2, 4) and np.abs(dla.heads).max() > 0
    if not mlp:
        assert not dla.mlps.any()


def test_dla_of_one_head_by_hand_and_none_for_post_norm():
    model = tiny_model(seed=8)
    _, cache = run_with_cache(model, torch.tensor(CLEAN), names=CAPTURED)
    dla = direct_logit_attribution(model, cache, 11, 29)
    d_head = model.config.d_head
    out = cache["blocks.1.attn.hook_z"][0, 2, -1] \
        @ model.blocks[1].attn.W_O.weight.detach()[:, 2 * d_head:3 * d_head].T
    resid = cache["blocks.1.hook_resid_post"][0, -1]
    ln = model.ln_final
    scaled = (out - out.mean()) / torch.sqrt(resid.var(unbiased=False) + ln.eps) * ln.weight
    by_hand = float(scaled.detach() @ (model.W_U.weight[11] - model.W_U.weight[29]).detach())
    assert dla.heads[1, 2] == pytest.approx(by_hand, abs=1e-6)
    post = tiny_model(seed=8, norm="post")
    _, cache = run_with_cache(post, torch.tensor(CLEAN), names=CAPTURED)
    assert direct_logit_attribution(post, cache, 11, 29) is None


@pytest.mark.parametrize("norm", ["pre", "post", "none"])
def test_logit_lens_last_layer_is_the_model(norm):
    model = tiny_model(seed=9, norm=norm)
    logits, cache = run_with_cache(model, torch.tensor(CLEAN), names=CAPTURED)
    torch.testing.assert_close(lens_logits(model, cache)[-1], logits[0], atol=1e-5, rtol=1e-5)
    lens = logit_lens(model, cache)
    assert lens.top_ids.shape == (2, len(CLEAN), 5)
    np.testing.assert_array_equal(lens.top_ids[-1, :, 0], logits[0].argmax(-1).numpy())
    assert (np.diff(lens.top_probs, axis=-1) <= 0).all()


# --------------------------------------------------------------------------- the default model

EXAMPLE_CLEAN = ("Tim wrote a list: apple chair river moon shoe bell cup. "
                 "He read it again: apple chair river moon shoe")
EXAMPLE_CORRUPT = EXAMPLE_CLEAN.replace("moon shoe bell", "moon sock bell")


def test_the_issue_example_on_the_default_model(resources):
    """The numbers the Patch view's text and README quote (issue 33)."""
    from explorer.analysis.run import prepare

    tok, zoo = resources
    model = zoo.get(zoo.default_name)
    a = prepare(tok, EXAMPLE_CLEAN, model.config.n_ctx, False).ids
    b = prepare(tok, EXAMPLE_CORRUPT, model.config.n_ctx, False).ids
    p = patch(model, a, b)
    assert tok.decode([p.answer]) == " bell"
    heads = p.heads
    assert np.unravel_index(np.argmax(heads), heads.shape) == (3, 2)
    assert heads[3, 2] >= 0.95  # the induction head
    assert heads[2, 0] == pytest.approx(0.73, abs=0.03)
    assert heads[1, 1] == pytest.approx(0.22, abs=0.03)  # the previous-token head
    others = np.delete(heads.ravel(), [3 * 4 + 2, 2 * 4 + 0, 1 * 4 + 1])
    assert np.abs(others).max() < 0.05


def test_the_command_line_prints_the_same_numbers(resources, capsys):
    import json

    from explorer.analysis.patching import main

    assert main(["--clean", EXAMPLE_CLEAN, "--corrupt", EXAMPLE_CORRUPT, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    tok, zoo = resources
    assert tok.decode([out["answer_id"]]) == " bell"
    assert out["heads"][3][2] >= 0.95 and len(out["positions"]) == 4
    assert out["lens"][-1] == out["answer_id"]  # the last layer's lens is the model's guess
    with pytest.raises(SystemExit) as exc:
        main(["--clean", "one two", "--corrupt", "one", "--json"])
    assert exc.value.code == 2
    assert "same number of tokens" in capsys.readouterr().err


def test_head_shares_agree_with_an_independent_patch_of_the_default_model(resources):
    """Each head patched a second way: its slice of ``hook_concat`` ([batch, pos, d_model],
    heads side by side) overwritten by a plain hook of this test, one run per head."""
    from explorer.analysis.run import prepare

    tok, zoo = resources
    model = zoo.get(zoo.default_name)
    pairs = [(EXAMPLE_CLEAN, EXAMPLE_CORRUPT),
             ("red green blue red green", "red green blue red yellow"),
             ("The doctor said that she", "The teacher said that she")]
    d_head = model.config.d_head
    for clean_text, corrupt_text in pairs:
        a = prepare(tok, clean_text, model.config.n_ctx, False).ids
        b = prepare(tok, corrupt_text, model.config.n_ctx, False).ids
        p = patch(model, a, b, min_gap=ANY_GAP)  # the arithmetic, whatever the gap
        _, clean = run_with_cache(model, torch.tensor(a), names="*hook_concat")
        for layer in range(model.config.n_layers):
            for head in range(model.config.n_heads):
                cut = slice(head * d_head, (head + 1) * d_head)
                source = clean[f"blocks.{layer}.attn.hook_concat"]

                def swap(module, inputs, output, cut=cut, source=source):
                    output = output.clone()
                    output[..., cut] = source[..., cut]
                    return output

                point = model.hook_points()[f"blocks.{layer}.attn.hook_concat"]
                handle = point.register_forward_hook(swap)
                try:
                    with torch.inference_mode():
                        logits = model(torch.tensor([b]))[0, -1]
                finally:
                    handle.remove()
                ld = float(logits[p.answer] - logits[p.wrong])
                share = (ld - p.ld_corrupt) / (p.ld_clean - p.ld_corrupt)
                assert share == pytest.approx(p.heads[layer, head], abs=0.02)


# Both sentences make the default model guess " hat": their logit differences are almost
# equal (0.013 apart), and shares of that gap ran from -7.9 to 8.5 (issue 42).
SAME_GUESS = ("Tom has a red hat and Sam has a blue cap. Tom has a red",
              "Tom has a red hat and Sam has a blue cap. Sam has a red")


def test_runs_that_prefer_the_answer_about_equally_get_no_shares(resources, capsys):
    import json

    from explorer.analysis.patching import MIN_GAP, main
    from explorer.analysis.run import prepare
    from explorer.views.controls import Controls
    from explorer.views.patch import patch_view

    tok, zoo = resources
    model = zoo.get(zoo.default_name)
    a, b = (prepare(tok, t, model.config.n_ctx, False).ids for t in SAME_GUESS)
    p = patch(model, a, b)
    assert abs(p.ld_clean - p.ld_corrupt) < MIN_GAP and p.same_guess
    assert not p.restorable and p.heads is None and p.positions is None
    # the same pair with any gap at all shares it out: what the threshold keeps off the page
    blown = patch(model, a, b, min_gap=ANY_GAP)
    assert np.abs(blown.heads).max() > 2
    # the command line agrees with the page: the answer, the competitor, and no shares
    assert main(["--clean", SAME_GUESS[0], "--corrupt", SAME_GUESS[1], "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["answer_id"], out["wrong_id"]) == (p.answer, p.wrong)
    assert out["heads"] is None and out["positions"] is None and out["same_guess"] is True
    view = patch_view(zoo, tok, *SAME_GUESS, Controls())
    assert view.heads is None and "No shares" in view.status and "hat" in view.status
    # a pair that changes the guess still gets its shares, as the page's first example does
    c, d = (prepare(tok, t, model.config.n_ctx, False).ids for t in (EXAMPLE_CLEAN,
                                                                    EXAMPLE_CORRUPT))
    assert patch(model, c, d).restorable
