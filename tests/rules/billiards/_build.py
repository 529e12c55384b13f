"""Builders for the billiards conformance suite: strokes and calls as a recorder writes them."""

from __future__ import annotations

from typing import Any

from cuelog.replay.billiards import Geometry
from cuelog.replay.engine import engine_for
from cuelog.replay.model import FrameResult, Outcome
from cuelog.schemas.records import (
    Call,
    Choice,
    Cushions,
    Event,
    Frame,
    FrameEnd,
    FrameRecord,
    Infringement,
    Match,
    Respot,
    Stroke,
)

GEO = Geometry.of(None)
SPOT = GEO.spots["spot"]
CENTRE = GEO.spots["centre"]
PYRAMID = GEO.spots["pyramid"]
BAULK_MIDDLE = GEO.spots["baulk_middle"]


def at(ball: str, spot: str) -> tuple[str, float, float]:
    """A position entry: ``ball`` resting on the named spot."""
    x, y = GEO.spots[spot]
    return (ball, x, y)


def match(rules: str = "billiards/wpbsa-2024", **kw: Any) -> Match:
    return Match(format="cuelog/1", match="t", rules=rules, sides={"A": "a", "B": "b"}, **kw)


def stroke(
    n: int,
    striker: str,
    first: list[str],
    potted: list[str] | None = None,
    *,
    then: list[str] | None = None,
    call: Call | None = None,
    respots: list[tuple[str, str]] | None = None,
    score: list[int] | None = None,
    infringements: list[str] | None = None,
    cue_first: bool | None = None,
    **kw: Any,
) -> Stroke:
    return Stroke(
        frame=1,
        n=n,
        striker=striker,
        first=first,
        potted=potted or [],
        then=then if then is not None else [],
        call=call,
        respots=None if respots is None else [Respot(ball=b, spot=s) for b, s in respots],
        score=score,
        infringements=None if infringements is None else [Infringement(code=c) for c in infringements],
        cushions=None if cue_first is None else Cushions(cue_first=cue_first),
        **kw,
    )


def foul(points: int | None = 2) -> Call:
    return Call(foul=True, points=points)


def miss(points: int | None = 2) -> Call:
    return Call(foul=False, miss=True, points=points)


def choice(after: int, side: str, option: str) -> Choice:
    return Choice(frame=1, after=after, side=side, option=option)


def event(after: int, kind: str, side: str | None = None, **kw: Any) -> Event:
    return Event(frame=1, after=after, kind=kind, side=side, **kw)


def call(after: int, what: str) -> Event:
    return Event(frame=1, after=after, kind="referee_call", call=what)


def end(winner: str | None, reason: str, score: list[int] | None = None) -> FrameEnd:
    return FrameEnd(frame=1, winner=winner, score=score, reason=reason)


def replay(
    *records: FrameRecord, rules: str = "billiards/wpbsa-2024", breaker: str = "A", **match_kw: Any
) -> tuple[FrameResult, list[Outcome]]:
    """Replay one game through the engine the ruleset registry names; the result and every
    stroke's due call."""
    result = engine_for(rules).replay_frame(
        match(rules, **match_kw), Frame(frame=1, breaker=breaker), list(records), None
    )
    return result, result.outcomes


def kinds(result: FrameResult) -> list[tuple[int, str]]:
    """The certain findings, as (stroke, kind)."""
    return [(f.n, f.kind) for f in result.findings if f.certain]


def uncertain(result: FrameResult) -> list[tuple[int, str, str | None]]:
    """The findings one unrecorded fact could excuse, as (stroke, kind, that fact)."""
    return [(f.n, f.kind, f.unless) for f in result.findings if not f.certain]


def opening(striker: str = "A") -> list[Stroke]:
    """A (white) opens from in-hand and misses the Red; B comes in with the Yellow in-hand."""
    return [stroke(1, striker, ["red"], placement="legal", score=[0, 0])]
