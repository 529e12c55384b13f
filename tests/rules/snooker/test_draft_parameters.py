"""Edition parameters a rule maker changes: each derived ruleset replays under the base's
engine with the changed parameter, and only that rule changes."""

from __future__ import annotations

from cuelog.replay.derived import derive, install
from cuelog.replay.model import MISS_ERROR, PENALTY_VALUE, TIME_FOUL_UNCALLED
from cuelog.schemas.records import Clock

from ._build import choice, event, foul, kinds, replay, stroke


def _rules(name: str, base: str = "snooker/wpbsa-2024", **params: object) -> str:
    return install(derive(name, base, params))


def _ahead_by_eight() -> list:
    """A pots a Red and the Black (8-0), then plays safe: B is eight behind."""
    return [
        stroke(1, "A", ["red"], ["red"]),
        stroke(2, "A", ["black"], ["black"], nominated="black", respots=[("black", "black")]),
        stroke(3, "A", ["red"]),
    ]


def test_s3_r11_minimum_five_raises_the_in_off_penalty() -> None:
    """S3 R11 with ``minimum = 5``: an in-off with a Red on is worth five, so a call of four is wrong."""
    rules = _rules("test-minimum-5", minimum=5)
    records = [stroke(1, "A", ["red"], ["white"], call=foul(4))]
    result, (o,) = replay(*records)
    assert o.penalty == 4 and kinds(result) == [] and result.score == (0, 4)
    result, (o,) = replay(*records, rules=rules)
    assert o.penalty == 5 and kinds(result) == [(1, PENALTY_VALUE)] and result.score == (0, 5)


def test_s3_r14d_warn_after_one_failure() -> None:
    """S3 R14(d) with ``warn_after = 1``: the Warning is due after one failure, not two."""
    rules = _rules("test-warn-after-1", warn_after=1)
    records = [
        stroke(1, "A", ["blue"], call=foul(5, miss=True)),
        choice(1, "B", "replace_return"),
        event(1, "warning", "A", reason="miss"),
    ]
    result, _ = replay(*records)
    assert kinds(result) == [(1, MISS_ERROR)]  # too early under the 2024 text
    result, _ = replay(*records, rules=rules)
    assert kinds(result) == []


def test_s3_r14a_miss_waived_for_an_offender_far_behind() -> None:
    """S3 R14(a) with ``miss_waived_behind = 5``: B, eight behind, misses the Red: no FOUL AND
    A MISS is due, and calling one is an error. Under the 2024 text it is due."""
    rules = _rules("test-waive-5", miss_waived_behind=5)
    records = [*_ahead_by_eight(), stroke(4, "B", ["blue"], call=foul(5, miss=True))]
    result, outcomes = replay(*records)
    assert outcomes[-1].miss and kinds(result) == []
    result, outcomes = replay(*records, rules=rules)
    assert not outcomes[-1].miss and kinds(result) == [(4, MISS_ERROR)]
    assert result.score == (13, 0)  # the foul's five points stand either way


def test_s3_r14a_miss_not_waived_within_the_margin() -> None:
    """S3 R14(a) with ``miss_waived_behind = 10``: eight behind is within it, so the miss is due."""
    rules = _rules("test-waive-10", miss_waived_behind=10)
    result, outcomes = replay(*_ahead_by_eight(), stroke(4, "B", ["blue"], call=foul(5, miss=True)), rules=rules)
    assert outcomes[-1].miss and kinds(result) == []


def test_so2_shot_clock_twelve_seconds() -> None:
    """SO 2(i) with ``shot_clock_s = 12``: 13.5 s on a 15 s clock is a time foul under the draft."""
    so = "snooker/shootout-2024"
    rules = _rules("test-clock-12", base=so, shot_clock_s=12.0)
    records = [stroke(1, "A", ["red"]), Clock(frame=1, n=1, limit_s=15, elapsed_s=13.5)]
    result, _ = replay(*records, rules=so)
    assert kinds(result) == []
    result, _ = replay(*records, rules=rules)
    assert kinds(result) == [(1, TIME_FOUL_UNCALLED)]
    assert "limit 12 s" in result.findings[0].message


def test_so2_ii_last_five_minutes_keep_their_limit() -> None:
    """SO 2(ii): a 10 s clock is the last five minutes; ``shot_clock_s`` does not change it,
    ``shot_clock_late_s`` does."""
    so = "snooker/shootout-2024"
    records = [stroke(1, "A", ["red"]), Clock(frame=1, n=1, limit_s=10, elapsed_s=9.0)]
    result, _ = replay(*records, rules=_rules("test-clock-12b", base=so, shot_clock_s=12.0))
    assert kinds(result) == []
    result, _ = replay(*records, rules=_rules("test-late-8", base=so, shot_clock_late_s=8))
    assert kinds(result) == [(1, TIME_FOUL_UNCALLED)]
