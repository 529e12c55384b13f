"""Replay the matches loaded in a cuelog database and store what the rules make of them.

``replay_db`` reads the loaded records back from the store (raw JSON, a group of matches
a query, :mod:`cuelog.store.reads`), applies the officials' corrections, replays each match
in a pool of worker processes (matches are independent), and writes per-stroke outcomes,
frame results, breaks and findings into the ``replay_*`` tables
(:mod:`cuelog.store.results`). The rows are written under a new replay generation and
committed as they come; the generation is made current for the replayed matches at the
end, in one small transaction: a reader sees either the old results or the new ones, and a
replay that fails or is interrupted leaves the old ones.

The matches are read in id order and their results come back in that order, chunk by
chunk: each chunk's rows are written as it arrives and handed to the caller to print, so
neither Python, DuckDB (its memory limit capped meanwhile) nor the output holds every
result. The output and the stored rows are the same whatever the number of workers.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

import msgspec
import pyarrow as pa
import pyarrow.compute as pc

from cuelog.errors import CuelogError, InputError, Problem
from cuelog.ingest.ahead import ReadAhead
from cuelog.ingest.cores import Watch, cores_left, idle_workers, usable_cores
from cuelog.ingest.corrections import Located, apply_corrections
from cuelog.ingest.processes import ordered
from cuelog.ingest.reader import decode_problem
from cuelog.replay import NoEngine, UnknownRuleset, replay_match
from cuelog.replay.derived import Derived, under
from cuelog.replay.model import MatchResult
from cuelog.replay.output import Render, Rendered, rendered
from cuelog.schemas.records import Correction, Match, Record, decode
from cuelog.store.arrow import packed, unpacked
from cuelog.store.reads import (
    DecodedMatch,
    LoadedMatch,
    NoMatches,
    StoredChunk,
    UnknownMatch,
    listed_matches,
    stored_chunks,
)
from cuelog.store.results import (
    REPLAY_TABLES,
    ResultRows,
    ResultWriter,
    memory_capped,
    write_results,
)
from cuelog.store.settings import threads_held

if TYPE_CHECKING:  # not imported at run time: a worker process never needs DuckDB (start-up)
    import duckdb

__all__ = [
    "REPLAY_TABLES",
    "LoadedMatch",
    "NoMatches",
    "ReplayFailed",
    "Replayed",
    "UnknownMatch",
    "replay_all",
    "replay_db",
    "replay_loaded",
    "stream_db",
    "write_results",
]


class ReplayFailed(CuelogError):
    """A loaded match could not be replayed (unknown ruleset, no engine, broken stream)."""


# -- replaying -------------------------------------------------------------------------

PARALLEL_FROM = 250_000
"""Records below which one worker is the default: measured (docs/analytics.md, "Workers"),
two worker processes cost more to start and feed than they save on a smaller replay."""


def default_workers(
    records: int, cores: int | None = None, load: float | None = None, watch: Watch | None = None
) -> int:
    """The ``--workers`` default: never slower than one worker.

    One worker unless the replay is large (``PARALLEL_FROM`` records or more) and the
    machine has idle cores: a worker process on a core other work already holds only adds
    its start-up and the copying of records to and from it (measured: 1.4x slower at 74k
    and 308k strokes with two workers on two busy cores). Then one worker per idle core,
    the cores watched by ``watch`` when it was begun earlier (before the store was opened).
    """
    if records < PARALLEL_FROM:
        return 1  # decided without watching the cores
    return idle_workers(cores, load, watch)


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
    except InputError as exc:
        return exc
    return replay_decoded(DecodedMatch(loaded.match_id, loaded.file, match, body, loaded.corrections), rules)


def replay_decoded(
    decoded: DecodedMatch, rules: str | Derived | None = None
) -> MatchResult | InputError | ReplayFailed:
    """:func:`replay_loaded` of a match whose records are decoded already."""
    match, body = decoded.match, decoded.body
    applied: list[Correction] = []
    if decoded.corrections:
        try:
            corrected, applied = apply_corrections([match, *body], decoded.corrections)
        except InputError as exc:
            return exc
        body = corrected[1:]
    try:
        if rules is not None:
            match = under(match, rules)
        result = replay_match(match, body)
        result.corrections = applied
        return result
    except (UnknownRuleset, NoEngine, ValueError, ImportError) as exc:
        # ImportError: the discipline's engine module is not installed in this tree.
        return ReplayFailed(
            f"match {decoded.match_id!r} ({decoded.file}): {exc}; nothing was stored "
            f"(name the matches to replay with --match)"
        )


Attempt = MatchResult | Rendered | InputError | ReplayFailed
"""What replaying a match gave: its result (or its output, :class:`Rendered`, when the
caller gave a renderer), or what kept it from being replayed."""

Tabulated = tuple[list[Attempt], dict[str, pa.Table] | None, int]
"""The outcomes of some matches, the rows of every replay table for them (when asked for and
all replayed), and their number of strokes."""


def replay_all(
    loaded: Iterable[LoadedMatch],
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    batch: int = 256,
    rules: str | Derived | None = None,
) -> list[MatchResult]:
    """Replay matches, in ``workers`` processes (default: every core this process may use,
    :func:`cuelog.ingest.cores.usable_cores`), results by match id.

    Matches are read and handed to the workers a few at a time, so only the raw records
    of the matches in flight are in memory. ``progress(records)`` is called as each match
    is done. Raises InputError (every unreadable record of every match) or ReplayFailed
    (the first match, by id, that cannot be replayed). ``rules`` replaces every match's
    recorded ruleset (same discipline).
    """
    n = max(1, workers if workers is not None else usable_cores())
    outcomes = [o for done, _, _ in _chunks(_batches(loaded, max(1, batch // 32)), n, progress, rules) for o in done]
    _raise_first(outcomes)
    results = [o for o in outcomes if isinstance(o, MatchResult)]
    results.sort(key=lambda r: r.match)
    return results


def _raise_first(outcomes: Iterable[Attempt]) -> None:
    """Every unreadable record of every match (InputError), else the first match that failed."""
    listed = list(outcomes)
    problems = [p for o in listed if isinstance(o, InputError) for p in o.problems]
    if problems:
        raise InputError(problems)
    for o in listed:
        if isinstance(o, ReplayFailed):
            raise o


Part = list[LoadedMatch] | StoredChunk
"""What a worker replays at a time: some loaded matches, or their stored rows as Arrow IPC bytes."""


def _records(part: Part) -> list[int]:
    """The records of each match of the part, as the progress counts them."""
    if isinstance(part, StoredChunk):
        return [count for _, _, count in part.matches]
    return [len(item.lines) for item in part]


def _replay_chunk(
    part: Part,
    rules: str | Derived | None = None,
    tabulate: bool = False,
    slim: bool = False,
    render: Render | None = None,
) -> Tabulated:
    """Replay a few matches and, with ``tabulate``, build their replay table rows in the worker
    that replayed them (the rows cost as much to build as a fast engine takes to replay).

    ``slim`` drops each frame's per-stroke outcomes once the rows are built: they are in
    the ``replay_strokes`` rows, and shipping them back to the parent costs more than the
    rest of the result. With ``render`` each result comes back as its output instead
    (:class:`Rendered`), made here beside the replay.
    """
    # The collector off meanwhile: the chunk's records, outcomes and rows are many small
    # objects that live until the chunk is done, and refcounting frees them (measured: the
    # collector's passes over them cost 8-12% of a worker's time; benchmarks/README.md).
    collecting = gc.isenabled()
    gc.disable()
    try:
        rows = ResultRows(sides=True) if tabulate else None  # with the report summaries, built here too
        sent: list[Attempt] = []
        strokes = 0
        for attempt in _attempts(part, rules):
            if isinstance(attempt, MatchResult):
                strokes += sum(len(fr.outcomes) for fr in attempt.frames)
                # Each match's rows as soon as it is replayed (ResultRows). A chunk with a
                # match that failed gets no rows: nothing of it is written or handed on.
                if rows is not None:
                    rows.add(attempt)
                    if slim:
                        for fr in attempt.frames:
                            fr.outcomes = []
                if render is not None:
                    sent.append(rendered(attempt, render))
                    continue
            else:
                rows = None
            sent.append(attempt)
        tables = rows.tables() if rows is not None else None
    finally:
        if collecting:
            gc.enable()
    return sent, tables, strokes


def _attempts(part: Part, rules: str | Derived | None) -> Iterator[Attempt]:
    """Each match of the part replayed, in order: a stored chunk's matches read one at a
    time (:meth:`StoredChunk.each_match`: decoded in one call where they can be, else line
    by line), each freed as soon as it is replayed, while its records are still in the
    processor's cache (benchmarks/README.md, "replay --db: a worker takes its chunk's
    matches one at a time")."""
    if not isinstance(part, StoredChunk):
        for listed in part:
            yield replay_loaded(listed, rules)
        return
    for item in part.each_match():
        attempt = replay_decoded(item, rules) if isinstance(item, DecodedMatch) else replay_loaded(item, rules)
        del item
        yield attempt


