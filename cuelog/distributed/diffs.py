"""The rule makers' diff over a Parquet dataset: one partition's matches under two rulesets.

The client chooses the matches (``select``: the same choice as ``cuelog diff --db``, read
from the dataset's ``matches`` files through DuckDB) and sends each task its partition
number, the ids chosen there and both rulesets as data. The worker reads the partition,
replays each chosen match under both rulesets with the in-process diff's own code
(``cuelog.diff.diff_loaded``) and sends back the frame comparisons, small records: the
document the client builds from them is the same bytes as ``cuelog diff --db``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import duckdb

from cuelog import diff as d
from cuelog.distributed.layout import LOADED, Storage, partition_of, read_manifest
from cuelog.distributed.rules import RulesSpec, from_spec, label
from cuelog.distributed.task import Partition, read_loaded
from cuelog.distributed.views import loaded_views
from cuelog.errors import InputError, Problem
from cuelog.pipeline import ReplayFailed
from cuelog.replay import UnknownRuleset
from cuelog.replay.params import BadParameter


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """One match's diff, or why it could not be compared (as data: exceptions do not travel)."""

    match: str
    diff: d.MatchDiff | None = None
    problems: tuple[Problem, ...] = ()
    failure: str | None = None


@dataclass(frozen=True, slots=True)
class DiffOutcome:
    """What a diff task sends back: its matches' outcomes, or why the partition failed."""

    part: int
    matches: tuple[MatchOutcome, ...] = ()
    failures: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.failures and all(m.diff is not None for m in self.matches)


def diff_partition(
    source: str, part: int, wanted: tuple[str, ...], new: RulesSpec, old: RulesSpec | None
) -> DiffOutcome:
    """Compare the ``wanted`` matches of partition ``part`` under ``old`` (None: as recorded)
    and ``new``."""
    read = read_loaded(Storage.open(source), part)
    if not isinstance(read, Partition):
        return DiffOutcome(part, failures=read)
    try:
        rules_new = from_spec(new)
        rules_old = from_spec(old) if old is not None else None
    except (UnknownRuleset, LookupError, BadParameter, ValueError) as exc:
        return DiffOutcome(part, failures=(f"the ruleset {label(new)!r}: {exc}",))
    chosen = set(wanted)
    out = []
    for lm in read.loaded:
        if lm.match_id not in chosen:
            continue
        got = d.diff_loaded(lm, rules_new, rules_old)
        if isinstance(got, InputError):
            out.append(MatchOutcome(lm.match_id, problems=tuple(got.problems)))
        elif isinstance(got, ReplayFailed):
            out.append(MatchOutcome(lm.match_id, failure=str(got)))
        else:
            out.append(MatchOutcome(lm.match_id, diff=got))
    missing = chosen - {m.match for m in out}
    failures = tuple(f"match {m!r}: not in partition {part} of {source}" for m in sorted(missing))
    return DiffOutcome(part, tuple(out), failures)


def select(
    source: str, new: d.Rules, old: d.Rules | None, ids: Sequence[str] | None, events: Sequence[str] | None
) -> tuple[d.Selection, dict[int, tuple[str, ...]]]:
    """The matches to compare (as ``cuelog diff --db`` chooses them) and the ids of each
    partition. Raises DatasetError, ReplayFailed (rulesets of two disciplines), NoMatches,
    UnknownMatch."""
    from cuelog.replay.derived import Derived, install
    from cuelog.replay.rulesets import ruleset

    new_id = install(new) if isinstance(new, Derived) else new
    if old is not None:
        old_id = install(old) if isinstance(old, Derived) else old
        if ruleset(old_id).discipline != ruleset(new_id).discipline:
            raise ReplayFailed(f"{old_id!r} and {new_id!r} are rulesets of different disciplines")
    partitions = read_manifest(Storage.open(source), LOADED)
    con: duckdb.DuckDBPyConnection = loaded_views(source, ("matches",))
    try:
        selection = d.select(con, ruleset(new_id).discipline, ids, events)
    finally:
        con.close()
    by_part: dict[int, list[str]] = {}
    for match_id in selection.compared:
        by_part.setdefault(partition_of(match_id, partitions), []).append(match_id)
    return selection, {part: tuple(items) for part, items in sorted(by_part.items())}


def collect(outcomes: Sequence[DiffOutcome]) -> list[d.MatchDiff]:
    """Every match's diff, by match id; raises as the in-process diff does (InputError with
    every problem, else the first match that failed, by id), after a partition's own failure
    (ReplayFailed naming the partition's file)."""
    failures = [f for o in outcomes for f in o.failures]
    if failures:
        raise ReplayFailed("; ".join(failures))
    matches = sorted((m for o in outcomes for m in o.matches), key=lambda m: m.match)
    return d.collect_outcomes(
        [
            m.diff
            if m.diff is not None
            else InputError(list(m.problems))
            if m.problems
            else ReplayFailed(m.failure or f"match {m.match!r}")
            for m in matches
        ]
    )
