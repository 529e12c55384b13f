"""The reads of the store that the replay and the commands need.

The loaded records come back as stored (raw JSON with its file line), match by match in
id order; the summaries are what ``cuelog matches`` and the demo print.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Collection, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import msgspec
import pyarrow as pa
import pyarrow.compute as pc

from cuelog.errors import CuelogError
from cuelog.schemas.records import Correction, Match, Record, decode, typed_decoder
from cuelog.store.arrow import counted_runs, ipc_bytes
from cuelog.store.report_scope import _CHOSEN, _CLOCK, _QUERIES, _SIDES, PUSH_OUTS, TABLES, condoned

if TYPE_CHECKING:  # the connection is the caller's: a replay worker imports this module without DuckDB
    import duckdb


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
    corrections: tuple[tuple[str, int, Correction], ...] = ()
    """Officials' corrections of this match, applied before its replay (docs/format.md section 6)."""


@dataclass(frozen=True, slots=True)
class DecodedMatch:
    """A loaded match's records decoded: its match record and the records after it, with
    the officials' corrections to apply before its replay."""

    match_id: str
    file: str
    match: Match
    body: list[Record]
    corrections: tuple[tuple[str, int, Correction], ...] = ()


def select_matches(con: duckdb.DuckDBPyConnection, ids: Sequence[str] | None) -> list[str]:
    """The match ids to replay, sorted: all loaded ones, or the named ones (all must exist)."""
    loaded = match_ids(con)
    if not loaded:
        raise NoMatches()
    if not ids:
        return loaded
    known = set(loaded)
    missing = sorted({i for i in ids if i not in known})
    if missing:
        raise UnknownMatch(missing, len(loaded))
    return sorted(set(ids))


def listed_matches(con: duckdb.DuckDBPyConnection, ids: Sequence[str] | None) -> pa.Table:
    """:func:`select_matches` as an Arrow table, ``match_id``, ``file`` and ``records``
    (:func:`_listed`): what :func:`stored_chunks` reads, and each match's records to count
    (the replay's progress, its workers) with no second scan of the records."""
    if not ids:
        listed = _listed(con, None)
        if not listed.num_rows:
            raise NoMatches()
        return listed
    return _listed(con, select_matches(con, ids))


def loaded_matches(
    con: duckdb.DuckDBPyConnection, ids: Sequence[str], batch: int = 65_536, group: int = 100_000
) -> Generator[LoadedMatch, None, None]:
    """The stored records of each match, in file order, match by match in id order.

    The matches are read a group at a time (consecutive ids, about ``group`` records a
    query): one query per match would cost more than the replay for a season of short
    matches, and one query for them all sorts every record of the store before the first
    comes back, so its memory would grow with the store.
    """
    missing: list[LoadedMatch] = []
    for names, files, _ in _groups(_listed(con, ids), group):
        seen: set[str] = set()
        for match_id, lines in _read_group(con, names, batch):
            seen.add(match_id)
            yield LoadedMatch(match_id, files[match_id], lines)
        missing.extend(LoadedMatch(m, files[m], ()) for m in names if m not in seen)
    # A match row without records is reported (no match record), not silently skipped.
    yield from missing


