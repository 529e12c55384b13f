"""Builders for the nine-ball conformance suite (WPA section 2)."""

from __future__ import annotations

from cuelog.replay.model import FrameResult, Outcome
from cuelog.replay.pool.nineball import State, apply, finish, new_frame
from cuelog.schemas.records import Call, Frame, FrameEnd, FrameRecord, Match, Stroke
from tests.rules.pool_build import choice as choice
from tests.rules.pool_build import derived as derived
from tests.rules.pool_build import event as event
from tests.rules.pool_build import fold_rack, replay_rack, stroke
from tests.rules.pool_build import kinds as kinds

RULES = "nineball/wpa"


def foul(*, in_hand: bool | None = True, loss: bool | None = None) -> Call:
    return Call(foul=True, ball_in_hand=in_hand, loss_of_frame=loss)


def end(winner: str, reason: str = "pot") -> FrameEnd:
    return FrameEnd(frame=1, winner=winner, reason=reason)


def legal_break(striker: str = "A") -> Stroke:
    """Stroke 1: the 1 hit first, nothing pocketed, five balls to a rail (WPA 2.3(b))."""
    return stroke(1, striker, ["1"], cushions=5)


def start(breaker: str = "A", rules: str = RULES) -> State:
    m = Match(format="cuelog/1", match="t", rules=rules, sides={"A": "a", "B": "b"})
    return new_frame(m, Frame(frame=1, breaker=breaker))


def replay(*records: FrameRecord, breaker: str = "A", rules: str = RULES) -> tuple[FrameResult, list[Outcome]]:
    return replay_rack(start(breaker, rules), records, apply, finish)


def fold(*records: FrameRecord, breaker: str = "A", rules: str = RULES) -> State:
    return fold_rack(start(breaker, rules), records, apply)