Packed = tuple[list[Attempt], dict[str, bytes] | None, int]
"""What a worker process sends back: :data:`Tabulated` with the tables as Arrow IPC bytes."""


def _replay_packed(
    part: Part, rules: str | Derived | None, tabulate: bool, slim: bool, render: Render | None
) -> Packed:
    """:func:`_replay_chunk` in a worker process, the tables sent back as Arrow IPC bytes."""
    outcomes, tables, strokes = _replay_chunk(part, rules, tabulate, slim, render)
    return outcomes, packed(tables) if tables is not None else None, strokes


def _unpacked(done: Packed) -> Tabulated:
    outcomes, tables, strokes = done
    return outcomes, unpacked(tables) if tables is not None else None, strokes


def _chunks(
    parts: Iterable[Part],
    n: int,
    progress: Callable[[int], None] | None,
    rules: str | Derived | None = None,
    *,
    tabulate: bool = False,
    slim: bool = False,
    render: Render | None = None,
) -> Iterator[Tabulated]:
    """What each part gave, in input order, whichever worker ends first.

    At most four parts per worker are in flight: the parent reads the next matches while
    the workers replay, and no more raw records are held than the parts in flight.
    """

    def done(part: Part, tabulated: Tabulated) -> Tabulated:
        if progress:
            for count in _records(part):
                progress(count)
        return tabulated

    if n == 1:
        for part in parts:
            yield done(part, _replay_chunk(part, rules, tabulate, slim, render))
        return
    work = functools.partial(_replay_packed, rules=rules, tabulate=tabulate, slim=slim, render=render)
    for part, packed_part in ordered(work, parts, n, ahead=4):
        yield done(part, _unpacked(packed_part))


