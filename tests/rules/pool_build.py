"""Builders the pool conformance suites share: strokes, choices and events as a recorder
writes them, and the rack folded through an engine's public ``apply``/``finish``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from cuelog.replay.model import Finding, FrameResult, Outcome
from cuelog.schemas.records import Call, Choice, Cushions, Event, FrameRecord, Infringement, Respot, Stroke

S = TypeVar("S")


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


def choice(after: int, side: str, option: str) -> Choice:
    return Choice(frame=1, after=after, side=side, option=option)


def event(after: int, kind: str, side: str | None = None, **kw: Any) -> Event:
    return Event(frame=1, after=after, kind=kind, side=side, **kw)


def replay_rack(
    state: S,
    records: Iterable[FrameRecord],
    apply: Callable[[S, FrameRecord], tuple[S, Outcome | None, list[Finding]]],
    finish: Callable[[S], FrameResult],
) -> tuple[FrameResult, list[Outcome]]:
    """The rack's result with the findings in the order the fold raised them, and every
    stroke's due call."""
    outcomes: list[Outcome] = []
    findings: list[Finding] = []
    for r in records:
        state, outcome, fs = apply(state, r)
        findings.extend(fs)
        if outcome is not None:
            outcomes.append(outcome)
    result = finish(state)
    result.findings = findings
    return result, outcomes


def fold_rack(
    state: S, records: Iterable[FrameRecord], apply: Callable[[S, FrameRecord], tuple[S, Outcome | None, list[Finding]]]
) -> S:
    """The state after the records."""
    for r in records:
        state, _, _ = apply(state, r)
    return state


def kinds(result: FrameResult) -> list[tuple[int, str]]:
    return [(f.n, f.kind) for f in result.findings]


def derived(base: str, **params: Any) -> str:
    """The id of a ruleset derived from ``base`` with ``params`` (as a ruleset file does),
    installed so that an engine finds it by the match's ``rules``."""
    from cuelog.replay.derived import derive, install

    name = "t-" + "-".join(f"{k}-{v}" for k, v in sorted(params.items())).replace("_", "-").lower()
    return install(derive(name, base, params))
