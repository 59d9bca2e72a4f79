"""Every view the page updates runs with its models on a GPU: checked on the CPU with a
stand-in GPU (tests/fake_cuda.py), which refuses a CPU tensor fed to a "GPU" model and a
``.numpy()`` without ``.cpu()``, as CUDA would. The calls are those of the GPU check
(scripts/gpu_check.py), and the results must be exactly the CPU's (the stand-in computes
on the CPU). The real comparison, CUDA against the CPU, is ``python -m scripts.gpu_check``
on a machine with a GPU."""

import pytest

from scripts.gpu_check import CASES, Resources, load, page_calls
from scripts.page_diff import differences
from tests.fake_cuda import DeviceMix, FakeCuda

# an experiment on the default model (the "as trained" second runs) and a masked-word model
SOME = [case for case in CASES if case[0] in ("experiment", "bidir")]


@pytest.fixture(scope="module")
def twice(resources):
    tok, _ = resources
    return load("cpu", tok), load("cpu", tok)


def models(res: Resources) -> list:
    return [*res.zoo.models.values(), res.classifier.model, res.seq2seq.model,
            *(s.model for s in res.snapshots.snapshots)]


def test_every_view_runs_on_a_stand_in_gpu_with_the_cpu_numbers(twice):
    cpu, gpu = twice
    want = [(view, label, call()) for view, label, call in page_calls(cpu, SOME)]
    calls = page_calls(gpu, SOME)
    with FakeCuda() as fake:
        for model in models(gpu):
            fake.put(model)
        got = [(view, label, call()) for view, label, call in calls]
    assert {view for view, _, _ in got} >= {"keystroke grid_payload", "explore", "inside",
                                             "ablate", "classify", "seq2seq", "training"}
    for (view, label, a), (_, _, b) in zip(want, got, strict=True):
        diff = differences(a, b, atol=0.0, rtol=0.0)
        assert diff.ok, f"{view} [{label}]: {diff.problems[:3]}"


def test_the_stand_in_catches_a_cpu_tensor_and_a_numpy_of_a_gpu_one(model, tokens):
    with FakeCuda() as fake:
        fake.put(model)
        with pytest.raises(DeviceMix):
            model(tokens)  # the ids were left on the CPU
        logits = model(tokens.to(next(model.parameters()).device)).detach()
        with pytest.raises(DeviceMix):
            logits.numpy()
        assert logits.cpu().numpy().shape == (1, 11, 61)
