"""Builders for the eight-ball conformance suite: strokes and calls as a recorder writes them."""

from __future__ import annotations

from cuelog.replay.model import FrameResult, Outcome
from cuelog.replay.pool.eightball import State, apply, finish, new_frame
from cuelog.schemas.records import (
    Call,
    Clock,
    Event,
    Frame,
    FrameEnd,
    FrameRecord,
    Match,
    Stroke,
)
from tests.rules.pool_build import choice as choice
from tests.rules.pool_build import event as event
from tests.rules.pool_build import fold_rack, replay_rack, stroke
from tests.rules.pool_build import kinds as kinds

WORLD = "eightball/world-2015"
WEPF = "eightball/wepf"
WPA = "eightball/wpa"
BB = "eightball/blackball"
GROUP_EDITIONS = (WORLD, WEPF)
"""The two books with the same table of fouls (the digest's "= WE" column)."""


def match(rules: str = WORLD) -> Match:
    return Match(format="cuelog/1", match="t", rules=rules, sides={"A": "a", "B": "b"})


def foul(visits: int | None = None, *, in_hand: bool | None = None, loss: bool | None = None) -> Call:
    return Call(foul=True, visits=visits, ball_in_hand=in_hand, loss_of_frame=loss)


def nominate(after: int, side: str, group: str) -> Event:
    return event(after, "nominate_group", side, group=group)


def clock(n: int, elapsed: float, limit: float | None = None) -> Clock:
    return Clock(frame=1, n=n, elapsed_s=elapsed, limit_s=limit)


def end(winner: str, reason: str = "pot") -> FrameEnd:
    return FrameEnd(frame=1, winner=winner, reason=reason)


def fair_break(striker: str = "A") -> Stroke:
    """Stroke 1: a fair break that pots nothing, four balls to a cushion (WE F(4)(a), WPA 3.3(d))."""
    return stroke(1, striker, ["red"], cushions=4)


def start(rules: str = WORLD, breaker: str = "A") -> State:
    return new_frame(match(rules), Frame(frame=1, breaker=breaker))


def replay(*records: FrameRecord, rules: str = WORLD, breaker: str = "A") -> tuple[FrameResult, list[Outcome]]:
    """Replay one rack through the public fold; the result and every stroke's due call."""
    return replay_rack(start(rules, breaker), records, apply, finish)


def fold(*records: FrameRecord, rules: str = WORLD, breaker: str = "A") -> State:
    """The state after the records."""
    return fold_rack(start(rules, breaker), records, apply)


def own(rules: str, side: str) -> str:
    """A ball of ``side``'s group on the table after :func:`groups_decided`: B red / 2, A yellow / 9."""
    if rules == WPA:
        return "2" if side == "B" else "9"
    return "red" if side == "B" else "yellow"


def black(rules: str) -> str:
    return "8" if rules == WPA else "black"


def groups_decided(rules: str) -> list[FrameRecord]:
    """Strokes 1-3: A breaks fairly potting nothing; B pots one red (the 1, called) and is
    on that group; B misses. A (yellow / stripes) is to play stroke 4."""
    b = "1" if rules == WPA else own(rules, "B")
    call = {"nominated": b} if rules == WPA else {}
    call2 = {"nominated": "2"} if rules == WPA else {}
    return [
        fair_break("A"),
        stroke(2, "B", [b], [b], rail=True, **call),
        stroke(3, "B", ["2" if rules == WPA else b], rail=True, **call2),
    ]