@dataclass(frozen=True, slots=True)
class StoredChunk:
    """Some consecutive matches' stored records as Arrow IPC bytes, what a replay hands a
    worker process: sending the rows as Arrow costs the parent a slice of what it read,
    where a tuple per record had to be built and pickled (and unpickled by the worker)."""

    matches: tuple[tuple[str, str, int], ...]
    """``(match id, file, records)`` of each match, in id order."""
    rows: bytes
    """An Arrow IPC stream of ``match_id, line, body``, in id and file order."""
    corrections: tuple[tuple[str, tuple[tuple[str, int, Correction], ...]], ...] = ()
    """``(match id, its corrections)`` of the matches that have some."""

    @property
    def records(self) -> int:
        return sum(n for _, _, n in self.matches)

    def loaded(self) -> list[LoadedMatch]:
        """The chunk's matches with their records (in the worker that replays them)."""
        lines: dict[str, list[tuple[int, str]]] = {match_id: [] for match_id, _, _ in self.matches}
        table = pa.ipc.open_stream(self.rows).read_all()
        columns = (table.column(i).to_pylist() for i in range(3))
        for match_id, line, body in zip(*columns, strict=True):
            lines[match_id].append((line, body))
        fixes = dict(self.corrections)
        return [
            LoadedMatch(match_id, file, tuple(lines[match_id]), fixes.get(match_id, ()))
            for match_id, file, _ in self.matches
        ]

    def each_match(self) -> Iterator[DecodedMatch | LoadedMatch]:
        """The chunk's matches in order, each read as it is asked for (in the worker that
        replays them): its records decoded in one call of the decoder (:class:`DecodedMatch`),
        from the column's buffer, as its bodies lie back to back in the column's text, each
        one JSON object as ingest checked it; the decoder reads one value after another. No
        string a body, no call a record: about two thirds of the CPU of a decode a line
        (benchmarks/README.md, "The replay's records decoded a chunk at a time"). A match is
        decoded when its replay is next, not with the chunk's other matches, so that its
        records are still in the processor's cache when the engine reads them: a worker's
        CPU 0.91x ("replay --db: a worker takes its chunk's matches one at a time").

        Where that is not the whole answer the match comes as its lines
        (:class:`LoadedMatch`), whose replay decodes them one by one and names each problem
        on its line: a body the decoder refuses (a stroke's name outside the schema, which
        :func:`cuelog.schemas.records.decode` reads as text, or a record that is not one),
        more records than bodies, a first record that is not the match record. And every
        match of the chunk comes so when its rows are not the chunk's matches in order (a
        match without records among them)."""
        table = pa.ipc.open_stream(self.rows).read_all()
        runs = pc.run_end_encode(table.column("match_id").combine_chunks()) if table.num_rows else None
        bodies = table.column("body")
        if (
            runs is None
            or runs.values.to_pylist() != [match_id for match_id, _, _ in self.matches]
            or bodies.type != pa.string()
            or bodies.null_count
        ):
            yield from self.loaded()
            return
        fixes = dict(self.corrections)
        start = 0
        for (match_id, file, _), end in zip(self.matches, runs.run_ends.to_pylist(), strict=True):
            rows = table.slice(start, end - start)
            start = end
            records = _decoded_bodies(rows.column("body"))
            item: DecodedMatch | LoadedMatch
            if records is None or not isinstance(records[0], Match):
                item = _lines(match_id, file, rows, fixes.get(match_id, ()))
            else:
                item = DecodedMatch(match_id, file, records[0], records[1:], fixes.get(match_id, ()))
            del records  # the match's records are the item's alone: freed with it
            yield item
            del item  # before the next match is read: its records may take their memory


def _lines(
    match_id: str, file: str, rows: pa.Table, corrections: tuple[tuple[str, int, Correction], ...]
) -> LoadedMatch:
    """A match's stored rows as its lines."""
    lines = zip(rows.column("line").to_pylist(), rows.column("body").to_pylist(), strict=True)
    return LoadedMatch(match_id, file, tuple(lines), corrections)


def _decoded_bodies(bodies: pa.ChunkedArray) -> list[Record] | None:
    """Every body of the column decoded (:meth:`StoredChunk.each_match`), or None."""
    if bodies.type != pa.string() or bodies.null_count:
        return None
    records: list[Record] = []
    for chunk in bodies.chunks:
        if not len(chunk):
            continue
        _, offsets, data = chunk.buffers()
        if offsets is None or data is None:
            return None
        # The chunk's bodies: from its first offset to its last (a slice starts part way);
        # the offsets read as far as the last, a whole number of int32s.
        at = memoryview(offsets)[: 4 * (chunk.offset + len(chunk) + 1)].cast("i")
        start, end = at[chunk.offset], at[chunk.offset + len(chunk)]
        try:
            part = typed_decoder.decode_lines(memoryview(data)[start:end])
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            return None
        if len(part) != len(chunk):
            return None
        records.extend(part)
    return records


