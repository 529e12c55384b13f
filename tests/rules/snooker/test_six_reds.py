"""Six Reds Snooker: S3 R19(a)-(d) on top of the snooker rules."""

from __future__ import annotations

from cuelog.replay.model import FRAME_END_ERROR, MISS_ERROR
from cuelog.replay.snooker import new_frame, points_remaining
from cuelog.schemas.records import Frame, FrameRecord

from ._build import choice, event, foul, kinds, match, replay, stroke

SIX = "snooker/six-reds-2024"


def _failures(count: int, warn_after: int | None = 4) -> list[FrameRecord]:
    out: list[FrameRecord] = []
    for n in range(1, count + 1):
        out.append(stroke(n, "A", ["blue"], call=foul(5, miss=True)))
        if warn_after is not None and n == warn_after:
            out.append(event(n, "warning", "A", reason="miss"))
        if n < count:
            out.append(choice(n, "B", "replace_return"))
    return out


def test_s3_r19_six_reds_by_default() -> None:
    """S3 R19, R21(c): six Reds: 6 x 8 + 27 = 75 points on the table."""
    s = new_frame(match(SIX), Frame(frame=1, breaker="A"))
    assert s.reds == 6 and points_remaining(s) == 75


def test_s3_r19b_warning_after_the_fourth_miss() -> None:
    """S3 R19(b): the Warning follows the fourth consecutive FOUL AND A MISS, not the second."""
    result, _ = replay(*_failures(4), rules=SIX)
    assert kinds(result) == []
    result, _ = replay(*_failures(2, warn_after=2), rules=SIX)
    assert kinds(result) == [(2, MISS_ERROR)] and result.findings[0].rule == "S3 R19(b)"


def test_s3_r19a_no_more_than_five_consecutive_misses() -> None:
    """S3 R19(a): a sixth FOUL AND A MISS from the original position is against the rule."""
    result, _ = replay(*_failures(6), rules=SIX)
    assert kinds(result) == [(6, MISS_ERROR)] and result.findings[0].rule == "S3 R19(a)"


def test_s3_r19_no_frame_award_for_misses() -> None:
    """S3 R19(a),(b): six reds replaces the frame award of S3 R14(d)(ii) by the options of R19(b)."""
    result, _ = replay(*_failures(5), event(5, "award", "B", reason="miss"), rules=SIX)
    assert kinds(result) == [(5, FRAME_END_ERROR)]


def test_s3_r19b_iii_ball_anywhere_after_fifth_miss() -> None:
    """S3 R19(b)(iii): after the fifth miss the non-offender may play the cue-ball from anywhere."""
    result, (*_, o) = replay(
        *_failures(5), choice(5, "B", "anywhere"), stroke(6, "B", ["red"], ["red"], placement="illegal"), rules=SIX
    )
    assert kinds(result) == [] and not o.foul and o.scored == 1


def test_s3_r19b_iii_ball_anywhere_too_early() -> None:
    """S3 R19(b)(iii): the option exists only after the fifth consecutive miss."""
    result, _ = replay(*_failures(3), choice(3, "B", "anywhere"), rules=SIX)
    assert kinds(result) == [(3, MISS_ERROR)]


def test_s3_r19b_ruling_a_replay_from_the_original_position_is_still_offered_after_the_fifth_miss() -> None:
    """S3 R19(a),(b), ruling S52: after the fifth FOUL AND A MISS the non-offender may still
    have the balls replaced and the offender play again; R19(a) bounds the calls, so that
    replay is accepted and only a sixth FOUL AND A MISS call is a ``miss_error``."""
    result, _ = replay(*_failures(5), choice(5, "B", "replace_return"), stroke(6, "A", ["red"], ["red"]), rules=SIX)
    assert kinds(result) == []
    result, _ = replay(
        *_failures(5), choice(5, "B", "replace_return"), stroke(6, "A", ["blue"], call=foul(5, miss=True)), rules=SIX
    )
    assert kinds(result) == [(6, MISS_ERROR)] and result.findings[0].rule == "S3 R19(a)"
