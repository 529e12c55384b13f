"""Officials' corrections to a finished log (docs/format.md section 6).

A corrections file is JSON Lines of
``{"match": "...", "frame": 1, "n": 14, "set": {"potted": ["pink"]}, "note": "..."}``:
each row replaces fields of one stroke before the replay, without editing the log. A
correction that names no stroke, or sets a field a stroke does not have, or a value of
the wrong type, is a Problem with the corrections file's line: nothing is applied
silently or dropped silently. The corrections applied are reported with the result.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

import msgspec

from cuelog.errors import InputError, Problem
from cuelog.ingest.reader import decode_problem, scan
from cuelog.ingest.validate import check_bounds, check_score
from cuelog.schemas.records import Correction, Match, Record, Stroke

# Fields a correction may not change: they say which stroke it is.
_IDENTITY = frozenset({"type", "frame", "n"})
_STROKE_FIELDS = frozenset(f if f != "break_" else "break" for f in Stroke.__struct_fields__) - _IDENTITY


def _decode_correction(text: str) -> Correction:
    try:
        return msgspec.json.decode(text, type=Correction)
    except RecursionError:
        raise msgspec.DecodeError("JSON nested too deeply to decode") from None


Located = tuple[str, int, Correction]
"""A correction with the file and line it came from."""


def read_corrections(path: str | os.PathLike[str]) -> list[Located]:
    """Every correction of a file with its file and line. Raises InputError with every problem found."""
    name = str(path)
    out: list[Located] = []
    problems: list[Problem] = []
    for line, item in scan(path):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        try:
            c = _decode_correction(item)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            p = decode_problem(name, line, exc)
            problems.append(
                Problem(p.file, p.line, p.field, p.code, p.found, "a correction (docs/format.md section 6)")
            )
            continue
        unknown = sorted(set(c.set) - _STROKE_FIELDS)
        if unknown or not c.set:
            found = ", ".join(unknown) if unknown else "nothing to set"
            problems.append(
                Problem(name, line, "set", "bad_correction", found, f"stroke fields among {sorted(_STROKE_FIELDS)}")
            )
            continue
        out.append((name, line, c))
    if problems:
        raise InputError(problems)
    return out


def _beyond_bounds(source: str, line: int, stroke: Stroke) -> list[Problem]:
    """A corrected stroke keeps the stated bounds of a logged one (docs/format.md section 3)."""
    found = check_bounds(source, line, "stroke", stroke) + check_score(source, line, "score", stroke.score)
    return [Problem(p.file, p.line, f"set.{p.field}", p.code, p.found, p.expected) for p in found]


def apply_corrections(
    records: Iterable[Record], corrections: Iterable[Located]
) -> tuple[list[Record], list[Correction]]:
    """The records with the corrections applied, and the corrections that were applied.

    Raises InputError naming the corrections file and line of a correction that matches
    no stroke of the records, corrects a stroke twice, or whose new values do not make a
    valid stroke.
    """
    wanted: dict[tuple[str, int, int], Located] = {}
    problems: list[Problem] = []
    for source, line, c in corrections:
        key = (c.match, c.frame, c.n)
        if key in wanted:
            problems.append(
                Problem(source, line, "n", "duplicate_correction", f"stroke {c.n} again", "one correction per stroke")
            )
        wanted[key] = (source, line, c)
    out: list[Record] = []
    applied: list[Correction] = []
    match: str | None = None
    for record in records:
        if isinstance(record, Match):
            match = record.match
        elif isinstance(record, Stroke) and match is not None:
            hit = wanted.pop((match, record.frame, record.n), None)
            if hit is not None:
                source, line, c = hit
                body = msgspec.to_builtins(record)
                body.update(c.set)
                try:
                    record = msgspec.convert(body, type=Stroke)
                except msgspec.ValidationError as exc:
                    p = decode_problem(source, line, exc)
                    problems.append(
                        Problem(source, line, f"set.{p.field}", "bad_correction", p.found, "a valid stroke")
                    )
                    continue
                beyond = _beyond_bounds(source, line, record)
                if beyond:
                    problems.extend(beyond)
                    continue
                applied.append(c)
        out.append(record)
    for source, line, c in sorted(wanted.values(), key=lambda item: (item[0], item[1])):
        problems.append(
            Problem(
                source,
                line,
                "n",
                "no_such_stroke",
                f"match {c.match!r} frame {c.frame} stroke {c.n}",
                "a stroke of the logs being replayed",
            )
        )
    if problems:
        raise InputError(sorted(problems, key=lambda p: (p.file, p.line)))
    return out, applied
