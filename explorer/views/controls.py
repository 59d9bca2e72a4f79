"""The knobs' values as the page offers them, read and checked for one request.

Every view takes the same controls (model, heads, positional encoding, mask, scaling,
temperature, layer, head, colours), named as :class:`Controls`' fields
(:data:`CONTROL_NAMES`). Two edges read them, once per request: :func:`parse_controls` the
values a Gradio event passes by position (``Panel.inputs`` order after the text), and
:func:`read_controls` a keystroke's knobs by name (``{"objective": ..., "heads": ...}``,
static/live_grid.js ``AttentionExplorer.grid.request``). Both refuse a value the page never
offers with :class:`BadControl` (a hand-made request), naming no value back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import NamedTuple

import numpy as np

from explorer.analysis.run import MAX_CHARS, TOKENS_HELP, plural
from explorer.analysis.stages import Picked, pick
from explorer.models.settings import AttentionSettings
from explorer.models.zoo import LAB_MODEL_NAME, checkpoint_name

# What the page reads from the layers below, all through this module (``explorer/ui/`` imports only
# from ``explorer.views``): the sentence box's limit, the tokens' explanation, plurals.
__all__ = ["BOX_CHARS", "EMPTY_STATE", "HEADS", "LAB_OBJECTIVE", "MASK_CHOICES", "MAX_CHARS",
           "OBJECTIVES",
           "POSITIONAL", "SCALE_CHOICES", "TEMPERATURE_RANGE", "TOKENS_HELP", "BadControl",
           "CONTROL_NAMES", "KNOBS", "Controls", "KnobChoices", "parse_controls", "plural",
           "picked_or_status", "read_controls"]

# Control choices as the UI shows them -> values the engine understands.
OBJECTIVES = {"next word (causal)": "causal", "masked word (bidirectional)": "bidir"}
# A third Model choice, offered only to a session that opened its own Lab model
# (explorer/views/lab_models.py); its checkpoint is that session's model, not the zoo's.
LAB_OBJECTIVE = "my Lab model"
HEADS = (1, 2, 4, 8)
POSITIONAL = ("none", "sinusoidal", "learned", "rotary", "alibi")
MASK_CHOICES = {"as trained": None, "on": True, "off": False}
SCALE_CHOICES = {"1/√d_head": "d_head", "1/√d_model": "d_model", "none": "none"}
TEMPERATURE_RANGE = (0.1, 5.0)
# What a text box keeps: a long paste stays whole in the box (a box that cut it at MAX_CHARS
# did so silently); the server reads the first MAX_CHARS and the status says so.
BOX_CHARS = 10 * MAX_CHARS
EMPTY_STATE = ("✏️ Type a sentence above (or pick an example) to see what every attention "
               "head does with it.")


class KnobChoices(NamedTuple):
    """What the knobs offer, as one table: a set of knobs (Compare's right side) lists it,
    and the browser engine reads it as JSON under these field names
    (explorer/views/engine_texts.py: static/engine/payload.js checks a keystroke with it)."""

    objectives: dict[str, str]  # the Model knob's labels -> objective
    masks: dict[str, bool | None]  # None: as trained
    scales: dict[str, str]  # the Scaling knob's labels -> AttentionSettings.scale
    temperature_range: tuple[float, float]
    heads: tuple[int, ...]
    positional: tuple[str, ...]
    lab: str  # the Model choice of a session's own Lab model


KNOBS = KnobChoices(OBJECTIVES, MASK_CHOICES, SCALE_CHOICES, TEMPERATURE_RANGE, HEADS,
                    POSITIONAL, LAB_OBJECTIVE)


@dataclass
class Controls:
    objective: str = "next word (causal)"
    heads: int = 4
    pos: str = "rotary"
    mask: str = "as trained"
    scaling: str = "1/√d_head"
    temperature: float = 1.0
    layer: int = 0
    head: int = 0
    theme: str = "light"

    @property
    def lab(self) -> bool:
        """The student's own Lab model is chosen (Heads and Positional do not apply)."""
        return self.objective == LAB_OBJECTIVE

    def checkpoint(self) -> str:
        if self.lab:
            return LAB_MODEL_NAME
        return checkpoint_name(OBJECTIVES[self.objective], int(self.heads), self.pos)

    def named(self) -> dict:
        """The knobs by name (a payload echoes them; :func:`read_controls` reads them back)."""
        return asdict(self)

    def settings(self) -> AttentionSettings:
        low, high = TEMPERATURE_RANGE
        return AttentionSettings(causal=MASK_CHOICES[self.mask],
                                 scale=SCALE_CHOICES[self.scaling],
                                 temperature=float(np.clip(float(self.temperature), low, high)))


class BadControl(ValueError):
    """A control value the UI never offers (a hand-made request): refused with a message."""


# The knobs' names, in the order Gradio's events pass them (parse_controls) and the page's
# live loop lists them after "text" (explorer/ui/controls.KNOB_NAMES).
CONTROL_NAMES = tuple(f.name for f in fields(Controls))


def parse_controls(objective, heads, pos, mask, scaling, temperature, layer, head,
                   theme) -> Controls:
    try:
        controls = Controls(str(objective), int(heads), str(pos), str(mask), str(scaling),
                            float(temperature), int(layer), int(head),
                            "dark" if theme == "dark" else "light")
    # (OverflowError: int() of an infinite float.) The message names no value: nothing echoed
    except (TypeError, ValueError, OverflowError) as exc:
        raise BadControl("A control value could not be read.") from exc
    if (controls.objective not in (*OBJECTIVES, LAB_OBJECTIVE)
            or controls.heads not in HEADS
            or controls.pos not in POSITIONAL or controls.mask not in MASK_CHOICES
            or controls.scaling not in SCALE_CHOICES
            or not np.isfinite(controls.temperature)):
        raise BadControl("That combination of controls is not offered.")
    return controls


def read_controls(named) -> Controls:
    """A keystroke's knobs by name, ``{name: value}`` with exactly :data:`CONTROL_NAMES`, as
    :class:`Controls`; anything else (a list, a missing or unknown name) is refused."""
    if not isinstance(named, dict) or set(named) != set(CONTROL_NAMES):
        raise BadControl("The request could not be read.")
    return parse_controls(*(named[name] for name in CONTROL_NAMES))


def picked_or_status(zoo, controls: Controls, text: str) -> tuple[Picked, str]:
    """The checkpoint, layer and head the knobs pick, and ``""``; or, when there is nothing
    to run, the status to show instead: why the checkpoint is missing, or the empty state."""
    picked = pick(zoo, controls)
    if picked.model is None:
        return picked, "⚠️ " + picked.missing
    if not (text or "").strip():
        return picked, EMPTY_STATE
    return picked, ""
