"""The rules engines. Pure Python: no I/O, no DuckDB, no Polars.

``replay_matches(records)`` folds a stream of cuelog/1 records into match results. The
records of each frame go to the engine of the match's discipline
(:func:`~cuelog.replay.engine.engine_for`), whose
``replay_frame(match, frame, records, previous)`` returns a :class:`FrameResult`. Every
engine implements :class:`~cuelog.replay.engine.Engine`: the pure fold
``new_frame``/``apply``/``finish`` the simulator uses to learn the due call of a stroke
before writing it, and ``replay_frame``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from cuelog.replay.engine import Engine, NoEngine, engine_for
from cuelog.replay.model import INVALID_RECORD, Finding, FrameResult, MatchResult
from cuelog.schemas.records import Choice, Event, Frame, FrameRecord, Match, Record, Stroke, TypedStroke, kind_of
from cuelog.schemas.rulesets import ENGINES, RULESETS, Ruleset, UnknownRuleset

__all__ = [
    "ENGINES",
    "RULESETS",
    "Engine",
    "NoEngine",
    "Ruleset",
    "UnknownRuleset",
    "engine_for",
    "outside_frame",
    "replay_match",
    "replay_matches",
    "split_matches",
]


def replay_match(match: Match, records: Iterable[Record]) -> MatchResult:
    """Replay the records that follow one ``match`` record, frame by frame."""
    engine = engine_for(match.rules)
    result = MatchResult(match.match, match.rules, dict(match.sides))
    previous: FrameResult | None = None
    frame: Frame | None = None
    number: int | None = None
    """The number of the frame being read (``None`` before the first)."""
    pending: list[FrameRecord] = []
    for record in records:
        if (type(record) is TypedStroke or type(record) is Stroke) and record.frame == number:
            # The common case first: a stroke of the frame being read (what the last branch does).
            pending.append(record)
        elif isinstance(record, Match):
            raise ValueError("replay_match takes the records of one match")
        elif isinstance(record, Frame):
            if frame is not None:
                previous = engine.replay_frame(match, frame, pending, previous)
                result.frames.append(previous)
            frame, number, pending = record, record.frame, []
        elif frame is None or record.frame != number:
            result.findings.append(outside_frame(record))
        else:
            pending.append(record)
    if frame is not None:
        result.frames.append(engine.replay_frame(match, frame, pending, previous))
    return result


def outside_frame(record: FrameRecord) -> Finding:
    """FORMAT 2: a frame's records follow its ``frame`` record; one outside them (another
    frame's, or before any frame) is reported, not folded into a frame."""
    n: int = record.after if isinstance(record, Choice | Event) else getattr(record, "n", 0)
    return Finding(
        n=n,
        kind=INVALID_RECORD,
        rule="FORMAT 2",
        side=None,
        points=0,
        message=f"{kind_of(record)} record for frame {record.frame} outside that frame's records",
    )


def split_matches(records: Iterable[Record]) -> Iterator[tuple[Match, list[Record]]]:
    """Each ``match`` record of a stream with the records that follow it, one match at a
    time: only the records of the match being read are held."""
    match: Match | None = None
    body: list[Record] = []
    for record in records:
        if (type(record) is TypedStroke or type(record) is Stroke) and match is not None:
            body.append(record)  # the common case first (what the last branch does)
        elif isinstance(record, Match):
            if match is not None:
                yield match, body
            match, body = record, []
        elif match is not None:
            body.append(record)
        else:
            raise ValueError(f"{kind_of(record)} record before any match record")
    if match is not None:
        yield match, body


def replay_matches(records: Iterable[Record]) -> list[MatchResult]:
    """Split a record stream at its ``match`` records and replay each match.

    Results are sorted by match id, so the order of the input files does not matter.
    """
    results = [replay_match(match, body) for match, body in split_matches(records)]
    results.sort(key=lambda r: r.match)
    return results
