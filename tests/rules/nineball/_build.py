"""Builders for the nine-ball conformance suite (WPA section 2)."""

from __future__ import annotations

from typing import Any

from cuelog.replay.model import FrameResult, Outcome
from cuelog.replay.pool.nineball import State, apply, finish, new_frame
from cuelog.schemas.records import Call, Choice, Cushions, Event, Frame, FrameEnd, FrameRecord, Match, Respot, Stroke

RULES = "nineball/wpa"


def stroke(
    n: int,
    striker: str,
    first: list[str],
    potted: list[str] | None = None,
    *,
    call: Call | None = None,
    cushions: int | None = None,
    rail: bool | None = None,
    respots: list[str] | None = None,
    **kw: Any,
) -> Stroke:
    c = None if cushions is None and rail is None else Cushions(objects=cushions, after_contact=rail)
    return Stroke(
        frame=1,
        n=n,
        striker=striker,
        first=first,
        potted=potted or [],
        call=call,
        cushions=c,
        respots=None if respots is None else [Respot(ball=b, spot="foot") for b in respots],
        **kw,
    )


def foul(*, in_hand: bool | None = True, loss: bool | None = None) -> Call:
    return Call(foul=True, ball_in_hand=in_hand, loss_of_frame=loss)


def choice(after: int, side: str, option: str) -> Choice:
    return Choice(frame=1, after=after, side=side, option=option)


def event(after: int, kind: str, side: str | None = None, **kw: Any) -> Event:
    return Event(frame=1, after=after, kind=kind, side=side, **kw)


def end(winner: str, reason: str = "pot") -> FrameEnd:
    return FrameEnd(frame=1, winner=winner, reason=reason)


def legal_break(striker: str = "A") -> Stroke:
    """Stroke 1: the 1 hit first, nothing pocketed, five balls to a rail (WPA 2.3(b))."""
    return stroke(1, striker, ["1"], cushions=5)


def start(breaker: str = "A") -> State:
    m = Match(format="cuelog/1", match="t", rules=RULES, sides={"A": "a", "B": "b"})
    return new_frame(m, Frame(frame=1, breaker=breaker))


def replay(*records: FrameRecord, breaker: str = "A") -> tuple[FrameResult, list[Outcome]]:
    state = start(breaker)
    outcomes: list[Outcome] = []
    findings = []
    for r in records:
        state, outcome, fs = apply(state, r)
        findings.extend(fs)
        if outcome is not None:
            outcomes.append(outcome)
    result = finish(state)
    result.findings = findings
    return result, outcomes


def fold(*records: FrameRecord, breaker: str = "A") -> State:
    state = start(breaker)
    for r in records:
        state, _, _ = apply(state, r)
    return state


def kinds(result: FrameResult) -> list[tuple[int, str]]:
    return [(f.n, f.kind) for f in result.findings]
