"""S3 R4 scoring, S2 R9 in-off, S2 R11 one cannon per stroke, S3 R3(a) continuing the break."""

from __future__ import annotations

import pytest

from tests.rules.billiards._build import kinds, replay, stroke


def _first_scoring(*strokes_after_opening: object) -> int:
    """Points of B's stroke 2 after A's opening miss (B's Yellow in-hand, White on the table)."""
    result, outcomes = replay(stroke(1, "A", ["red"], placement="legal"), *strokes_after_opening)  # type: ignore[arg-type]
    assert kinds(result) == []
    return outcomes[1].scored


@pytest.mark.parametrize(
    ("first", "then", "potted", "points", "what"),
    [
        (["red"], [], ["red"], 3, "S3 R4(b) pot Red"),
        (["red"], [], ["yellow"], 3, "S3 R4(b) in-off Red"),
        (["white"], [], ["white"], 2, "S3 R4(a) pot White"),
        (["white"], [], ["yellow"], 2, "S3 R4(a) in-off White"),
        (["red"], ["white"], [], 2, "S3 R4(a) cannon"),
        (["red"], [], ["red", "yellow"], 6, "S3 R4(c) pot Red and in-off Red"),
        (["red"], ["white"], ["red", "white"], 7, "S3 R4(c) cannon with both pots"),
        (["red"], ["white"], ["red", "white", "yellow"], 10, "S3 R4(c),(d)(i) the ten-shot"),
        (["white"], ["red"], ["yellow"], 4, "S3 R4(d)(ii) in-off White with a cannon"),
        (["red"], ["white"], ["yellow"], 5, "S3 R4(d)(i) in-off Red with a cannon"),
        (["red", "white"], [], ["yellow"], 4, "S3 R4(d)(iii) both hit at once: in-off 2 plus cannon"),
        (["red"], ["white", "red"], [], 2, "S2 R11 only one cannon in a stroke"),
        (["red"], [], [], 0, "S3 R3(b) no score"),
    ],
)
def test_stroke_values_s3_r4(first: list[str], then: list[str], potted: list[str], points: int, what: str) -> None:
    """Each scoring combination of S3 R4 is worth its points to the striker (B plays Yellow)."""
    assert _first_scoring(stroke(2, "B", first, potted, then=then, placement="legal")) == points, what


def test_in_off_is_the_strikers_own_ball_s2_r9() -> None:
    """The striker's own ball in ``potted`` is an in-off; the opponent's is a pot (S2 R3, R9)."""
    _, outcomes = replay(
        stroke(1, "A", ["red"], ["white"], placement="legal", score=[3, 0]),
        stroke(2, "A", ["red"], placement="legal", score=[3, 0]),
        stroke(3, "B", ["white"], ["white"], placement="legal", score=[3, 2]),
    )
    assert [o.scored for o in outcomes] == [3, 0, 2]
    assert [o.turn_ends for o in outcomes] == [False, True, False]


def test_scoring_stroke_continues_the_break_s3_r3a() -> None:
    """After a score the striker plays again; after an in-off from in-hand (S3 R3(a))."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], score=[3, 0]),
        stroke(2, "A", ["red"], ["white"], score=[6, 0]),
        stroke(3, "A", ["red"], placement="legal", score=[6, 0]),
        stroke(4, "B", ["red"], placement="legal", score=[6, 0]),
    )
    assert kinds(result) == []
    assert [o.next_striker for o in outcomes] == ["A", "A", "B", "A"]
    assert result.breaks[0].points == 6 and (result.breaks[0].from_, result.breaks[0].to) == (1, 2)
    assert result.visits == (1, 1)


def test_score_mismatch_reported_on_the_stroke_that_made_it() -> None:
    """A cannon booked as 3 is reported once at that stroke (docs/format.md 7, S3 R4(a))."""
    result, _ = replay(
        stroke(1, "A", ["red"], placement="legal", score=[0, 0]),
        stroke(2, "B", ["red"], then=["white"], placement="legal", score=[0, 3]),
        stroke(3, "B", ["red"], ["red"], respots=[("red", "spot")], score=[0, 6]),
    )
    assert kinds(result) == [(2, "score_mismatch")]
    assert result.score == (0, 5)
    assert result.recorded == (0, 6)


def test_unknown_then_trusts_the_scoreboard_on_a_cannon() -> None:
    """``then`` absent is unknown: a recorded cannon is accepted, so is its absence (docs/format.md 1.2)."""
    with_cannon = stroke(2, "B", ["red"], placement="legal", score=[0, 2])
    with_cannon = type(with_cannon)(
        **{**{f: getattr(with_cannon, f) for f in with_cannon.__struct_fields__}, "then": None}
    )
    result, outcomes = replay(stroke(1, "A", ["red"], placement="legal", score=[0, 0]), with_cannon)
    assert kinds(result) == []
    assert outcomes[1].scored == 2


def test_pot_of_a_ball_not_on_the_table_scores_nothing() -> None:
    """B's Yellow is off the table before B has played: A cannot pot it (invalid_record, 0 points)."""
    result, outcomes = replay(stroke(1, "A", ["red"], ["yellow"], placement="legal", score=[0, 0]))
    assert kinds(result) == [(1, "invalid_record")]
    assert outcomes[0].scored == 0


def test_hitting_a_ball_not_on_the_table_is_invalid() -> None:
    """B's Yellow is not on the table before B plays: no in-off off it."""
    result, outcomes = replay(stroke(1, "A", ["yellow"], ["white"], placement="legal", score=[0, 0]))
    assert kinds(result) == [(1, "invalid_record")]
    assert outcomes[0].scored == 0


def test_red_left_off_by_mistake_is_followed_when_played() -> None:
    """The Red not re-spotted (respot_missing) but hit next: it was put back; no further finding."""
    result, outcomes = replay(
        stroke(1, "A", ["red"], ["red", "white"], placement="legal", respots=[], score=[6, 0]),
        stroke(2, "A", ["red"], ["red"], placement="legal", respots=[("red", "spot")], score=[9, 0]),
    )
    assert kinds(result) == [(1, "respot_missing")]
    assert outcomes[1].scored == 3
