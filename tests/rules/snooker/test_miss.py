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
