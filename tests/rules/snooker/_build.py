"""Builders for the snooker conformance suite: strokes and calls as a recorder writes them."""

from __future__ import annotations

from typing import Any

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


def match(rules: str = "snooker/wpbsa-2024", reds: int | None = None, aggregate: bool | None = None) -> Match:
    return Match(format="cuelog/1", match="t", rules=rules, sides={"A": "a", "B": "b"}, reds=reds, aggregate=aggregate)


def stroke(
    n: int,
    striker: str,
    first: list[str],
    potted: list[str] | None = None,
    *,
    call: Call | None = None,
    respots: list[tuple[str, str]] | None = None,
    score: list[int] | None = None,
    nominated: str | None = None,
    placement: str | None = None,
    off_table: list[str] | None = None,
    infringements: list[str | tuple[str, str]] | None = None,
    positions: list[tuple[str, float, float]] | None = None,
    cushions: Cushions | None = None,
    **kw: Any,
) -> Stroke:
    return Stroke(
        frame=1,
        n=n,
        striker=striker,
        first=first,
        potted=potted or [],
        call=call,
        respots=None if respots is None else [Respot(ball=b, spot=s) for b, s in respots],
        score=score,
        nominated=nominated,
        placement=placement,
        off_table=off_table,
        infringements=None if infringements is None else [_infringement(c) for c in infringements],
        positions=positions,
        cushions=cushions,
        **kw,
    )


def _infringement(c: str | tuple[str, str]) -> Infringement:
    return Infringement(code=c) if isinstance(c, str) else Infringement(code=c[0], ball=c[1])


def foul(points: int | None, *, miss: bool = False, free_ball: bool = False) -> Call:
    return Call(foul=True, points=points, miss=miss, free_ball=free_ball)


def choice(after: int, side: str, option: str) -> Choice:
    return Choice(frame=1, after=after, side=side, option=option)


def event(after: int, kind: str, side: str | None = None, **kw: Any) -> Event:
    return Event(frame=1, after=after, kind=kind, side=side, **kw)


def end(winner: str, reason: str, score: list[int] | None = None) -> FrameEnd:
    return FrameEnd(frame=1, winner=winner, score=score, reason=reason)


def replay(
    *records: FrameRecord,
    rules: str = "snooker/wpbsa-2024",
    reds: int | None = None,
    breaker: str = "A",
    previous: FrameResult | None = None,
    aggregate: bool | None = None,
) -> tuple[FrameResult, list[Outcome]]:
    """Replay one frame through the engine protocol's public fold (the engine the ruleset
    registry names for ``rules``); the result and every stroke's due call."""
    engine = engine_for(rules)
    state = engine.new_frame(match(rules, reds, aggregate), Frame(frame=1, breaker=breaker), previous)
    outcomes: list[Outcome] = []
    for r in records:
        state, outcome, _ = engine.apply(state, r)
        if outcome is not None:
            outcomes.append(outcome)
    return engine.finish(state), outcomes


def kinds(result: FrameResult) -> list[tuple[int, str]]:
    """The certain findings, as (stroke, kind)."""
    return [(f.n, f.kind) for f in result.findings if f.certain]


def uncertain(result: FrameResult) -> list[tuple[int, str, str | None]]:
    """The findings one unrecorded fact could excuse, as (stroke, kind, that fact)."""
    return [(f.n, f.kind, f.unless) for f in result.findings if not f.certain]


def reds_then_colours(reds: int, striker: str = "A", start: int = 1, colour: str = "black") -> list[Stroke]:
    """A clearance of ``reds`` Reds, each followed by ``colour``, then the colours in order."""
    out: list[Stroke] = []
    n = start
    for _ in range(reds):
        out.append(stroke(n, striker, ["red"], ["red"]))
        out.append(stroke(n + 1, striker, [colour], [colour], nominated=colour, respots=[(colour, colour)]))
        n += 2
    for c in ("yellow", "green", "brown", "blue", "pink", "black"):
        out.append(stroke(n, striker, [c], [c], respots=[]))
        n += 1
    return out
