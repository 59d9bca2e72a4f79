"""The app's API through gradio_client against a real server: every control, bad input."""

import numpy as np
import pytest
from gradio_client import Client

from tests.plotdata import figure_json, heatmaps

DEFAULTS = dict(text="The cat sat on the mat. The cat", objective="next word (causal)",
                heads=4, pos="rotary", mask="as trained", scaling="1/√d_head",
                temperature=1.0, layer=0, head=0, theme="light")


@pytest.fixture(scope="module")
def client(app_url):  # noqa: F811
    # ssl_verify=False: plain http on 127.0.0.1; otherwise httpx re-reads the CA bundle per call
    return Client(app_url, verbose=False, ssl_verify=False)


def call(client, **changes):
    args = {**DEFAULTS, **changes}
    return client.predict(*args.values(), api_name="/explore")


def test_default_call_returns_every_view(client):
    grid, big, lines, preds, status, table = call(client)
    panels = heatmaps(figure_json(grid))
    assert len(panels) == 16  # 4 layers x 4 heads
    n = panels[0].shape[0]
    assert panels[0].shape == (n, n) and "tokens" in status
    for z in panels:
        np.testing.assert_allclose(z.sum(1), 1.0, atol=1e-4)
        assert np.all(z[np.triu_indices(n, 1)] == 0)  # causal: nothing above the diagonal
    assert heatmaps(figure_json(big))[0].shape == (n, n)
    assert figure_json(lines)["data"] and figure_json(preds)["data"]
    assert "| H0" in table and "Experiment" not in status


def test_mask_off_is_flagged_and_shows_weight_above_diagonal(client):
    grid, *_, status, _ = call(client, mask="off")
    z = heatmaps(figure_json(grid))[0]
    assert z[np.triu_indices(z.shape[0], 1)].sum() > 0
    assert "Experiment on the trained model" in status and "causal mask off" in status


@pytest.mark.parametrize("scaling,temperature,word", [("none", 1.0, "scaling none"),
                                                      ("1/√d_model", 1.0, "scaling 1/√d_model"),
                                                      ("1/√d_head", 3.0, "temperature 3")])
def test_scaling_and_temperature_are_experiments(client, scaling, temperature, word):
    *_, status, _ = call(client, scaling=scaling, temperature=temperature)
    assert word in status


def test_layer_and_head_select_the_large_view(client):
    grid, big, *_ , table = call(client, layer=2, head=3)
    panels = heatmaps(figure_json(grid))
    large = np.nan_to_num(heatmaps(figure_json(big))[0])  # masked cells are drawn as gaps
    np.testing.assert_allclose(large, panels[2 * 4 + 3], atol=1e-6)
    assert "H3 ◀" in table


@pytest.mark.parametrize("heads", [1, 2, 8])
def test_other_head_counts_pick_their_own_model_or_say_so(client, heads):
    grid, *_, status, _ = call(client, heads=heads)
    if grid is None:
        assert f"causal-h{heads}-rotary" in status
    else:
        assert len(heatmaps(figure_json(grid))) == 4 * heads


def test_masked_word_model_predicts_at_the_mask_or_explains(client):
    grid, _, _, preds, status, _ = call(client, objective="masked word (bidirectional)",
                                        text="The cat sat on the [mask].")
    if grid is None:
        assert "bidir-h4-rotary" in status
    else:
        assert preds is not None


def test_my_lab_model_without_one_open_is_told_in_words(client):
    """A page whose session expired (or a hand-made request) still sends "my Lab model":
    the Model knob lets it through, and the view says how to open one (it was Gradio's "not
    in the list of choices" error)."""
    grid, *_, status, _ = call(client, objective="my Lab model", text="cat sun")
    assert grid is None and "No Lab model is open" in status
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match="not in the list of choices"):  # others: as before
        call(client, objective="no such model")


def test_empty_and_whitespace_text_give_a_friendly_state(client):
    for text in ("", "   \n\t "):
        grid, big, lines, preds, status, table = call(client, text=text)
        assert grid is None and "Type a sentence" in status


def test_too_long_text_is_cut_with_a_message(client):
    grid, *_, status, _ = call(client, text="word " * 2000)  # over both the character limit
    # and the model's 128 tokens: one notice says what was kept
    assert "128 tokens" in status and "The rest was left out" in status
    assert status.count("⚠️") == 1
    assert heatmaps(figure_json(grid))[0].shape == (128, 128)


@pytest.mark.parametrize("changes", [{"heads": 3}, {"pos": "spiral"}, {"mask": "sideways"}])
def test_impossible_controls_are_refused_with_a_message(client, changes):
    """Gradio refuses values outside a Radio's choices before our code runs; either way the
    caller gets a message naming the problem and the next request works normally."""
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match="not in the list of choices"):
        call(client, **changes)
    grid, *_ = call(client)
    assert grid is not None


def test_parse_controls_refuses_what_the_ui_never_offers():
    from explorer.views.controls import BadControl, parse_controls

    good = ["next word (causal)", 4, "rotary", "as trained", "1/√d_head", 1.0, 0, 0, "light"]
    assert parse_controls(*good).checkpoint() == "causal-h4-rotary"
    for i, bad in [(0, "poem"), (1, 3), (2, "spiral"), (3, "sideways"), (4, "cube"),
                   (5, float("nan")), (5, "warm"), (6, "x")]:
        args = list(good)
        args[i] = bad
        with pytest.raises(BadControl):
            parse_controls(*args)


def test_markup_in_text_never_reaches_plotly_raw(client):
    text = 'Hi <a href="https://evil.example">click</a> <span style="font-size:90px">big</span>'
    outputs = call(client, text=text)
    raw = " ".join(o["plot"] for o in outputs[:4] if o)
    for bad in ("<a href", "<span style", "</a>"):
        assert bad not in raw
    assert "&lt;" in raw or "\\u0026lt;" in raw


def test_the_queue_does_not_rebuild_gradio_analytics_after_every_event():
    """app.start_queue hands Gradio GRADIO_ENV: its monitoring summary (a pandas frame
    of up to 10,000 past events) is rebuilt once per 1,000 events, not after each."""
    import os

    import gradio as gr

    from explorer import app

    with gr.Blocks() as demo:
        gr.Button()
    app.start_queue(demo)
    assert int(app.GRADIO_ENV["GRADIO_ANALYTICS_CACHE_FREQUENCY"]) >= 1000
    expected = int(os.environ["GRADIO_ANALYTICS_CACHE_FREQUENCY"])  # ours, unless set before
    assert demo._queue.ANAYLTICS_CACHE_FREQUENCY == expected  # (sic: Gradio's spelling)
    assert demo._queue.ANALYTICS_MAX_EVENTS == int(os.environ["GRADIO_ANALYTICS_MAX_EVENTS"])
