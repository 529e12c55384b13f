"""Where an audit report's match comes from: log files or a cuelog database, replayed afresh.

The report (:mod:`cuelog.analytics.audit_report`) only renders; this module reads the
match, applies the officials' corrections and replays it, for ``cuelog audit`` and the demo.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cuelog import __version__
from cuelog.analytics.audit_report import Audit
from cuelog.errors import CuelogError
from cuelog.ingest.corrections import Located, apply_corrections
from cuelog.ingest.reader import log_files, read_records
from cuelog.replay import replay_match
from cuelog.schemas.records import Correction, Match, Record
from cuelog.schemas.rulesets import RULESETS

if TYPE_CHECKING:
    import duckdb


def read_logs(paths: Sequence[str | os.PathLike[str]]) -> list[Record]:
    """Every record of the log files (directories expanded, in sorted order). Raises
    InputError naming the file, line and field of an unreadable record."""
    return [record for f in log_files(paths) for _, record in read_records(f)]


class NoSuchMatch(CuelogError, LookupError):
    """The logs or the database hold no match with the id asked for, or several and none was named."""


def _replayed(match: Match, body: list[Record], fixes: Sequence[Located], frames: list[int] | None) -> Audit:
    applied: list[Correction] = []
    if fixes:
        corrected, applied = apply_corrections([match, *body], fixes)
        body = corrected[1:]
    result = replay_match(match, body)
    result.corrections = applied
    rs = RULESETS.get(match.rules)
    return Audit(
        match=match,
        records=body,
        result=result,
        discipline=rs.discipline if rs else match.rules.split("/")[0],
        book=rs.source if rs else None,
        made_by=f"cuelog {__version__}",
        frames=frames,
    )


def audit_from_records(
    records: Sequence[Record], match_id: str | None, fixes: Sequence[Located] = (), frames: list[int] | None = None
) -> Audit:
    """The audit of one match of a record stream (log files); ``match_id`` may be left out
    when the stream holds one match."""
    matches: dict[str, tuple[Match, list[Record]]] = {}
    current: list[Record] | None = None
    for r in records:
        if isinstance(r, Match):
            current = matches.setdefault(r.match, (r, []))[1]
        elif current is not None:
            current.append(r)
    if match_id is None:
        if len(matches) != 1:
            raise NoSuchMatch(
                f"the logs hold {len(matches)} matches ({', '.join(sorted(matches))}); name one with --match"
            )
        match_id = next(iter(matches))
    if match_id not in matches:
        raise NoSuchMatch(f"no match {match_id!r} in the logs; they hold: {', '.join(sorted(matches)) or 'none'}")
    match, body = matches[match_id]
    return _replayed(match, body, [x for x in fixes if x[2].match == match_id], frames)


def stored_corrections(con: duckdb.DuckDBPyConnection, match_id: str, db: str) -> list[Located]:
    """The corrections the last ``cuelog replay --db`` applied to a match, to apply again
    (none in a database made before corrections were stored)."""
    from cuelog.store.reads import stored_corrections as stored

    return [(db, 0, c) for c in stored(con, match_id)]


def audit_from_db(
    con: duckdb.DuckDBPyConnection,
    match_id: str,
    fixes: Sequence[Located] | None = None,
    frames: list[int] | None = None,
    *,
    db: str = "database",
) -> Audit:
    """The audit of one loaded match, replayed afresh from its stored records. Without
    ``fixes`` the corrections stored with its last replay are applied again."""
    from cuelog.store import match_ids, match_records

    if match_id not in set(match_ids(con)):
        raise NoSuchMatch(f"no loaded match {match_id!r} in {db}; `cuelog matches --db {db}` lists them")
    _, records = next(match_records(con, [match_id]))
    if not records or not isinstance(records[0], Match):
        raise NoSuchMatch(f"match {match_id!r} in {db} has no match record")
    chosen = stored_corrections(con, match_id, db) if fixes is None else list(fixes)
    return _replayed(records[0], records[1:], chosen, frames)
