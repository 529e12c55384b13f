"""Replay the matches loaded in a cuelog database and store what the rules make of them.

``replay_db`` reads the loaded records back (raw JSON, one query), replays each match in a
pool of worker processes (matches are independent), and writes per-stroke outcomes, frame
results, breaks and findings into the ``replay_*`` tables. Each replayed match's rows are
replaced in one transaction: a reader sees either the old results or the new ones.

The results come back sorted by match id and every table is written in a fixed order, so
the output and the stored rows are the same whatever the number of workers.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import json
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

import duckdb
import msgspec
import pyarrow as pa

from cuelog.errors import CuelogError, InputError, Problem
from cuelog.ingest.corrections import Located, apply_corrections
from cuelog.ingest.reader import decode_problem
from cuelog.replay import NoEngine, UnknownRuleset, replay_match
from cuelog.replay.derived import Derived, under
from cuelog.replay.model import Finding, MatchResult
from cuelog.schemas.records import Correction, Match, Record, decode

REPLAY_TABLES = ("replay_frames", "replay_strokes", "replay_breaks", "replay_findings", "replay_corrections")


class ReplayFailed(CuelogError):
    """A loaded match could not be replayed (unknown ruleset, no engine, broken stream)."""


class NoMatches(CuelogError, LookupError):
    """The database holds no loaded match."""

    def __str__(self) -> str:
        return "the database has no loaded matches; load logs first with `cuelog ingest LOGS --db FILE`"


class UnknownMatch(CuelogError, LookupError):
    """A match id was asked for that the database does not hold."""

    def __init__(self, missing: Sequence[str], loaded: int) -> None:
        super().__init__(", ".join(missing))
        self.missing = list(missing)
        self.loaded = loaded

    def __str__(self) -> str:
        names = ", ".join(repr(m) for m in self.missing)
        return f"no loaded match with id {names} ({self.loaded} match(es) in the database)"


@dataclass(frozen=True, slots=True)
class LoadedMatch:
    """The records of one loaded match as stored: ``(line, json)`` pairs, the match first."""

    match_id: str
    file: str
    lines: tuple[tuple[int, str], ...]
    corrections: tuple[Located, ...] = ()
    """Officials' corrections of this match, applied before its replay (docs/format.md section 6)."""


# -- reading ---------------------------------------------------------------------------


def select_matches(con: duckdb.DuckDBPyConnection, ids: Sequence[str] | None) -> list[str]:
    """The match ids to replay, sorted: all loaded ones, or the named ones (all must exist)."""
    loaded = [r[0] for r in con.execute("SELECT match_id FROM matches ORDER BY match_id").fetchall()]
    if not loaded:
        raise NoMatches()
    if not ids:
        return loaded
    known = set(loaded)
    missing = sorted({i for i in ids if i not in known})
    if missing:
        raise UnknownMatch(missing, len(loaded))
    return sorted(set(ids))


def loaded_matches(con: duckdb.DuckDBPyConnection, ids: Sequence[str], batch: int = 65_536) -> Iterator[LoadedMatch]:
    """The stored records of each match, in file order, match by match in id order.

    One query streams every record as Arrow batches (a query per match would cost more
    than the replay for a season of short matches).
    """
    files = dict(
        con.execute(
            "SELECT m.match_id, coalesce(l.path, m.file_hash) FROM matches m "
            "LEFT JOIN ingest_log l ON l.file_hash = m.file_hash"
        ).fetchall()
    )
    con.register("chosen_matches", pa.table({"match_id": pa.array(list(ids), type=pa.string())}))
    seen: set[str] = set()
    try:
        rel = con.sql(
            "SELECT r.match_id, r.line, CAST(r.body AS VARCHAR) AS body FROM records r "
            "SEMI JOIN chosen_matches c ON c.match_id = r.match_id ORDER BY r.match_id, r.seq"
        )
        current: str | None = None
        lines: list[tuple[int, str]] = []
        for chunk in rel.to_arrow_reader(batch):
            for match_id, line, body in zip(*(chunk.column(i).to_pylist() for i in range(3)), strict=True):
                if match_id != current:
                    if current is not None:
                        yield LoadedMatch(current, str(files.get(current, current)), tuple(lines))
                    current, lines = match_id, []
                    seen.add(match_id)
                lines.append((line, body))
        if current is not None:
            yield LoadedMatch(current, str(files.get(current, current)), tuple(lines))
    finally:
        con.unregister("chosen_matches")
    # A match row without records is reported (no match record), not silently skipped.
    for match_id in ids:
        if match_id not in seen:
            yield LoadedMatch(match_id, str(files.get(match_id, match_id)), ())


