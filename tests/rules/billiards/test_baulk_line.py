"""S3 R8 the baulk-line crossing rule, applied when the match record says ``baulk_line: true``."""

from __future__ import annotations

from tests.rules.billiards._build import call, foul, kinds, replay, stroke

OPENING = [stroke(1, "A", ["red"], placement="legal"), stroke(2, "B", ["red"], placement="legal")]


def _fives(first: int, count: int, crossed: bool = False) -> list[object]:
    """Pot Red with a cannon, five points a stroke (neither a hazard run nor a cannon run)."""
    return [
        stroke(n, "A", ["red"], ["red"], then=["yellow"], crossed_baulk=crossed) for n in range(first, first + count)
    ]


def test_not_crossing_between_80_and_100_is_a_foul_s3_r8h() -> None:
    """Break 80 after sixteen strokes; the stroke taking it to 100 without a crossing is a foul."""
    result, outcomes = replay(*OPENING, *_fives(3, 20), baulk_line=True)  # type: ignore[arg-type]
    assert kinds(result) == [(22, "limit_exceeded")]
    assert result.findings[0].rule == "S3 R15(t)"
    assert outcomes[-1].reasons == ("baulk_line",)


def test_crossing_in_the_window_s3_r8d() -> None:
    strokes = [*_fives(3, 17), *_fives(20, 1, crossed=True), *_fives(21, 5)]
    result, _ = replay(*OPENING, *strokes, baulk_line=True)  # type: ignore[arg-type]
    assert kinds(result) == []
    assert result.breaks[-1].points == 115


def test_crossing_before_80_does_not_count_s3_r8c() -> None:
    """Crossing on the stroke that takes the break from 75 to 80 is before the Warning is due."""
    strokes = [*_fives(3, 15), *_fives(18, 1, crossed=True), *_fives(19, 4)]
    result, _ = replay(*OPENING, *strokes, baulk_line=True)  # type: ignore[arg-type]
    assert kinds(result) == [(22, "limit_exceeded")]


def test_rule_not_applied_unless_the_match_says_so_s3_r8() -> None:
    result, _ = replay(*OPENING, *_fives(3, 20))  # type: ignore[arg-type]
    assert kinds(result) == []


def test_turn_ending_non_scoring_is_no_foul_s3_r8h() -> None:
    strokes = [*_fives(3, 18), stroke(21, "A", ["red"], crossed_baulk=False)]
    result, _ = replay(*OPENING, *strokes, baulk_line=True)  # type: ignore[arg-type]
    assert kinds(result) == []


def test_late_warning_gives_twenty_points_from_the_call_s3_r8e() -> None:
    """Warning announced at 90 instead of 80: the crossing is due by 110."""
    strokes = [*_fives(3, 18), call(20, "baulk_line_warning"), *_fives(21, 4)]
    result, _ = replay(*OPENING, *strokes, baulk_line=True)  # type: ignore[arg-type]
    assert kinds(result) == [(24, "limit_exceeded")]


def test_failing_stroke_scores_nothing_when_called_s3_r8h_r16b() -> None:
    """The failing stroke is the foul: its points do not count; the break keeps the 95 before it."""
    strokes = [*_fives(3, 19), stroke(22, "A", ["red"], ["red"], then=["yellow"], crossed_baulk=False, call=foul())]
    result, _ = replay(*OPENING, *strokes, baulk_line=True)  # type: ignore[arg-type]
    assert kinds(result) == []
    assert result.score == (95, 2)
    assert result.breaks[-1].points == 95


def test_unknown_crossing_raises_nothing() -> None:
    """``crossed_baulk`` absent: unknown, no finding (docs/format.md 1.2)."""
    strokes = [stroke(n, "A", ["red"], ["red"], then=["yellow"]) for n in range(3, 23)]
    result, _ = replay(*OPENING, *strokes, baulk_line=True)  # type: ignore[arg-type]
    assert kinds(result) == []


def test_second_hundred_s3_r8() -> None:
    """Every accumulation of 100: a crossing between 80-100 and again between 180-200."""
    strokes = [*_fives(3, 17), *_fives(20, 1, crossed=True), *_fives(21, 22)]
    result, _ = replay(*OPENING, *strokes, baulk_line=True)  # type: ignore[arg-type]
    # 180 reached at stroke 38, 200 at stroke 42.
    assert kinds(result) == [(42, "limit_exceeded")]
