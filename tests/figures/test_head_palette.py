"""The head view's line colours stay apart for colour-blind viewers (issue #17: heads 2
and 3 looked alike under a deuteranopia simulation).

Simulation: Machado, Oliveira & Fernandes (2009), severity 1.0, applied in linear RGB;
distance: CIE76 ΔE in Lab. Two colours about 20 ΔE apart read as "the same family" on a
thin line; the default model's four heads must be at least 30 apart for normal vision,
deuteranopia and protanopia alike (tritanopia is rare and not checked here)."""

import itertools

import numpy as np
import pytest

from explorer.figures.themes import THEMES

DEUTERANOPIA = np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                         [-0.011820, 0.042940, 0.968881]])
PROTANOPIA = np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                       [-0.003882, -0.048116, 1.051998]])
VISIONS = {"normal": np.eye(3), "deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}
MIN_DELTA_E = 30.0


def linear(colour: str) -> np.ndarray:
    c = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(lin: np.ndarray) -> np.ndarray:
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ np.clip(lin, 0, 1)
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a: str, b: str, vision: np.ndarray) -> float:
    return float(np.linalg.norm(lab(vision @ linear(a)) - lab(vision @ linear(b))))


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("vision", sorted(VISIONS))
def test_first_four_head_colours_stay_apart(theme, vision):
    heads = THEMES[theme].heads[:4]
    worst = min(itertools.combinations(range(4), 2),
                key=lambda ij: delta_e(heads[ij[0]], heads[ij[1]], VISIONS[vision]))
    d = delta_e(heads[worst[0]], heads[worst[1]], VISIONS[vision])
    assert d >= MIN_DELTA_E, f"{theme}, {vision}: heads {worst} only {d:.1f} ΔE apart"


def test_the_old_order_failed_this_check():
    """The check does catch what the issue saw: Okabe-Ito's green and reddish purple."""
    assert delta_e("#009e73", "#cc79a7", DEUTERANOPIA) < 20


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_head_colours_are_okabe_ito(theme):
    okabe_ito = {"#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00",
                 "#cc79a7", "#999999", "#ffffff"}
    assert set(THEMES[theme].heads) <= okabe_ito and len(set(THEMES[theme].heads)) == 8
