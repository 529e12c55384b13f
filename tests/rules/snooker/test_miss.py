"""FOUL AND A MISS: S3 R14(a)-(e), S2 R21."""

from __future__ import annotations

from cuelog.replay.model import FRAME_END_ERROR, MISS_ERROR
from cuelog.schemas.records import FrameRecord

from ._build import choice, event, foul, kinds, replay, stroke


def _failure(n: int) -> list[FrameRecord]:
    return [stroke(n, "A", ["blue"], call=foul(5, miss=True)), choice(n, "B", "replace_return")]


def test_s3_r14c_miss_due_when_nobody_needs_penalty_points() -> None:
    """S3 R14(a),(c): failing to hit the ball on at 0-0 is a miss; the due call says so."""
    _, (o,) = replay(stroke(1, "A", ["blue"], call=foul(5, miss=True)))
    assert o.miss


def test_s3_r14a_i_no_miss_due_when_penalty_points_required() -> None:
    """S3 R14(a)(i): with Black only and B 20 behind, B needs penalty points: no miss is due."""
    colours = ["yellow", "green", "brown", "blue", "pink"]
    strokes = [stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(colours)]
    strokes.append(stroke(6, "A", []))
    _, outcomes = replay(*strokes, reds=0)
    assert outcomes[-1].foul and not outcomes[-1].miss


def test_s2_r21_miss_called_when_ball_on_was_hit_first() -> None:
    """S2 R21: a miss is failing to hit the ball on first; in-off after hitting the Red is no miss."""
    result, _ = replay(stroke(1, "A", ["red"], ["white"], call=foul(4, miss=True)))
    assert kinds(result) == [(1, MISS_ERROR)]


def test_s3_r14d_third_failure_after_warning_awards_frame() -> None:
    """S3 R14(d)(i),(ii): two failures, the Warning, a third failure: frame awarded to B."""
    records = [
        *_failure(1),
        *_failure(2),
        event(2, "warning", "A", reason="miss"),
        stroke(3, "A", ["blue"], call=foul(5, miss=True)),
        event(3, "award", "B", reason="miss"),
    ]
    result, _ = replay(*records)
    assert kinds(result) == [] and result.winner == "B" and result.end_reason == "award"
    assert result.score == (0, 15)


def test_s3_r14d_ii_no_award_without_warning() -> None:
    """S3 R14(d)(ii): "a frame cannot be awarded if a Warning has not been issued"."""
    records = [
        *_failure(1),
        *_failure(2),
        stroke(3, "A", ["blue"], call=foul(5, miss=True)),
        event(3, "award", "B", reason="miss"),
    ]
    result, _ = replay(*records)
    assert kinds(result) == [(3, FRAME_END_ERROR)]


def test_s3_r14d_ii_warned_failure_not_followed_by_award() -> None:
    """S3 R14(d)(ii): a further failure after the Warning must lose the frame; play went on."""
    records = [
        *_failure(1),
        *_failure(2),
        event(2, "warning", "A", reason="miss"),
        *_failure(3),
        stroke(4, "A", ["red"]),
    ]
    result, _ = replay(*records)
    assert kinds(result) == [(4, MISS_ERROR)]


def test_s3_r14d_ii_warning_before_second_failure() -> None:
    """S3 R14(d)(ii): the Warning comes after the second failure, not the first."""
    result, _ = replay(*_failure(1), event(1, "warning", "A", reason="miss"))
    assert kinds(result) == [(1, MISS_ERROR)]


def test_s3_r14d_iii_play_from_position_left_ends_sequence() -> None:
    """S3 R14(d)(iii): asked to play from the position left, the sequence ends: no award possible."""
    records = [
        *_failure(1),
        stroke(2, "A", ["blue"], call=foul(5, miss=True)),
        event(2, "warning", "A", reason="miss"),
        choice(2, "B", "return"),
        stroke(3, "A", ["blue"], call=foul(5, miss=True)),
        event(3, "award", "B", reason="miss"),
    ]
    result, _ = replay(*records)
    assert kinds(result) == [(3, FRAME_END_ERROR)]