def _record_count(con: duckdb.DuckDBPyConnection, ids: Sequence[str]) -> int:
    con.register("count_ids", pa.table({"match_id": pa.array(list(ids), type=pa.string())}))
    try:
        rows = con.execute("SELECT count(*) FROM records WHERE match_id IN (SELECT match_id FROM count_ids)").fetchall()
    finally:
        con.unregister("count_ids")
    return int(rows[0][0])


# -- replaying -------------------------------------------------------------------------

PARALLEL_FROM = 250_000
"""Records below which one worker is the default: measured (docs/analytics.md, "Workers"),
two worker processes cost more to start and feed than they save on a smaller replay."""


def default_workers(records: int, cores: int | None = None, load: float | None = None) -> int:
    """The ``--workers`` default: never slower than one worker.

    One worker unless the replay is large (``PARALLEL_FROM`` records or more) and the
    machine has idle cores: a worker process on a core other work already holds only adds
    its start-up and the copying of records to and from it (measured: 1.4x slower at 74k
    and 308k strokes with two workers on two busy cores). Then one worker per idle core.
    """
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if load is None:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float(cores)
    idle = int(cores - load + 0.5)
    if records < PARALLEL_FROM or idle < 2:
        return 1
    return min(cores, idle)


def _decode(loaded: LoadedMatch) -> tuple[Match, list[Record]]:
    problems: list[Problem] = []
    records: list[Record] = []
    for line, body in loaded.lines:
        try:
            records.append(decode(body))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            problems.append(decode_problem(loaded.file, line, exc))
    if problems:
        raise InputError(problems)
    if not records or not isinstance(records[0], Match):
        line = loaded.lines[0][0] if loaded.lines else 0
        raise InputError(
            [Problem(loaded.file, line, "type", "no_match_record", "no match record", "the match record first")]
        )
    return records[0], records[1:]


def replay_loaded(loaded: LoadedMatch, rules: str | Derived | None = None) -> MatchResult | InputError | ReplayFailed:
    """Replay one loaded match, under ``rules`` instead of the recorded ruleset when given.

    Errors are returned, not raised, so a worker pool keeps order.
    """
    try:
        match, body = _decode(loaded)
        applied: list[Correction] = []
        if loaded.corrections:
            corrected, applied = apply_corrections([match, *body], loaded.corrections)
            body = corrected[1:]
    except InputError as exc:
        return exc
    try:
        if rules is not None:
            match = under(match, rules)
        result = replay_match(match, body)
        result.corrections = applied
        return result
    except (UnknownRuleset, NoEngine, ValueError, ImportError) as exc:
        # ImportError: the discipline's engine module is not installed in this tree.
        return ReplayFailed(
            f"match {loaded.match_id!r} ({loaded.file}): {exc}; nothing was stored "
            f"(name the matches to replay with --match)"
        )


Tabulated = tuple[list[MatchResult | InputError | ReplayFailed], dict[str, pa.Table] | None]
"""The outcomes of some matches, and the rows of every replay table for them when all replayed."""


