"""Class mode's registry (explorer/views/class_state.py): codes, who may lead, bounds, the
class's answers, isolation between classes, expiry on a fake clock, versions."""

from __future__ import annotations

import re

import pytest

from explorer.views.class_state import (
    ALPHABET,
    CODE,
    ENDED,
    IDLE_S,
    MALFORMED,
    UNKNOWN,
    UNUSED_S,
    ClassEnded,
    ClassError,
    Classrooms,
    Forbidden,
    Full,
    UnknownClass,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


STATE = {"step": 3, "view": "explore", "text": "The cat sat.", "knobs": {"heads": 4,
         "mask": "causal", "temperature": 1.5, "off": None}, "revealed": False}


@pytest.fixture
def rooms():
    return Classrooms(clock=Clock(), choices=None)  # any answer: the counting itself


def test_only_the_step_s_own_choices_count():
    """The lesson's registry takes only a step's choices (and "Not sure"): a script's
    made-up answers never reach the teacher's counts."""
    from explorer.views.start_here_choices import CHOICES, UNSURE

    rooms = Classrooms(clock=Clock())
    code, teacher = rooms.open()
    student = rooms.join(code)
    rooms.answer(code, student, 3, CHOICES[3][1])
    rooms.answer(code, student, 4, " " + UNSURE + "\n")  # cleaned, then checked
    for step, made_up in ((3, "fake"), (3, CHOICES[4][0]), (12, "x")):
        with pytest.raises(ClassError, match="not one of this step's choices"):
            rooms.answer(code, student, step, made_up)
    rooms.answer(code, student, 12, UNSURE)  # a step with no choices: only "Not sure"
    assert rooms.answers(code, teacher, 3)["counts"] == {CHOICES[3][1]: 1}
    assert rooms.answers(code, teacher, 4)["counts"] == {UNSURE: 1}


def test_codes_are_short_unambiguous_and_distinct(rooms):
    codes = {rooms.open()[0] for _ in range(150)}
    assert len(codes) == 150
    for code in codes:
        assert len(code) == 6 and set(code) <= set(ALPHABET)
    assert not set("0O1IL") & set(ALPHABET)


def test_teacher_tokens_are_long_secrets(rooms):
    tokens = {rooms.open()[1] for _ in range(20)}
    assert len(tokens) == 20 and all(len(t) >= 32 for t in tokens)


def test_only_the_teacher_leads_and_each_lead_bumps_the_version(rooms):
    code, teacher = rooms.open()
    assert rooms.snapshot(code) == (0, {"step": None, "view": "start", "text": "",
                                        "knobs": {}, "revealed": False, "released": False,
                                        "resets": 0})
    assert rooms.lead(code, teacher, STATE) == 1
    assert rooms.lead(code, teacher, {**STATE, "revealed": True}) == 2
    version, state = rooms.snapshot(code.lower() + " ")  # typed in any case
    assert version == 2 and state == {**STATE, "revealed": True, "released": False,
                                      "resets": 0}
    other_last = teacher[:-1] + ("y" if teacher.endswith("x") else "x")  # one char off
    for wrong in (other_last, "", None, 42, teacher + "x"):
        with pytest.raises(Forbidden):
            rooms.lead(code, wrong, STATE)
    student = rooms.join(code)
    with pytest.raises(Forbidden):
        rooms.lead(code, student, STATE)
    assert rooms.snapshot(code)[0] == 2


@pytest.mark.parametrize("bad", [
    {"step": 21}, {"step": -1}, {"step": True}, {"step": "3"}, {"view": "<b>x</b>"},
    {"view": ""}, {"view": "a" * 33}, {"text": "x" * 10_001}, {"text": 5},
    {"knobs": {f"k{i}": i for i in range(21)}}, {"knobs": {"a b": 1}},
    {"knobs": {"deep": {"x": 1}}}, {"knobs": {"s": "x" * 201}}, {"knobs": {"n": float("nan")}},
    {"knobs": []}, {"revealed": "yes"}, {"extra": 1}, [], "state"])
def test_bad_states_are_refused_with_a_message(rooms, bad):
    code, teacher = rooms.open()
    state = {**STATE, **bad} if isinstance(bad, dict) else bad
    with pytest.raises(ClassError) as err:
        rooms.lead(code, teacher, state)
    assert err.value.status == 400 and str(err.value)
    assert rooms.snapshot(code)[0] == 0


def test_a_partial_state_takes_the_defaults_and_bounds_hold_at_the_edge(rooms):
    code, teacher = rooms.open()
    rooms.lead(code, teacher, {"step": 20, "text": "x" * 10_000,
                               "knobs": {f"k{i}": "v" for i in range(20)}})
    _, state = rooms.snapshot(code)
    assert state["step"] == 20 and state["view"] == "start" and len(state["text"]) == 10_000
    assert len(state["knobs"]) == 20 and state["revealed"] is False


def test_nicknames_are_plain_bounded_text(rooms):
    code, _ = rooms.open()
    room = rooms._classes[code]
    cases = {"  Ada  ": "Ada", "a\x00b\nc\u202ed\x1b[31m": "abcd[31m", "x" * 50: "x" * 24,
             None: "", "<img src=x>": "<img src=x>"}
    for given, stored in cases.items():
        assert room.students[rooms.join(code, given)] == stored
    with pytest.raises(ClassError):
        rooms.join(code, 12)


def test_answers_are_counted_one_per_student_per_step_teacher_only(rooms):
    code, teacher = rooms.open()
    students = [rooms.join(code, f"s{i}") for i in range(5)]
    for student, choice in zip(students, ["the", "the", "cat", " cat\n", "mat"], strict=True):
        rooms.answer(code, student, 2, choice)
    rooms.answer(code, students[4], 2, "the")  # changes their mind: the latest counts
    rooms.answer(code, students[0], 3, "x" * 100)
    assert rooms.answers(code, teacher, 2) == {"answered": 5, "students": 5,
                                               "counts": {"the": 3, "cat": 2},
                                               "who": ["s0", "s1", "s2", "s3", "s4"],
                                               "hidden": False, "released": False,
                                               "hide_counts": False}
    assert rooms.answers(code, teacher, 3)["counts"] == {"x" * 80: 1}
    assert rooms.answers(code, teacher, 4)["counts"] == {}
    assert rooms.answers(code, teacher, 4)["answered"] == 0
    with pytest.raises(Forbidden):
        rooms.answers(code, students[0], 2)
    with pytest.raises(Forbidden):
        rooms.answer(code, "not-a-student", 2, "the")
    for step, choice in ((21, "a"), (None, "a"), (2, ""), (2, " \n "), (2, 7)):
        with pytest.raises(ClassError):
            rooms.answer(code, students[0], step, choice)


def test_two_classes_never_see_each_other(rooms):
    (a, ta), (b, tb) = rooms.open(), rooms.open()
    rooms.lead(a, ta, STATE)
    sa, sb = rooms.join(a), rooms.join(b)
    rooms.answer(a, sa, 1, "A's answer")
    rooms.answer(b, sb, 2, "B's answer")
    assert rooms.snapshot(b) == (0, {"step": None, "view": "start", "text": "", "knobs": {},
                                     "revealed": False, "released": False, "resets": 0})
    assert rooms.answers(b, tb, 1)["answered"] == 0 and not rooms.answers(b, tb, 1)["who"]
    assert rooms.answers(a, ta, 2)["answered"] == 0 and not rooms.answers(a, ta, 2)["who"]
    with pytest.raises(Forbidden):
        rooms.lead(b, ta, STATE)  # A's teacher cannot lead B
    with pytest.raises(Forbidden):
        rooms.answers(b, ta, 1)
    with pytest.raises(Forbidden):
        rooms.answer(b, sa, 1, "x")  # A's student cannot answer in B
    rooms.end(b, tb)
    assert rooms.snapshot(a)[0] == 1 and rooms.answers(a, ta, 1)["answered"] == 1


def test_a_class_lives_while_its_teacher_s_page_asks_and_students_cannot_keep_it():
    """Any teacher request keeps a class open (the page reads the answers every second or
    so); students' joins and answers do not, so a script that joins cannot keep a class
    the teacher left alive."""
    clock = Clock()
    rooms = Classrooms(clock=clock, choices=None)
    (a, ta), (b, _) = rooms.open(), rooms.open()
    student = rooms.join(a)
    clock.now += IDLE_S - 10
    rooms.answers(a, ta, 0)  # the teacher's page reading the counts
    rooms.answer(a, student, 0, "x")
    s_b = rooms.join(b)  # joins and answers keep nothing alive
    rooms.answer(b, s_b, 0, "x")
    rooms.snapshot(b)  # nor does following
    clock.now += 20
    assert rooms.snapshot(a)[0] == 0
    with pytest.raises(ClassEnded, match=ENDED):
        rooms.snapshot(b)
    clock.now += IDLE_S - 30
    rooms.lead(a, ta, STATE)
    clock.now += IDLE_S - 1
    assert rooms.snapshot(a)[0] == 1
    clock.now += 1
    for call in (lambda: rooms.snapshot(a), lambda: rooms.join(a),
                 lambda: rooms.lead(a, ta, STATE), lambda: rooms.answers(a, ta, 0)):
        with pytest.raises(ClassEnded) as err:
            call()
        assert err.value.status == 410


def test_ended_and_unknown_classes_say_so(rooms):
    code, teacher = rooms.open()
    changed = []
    rooms.on_change = changed.append
    rooms.lead(code, teacher, STATE)
    with pytest.raises(Forbidden):
        rooms.end(code, "wrong")
    rooms.end(code, teacher)
    assert changed == [code, code]
    with pytest.raises(ClassEnded, match="This class has ended"):
        rooms.snapshot(code)
    assert rooms._classes[code].students == {} and rooms._classes[code].answers == {}
    for unknown in ("ZZZZZZ", " zzzzzz "):  # well formed, never opened: not "ended"
        with pytest.raises(UnknownClass) as err:
            rooms.snapshot(unknown)
        assert str(err.value) == UNKNOWN and err.value.status == 404
        assert "ended" not in str(err.value).split(".")[0]
    for malformed in ("short", "", None, "0O1IL0", "A" * 1000):
        with pytest.raises(UnknownClass) as err:
            rooms.snapshot(malformed)
        assert str(err.value) == MALFORMED and err.value.status == 404
        assert CODE.match(re.search(r"like (\w+)", MALFORMED).group(1))


def test_at_most_500_students_a_class():
    rooms = Classrooms(clock=Clock())
    code, teacher = rooms.open()
    ids = {rooms.join(code) for _ in range(500)}
    assert len(ids) == 500
    with pytest.raises(Full, match="500 students") as err:
        rooms.join(code)
    assert err.value.status == 429
    assert rooms.answers(code, teacher, 0)["students"] == 500
    other, _ = rooms.open()
    rooms.join(other)  # another class is not full


def test_a_full_server_drops_ended_classes_first_then_refuses():
    clock = Clock()
    rooms = Classrooms(max_classes=3, clock=clock)
    dropped = []
    rooms.on_change = dropped.append
    (a, ta), (b, _), (c, _) = rooms.open(), rooms.open(), rooms.open()
    assert len({a, b, c}) == 3
    with pytest.raises(Full, match="3 classes"):
        rooms.open()
    rooms.end(a, ta)
    dropped.clear()
    d, _ = rooms.open()
    assert dropped == [a] and len(rooms) == 3
    with pytest.raises(UnknownClass):
        rooms.snapshot(a)
    clock.now += IDLE_S  # b, c and d expire: the first of them to end goes first
    e, _ = rooms.open()
    assert len(rooms) == 3 and rooms.snapshot(e)[0] == 0


def test_classes_opened_and_never_used_make_room_for_a_real_teacher():
    """A script that opens classes and does nothing with them fills the table only for
    UNUSED_S: then a real teacher's open drops the oldest unused one; a class that was led
    or joined is never dropped for room."""
    clock = Clock()
    rooms = Classrooms(max_classes=3, clock=clock)
    (led, t_led), (joined, _), (unused, _) = rooms.open(), rooms.open(), rooms.open()
    rooms.lead(led, t_led, STATE)
    rooms.join(joined)
    with pytest.raises(Full):
        rooms.open()  # too soon: the unused class may still be set up
    clock.now += UNUSED_S
    rooms.answers(led, t_led, 0)  # (the led class's teacher is still there)
    fresh, _ = rooms.open()
    with pytest.raises(UnknownClass):
        rooms.snapshot(unused)
    assert rooms.snapshot(led)[0] == 1 and rooms.snapshot(joined)[0] == 0
    with pytest.raises(Full):
        rooms.open()  # the fresh one is not old enough, the others are in use


def test_a_nickname_is_set_later_cleaned_and_listed_for_the_teacher_only(rooms):
    code, teacher = rooms.open()
    a, b, c = rooms.join(code), rooms.join(code, "Bo"), rooms.join(code)
    assert rooms.rename(code, a, " <img src=x onerror=alert(1)>\n") == "<img src=x onerror=alert"
    assert rooms.rename(code, c, "") == ""  # cleared: not listed
    assert rooms.roster(code, teacher) == {"students": 3,
                                           "nicknames": ["<img src=x onerror=alert", "Bo"]}
    with pytest.raises(Forbidden):
        rooms.roster(code, "not-the-teacher")
    with pytest.raises(Forbidden):
        rooms.rename(code, "not-a-student", "Eve")
    other, _ = rooms.open()
    with pytest.raises(Forbidden):  # a student of one class is no student of another
        rooms.rename(other, b, "Bo")
    with pytest.raises(ClassError):
        rooms.rename(code, a, ["Ada"])


def test_each_students_newest_lab_run_is_kept_bounded_by_the_class(rooms):
    from explorer.views.class_state import record_run

    code, teacher = rooms.open()
    a, b = rooms.join(code), rooms.join(code)
    assert record_run(rooms, f"{code} {a}", 5) and record_run(rooms, f"{code.lower()} {b}", 6)
    assert record_run(rooms, f"{code} {a}", 7)  # a's newer run replaces the first
    assert sorted(rooms.runs(code, teacher)) == [6, 7]
    other, other_teacher = rooms.open()
    for bad in (None, "", code, f"{code} stranger", f"{other} {a}", "x" * 200, 12):
        assert not record_run(rooms, bad, 8)
    assert not record_run(None, f"{code} {a}", 8)  # an app without class mode
    assert rooms.runs(other, other_teacher) == []
    assert sorted(rooms.runs(code, teacher)) == [6, 7]
    with pytest.raises(Forbidden):
        rooms.runs(code, other_teacher)
    rooms.end(code, teacher)
    assert not record_run(rooms, f"{code} {b}", 9)  # an ended class records nothing
