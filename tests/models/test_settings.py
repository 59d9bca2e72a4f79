"""Runtime settings resolve against the checkpoint's training config and name interventions."""

import pytest

from explorer.models.settings import AttentionSettings
from tests.conftest import tiny_config


def test_defaults_are_as_trained_and_not_an_intervention():
    for causal in (True, False):
        config = tiny_config(causal=causal, attn_scale="d_model")
        rs = AttentionSettings().resolve(config)
        assert rs.causal is causal and rs.scale_name == "d_model"
        assert rs.scale == pytest.approx(32 ** -0.5)
        assert not rs.is_intervention


@pytest.mark.parametrize("settings,word", [
    (AttentionSettings(causal=False), "causal mask off"),
    (AttentionSettings(scale="none"), "scaling none"),
    (AttentionSettings(temperature=3.0), "temperature 3"),
    (AttentionSettings(head_mask=((0, 1),)), "L0H1"),
])
def test_each_change_is_flagged(settings, word):
    rs = settings.resolve(tiny_config())
    assert rs.is_intervention and any(word in i for i in rs.interventions)


def test_the_words_say_what_training_had_and_what_changed():
    """"causal mask off (trained with it)" read as if the model was trained with the mask
    off (#30): the note says how the model was trained, in the knobs' own words."""
    on = AttentionSettings(causal=False, scale="d_model").resolve(tiny_config(causal=True))
    assert on.interventions == ("causal mask off (the model was trained with it on)",
                                "scaling 1/√d_model (the model was trained with 1/√d_head)")
    off = AttentionSettings(causal=True).resolve(tiny_config(causal=False))
    assert off.interventions == ("causal mask on (the model was trained with it off)",)


def test_setting_equal_to_training_is_not_flagged():
    assert not AttentionSettings(causal=True, scale="d_head").resolve(tiny_config()).interventions


@pytest.mark.parametrize("bad", [
    AttentionSettings(scale="cube"), AttentionSettings(temperature=0),
    AttentionSettings(temperature=float("nan")), AttentionSettings(head_mask=((5, 0),)),
])
def test_invalid_settings_are_refused(bad):
    with pytest.raises(ValueError):
        bad.resolve(tiny_config())