def replay_all(
    loaded: Iterable[LoadedMatch],
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    batch: int = 256,
    rules: str | Derived | None = None,
) -> list[MatchResult]:
    """Replay matches, in ``workers`` processes (default: every core), results by match id.

    Matches are read and handed to the workers a few at a time, so only the raw records
    of the matches in flight are in memory. ``progress(records)`` is called as each match
    is done. Raises InputError (every unreadable record of every match) or ReplayFailed
    (the first match, by id, that cannot be replayed). ``rules`` replaces every match's
    recorded ruleset (same discipline).
    """
    return _replay_tabulated(loaded, workers, progress, max(1, batch // 32), rules)[0]


def _replay_chunk(items: list[LoadedMatch], rules: str | Derived | None = None) -> Tabulated:
    """Replay a few matches and build their replay table rows, in the worker that replayed them
    (the rows cost as much to build as a fast engine takes to replay)."""
    outcomes = [replay_loaded(item, rules) for item in items]
    results = [o for o in outcomes if isinstance(o, MatchResult)]
    return outcomes, (result_tables(results) if len(results) == len(outcomes) else None)


def _replay_tabulated(
    loaded: Iterable[LoadedMatch],
    workers: int | None,
    progress: Callable[[int], None] | None,
    chunk: int = 8,
    rules: str | Derived | None = None,
) -> tuple[list[MatchResult], dict[str, pa.Table] | None]:
    """:func:`replay_all`, plus the replay tables of the results (None when they must be
    built afresh: matches that did not come in id order).

    ``chunk`` matches go to a worker at a time, and at most four chunks per worker are in
    flight: the parent reads the next matches while the workers replay, and no more raw
    records are held than the chunks in flight.
    """
    n = max(1, workers if workers is not None else (os.cpu_count() or 1))
    source = iter(loaded)
    chunks = iter(lambda: list(itertools.islice(source, chunk)), [])
    outcomes: list[MatchResult | InputError | ReplayFailed] = []
    parts: list[dict[str, pa.Table] | None] = []

    def collect(items: list[LoadedMatch], done: Tabulated) -> None:
        outcomes.extend(done[0])
        parts.append(done[1])
        if progress:
            for item in items:
                progress(len(item.lines))

    if n == 1:
        for items in chunks:
            collect(items, _replay_chunk(items, rules))
    else:
        # spawn, not fork: the parent holds an open DuckDB connection and rich consoles.
        with ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("spawn")) as pool:
            # Results are collected in input order, whichever worker ends first.
            pending: collections.deque[tuple[list[LoadedMatch], Future[Tabulated]]] = collections.deque()
            for items in chunks:
                pending.append((items, pool.submit(_replay_chunk, items, rules)))
                if len(pending) >= 4 * n:
                    first, future = pending.popleft()
                    collect(first, future.result())
            while pending:
                first, future = pending.popleft()
                collect(first, future.result())
    problems = [p for o in outcomes if isinstance(o, InputError) for p in o.problems]
    if problems:
        raise InputError(problems)
    for o in outcomes:
        if isinstance(o, ReplayFailed):
            raise o
    results = [o for o in outcomes if isinstance(o, MatchResult)]
    ids = [r.match for r in results]
    in_order = ids == sorted(ids)
    results.sort(key=lambda r: r.match)
    if not in_order or not parts or any(part is None for part in parts):
        return results, None
    tables = {name: pa.concat_tables([part[name] for part in parts if part is not None]) for name in REPLAY_TABLES}
    return results, tables


# -- writing ---------------------------------------------------------------------------


def _findings(match_id: str, frame: int | None, findings: Iterable[Finding]) -> list[tuple[object, ...]]:
    return [
        (match_id, frame, f.n, f.kind, f.rule, f.side, f.points, f.message)
        for f in sorted(findings, key=Finding.sort_key)
    ]


def result_tables(results: Sequence[MatchResult]) -> dict[str, pa.Table]:
    """The rows of every replay table for these results, as Arrow tables in a fixed order."""
    frames: list[tuple[object, ...]] = []
    strokes: list[tuple[object, ...]] = []
    breaks: list[tuple[object, ...]] = []
    findings: list[tuple[object, ...]] = []
    corrections: list[tuple[object, ...]] = []
    for m in sorted(results, key=lambda r: r.match):
        findings.extend(_findings(m.match, None, m.findings))
        corrections.extend(
            (m.match, c.frame, c.n, json.dumps(c.set, sort_keys=True), c.note)
            for c in sorted(m.corrections, key=lambda c: (c.frame, c.n))
        )
        for fr in sorted(m.frames, key=lambda f: f.frame):
            recorded = fr.recorded if fr.recorded is not None else (None, None)
            frames.append(
                (
                    m.match,
                    fr.frame,
                    fr.score[0],
                    fr.score[1],
                    recorded[0],
                    recorded[1],
                    fr.winner,
                    fr.recorded_winner,
                    fr.end_reason,
                    fr.visits[0],
                    fr.visits[1],
                )
            )
            for o in sorted(fr.outcomes, key=lambda o: o.n):
                strokes.append(
                    (
                        m.match,
                        fr.frame,
                        o.n,
                        o.striker,
                        o.scored,
                        o.penalty,
                        o.foul,
                        o.miss,
                        o.ball_on,
                        o.break_id,
                        o.visit_id,
                        o.score[0],
                        o.score[1],
                        o.free_ball,
                        list(o.reasons),
                        o.credited,
                    )
                )
            for b in fr.breaks:
                breaks.append((m.match, fr.frame, b.side, b.points, b.from_, b.to))
            findings.extend(_findings(m.match, fr.frame, fr.findings))
    return {
        "replay_frames": _table(FRAME_SCHEMA, frames),
        "replay_strokes": _table(STROKE_SCHEMA, strokes),
        "replay_breaks": _table(BREAK_SCHEMA, breaks),
        "replay_findings": _table(FINDING_SCHEMA, findings),
        "replay_corrections": _table(CORRECTION_SCHEMA, corrections),
    }


FRAME_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("score_a", pa.int32()),
        ("score_b", pa.int32()),
        ("recorded_a", pa.int32()),
        ("recorded_b", pa.int32()),
        ("winner", pa.string()),
        ("recorded_winner", pa.string()),
        ("end_reason", pa.string()),
        ("visits_a", pa.int32()),
        ("visits_b", pa.int32()),
    ]
)
STROKE_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("striker", pa.string()),
        ("scored", pa.int32()),
        ("penalty", pa.int32()),
        ("foul", pa.bool_()),
        ("miss", pa.bool_()),
        ("ball_on", pa.string()),
        ("break_id", pa.int32()),
        ("visit_id", pa.int32()),
        ("score_a", pa.int32()),
        ("score_b", pa.int32()),
        ("free_ball", pa.bool_()),
        ("reasons", pa.list_(pa.string())),
        ("credited", pa.int32()),
    ]
)
# Columns added to replay_strokes after its first release: a database created before gets them
# on its next replay.
_ADDED_COLUMNS = (
    ("replay_strokes", "free_ball", "BOOLEAN"),
    ("replay_strokes", "reasons", "VARCHAR[]"),
    ("replay_strokes", "credited", "INTEGER"),
)
BREAK_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("side", pa.string()),
        ("points", pa.int32()),
        ("from_n", pa.int32()),
        ("to_n", pa.int32()),
    ]
)
FINDING_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("kind", pa.string()),
        ("rule", pa.string()),
        ("side", pa.string()),
        ("points", pa.int32()),
        ("message", pa.string()),
    ]
)