def test_s3_r14e_warning_survives_foul_before_stroke_with_full_replacement() -> None:
    """S3 R14(e): after replacement, a foul before striking is no miss; all balls replaced keeps the Warning."""
    records = [
        *_failure(1),
        *_failure(2),
        event(2, "warning", "A", reason="miss"),
        event(2, "foul", "A", code="touched_ball", ball="red", points=4),
        choice(2, "B", "replace_return"),
        stroke(3, "A", ["blue"], call=foul(5, miss=True)),
        event(3, "award", "B", reason="miss"),
    ]
    result, _ = replay(*records)
    assert kinds(result) == [] and result.winner == "B"


def test_s3_r14d_foul_without_miss_call_ends_the_run() -> None:
    """S3 R14(d): the Warning covers consecutive FOUL AND A MISS calls; an ordinary foul ends the run."""
    records = [
        *_failure(1),
        *_failure(2),
        event(2, "warning", "A", reason="miss"),
        stroke(3, "A", ["blue"], ["white"], call=foul(5)),
        event(3, "award", "B", reason="miss"),
    ]
    result, _ = replay(*records)
    assert kinds(result) == [(3, FRAME_END_ERROR)]


# -- the clear path of S3 R14(c) and the full-ball contact of R14(d), from rest positions -----

CUE = ("white", 400.0, 1000.0)
RED_AT = ("red", 400.0, 2500.0)
OPEN = [CUE, RED_AT, ("blue", 1400.0, 1800.0), ("black", 889.0, 3245.0)]
"""Nothing between the cue-ball and the only Red."""
HIDDEN = [CUE, RED_AT, ("blue", 400.0, 1800.0), ("black", 889.0, 3245.0)]
"""The Blue straight in the line: no straight path reaches any part of the Red."""
HALF = [CUE, RED_AT, ("blue", 450.0, 1800.0), ("black", 889.0, 3245.0)]
"""The Blue covers one edge of the Red: a clear path to part of it, no full-ball contact."""
TOUCHING = [CUE, ("red", 400.0, 1052.5), ("blue", 1400.0, 1800.0), ("black", 889.0, 3245.0)]


def _left(positions: list[tuple[str, float, float]]) -> FrameRecord:
    """B's safety, leaving A the position recorded."""
    return stroke(1, "B", ["red"], positions=positions)


def test_s3_r14c_miss_not_called_with_a_clear_path_is_a_miss_error() -> None:
    """S3 R14(c): with a clear straight line to the Red, A misses everything at 0-0 and only
    a foul is called: FOUL AND A MISS was compulsory."""
    result, (_, o) = replay(_left(OPEN), stroke(2, "A", [], call=foul(4)), reds=1, breaker="B")
    assert o.miss
    assert [(f.n, f.kind, f.rule, f.side) for f in result.findings] == [(2, MISS_ERROR, "S3 R14(c)", "A")]


def test_s3_r14c_no_clear_path_or_no_positions_raises_nothing() -> None:
    """S3 R14(a)(ii),(c): with the Red hidden the miss is the referee's judgement; without
    positions the clear path is not in the facts (docs/rulings.md S12): no finding either way."""
    for before in (_left(HIDDEN), stroke(1, "B", ["red"])):
        result, _ = replay(before, stroke(2, "A", [], call=foul(4)), reds=1, breaker="B")
        assert kinds(result) == []


def test_s3_r14c_partly_visible_red_is_a_clear_path() -> None:
    """S3 R14(c): "a clear path ... to any part of any ball": one edge of the Red in view is enough."""
    result, _ = replay(_left(HALF), stroke(2, "A", [], call=foul(4)), reds=1, breaker="B")
    assert kinds(result) == [(2, MISS_ERROR)]