def stored_chunks(
    con: duckdb.DuckDBPyConnection, listed: pa.Table, chunk: int = 8, group: int = 100_000
) -> Generator[StoredChunk, None, None]:
    """The stored records of the matches ``listed`` (:func:`listed_matches`), ``chunk``
    matches at a time, in id order: what :func:`loaded_matches` gives, as Arrow IPC bytes
    (:class:`StoredChunk`). Read a group of consecutive matches at a time (about ``group``
    records a query), as it does; the matches without records come last, in a chunk of
    their own (each is reported: no match record)."""
    missing: list[tuple[str, str, int]] = []
    for names, files, counts in _groups(listed, group):
        table = _group_table(con, names)
        encoded = pc.run_end_encode(table.column("match_id").combine_chunks())
        present = encoded.values.to_pylist()
        ends = encoded.run_ends.to_pylist()
        for i in range(0, len(present), chunk):
            start = ends[i - 1] if i else 0
            part = table.slice(start, ends[min(i + chunk, len(ends)) - 1] - start)
            matches = tuple((m, files[m], counts[m]) for m in present[i : i + chunk])
            yield StoredChunk(matches, ipc_bytes(part))
        seen = set(present)
        missing.extend((m, files[m], 0) for m in names if m not in seen)
    if missing:
        yield StoredChunk(tuple(missing), ipc_bytes(_ROWS.empty_table()))


_ROWS: Final = pa.schema([("match_id", pa.string()), ("line", pa.int32()), ("body", pa.string())])


@contextlib.contextmanager
def _group(
    con: duckdb.DuckDBPyConnection, ids: list[str], query: str | None = None
) -> Iterator[duckdb.DuckDBPyRelation]:
    """The records of these consecutive matches (by ``query``, :data:`_GROUP` unless given:
    in id and file order) as a relation to read while the matches are registered
    (``chosen_matches``)."""
    con.register("chosen_matches", pa.table({"match_id": pa.array(ids, type=pa.string())}))
    try:
        yield con.sql(_GROUP if query is None else query, params={"first": min(ids), "last": max(ids)})
    finally:
        con.unregister("chosen_matches")


def _group_table(con: duckdb.DuckDBPyConnection, ids: list[str]) -> pa.Table:
    """The records of these consecutive matches, in id and file order."""
    with _group(con, ids, _GROUP_ROWS) as relation:
        table = relation.to_arrow_table()
    return in_file_order(table).drop_columns(["seq"])