CORRECTION_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("fields", pa.string()),
        ("note", pa.string()),
    ]
)


def _table(schema: pa.Schema, rows: list[tuple[object, ...]]) -> pa.Table:
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in schema.names]
    return pa.table([pa.array(col, type=f.type) for col, f in zip(columns, schema, strict=True)], schema=schema)


def write_results(
    con: duckdb.DuckDBPyConnection,
    match_ids: Sequence[str],
    results: Sequence[MatchResult],
    *,
    every_match: bool = False,
    tables: dict[str, pa.Table] | None = None,
) -> None:
    """Replace the stored replay results of ``match_ids`` with ``results``, in one transaction.

    ``match_ids`` are the matches that were replayed: their old rows go even if a match now
    has no frames, so no stale result survives a replay. ``every_match`` says these are all
    the loaded matches, so every old row goes (much faster than deleting match by match).
    ``tables`` are the rows of ``results`` when already built (``result_tables``).
    """
    if tables is None:
        tables = result_tables(results)
    ids = pa.table({"match_id": pa.array(sorted(set(match_ids)), type=pa.string())})
    con.execute("BEGIN TRANSACTION")
    try:
        for table, column, sql_type in _ADDED_COLUMNS:
            con.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {sql_type}")
        con.register("replayed_ids", ids)
        for name in REPLAY_TABLES:
            if every_match:
                con.execute(f"DELETE FROM {name}")
            else:
                con.execute(f"DELETE FROM {name} WHERE match_id IN (SELECT match_id FROM replayed_ids)")
            view = f"new_{name}"
            con.register(view, tables[name])
            cols = ", ".join(tables[name].schema.names)
            con.execute(f"INSERT INTO {name} ({cols}) SELECT {cols} FROM {view}")
            con.unregister(view)
        con.unregister("replayed_ids")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def replay_db(
    con: duckdb.DuckDBPyConnection,
    ids: Sequence[str] | None = None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    corrections: Sequence[Located] = (),
    rules: str | Derived | None = None,
) -> list[MatchResult]:
    """Replay the loaded matches (all, or ``ids``), store the results, and return them.

    With ``rules`` the matches replay under that ruleset instead of the recorded one, and
    nothing is stored: the stored results stay those of the rules the matches were played under.

    ``progress(done, total)`` counts records replayed out of the records to replay.
    ``corrections`` are applied to their matches before the replay (docs/format.md section 6);
    one that names a match not being replayed is an InputError, like one that names no stroke.
    """
    chosen = select_matches(con, ids)
    by_match: dict[str, list[Located]] = {}
    for item in corrections:
        by_match.setdefault(item[2].match, []).append(item)
    replayed = set(chosen)
    stray = [
        Problem(f, line, "match", "no_such_stroke", f"match {c.match!r}", "a loaded match being replayed")
        for m, items in sorted(by_match.items())
        if m not in replayed
        for f, line, c in items
    ]
    if stray:
        raise InputError(stray)
    step: Callable[[int], None] | None = None
    total = _record_count(con, chosen)
    if progress is not None:
        state = {"done": 0}

        def step(k: int) -> None:
            state["done"] += k
            progress(state["done"], total)

    # No more workers than matches: starting a process costs more than a short match.
    n = min(workers if workers is not None else default_workers(total), max(len(chosen), 1))
    loaded = (
        dataclasses.replace(lm, corrections=tuple(by_match[lm.match_id])) if lm.match_id in by_match else lm
        for lm in loaded_matches(con, chosen)
    )
    results, tables = _replay_tabulated(loaded, n, step, rules=rules)
    if rules is not None:
        return results
    write_results(con, chosen, results, every_match=not ids, tables=tables)
    return results