def _batches(loaded: Iterable[LoadedMatch], size: int) -> Iterator[list[LoadedMatch]]:
    source = iter(loaded)
    return iter(lambda: list(itertools.islice(source, size)), [])


@dataclasses.dataclass(frozen=True, slots=True)
class Replayed:
    """What a streamed replay did: matches and strokes replayed."""

    matches: int
    strokes: int


def replay_db(
    con: duckdb.DuckDBPyConnection,
    ids: Sequence[str] | None = None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    corrections: Sequence[Located] = (),
    rules: str | Derived | None = None,
) -> list[MatchResult]:
    """Replay the loaded matches (all, or ``ids``), store the results, and return them all,
    per-stroke outcomes included (:func:`stream_db` does the same without holding them)."""
    results: list[MatchResult] = []

    def keep(chunk: Sequence[MatchResult | Rendered]) -> None:
        results.extend(m for m in chunk if isinstance(m, MatchResult))  # no renderer: every one

    stream_db(con, ids, workers, progress, corrections, rules, each=keep, slim=False)
    return results


def stream_db(
    con: duckdb.DuckDBPyConnection,
    ids: Sequence[str] | None = None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    corrections: Sequence[Located] = (),
    rules: str | Derived | None = None,
    *,
    each: Callable[[Sequence[MatchResult | Rendered]], None] | None = None,
    slim: bool = True,
    render: Render | None = None,
    watch: Watch | None = None,
) -> Replayed:
    """Replay the loaded matches (all, or ``ids``) and store the results chunk by chunk.

    ``each(results)`` receives each chunk's results in match id order, after its rows were
    handed to the writer, so the caller can print them and let them go: neither this
    function nor the store holds every result (the rows are committed under a new
    generation as they come, and DuckDB's memory is capped meanwhile). With ``slim`` the
    results come without their per-stroke outcomes (they are in ``replay_strokes``); with
    ``render`` as their output (:class:`Rendered`), made in the workers that replayed them. The
    rows of every table are the same whatever the number of workers, and readers see the
    new results only once all are written: on any error (or an interruption) the previous
    results stay, and ``each`` is not called again once an error was seen (every unreadable
    record is still reported: InputError; else the first match, by id, that cannot be
    replayed: ReplayFailed).

    With ``rules`` the matches replay under that ruleset instead of the recorded one, and
    nothing is stored: the stored results stay those of the rules the matches were played under.

    ``progress(done, total)`` counts records replayed out of the records to replay.
    ``watch``: the cores watched since before the store was opened, for the default number
    of workers (:func:`default_workers`; else they are watched when it is decided).
    ``corrections`` are applied to their matches before the replay (docs/format.md section 6);
    one that names a match not being replayed is an InputError, like one that names no stroke.
    """
    listed = listed_matches(con, ids)
    chosen = listed.column("match_id")
    by_match = _corrections_by_match(chosen, corrections)
    total = int(pc.sum(listed.column("records")).as_py() or 0)
    step = _counter(total, progress)
    # No more workers than matches: starting a process costs more than a short match.
    n = min(workers if workers is not None else default_workers(total, watch=watch), max(listed.num_rows, 1))
    with threads_held(con, cores_left(n)) as threads:
        # The records stream from a cursor of their own: the writes go on ``con`` meanwhile.
        reader = con.cursor()
        size = part_matches(listed.num_rows, n)
        stored = ReadAhead(stored_chunks(reader, listed, chunk=size), READ_AHEAD // size, name="cuelog-reader")
        try:
            parts = (_corrected(part, by_match) for part in stored)
            store = rules is None
            chunks = _chunks(parts, n, step, rules=rules, tabulate=store, slim=slim, render=render)
            if not store:
                with memory_capped(con):
                    return _consume(chunks, None, each)
            # Under the same memory cap while it streams; the shot summaries of its last
            # transaction, with no replay beside them, get every thread back.
            with ResultWriter(con, chosen, every_match=not ids, written=threads.release) as writer:
                return _consume(chunks, writer, each)
        finally:
            stored.close()  # before its cursor: a read stopped half-way releases its query first
            reader.close()


READ_AHEAD = 512
"""Matches read ahead of the replay (in parts of :func:`part_matches`): about one group of
records (the reads' ``group``), so the next group's query runs while the current one replays."""


def part_matches(matches: int, workers: int) -> int:
    """Matches a part holds, of ``matches`` replayed by ``workers``: what a worker replays
    at a time, its rows made into tables and sent back together. A part has costs of its
    own beside its matches' (its records' table opened, seven tables made and written as
    Arrow IPC, sent, read and appended by the command's process): a worker took 0.955x the
    CPU with parts of 16 matches and 0.93x with 32 against 8 (benchmarks/README.md, "replay
    --db: parts of up to 32 matches"). At most 32, so that what is in flight stays small
    (four parts a worker); at least 8, and fewer than 32 where a worker would get fewer
    than eight parts, so that the last parts do not leave a worker idle."""
    return max(8, min(32, matches // (8 * max(workers, 1))))


def _corrected(part: StoredChunk, by_match: dict[str, list[Located]]) -> StoredChunk:
    """The part with the corrections of its matches (most parts have none)."""
    fixes = tuple((m, tuple(by_match[m])) for m, _, _ in part.matches if m in by_match)
    return dataclasses.replace(part, corrections=fixes) if fixes else part


def _corrections_by_match(chosen: pa.ChunkedArray, corrections: Sequence[Located]) -> dict[str, list[Located]]:
    by_match: dict[str, list[Located]] = {}
    for item in corrections:
        by_match.setdefault(item[2].match, []).append(item)
    if not by_match:
        return by_match
    named = pa.array(sorted(by_match), type=pa.string())
    replayed = set(pc.filter(named, pc.is_in(named, value_set=chosen.combine_chunks())).to_pylist())
    stray = [
        Problem(f, line, "match", "no_such_stroke", f"match {c.match!r}", "a loaded match being replayed")
        for m, items in sorted(by_match.items())
        if m not in replayed
        for f, line, c in items
    ]
    if stray:
        raise InputError(stray)
    return by_match


def _counter(total: int, progress: Callable[[int, int], None] | None) -> Callable[[int], None] | None:
    if progress is None:
        return None
    state = {"done": 0}

    def step(k: int) -> None:
        state["done"] += k
        progress(state["done"], total)

    return step


def _consume(
    chunks: Iterable[Tabulated],
    writer: ResultWriter | None,
    each: Callable[[Sequence[MatchResult | Rendered]], None] | None,
) -> Replayed:
    """Write and hand on each chunk as it comes; after an error, only collect the errors."""
    failures: list[InputError | ReplayFailed] = []
    matches = strokes = 0
    for outcomes, tables, count in chunks:
        failures.extend(o for o in outcomes if isinstance(o, (InputError, ReplayFailed)))
        if failures:
            continue
        results = [o for o in outcomes if isinstance(o, (MatchResult, Rendered))]
        if writer is not None and tables is not None:
            writer.append(tables)
        matches += len(results)
        strokes += count
        if each is not None:
            each(results)
    _raise_first(failures)
    return Replayed(matches=matches, strokes=strokes)