def in_file_order(table: pa.Table) -> pa.Table:
    """Records (``match_id``, ``seq``, ...) in match id and file order: as read when they
    are so already, else put in order.

    A match's records are inserted together and in order, and the matches of a season's
    files mostly in id order, so a scan gives them in that order nearly always; the read
    asks for no ``ORDER BY``, whose sort carried every record's text (0.70-0.72 CPU s
    against 0.44 for the 1M season's groups on one thread; benchmarks/README.md, "The
    replay's records read as stored"). Nothing relies on it: the order is checked here.
    The rows are cut into pieces, a new one wherever the match changes or ``seq`` does not
    grow. Matches strictly increasing from piece to piece: in order as read. Otherwise
    (matches loaded out of id order, one replaced since, a scan giving a match's records
    in two pieces) the pieces are put in order by their first match and ``seq``, as slices
    of the table, not copied (at 1M strokes, each group of a season loaded in file order,
    its match ids not: benchmarks/README.md, "The replay's records put in order by pieces").
    Pieces of one match that interleave, or many small pieces, are sorted row by row."""
    rows = table.num_rows
    if rows < 2:
        return table
    ids = table.column("match_id").combine_chunks()
    seq = table.column("seq").combine_chunks()
    # Row i + 1 begins a piece where breaks[i] is true.
    breaks = pc.or_(
        pc.not_equal(ids.slice(1), ids.slice(0, rows - 1)), pc.less_equal(pc.pairwise_diff(seq).slice(1), 0)
    )
    starts = [0, *(i + 1 for i in pc.indices_nonzero(breaks).to_pylist())]
    if len(starts) > max(_MANY_PIECES, rows // _PIECE_ROWS):
        return _sorted(table)
    matches = ids.take(starts).to_pylist()
    if all(a < b for a, b in itertools.pairwise(matches)):
        return table
    ends = [*starts[1:], rows]
    firsts = seq.take(starts).to_pylist()
    lasts = seq.take([end - 1 for end in ends]).to_pylist()
    order = sorted(range(len(starts)), key=lambda i: (matches[i], firsts[i]))
    for a, b in itertools.pairwise(order):
        if matches[a] == matches[b] and lasts[a] >= firsts[b]:
            return _sorted(table)  # one match's pieces interleave
    return pa.concat_tables(table.slice(starts[i], ends[i] - starts[i]) for i in order)


_MANY_PIECES: Final = 64
_PIECE_ROWS: Final = 16
"""More pieces than :data:`_MANY_PIECES` and than one in :data:`_PIECE_ROWS` rows: Arrow sorts
the rows (:func:`in_file_order`), which then costs less than sorting the pieces in Python."""


def _sorted(table: pa.Table) -> pa.Table:
    return table.sort_by([("match_id", "ascending"), ("seq", "ascending")])


def _groups(listed: pa.Table, limit: int) -> Iterator[tuple[list[str], dict[str, str], dict[str, int]]]:
    """Consecutive runs of the matches :func:`_listed` gives, holding about ``limit`` records
    each (at least one match): each run's ids with their files and numbers of records, made
    Python objects a run at a time."""
    for part in counted_runs(listed, "records", limit):
        names, files, counts = (part.column(c).to_pylist() for c in ("match_id", "file", "records"))
        yield names, dict(zip(names, files, strict=True)), dict(zip(names, counts, strict=True))


def _listed(con: duckdb.DuckDBPyConnection, ids: Sequence[str] | None) -> pa.Table:
    """Each of these matches (``None``: every loaded one) once, in id order, with the file it
    came from (``file``: its path as first loaded, the file's hash if the file is not logged,
    the match id without a match row) and its number of stored records (``records``). As
    Arrow columns, made Python objects a group at a time (:func:`_groups`): a dict of every
    match's file and one of its records grew a replay's memory with the store (at 10M
    strokes, 47,001 matches: benchmarks/README.md, "replay --db: the matches listed as
    Arrow")."""
    if ids is None:
        return con.sql(_LISTED.format(listed="(SELECT match_id FROM matches)")).to_arrow_table()
    con.register("listed_matches", pa.table({"match_id": pa.array(sorted(set(ids)), type=pa.string())}))
    try:
        return con.sql(_LISTED.format(listed="listed_matches")).to_arrow_table()
    finally:
        con.unregister("listed_matches")


_LISTED: Final = """
SELECT c.match_id, coalesce(l.path, m.file_hash, c.match_id) AS file, coalesce(n.records, 0) AS records
FROM {listed} c
LEFT JOIN matches m ON m.match_id = c.match_id
LEFT JOIN ingest_log l ON l.file_hash = m.file_hash
LEFT JOIN (SELECT match_id, count(*) AS records FROM records SEMI JOIN {listed} USING (match_id) GROUP BY ALL) n
       ON n.match_id = c.match_id
ORDER BY c.match_id
"""


_GROUP_ROWS: Final = (
    "SELECT r.match_id, r.line, CAST(r.body AS VARCHAR) AS body, r.seq FROM records r "
    "SEMI JOIN chosen_matches c ON c.match_id = r.match_id "
    # The group's ids are consecutive in id order: the range lets the scan skip the
    # row groups (min/max per block) of other matches instead of reading every
    # record of the store for each group, which would grow with the store squared.
    "WHERE r.match_id BETWEEN $first AND $last"
)
"""A group's records as stored (:func:`in_file_order` puts them in order)."""

_GROUP: Final = "SELECT match_id, line, body FROM (" + _GROUP_ROWS + ") ORDER BY match_id, seq"
"""A group's records in id and file order, streamed a batch at a time (:func:`_read_group`)."""


def _read_group(
    con: duckdb.DuckDBPyConnection, ids: list[str], batch: int
) -> Iterator[tuple[str, tuple[tuple[int, str], ...]]]:
    """``(match id, its (line, json) records)`` of these matches, in id and file order."""
    with _group(con, ids) as relation:
        current: str | None = None
        lines: list[tuple[int, str]] = []
        for chunk in relation.to_arrow_reader(batch):
            for match_id, line, body in zip(*(chunk.column(i).to_pylist() for i in range(3)), strict=True):
                if match_id != current:
                    if current is not None:
                        yield current, tuple(lines)
                    current, lines = match_id, []
                lines.append((line, body))
        if current is not None:
            yield current, tuple(lines)


def match_ids(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every loaded match id, sorted."""
    return [row[0] for row in con.execute("SELECT match_id FROM matches ORDER BY match_id").fetchall()]


def match_records(
    con: duckdb.DuckDBPyConnection, matches: Sequence[str] | None = None
) -> Iterator[tuple[str, list[Record]]]:
    """The records of each loaded match (the match record first), in file order, by match id."""
    ids = match_ids(con) if matches is None else sorted(matches)
    for match_id in ids:
        rows = con.execute(
            "SELECT body FROM records WHERE match_id = ? ORDER BY seq",
            [match_id],
        ).fetchall()
        yield match_id, [decode(row[0]) for row in rows]


_SUMMARIES = """
SELECT m.match_id, m.rules, m.side_a, m.side_b, m.event, m.date,
       (SELECT count(*) FROM records r WHERE r.match_id = m.match_id AND r.type = 'frame') AS frames,
       (SELECT count(*) FROM strokes s WHERE s.match_id = m.match_id) AS strokes,
       (SELECT count(*) FROM shot_clock c WHERE c.match_id = m.match_id) AS clocked
FROM matches m
ORDER BY m.match_id
"""


def loaded_summaries(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """One summary per loaded match, by match id."""
    return [
        {
            "match": row[0],
            "rules": row[1],
            "sides": {"A": row[2], "B": row[3]},
            "event": row[4],
            "date": row[5],
            "frames": row[6],
            "strokes": row[7],
            "clocked": row[8],
        }
        for row in con.execute(_SUMMARIES).fetchall()
    ]


def findings_by_kind(con: duckdb.DuckDBPyConnection) -> list[tuple[str, int, int]]:
    """``(kind, findings, points at stake)`` of the stored replay, most frequent first."""
    return [
        (str(k), int(n), int(p))
        for k, n, p in con.execute(
            "SELECT kind, count(*) AS n, sum(points) FROM replay_findings GROUP BY kind ORDER BY n DESC, kind"
        ).fetchall()
    ]


def worst_frames(con: duckdb.DuckDBPyConnection, limit: int = 5) -> list[dict[str, Any]]:
    """The frames with the most findings (then the most points at stake), with their match."""
    rows = con.execute(
        """
        SELECT f.match_id, f.frame, m.rules, m.side_a, m.side_b, count(*) AS findings,
               sum(f.points) AS points, string_agg(DISTINCT f.kind, ', ' ORDER BY f.kind) AS kinds
        FROM replay_findings f JOIN matches m USING (match_id)
        WHERE f.frame IS NOT NULL
        GROUP BY f.match_id, f.frame, m.rules, m.side_a, m.side_b
        ORDER BY findings DESC, points DESC, f.match_id, f.frame
        LIMIT ?
        """,
        [limit],
    ).fetchall()
    keys = ("match", "frame", "rules", "side_a", "side_b", "findings", "points", "kinds")
    return [dict(zip(keys, r, strict=True)) for r in rows]


# -- what the reports read: the queries and the scope are cuelog.store.report_scope's; the plots
# read their rows here as Arrow ------------------------------------------------------------------

_PUSH_OUTS = f"""
SELECT u.match_id, p.event, u.frame, p.side, p.player, u.push_outs
FROM ({PUSH_OUTS}) u JOIN ({_SIDES}) p ON p.match_id = u.match_id AND p.side = u.side
ORDER BY u.match_id, u.frame, p.side
"""


def push_outs(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Nine-ball push outs declared per player and rack, of the matches in ``scope_matches``
    (as :func:`cuelog.store.report_scope.in_scope` made it)."""
    return con.sql(_PUSH_OUTS).to_arrow_table()


# The shot times of the chosen players in ``scope_matches``: from the summaries (a row per
# shot with its player) or, in a store without them, from the shot clock joined to the strokes.
_SUMMARISED_SHOTS = (
    "SELECT player, shot_s, limit_s FROM summary_shots "
    f"WHERE match_id IN (SELECT match_id FROM scope_matches) AND {_CHOSEN}"
)
_JOINED_SHOTS = f"SELECT player, shot_s, limit_s FROM ({_CLOCK}) WHERE {_CHOSEN}"


@dataclass(frozen=True, slots=True)
class Shots:
    """The shot times in scope in brief: the players who took one (sorted), how many, the
    longest (None: no shot) and the limits that applied."""

    players: list[str]
    shots: int
    longest: float | None
    limits: list[float]


def shots_in_scope(con: duckdb.DuckDBPyConnection, players: Sequence[str], *, summarised: bool) -> Shots:
    """The shot times of ``players`` (empty: everyone) in ``scope_matches``, in brief."""
    rows = _SUMMARISED_SHOTS if summarised else _JOINED_SHOTS
    found = con.execute(
        f"""SELECT list(DISTINCT player), count(*), max(shot_s),
                   coalesce(list(DISTINCT limit_s) FILTER (WHERE limit_s IS NOT NULL), [])
            FROM ({rows})""",
        {"players": list(players)},
    ).fetchall()[0]
    return Shots(sorted(found[0] or []), int(found[1]), found[2], sorted(found[3]))


def shot_counts(
    con: duckdb.DuckDBPyConnection, players: Sequence[str], width: float, *, by_player: bool, summarised: bool
) -> dict[str | None, dict[int, int]]:
    """The shot times of ``players`` counted in bins ``width`` seconds wide (bin ``i`` holds
    ``i * width <= t < (i + 1) * width``): per player, or all together (key None). The bin
    is the quotient's floor corrected by comparing with the edges themselves, so that a
    time a rounding puts across an edge is counted where numpy's histogram counts it."""
    rows = _SUMMARISED_SHOTS if summarised else _JOINED_SHOTS
    found = con.execute(
        f"""WITH s AS (SELECT player, shot_s, CAST(floor(shot_s / $width) AS BIGINT) AS q FROM ({rows}))
            SELECT CASE WHEN $by_player THEN player END AS who,
                   q - CAST(shot_s < q * $width AS BIGINT) + CAST(shot_s >= (q + 1) * $width AS BIGINT) AS bin,
                   count(*)
            FROM s GROUP BY ALL""",
        {"players": list(players), "width": float(width), "by_player": by_player},
    ).fetchall()
    counts: dict[str | None, dict[int, int]] = {}
    for who, bin_, n in found:
        counts.setdefault(who, {})[int(bin_)] = int(n)
    return counts


# The FOUL AND A MISS sequences (S3 R14) in ``scope_matches``, from the called misses alone
# (a miss of a condoned foul had no call: S3 R10(c)): a sequence is consecutive strokes of one
# striker in one frame, so the misses of one side whose numbers run on without a gap (a
# stroke numbered between them, by anyone, ends it: R14(d)(iii)). The chosen players'
# sequences, the longest first.
_MISS_RUNS = f"""
WITH m AS (
    SELECT r.match_id, p.event, r.frame, r.n, r.striker AS side, p.player, r.penalty
    FROM replay_strokes r JOIN ({_SIDES}) p ON p.match_id = r.match_id AND p.side = r.striker
    WHERE r.miss AND NOT {condoned()}
      AND {_CHOSEN}
),
islands AS (SELECT *, n - row_number() OVER (PARTITION BY match_id, frame, side ORDER BY n) AS island FROM m)
SELECT match_id, any_value(event) AS event, frame, side, any_value(player) AS player,
       CAST(count(*) AS BIGINT) AS length, min(n) AS from_n, max(n) AS to_n, CAST(sum(penalty) AS BIGINT) AS points
FROM islands
GROUP BY match_id, frame, side, island
ORDER BY length DESC, match_id, frame, from_n
LIMIT $limit
"""


def longest_miss_runs(con: duckdb.DuckDBPyConnection, players: Sequence[str], limit: int) -> pa.Table:
    """The ``limit`` longest FOUL AND A MISS sequences of ``players`` (empty: everyone) in
    ``scope_matches``: match, event, frame, side, player, length, first and last stroke,
    and the points they gave away."""
    relation = con.sql(_MISS_RUNS, params={"players": list(players), "limit": int(limit)})
    assert relation is not None
    return relation.to_arrow_table()


@dataclass(frozen=True, slots=True)
class ReportTables:
    """The replay results of the matches in a report's scope, as Arrow tables with the
    players' names: what the plots and notebooks summarise."""

    strokes: pa.Table
    frames: pa.Table
    breaks: pa.Table
    clock: pa.Table
    totals: pa.Table


def report_tables(con: duckdb.DuckDBPyConnection, needs: Collection[str] = TABLES) -> ReportTables:
    """The replay results of the matches in ``scope_matches`` (as
    :func:`cuelog.store.report_scope.in_scope` made it). A table not in ``needs`` comes with
    its columns and no rows, so a report reads only what it summarises."""
    return ReportTables(
        strokes=_table(con, "strokes", needs),
        frames=_table(con, "frames", needs),
        breaks=_table(con, "breaks", needs),
        clock=_table(con, "clock", needs),
        totals=_table(con, "totals", needs),
    )


def _table(con: duckdb.DuckDBPyConnection, name: str, needs: Collection[str]) -> pa.Table:
    relation = con.sql(_QUERIES[name])
    return (relation if name in needs else relation.limit(0)).to_arrow_table()


# -- what the audit reads: the stored replay of a match, for `cuelog audit`, the demo's report
# and plots, the audit notebook, and the matches a rule makers' diff compares ----------------


def _arrow(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[object] = ()) -> pa.Table:
    """A query's result as an Arrow table (the analytics make Polars frames of it)."""
    relation = con.sql(sql, params=list(params))
    assert relation is not None
    return relation.to_arrow_table()


def replayed_matches(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Every replayed match with its players, frames and number of findings, most findings first."""
    return _arrow(
        con,
        """
        SELECT m.match_id, m.rules, m.side_a, m.side_b, m.event, m.date,
               (SELECT count(*) FROM replay_frames f WHERE f.match_id = m.match_id) AS frames,
               (SELECT count(*) FROM replay_findings x WHERE x.match_id = m.match_id) AS findings
        FROM matches m
        WHERE m.match_id IN (SELECT match_id FROM replay_frames)
        ORDER BY findings DESC, m.match_id
        """,
    )


def replayed_frames(con: duckdb.DuckDBPyConnection, match_id: str) -> pa.Table:
    """Each replayed frame of a match: the score the rules give, the recorded score, the winners."""
    return _arrow(
        con,
        """
        SELECT frame, score_a, score_b, recorded_a, recorded_b, winner, recorded_winner, end_reason,
               (SELECT count(*) FROM replay_findings x WHERE x.match_id = f.match_id AND x.frame = f.frame) AS findings
        FROM replay_frames f WHERE match_id = $1
        ORDER BY frame
        """,
        [match_id],
    )


def match_findings(con: duckdb.DuckDBPyConnection, match_id: str) -> pa.Table:
    """Every stored finding of a match in stroke order: frame, stroke, kind, rule, side, points, message."""
    return _arrow(
        con,
        """
        SELECT frame, n AS stroke, kind, rule, side, points, message
        FROM replay_findings WHERE match_id = $1
        ORDER BY frame NULLS FIRST, n, kind, rule, message
        """,
        [match_id],
    )


def frame_findings(con: duckdb.DuckDBPyConnection, match_id: str, frame: int) -> list[tuple[int, str]]:
    """The stored findings of one frame as ``(stroke, kind)``, in stroke order: what a score worm marks."""
    rows = con.execute(
        "SELECT n, kind FROM replay_findings WHERE match_id = $1 AND frame = $2 ORDER BY n, kind",
        [match_id, frame],
    ).fetchall()
    return [(int(n), str(kind)) for n, kind in rows]


def most_findings_match(con: duckdb.DuckDBPyConnection) -> str | None:
    """The match with the most stored findings (ties: the lowest id); ``None`` without findings."""
    rows = con.execute(
        "SELECT match_id FROM replay_findings GROUP BY match_id ORDER BY count(*) DESC, match_id LIMIT 1"
    ).fetchall()
    return str(rows[0][0]) if rows else None


def stored_corrections(con: duckdb.DuckDBPyConnection, match_id: str) -> list[Correction]:
    """The corrections the last ``cuelog replay --db`` applied to a match, in stroke order
    (none in a database made before corrections were stored)."""
    tables = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'replay_corrections'")
    if tables.fetchall()[0][0] == 0:
        return []
    rows = con.execute(
        "SELECT frame, n, fields, note FROM replay_corrections WHERE match_id = ? ORDER BY frame, n", [match_id]
    ).fetchall()
    return [Correction(match=match_id, frame=f, n=n, set=json.loads(s), note=note) for f, n, s, note in rows]


def match_index(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, str | None]]:
    """Every loaded match id with its ruleset id and event, by match id."""
    rows = con.execute("SELECT match_id, rules, event FROM matches ORDER BY match_id").fetchall()
    return {str(m): (str(rules), event) for m, rules, event in rows}