def test_s3_r14a_i_clear_path_but_penalty_points_required() -> None:
    """S3 R14(a)(i): A clears to the Black (20 ahead, 7 on the table), then misses it with a
    clear path: B needs penalty points, so no FOUL AND A MISS is due."""
    colours = [stroke(i + 1, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue"])]
    pink = stroke(5, "A", ["pink"], ["pink"], respots=[], positions=[CUE, ("black", 400.0, 2500.0)])
    result, outcomes = replay(*colours, pink, stroke(6, "A", [], call=foul(7)), reds=0)
    assert not outcomes[-1].miss
    assert kinds(result) == []


def test_s3_r14d_i_second_failure_from_the_original_position_must_be_a_miss() -> None:
    """S3 R14(b),(d)(i): the balls are replaced after the first miss, so the original position
    (and its clear path) holds again: the second failure called as a plain foul is a miss_error."""
    result, _ = replay(
        _left(OPEN),
        stroke(2, "A", [], call=foul(4, miss=True)),
        choice(2, "B", "replace_return"),
        stroke(3, "A", [], call=foul(4)),
        reds=1,
        breaker="B",
    )
    assert kinds(result) == [(3, MISS_ERROR)]


def _three_misses() -> list[FrameRecord]:
    return [
        stroke(2, "A", [], call=foul(4, miss=True)),
        choice(2, "B", "replace_return"),
        stroke(3, "A", [], call=foul(4, miss=True)),
        choice(3, "B", "replace_return"),
        event(3, "warning", "A", reason="miss"),
        stroke(4, "A", [], call=foul(4, miss=True)),
        event(4, "award", "B", reason="miss"),
    ]


def test_s3_r14d_full_ball_contact_available_the_frame_is_awarded() -> None:
    """S3 R14(d)(ii): full-ball contact with the Red was available: Warning and award stand."""
    result, _ = replay(_left(OPEN), *_three_misses(), reds=1, breaker="B")
    assert kinds(result) == [] and result.winner == "B"


def test_s3_r14d_no_full_ball_contact_no_warning_and_no_award() -> None:
    """S3 R14(d): a colour covers part of the Red, so no full diameter of it was available:
    the Warning and the frame award of R14(d)(ii) do not apply."""
    result, _ = replay(_left(HALF), *_three_misses(), reds=1, breaker="B")
    assert [(f.n, f.kind, f.rule) for f in result.findings] == [
        (3, MISS_ERROR, "S3 R14(d)"),
        (4, FRAME_END_ERROR, "S3 R14(d)(ii)"),
    ]


def test_s3_r14d_touching_ball_starts_the_sequence_not_in_the_older_edition() -> None:
    """S3 R14(d) "or when the cue-ball is touching a ball that could be on" (DIFF A5): the
    Warning and award stand in 2024; the older R14(c) has only the full-ball case."""
    result, _ = replay(_left(TOUCHING), *_three_misses(), reds=1, breaker="B")
    assert kinds(result) == [] and result.winner == "B"
    result, _ = replay(_left(TOUCHING), *_three_misses(), reds=1, breaker="B", rules="snooker/classic")
    assert kinds(result) == [(3, MISS_ERROR), (4, FRAME_END_ERROR)]


def test_s3_r14c_colour_spotted_near_its_spot_leaves_the_path_unknown() -> None:
    """S3 R7(g), R14(c): a colour placed ``near`` its spot after the stroke before is somewhere
    the positions do not say, so whether the path was clear is not known: nothing raised."""
    before = stroke(1, "B", ["red"], ["pink"], call=foul(6), respots=[("pink", "near")], positions=OPEN)
    result, _ = replay(before, stroke(2, "A", [], call=foul(4)), reds=1, breaker="B")
    assert MISS_ERROR not in [k for _, k in kinds(result)]
    placed = stroke(1, "B", ["red"], ["pink"], call=foul(6), respots=[("pink", "pink")], positions=OPEN)
    result, _ = replay(placed, stroke(2, "A", [], call=foul(4)), reds=1, breaker="B")
    assert (2, MISS_ERROR) in kinds(result)
