"""Snooker Shootout: SO 13, 15-17, 19 on top of the snooker rules."""

from __future__ import annotations

from cuelog.replay.model import INVALID_RECORD, MISS_ERROR, TIME_FOUL_ERROR, TIME_FOUL_UNCALLED
from cuelog.schemas.records import Clock, Cushions

from ._build import choice, event, foul, kinds, replay, stroke

SO = "snooker/shootout-2024"


def test_so15_after_a_foul_ball_in_hand_anywhere() -> None:
    """SO 15: after any foul the cue-ball is in hand anywhere: no D, no improper-placement foul."""
    result, (_, o) = replay(
        stroke(1, "A", ["blue"], call=foul(5)), stroke(2, "B", ["red"], ["red"], placement="illegal"), rules=SO
    )
    assert not o.foul and kinds(result) == []


def test_so15_no_play_again() -> None:
    """SO 15, 19(i): the incoming player may not ask the offender to play again."""
    result, _ = replay(stroke(1, "A", ["blue"], call=foul(5)), choice(1, "B", "return"), rules=SO)
    assert kinds(result) == [(1, INVALID_RECORD)]


def test_so19_no_foul_and_a_miss() -> None:
    """SO 19(i): S3 R14 does not apply: a FOUL AND A MISS call is an error."""
    result, _ = replay(stroke(1, "A", ["blue"], call=foul(5, miss=True)), rules=SO)
    assert kinds(result) == [(1, MISS_ERROR)]


def test_so17_no_cushion_foul_minimum_five() -> None:
    """SO 17: no ball to a cushion or pocket: foul worth five or the ball on."""
    _, (o,) = replay(stroke(1, "A", ["red"], cushions=Cushions(objects=0, after_contact=False), call=foul(5)), rules=SO)
    assert o.foul and o.penalty == 5 and o.reasons == ("no_cushion",)
    _, (o,) = replay(stroke(1, "A", ["red"], cushions=Cushions(objects=1, after_contact=True)), rules=SO)
    assert not o.foul


def test_so16_time_foul_minimum_five() -> None:
    """SO 16: a time foul is worth five or the ball on; four is wrong."""
    result, _ = replay(event(0, "time_foul", "A", points=5), rules=SO)
    assert kinds(result) == [] and result.score == (0, 5)
    result, _ = replay(event(0, "time_foul", "A", points=4), rules=SO)
    assert kinds(result) == [(0, TIME_FOUL_ERROR)] and result.score == (0, 5)


def test_so16_clock_over_the_limit_without_time_foul() -> None:
    """SO 2-3, 16: the shot clock shows 16.2 s against 15 s and no time foul was called."""
    result, _ = replay(stroke(1, "A", ["red"]), Clock(frame=1, n=1, limit_s=15, elapsed_s=16.2), rules=SO)
    assert kinds(result) == [(1, TIME_FOUL_UNCALLED)]
    result, _ = replay(stroke(1, "A", ["red"]), Clock(frame=1, n=1, limit_s=15, elapsed_s=9.0), rules=SO)
    assert kinds(result) == []


def test_so5_time_paused_by_the_referee_does_not_count() -> None:
    """SO 5-8: the referee may pause the clock. ``elapsed_s`` is the clock's running time, pauses
    already excluded (as ingest stores it), so ``paused_s`` is not subtracted again."""
    clock = Clock(frame=1, n=1, limit_s=15, elapsed_s=16.0, paused_s=3.0)
    result, _ = replay(stroke(1, "A", ["red"]), clock, rules=SO)
    assert kinds(result) == [(1, TIME_FOUL_UNCALLED)]


def test_so13_black_only_ends_even_when_tied() -> None:
    """SO 13: with Black only, the first pot ends the match even when the scores are then equal."""
    records = [
        stroke(1, "A", ["red"]),
        stroke(2, "B", ["red"], ["red"]),
        stroke(3, "B", ["yellow"], nominated="yellow"),
        *(stroke(4 + i, "A", [c], [c], respots=[]) for i, c in enumerate(["yellow", "green", "brown", "blue"])),
        stroke(8, "A", ["pink"]),
        stroke(9, "B", ["pink"], ["pink"], respots=[]),
        stroke(10, "B", ["black"], ["black"], respots=[]),
    ]
    result, outcomes = replay(*records, rules=SO, reds=1)
    assert outcomes[-1].frame_over and result.score == (14, 14) and result.winner is None


def test_so17_the_cue_balls_own_cushion_satisfies_the_rule() -> None:
    """SO 17: "at least one ball must strike a cushion or enter a pocket": the cue-ball is a
    ball. It struck a cushion before its first contact and no object ball reached one: no foul."""
    result, (o,) = replay(
        stroke(1, "A", ["red"], cushions=Cushions(objects=0, after_contact=False, cue_first=True)), rules=SO
    )
    assert not o.foul and kinds(result) == []


def test_so16_wrong_time_foul_value_is_reported_once() -> None:
    """SO 16, FORMAT 7 (each discrepancy once): a time foul recorded for four is a
    ``time_foul_error`` on the event; the scoreboard that booked those four on the next
    stroke is not a second ``score_mismatch``."""
    result, _ = replay(
        stroke(1, "A", ["red"], ["red"], score=[1, 0]),
        event(1, "time_foul", "A", points=4),
        stroke(2, "B", ["red"], ["red"], score=[1, 5]),
        rules=SO,
    )
    assert kinds(result) == [(1, TIME_FOUL_ERROR)]
    assert result.score == (1, 6)


def test_so16_scoreboard_wrong_on_top_of_a_wrong_time_foul_value() -> None:
    """SO 16, S3 R1: after a time foul recorded for four, a scoreboard that booked the five due
    is right too; one that moved by neither is a ``score_mismatch``."""
    records = [stroke(1, "A", ["red"], ["red"], score=[1, 0]), event(1, "time_foul", "A", points=4)]
    result, _ = replay(*records, stroke(2, "B", ["red"], ["red"], score=[1, 6]), rules=SO)
    assert kinds(result) == [(1, TIME_FOUL_ERROR)]
    result, _ = replay(*records, stroke(2, "B", ["red"], ["red"], score=[1, 7]), rules=SO)
    assert kinds(result) == [(1, TIME_FOUL_ERROR), (2, "score_mismatch")]
