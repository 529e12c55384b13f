"""Builders for the eight-ball conformance suite: strokes and calls as a recorder writes them."""

from __future__ import annotations

from typing import Any

from cuelog.replay.model import FrameResult, Outcome
from cuelog.replay.pool.eightball import State, apply, finish, new_frame
from cuelog.schemas.records import (
    Call,
    Choice,
    Clock,
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

WORLD = "eightball/world-2015"
WEPF = "eightball/wepf"
WPA = "eightball/wpa"
BB = "eightball/blackball"
GROUP_EDITIONS = (WORLD, WEPF)
"""The two books with the same table of fouls (the digest's "= WE" column)."""


def match(rules: str = WORLD) -> Match:
    return Match(format="cuelog/1", match="t", rules=rules, sides={"A": "a", "B": "b"})


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
    spot: str = "foot",
    infringements: list[str] | None = None,
    **kw: Any,
) -> Stroke:
    """A stroke; ``cushions`` counts object balls to a cushion, ``rail`` says whether any
    ball reached a cushion after the first contact (``None``: not recorded)."""
    c = None
    if cushions is not None or rail is not None:
        c = Cushions(objects=cushions, after_contact=rail)
    return Stroke(
        frame=1,
        n=n,
        striker=striker,
        first=first,
        potted=potted or [],
        call=call,
        cushions=c,
        respots=None if respots is None else [Respot(ball=b, spot=spot) for b in respots],
        infringements=None if infringements is None else [Infringement(code=i) for i in infringements],
        **kw,
    )


def foul(visits: int | None = None, *, in_hand: bool | None = None, loss: bool | None = None) -> Call:
    return Call(foul=True, visits=visits, ball_in_hand=in_hand, loss_of_frame=loss)


def choice(after: int, side: str, option: str) -> Choice:
    return Choice(frame=1, after=after, side=side, option=option)


def event(after: int, kind: str, side: str | None = None, **kw: Any) -> Event:
    return Event(frame=1, after=after, kind=kind, side=side, **kw)


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
    state = start(rules, breaker)
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


def fold(*records: FrameRecord, rules: str = WORLD, breaker: str = "A") -> State:
    """The state after the records."""
    state = start(rules, breaker)
    for r in records:
        state, _, _ = apply(state, r)
    return state


def kinds(result: FrameResult) -> list[tuple[int, str]]:
    return [(f.n, f.kind) for f in result.findings]


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
