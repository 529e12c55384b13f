"""Builders for the 14.1 continuous conformance suite (WPA section 4)."""

from __future__ import annotations

from cuelog.replay.model import FrameResult, Outcome
from cuelog.replay.pool.straight_pool import State, apply, finish, new_frame
from cuelog.schemas.records import Call, Frame, FrameEnd, FrameRecord, Match, Stroke
from tests.rules.pool_build import choice as choice
from tests.rules.pool_build import derived as derived
from tests.rules.pool_build import event as event
from tests.rules.pool_build import fold_rack, replay_rack, stroke
from tests.rules.pool_build import kinds as kinds

RULES = "straight-pool/wpa"


def foul(points: int | None = None) -> Call:
    return Call(foul=True, points=points)


def end(winner: str, reason: str = "target", score: list[int] | None = None) -> FrameEnd:
    return FrameEnd(frame=1, winner=winner, reason=reason, score=score)


def opening(striker: str = "A") -> Stroke:
    """Stroke 1: a legal opening break, nothing pocketed, three balls to a rail (WPA 4.3(b))."""
    return stroke(1, striker, ["1"], cushions=3)


def start(target: int | None = 100, rules: str = RULES) -> State:
    m = Match(format="cuelog/1", match="t", rules=rules, sides={"A": "a", "B": "b"}, target=target)
    return new_frame(m, Frame(frame=1, breaker="A"))


def replay(*records: FrameRecord, target: int | None = 100, rules: str = RULES) -> tuple[FrameResult, list[Outcome]]:
    return replay_rack(start(target, rules), records, apply, finish)


def fold(*records: FrameRecord, target: int | None = 100, rules: str = RULES) -> State:
    return fold_rack(start(target, rules), records, apply)
