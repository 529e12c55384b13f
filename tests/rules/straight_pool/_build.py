"""Builders for the 14.1 continuous conformance suite (WPA section 4)."""

from __future__ import annotations

from typing import Any

from cuelog.replay.model import FrameResult, Outcome
from cuelog.replay.pool.straight_pool import State, apply, finish, new_frame
from cuelog.schemas.records import Call, Choice, Cushions, Event, Frame, FrameEnd, FrameRecord, Match, Respot, Stroke

RULES = "straight-pool/wpa"


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


def foul(points: int | None = None) -> Call:
    return Call(foul=True, points=points)


def choice(after: int, side: str, option: str) -> Choice:
    return Choice(frame=1, after=after, side=side, option=option)


def event(after: int, kind: str, side: str | None = None, **kw: Any) -> Event:
    return Event(frame=1, after=after, kind=kind, side=side, **kw)


def end(winner: str, reason: str = "target", score: list[int] | None = None) -> FrameEnd:
    return FrameEnd(frame=1, winner=winner, reason=reason, score=score)


def opening(striker: str = "A") -> Stroke:
    """Stroke 1: a legal opening break, nothing pocketed, three balls to a rail (WPA 4.3(b))."""
    return stroke(1, striker, ["1"], cushions=3)


def start(target: int | None = 100) -> State:
    m = Match(format="cuelog/1", match="t", rules=RULES, sides={"A": "a", "B": "b"}, target=target)
    return new_frame(m, Frame(frame=1, breaker="A"))


def replay(*records: FrameRecord, target: int | None = 100) -> tuple[FrameResult, list[Outcome]]:
    state = start(target)
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


def fold(*records: FrameRecord, target: int | None = 100) -> State:
    state = start(target)
    for r in records:
        state, _, _ = apply(state, r)
    return state


def kinds(result: FrameResult) -> list[tuple[int, str]]:
    return [(f.n, f.kind) for f in result.findings]
