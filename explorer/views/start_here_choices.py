"""What a class may answer to each Start-here question (class mode, issue 43).

In class mode each student picks one of a step's choices before the reveal, and the
teacher's page counts them on the projector (peer instruction: the class sees its own
spread of predictions, then the answer). The choices name the possible outcomes plainly and
mark none right: the reveal is the step's answer (explorer/views/start_here.py), which the
class reads once the teacher reveals it. Keyed by the step's number (its title starts with
it, ``"3 · Switch it off"``); tests/views/test_start_here_choices.py checks that every step of
the path has its choices and that they fit a phone's button.
"""

from __future__ import annotations

MAX_CHARS = 40  # a choice is a button on a phone
UNSURE = "Not sure"

CHOICES: dict[int, tuple[str, ...]] = {
    1: ("The word just before", "The word itself", "The first word", "The next word"),
    2: ("The list's next word", "Another word of the list", "A common word (“the”)"),
    3: ("Yes, still the next word", "No, it loses the list", "Yes, but less sure"),
    4: ("Easier", "Harder", "No change"),
    5: ("Yes", "No", "Only a little"),
    6: ("Sharper", "Blurrier", "The same"),
    7: ("The previous word (solid)", "The copy (dotted)", "Both at once"),
    8: ("A first-layer head", "The previous-word head", "The copying head",
        "Every head a little"),
    9: ("1 layer: no · 2 layers: yes", "Both grow one", "Neither grows one",
        "1 layer: yes · 2 layers: no"),
}


def step_number(title: str) -> int | None:
    """``"3 · Switch it off"`` -> 3; a title without a leading number -> None."""
    head = title.split("·", 1)[0].strip()
    return int(head) if head.isdigit() else None


def choices_for(title: str) -> tuple[str, ...]:
    """The step's choices, then "Not sure"; a step without choices gets only that."""
    n = step_number(title)
    return (*CHOICES.get(n, ()), UNSURE) if n is not None else (UNSURE,)


def every_steps_choices() -> list[tuple[str, ...]]:
    """Steps 1, 2, ... in order: each one's choices (for the page: step n is item n-1)."""
    return [(*CHOICES[n], UNSURE) for n in range(1, max(CHOICES) + 1)]
