"""One partition's replay: a plain function a worker runs, given paths and a number.

Nothing but the dataset's URL, the output's URL and the partition number crosses the wire
to the worker; it reads its partition from the shared storage, replays every match with
the engines (the same row building as ``cuelog replay --db``, so the bytes match), writes
the results as Parquet in the same layout, and sends back a small summary.

A partition is written whole or not at all: a match that cannot be replayed (a record
that does not decode, an unknown ruleset, a match held twice) fails its partition, which
is reported with the match and its file, and its old results are removed so none go stale.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import pyarrow as pa

from cuelog.distributed.layout import DatasetError, Storage, part_name, read_clock, read_partition
from cuelog.distributed.rules import RulesSpec, from_spec, label
from cuelog.errors import InputError, Problem
from cuelog.ingest.corrections import Located

# The one place the cluster replay reaches the in-process pipeline and the store: their row building is
# reused as it is, so the bytes match those of `cuelog replay --db`.
from cuelog.pipeline import ReplayFailed, replay_loaded
from cuelog.replay import UnknownRuleset
from cuelog.replay.derived import Derived
from cuelog.replay.model import MatchResult
from cuelog.replay.params import BadParameter
from cuelog.replay.rulesets import ruleset
from cuelog.store.reads import LoadedMatch
from cuelog.store.results import REPLAY_TABLES, result_tables

RESULT_FILE = "data.parquet"
COPIED_TABLES = ("matches", "shot_clock")
"""Loaded tables copied beside the results, so a report over the results needs nothing else."""
RESULT_TABLES = (*REPLAY_TABLES, *COPIED_TABLES)
"""Every table of a results dataset."""


@dataclass(frozen=True, slots=True)
class PartitionOutcome:
    """What a worker sends back: counts, and what failed (nothing written then)."""

    part: int
    matches: int = 0
    records: int = 0
    strokes: int = 0
    findings: int = 0
    problems: tuple[Problem, ...] = ()
    """Records that do not decode, by file and line."""
    failures: tuple[str, ...] = ()
    """Why the partition failed, each naming the match and its file."""

    @property
    def ok(self) -> bool:
        return not self.problems and not self.failures

    def to_dict(self) -> dict[str, object]:
        return {
            "partition": part_name(self.part),
            "ok": self.ok,
            "matches": self.matches,
            "records": self.records,
            "strokes": self.strokes,
            "findings": self.findings,
            "failures": list(self.failures),
            "problems": [p.to_dict() for p in self.problems],
        }


def _loaded(matches: pa.Table, records: pa.Table | None) -> Iterator[LoadedMatch]:
    """The partition's matches as the replay pipeline reads them from a database; a match
    without records comes last with none (reported: no match record), never skipped."""
    files = dict(zip(matches.column("match_id").to_pylist(), matches.column("path").to_pylist(), strict=True))
    if records is None:
        records = pa.table({"match_id": pa.array([], pa.string()), "seq": pa.array([], pa.int32())})
        records = records.append_column("line", pa.array([], pa.int32())).append_column(
            "body", pa.array([], pa.string())
        )
    ordered = records.sort_by([("match_id", "ascending"), ("seq", "ascending")])
    current: str | None = None
    lines: list[tuple[int, str]] = []
    cols = (ordered.column(c).to_pylist() for c in ("match_id", "line", "body"))
    for match_id, line, body in zip(*cols, strict=True):
        if match_id != current:
            if current is not None:
                yield LoadedMatch(current, str(files.get(current, current)), tuple(lines))
            current, lines = match_id, []
        lines.append((line, body))
    if current is not None:
        yield LoadedMatch(current, str(files.get(current, current)), tuple(lines))
    held = set(records.column("match_id").to_pylist())
    for match_id in sorted(set(files) - held):
        yield LoadedMatch(match_id, str(files[match_id]), ())


def _duplicates(matches: pa.Table) -> list[str]:
    ids = matches.column("match_id").to_pylist()
    paths = matches.column("path").to_pylist()
    seen: dict[str, list[str]] = {}
    for match_id, path in zip(ids, paths, strict=True):
        seen.setdefault(match_id, []).append(str(path))
    return [
        f"match {m!r} is held {len(p)} times in the partition (files {', '.join(p)})"
        for m, p in sorted(seen.items())
        if len(p) > 1
    ]


SHOT_CLOCK_SCHEMA = pa.schema(
    [
        ("match_id", pa.string()),
        ("frame", pa.int32()),
        ("n", pa.int32()),
        ("shot_s", pa.float64()),
        ("paused_s", pa.float64()),
        ("limit_s", pa.float64()),
        ("source", pa.string()),
    ]
)


def _fail(
    out: Storage, part: int, problems: tuple[Problem, ...] = (), failures: tuple[str, ...] = ()
) -> PartitionOutcome:
    for table in RESULT_TABLES:
        out.delete_dir(table, part_name(part))
    return PartitionOutcome(part, problems=problems, failures=failures)


def _write(out: Storage, part: int, tables: dict[str, pa.Table]) -> None:
    for name, table in tables.items():
        # A worker killed while writing leaves its temporary file; the retry removes it.
        out.clear_temporary(name, part_name(part))
        out.write_table(table, name, part_name(part), RESULT_FILE)


def _corrected(loaded: list[LoadedMatch], corrections: tuple[Located, ...]) -> tuple[list[LoadedMatch], list[Problem]]:
    """Each match with its officials' corrections (docs/format.md section 6); a correction naming a
    match the partition does not hold is a problem of the corrections file, as with --db."""
    by_match: dict[str, list[Located]] = {}
    for item in corrections:
        by_match.setdefault(item[2].match, []).append(item)
    held = {lm.match_id for lm in loaded}
    stray = [
        Problem(f, line, "match", "no_such_stroke", f"match {c.match!r}", "a loaded match being replayed")
        for m, items in sorted(by_match.items())
        if m not in held
        for f, line, c in items
    ]
    return [replace(lm, corrections=tuple(by_match.get(lm.match_id, ()))) for lm in loaded], stray


@dataclass(frozen=True, slots=True)
class Partition:
    """One partition of a loaded dataset as a task reads it."""

    matches: pa.Table
    records: pa.Table | None
    clock: pa.Table | None
    loaded: list[LoadedMatch]


def read_loaded(src: Storage, part: int) -> Partition | tuple[str, ...]:
    """Partition ``part`` of the loaded dataset, its matches as the replay reads them; or why
    it cannot be replayed (an unreadable file, no matches file, a match held twice)."""
    try:
        matches = read_partition(src, "matches", part)
        records = read_partition(src, "records", part)
        clock = read_clock(src, part)
    except DatasetError as exc:
        return (str(exc),)
    if matches is None:
        return (f"{src.path('matches', part_name(part))}: no matches file",)
    if dupes := _duplicates(matches):
        return tuple(dupes)
    return Partition(matches, records, clock, list(_loaded(matches, records)))


def _other_discipline(read: Partition, rules: str | Derived) -> tuple[str, ...]:
    """The partition's matches that a ruleset of another discipline cannot replay (refused as
    the in-process replay under ``--rules`` refuses them), each with its file."""
    rid = rules.id if isinstance(rules, Derived) else rules
    discipline = ruleset(rid).discipline
    cols = (read.matches.column(c).to_pylist() for c in ("match_id", "rules", "path"))
    return tuple(
        f"match {m!r} ({path}): played under {recorded!r}, it cannot be replayed under {rid!r}, a ruleset of "
        "another discipline; replay a dataset of one discipline under --rules"
        for m, recorded, path in sorted(zip(*cols, strict=True))
        if str(recorded).split("/", 1)[0] != discipline
    )


def replay_partition(
    source: str, out: str, part: int, corrections: tuple[Located, ...] = (), rules: RulesSpec | None = None
) -> PartitionOutcome:
    """Replay partition ``part`` of the loaded dataset at ``source`` into the results at ``out``,
    with the officials' ``corrections`` of its matches applied first, under ``rules`` (a ruleset
    sent as data, :mod:`cuelog.distributed.rules`) instead of the recorded one when given."""
    src, dst = Storage.open(source), Storage.open(out)
    read = read_loaded(src, part)
    if not isinstance(read, Partition):
        return _fail(dst, part, failures=read)
    try:
        chosen = from_spec(rules) if rules is not None else None
    except (UnknownRuleset, LookupError, BadParameter, ValueError) as exc:
        return _fail(dst, part, failures=(f"{part_name(part)}: the ruleset {label(rules or {})!r}: {exc}",))
    if chosen is not None and (others := _other_discipline(read, chosen)):
        return _fail(dst, part, failures=others)
    loaded, stray = _corrected(read.loaded, corrections)
    outcomes = [replay_loaded(lm, chosen) for lm in loaded]
    problems = (*stray, *(p for o in outcomes if isinstance(o, InputError) for p in o.problems))
    failed = tuple(
        str(o) if isinstance(o, ReplayFailed) else f"match {lm.match_id!r} ({lm.file}): {len(o.problems)} problem(s)"
        for lm, o in zip(loaded, outcomes, strict=True)
        if not isinstance(o, MatchResult)
    )
    if problems or failed:
        return _fail(dst, part, problems=problems, failures=failed)
    results = [o for o in outcomes if isinstance(o, MatchResult)]
    tables = result_tables(results)
    clock = SHOT_CLOCK_SCHEMA.empty_table() if read.clock is None else read.clock.select(SHOT_CLOCK_SCHEMA.names)
    tables["matches"] = read.matches.sort_by("match_id")
    tables["shot_clock"] = clock.cast(SHOT_CLOCK_SCHEMA).sort_by(
        [("match_id", "ascending"), ("frame", "ascending"), ("n", "ascending")]
    )
    _write(dst, part, tables)
    return PartitionOutcome(
        part,
        matches=len(results),
        records=0 if read.records is None else read.records.num_rows,
        strokes=tables["replay_strokes"].num_rows,
        findings=tables["replay_findings"].num_rows,
    )
