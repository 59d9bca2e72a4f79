"""Checkpoints: safetensors only, config inside, identical logits after a round trip."""

import threading

import pytest
import torch

from explorer.models.checkpoint import (
    CheckpointError,
    load_model,
    read_config,
    save_model,
    sha256_file,
    weights_from_file,
)
from tests.conftest import tiny_model


@pytest.mark.parametrize("pos_encoding", ["none", "sinusoidal", "learned", "rotary", "alibi"])
def test_save_load_gives_identical_logits(tmp_path, tokens, pos_encoding):
    model = tiny_model(pos_encoding=pos_encoding, norm="post")
    path = save_model(model, tmp_path / "m.safetensors")
    assert not list(tmp_path.glob("*.tmp"))
    loaded = load_model(path)
    assert loaded.config == model.config == read_config(path)
    torch.testing.assert_close(loaded(tokens), model(tokens), rtol=0, atol=0)


def test_skipped_init_is_this_threads_only():
    """Loading skips random init (the file overwrites it) without touching a model another
    thread builds meanwhile, and init works again afterwards."""
    inside_started, other_done = threading.Event(), threading.Event()
    other = {}

    def build_elsewhere():
        inside_started.wait(5)
        other["std"] = tiny_model().W_E.weight.std().item()
        other_done.set()

    thread = threading.Thread(target=build_elsewhere)
    thread.start()
    with weights_from_file():
        untouched = torch.zeros(64, 8)
        assert torch.nn.init.normal_(untouched) is untouched and not untouched.any()
        inside_started.set()
        assert other_done.wait(5)
    thread.join()
    assert other["std"] == pytest.approx(0.02, rel=0.3)
    assert torch.nn.init.normal_(torch.zeros(64, 8), 0.0, 1.0).std() > 0.5


def test_fp16_checkpoint_is_close(tmp_path, tokens):
    model = tiny_model()
    loaded = load_model(save_model(model, tmp_path / "m.safetensors", dtype=torch.float16))
    torch.testing.assert_close(loaded(tokens), model(tokens), atol=2e-3, rtol=0)


def test_altered_missing_and_broken_files_are_refused(tmp_path):
    path = save_model(tiny_model(), tmp_path / "m.safetensors")
    digest = sha256_file(path)
    with pytest.raises(CheckpointError, match="not found"):
        load_model(tmp_path / "nope.safetensors")
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="sha256"):
        load_model(path, expected_sha256=digest)
    path.write_bytes(b"\x80\x04not a safetensors file")  # a pickle header, for instance
    with pytest.raises(CheckpointError, match="not a readable"):
        load_model(path)


def test_nan_weights_are_refused(tmp_path):
    model = tiny_model()
    with torch.no_grad():
        model.blocks[0].attn.W_Q.weight[0, 0] = float("nan")
    path = save_model(model, tmp_path / "nan.safetensors")
    with pytest.raises(CheckpointError, match="NaN"):
        load_model(path)


def test_shape_mismatch_is_refused(tmp_path):
    from safetensors.torch import load_file, save_file

    path = save_model(tiny_model(), tmp_path / "m.safetensors")
    from safetensors import safe_open
    with safe_open(str(path), framework="pt") as f:
        meta = f.metadata()
    tensors = load_file(str(path))
    tensors["blocks.0.attn.W_Q.weight"] = torch.zeros(3, 3)
    save_file(tensors, str(path), metadata=meta)
    with pytest.raises(CheckpointError, match="shape"):
        load_model(path)
