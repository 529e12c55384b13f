"""The rules engines. Pure Python: no I/O, no DuckDB, no Polars.

``replay_matches(records)`` folds a stream of cuelog/1 records into match results. The
records of each frame go to the engine of the match's discipline, whose
``replay_frame(match, frame, records, previous)`` returns a :class:`FrameResult`.
Each engine module also exposes the pure fold it is built on,
``new_frame(match, frame, previous) -> state`` and ``apply(state, record) -> Step``,
which the simulator uses to learn the due call of a stroke before writing it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from typing import Protocol

from cuelog.replay.model import INVALID_RECORD, Finding, FrameResult, MatchResult
from cuelog.replay.rulesets import RULESETS, Ruleset, UnknownRuleset, ruleset
from cuelog.schemas.records import Choice, Event, Frame, FrameRecord, Match, Record

__all__ = [
    "RULESETS",
    "NoEngine",
    "Ruleset",
    "UnknownRuleset",
    "engine_for",
    "replay_match",
    "replay_matches",
]

# Disciplines whose engine exists, and the module that implements it.
ENGINES: dict[str, str] = {
    "snooker": "cuelog.replay.snooker",
    "billiards": "cuelog.replay.billiards",
    "eightball": "cuelog.replay.pool.eightball",
    "nineball": "cuelog.replay.pool.nineball",
    "straight-pool": "cuelog.replay.pool.straight_pool",
}


class Engine(Protocol):
    def replay_frame(
        self,
        match: Match,
        frame: Frame,
        records: Sequence[FrameRecord],
        previous: FrameResult | None,
    ) -> FrameResult: ...


class NoEngine(LookupError):
    """The ruleset is known but cuelog has no engine for its discipline yet."""

    def __init__(self, rules: str) -> None:
        super().__init__(rules)
        self.rules = rules

    def __str__(self) -> str:
        have = ", ".join(sorted(r for r, rs in RULESETS.items() if rs.discipline in ENGINES))
        return f"no rules engine for {self.rules!r} yet; engines exist for: {have}"


def engine_for(rules: str) -> Engine:
    """The engine module for a ruleset id. Raises UnknownRuleset or NoEngine."""
    rs = ruleset(rules)
    name = ENGINES.get(rs.discipline)
    if name is None:
        raise NoEngine(rules)
    module: Engine = importlib.import_module(name)
    return module


def replay_match(match: Match, records: Iterable[Record]) -> MatchResult:
    """Replay the records that follow one ``match`` record, frame by frame."""
    engine = engine_for(match.rules)
    result = MatchResult(match.match, match.rules, dict(match.sides))
    previous: FrameResult | None = None
    frame: Frame | None = None
    pending: list[FrameRecord] = []

    def flush() -> None:
        nonlocal previous
        if frame is not None:
            previous = engine.replay_frame(match, frame, pending, previous)
            result.frames.append(previous)

    for record in records:
        if isinstance(record, Match):
            raise ValueError("replay_match takes the records of one match")
        if isinstance(record, Frame):
            flush()
            frame, pending = record, []
        elif frame is None or record.frame != frame.frame:
            n: int = record.after if isinstance(record, Choice | Event) else getattr(record, "n", 0)
            result.findings.append(
                Finding(
                    n,
                    INVALID_RECORD,
                    "FORMAT 2",
                    None,
                    0,
                    f"{type(record).__name__.lower()} record for frame {record.frame} outside that frame's records",
                )
            )
        else:
            pending.append(record)
    flush()
    return result


def replay_matches(records: Iterable[Record]) -> list[MatchResult]:
    """Split a record stream at its ``match`` records and replay each match.

    Results are sorted by match id, so the order of the input files does not matter.
    """
    results: list[MatchResult] = []
    match: Match | None = None
    body: list[Record] = []
    for record in records:
        if isinstance(record, Match):
            if match is not None:
                results.append(replay_match(match, body))
            match, body = record, []
        elif match is not None:
            body.append(record)
        else:
            raise ValueError(f"{type(record).__name__.lower()} record before any match record")
    if match is not None:
        results.append(replay_match(match, body))
    results.sort(key=lambda r: r.match)
    return results
