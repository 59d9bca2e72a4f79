"""The Classify tab's endpoint (``/classify``) through gradio_client on the real app: the
default call, the mask experiment, odd input answered with a message, a choice the page
never offers refused."""

import numpy as np
import pytest

from explorer.analysis.run import MAX_CHARS
from explorer.models.zoo import CHECKPOINT_DIR
from explorer.views.classify import DEFAULT_CLASSIFIER
from tests.plotdata import figure_json, heatmaps
from tests.server import local_client

pytestmark = pytest.mark.skipif(
    not (CHECKPOINT_DIR / f"{DEFAULT_CLASSIFIER}.safetensors").exists(),
    reason="the classifier checkpoint is not trained yet")

DEFAULTS = dict(text="The little dog was not happy because the rain was cold.",
                objective="next word (causal)", heads=4, pos="rotary", mask="as trained",
                scaling="1/√d_head", temperature=1.0, layer=1, head=2, theme="light")


@pytest.fixture(scope="module")
def client(app_url):  # noqa: F811
    return local_client(app_url)


def call(client, **changes):
    return client.predict(*{**DEFAULTS, **changes}.values(), api_name="/classify")


def test_default_call_predicts_and_draws_every_head(client):
    status, probs, evidence, grid, head = call(client)
    assert "predicted: **negative**" in status and "agrees" in status
    panels = heatmaps(figure_json(grid))
    assert len(panels) == 8  # 2 layers x 4 heads
    for z in panels:  # bidirectional: weight above the diagonal, rows sum to 1
        np.testing.assert_allclose(z.sum(1), 1.0, atol=1e-4)
        assert z[np.triu_indices(z.shape[0], 1)].sum() > 0
    np.testing.assert_allclose(np.nan_to_num(heatmaps(figure_json(head))[0]), panels[4 + 2],
                               atol=1e-6)
    assert len(heatmaps(figure_json(evidence))) == 3 and figure_json(probs)["data"]


def test_mask_on_is_an_experiment(client):
    status, probs, _, grid, _ = call(client, mask="on")
    assert "Experiment on the trained model" in status and "causal mask on" in status
    z = heatmaps(figure_json(grid))[0]
    assert np.all(z[np.triu_indices(z.shape[0], 1)] == 0)
    assert len(figure_json(probs)["data"]) == 2  # now and as trained


@pytest.mark.parametrize("changes,expect", [
    (dict(text=""), "Type a sentence"),
    (dict(text="x" * (MAX_CHARS + 10)), "characters"),
    (dict(text="The weather was lovely."), "none of the feeling words"),
])
def test_odd_input_gets_a_message(client, changes, expect):
    status, *_ = call(client, **changes)
    assert expect in status


def test_a_choice_the_page_never_offers_is_refused(client):
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError):
        call(client, mask="sideways")
