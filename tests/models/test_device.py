"""Choosing the device (explorer/models/device.py) and loading the zoo onto it, on a CPU
machine: the choice's order (--device, then AE_DEVICE, then auto), plain errors for a typo
or a GPU that is not there, and the zoo still loading on the CPU."""

import pytest
import torch

from explorer.models.device import DeviceError, describe, model_device, resolve_device
from explorer.models.zoo import load_zoo
from tests.conftest import tiny_model

AUTO = "cuda" if torch.cuda.is_available() else "cpu"


@pytest.mark.parametrize(("choice", "env", "expected"), [
    (None, {}, AUTO),
    ("auto", {}, AUTO),
    (" AUTO ", {}, AUTO),
    ("", {"AE_DEVICE": "cpu"}, "cpu"),
    (None, {"AE_DEVICE": "cpu"}, "cpu"),
    (None, {"AE_DEVICE": "auto"}, AUTO),
    (None, {"AE_DEVICE": ""}, AUTO),
    ("cpu", {"AE_DEVICE": "cuda:7"}, "cpu"),  # the explicit choice wins over the variable
    ("CPU", {}, "cpu"),
])
def test_the_choice_then_the_variable_then_auto(choice, env, expected):
    assert resolve_device(choice, env=env) == expected


def test_the_environment_is_read_when_no_env_is_given(monkeypatch):
    monkeypatch.setenv("AE_DEVICE", "cpu")
    assert resolve_device() == "cpu"


@pytest.mark.parametrize("bad", ["gpu", "cuda0", "cuda:", "cuda:x", "mps", "cpu:0", "tpu",
                                 "cuda:-1", "--device"])
def test_a_typo_is_a_plain_error_that_names_the_choices(bad):
    with pytest.raises(DeviceError) as info:
        resolve_device(bad, env={})
    message = str(info.value)
    assert "--device" in message and repr(bad) in message
    assert "cpu, cuda, cuda:N" in message


def test_a_typo_in_the_variable_names_the_variable():
    with pytest.raises(DeviceError, match="AE_DEVICE"):
        resolve_device(None, env={"AE_DEVICE": "gpu"})


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
@pytest.mark.parametrize("choice", ["cuda", "cuda:0", "CUDA:1"])
def test_a_gpu_where_there_is_none_is_refused_in_words(choice):
    with pytest.raises(DeviceError, match="no CUDA GPU"):
        resolve_device(choice, env={})


def test_describe_and_model_device_on_the_cpu():
    assert describe("cpu").startswith("cpu (")
    assert model_device(tiny_model()) == torch.device("cpu")


def test_the_zoo_loads_on_the_cpu_and_says_where(resources):
    tok, _ = resources
    zoo = load_zoo(vocab_size=tok.vocab_size, device="cpu")
    assert zoo.models and zoo.device == "cpu" and not zoo.unavailable
    assert {model_device(m).type for m in zoo.models.values()} == {"cpu"}
    assert zoo.to("cpu") is zoo and zoo.device == "cpu"


def test_the_seeded_stand_in_goes_to_the_device_too(tmp_path):
    zoo = load_zoo(tmp_path, vocab_size=61, device="cpu")
    assert zoo.untrained and model_device(zoo.get(zoo.default_name)).type == "cpu"


def test_app_help_names_the_device_option(capsys):
    from explorer import app

    with pytest.raises(SystemExit) as info:
        app.main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "--device" in out and "AE_DEVICE" in out


def test_app_refuses_a_bad_device_with_a_message_not_a_traceback(capsys):
    from explorer import app

    with pytest.raises(SystemExit) as info:
        app.main(["--device", "gpu"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "'gpu'" in err and "cpu, cuda, cuda:N" in err and "Traceback" not in err
