"""The Dask side: one task per partition, submitted to a scheduler, results collected as
they complete. Dask is imported here only (``pip install 'cuelog[distributed]'``).

A worker that dies takes its task with it; the scheduler gives the task to another worker
(up to ``distributed.scheduler.allowed-failures`` times), and since a partition is written
whole under fixed names, a rerun leaves the same bytes.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from cuelog.diff import MatchDiff, Selection
from cuelog.distributed.diffs import DiffOutcome, collect, diff_partition
from cuelog.distributed.diffs import select as select_diff
from cuelog.distributed.layout import (
    LOADED,
    RESULTS,
    DatasetError,
    MissingExtra,
    Storage,
    parse_part,
    part_name,
    partition_of,
    partitions_present,
    read_manifest,
    read_partition,
    write_manifest,
)
from cuelog.distributed.rules import RulesSpec, to_spec
from cuelog.distributed.task import RESULT_TABLES, PartitionOutcome, replay_partition
from cuelog.errors import InputError, Problem
from cuelog.ingest.cores import usable_cores
from cuelog.ingest.corrections import Located
from cuelog.replay.derived import Derived


@dataclass(frozen=True, slots=True)
class Scheduler:
    """Where tasks run: a local cluster of ``workers`` processes, or a scheduler's address."""

    address: str | None = None
    workers: int = 0

    @classmethod
    def parse(cls, spec: str) -> Scheduler:
        """``local`` (a process per core), ``local:N``, or an address (``tcp://host:8786``)."""
        if spec == "local":
            return cls(None, 0)
        if spec.startswith("local:"):
            n = spec[6:]
            if not n.isdigit() or int(n) < 1:
                raise DatasetError(f"--scheduler {spec!r}: expected local:N with N a number of workers, 1 or more")
            return cls(None, int(n))
        if "://" not in spec and ":" not in spec:
            raise DatasetError(f"--scheduler {spec!r}: expected local, local:N or a scheduler address host:port")
        return cls(spec, 0)


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise MissingExtra("the replay on a cluster needs Dask: pip install 'cuelog[distributed]'") from None
    return distributed


@contextlib.contextmanager
def client(scheduler: Scheduler) -> Iterator[Any]:
    """A Dask client: on a local cluster of worker processes, or connected to a running scheduler."""
    distributed = _dask()
    if scheduler.address is not None:
        try:
            c = distributed.Client(scheduler.address, timeout="20s")
        except OSError as exc:
            raise DatasetError(f"cannot reach the Dask scheduler at {scheduler.address}: {exc}") from None
        with c:
            yield c
        return
    n = scheduler.workers or usable_cores()
    with (
        distributed.LocalCluster(
            n_workers=n, processes=True, threads_per_worker=1, dashboard_address=":0", silence_logs=40
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


T = TypeVar("T")

Progress = Callable[[PartitionOutcome, int, int], None]
"""Called in the driver as each partition completes: its outcome, partitions done, total."""


def check(source: str, out: str) -> list[int]:
    """Check the loaded dataset and the results directory before any cluster starts; the
    partitions to replay. Raises DatasetError."""
    src, dst = Storage.open(source), Storage.open(out)
    read_manifest(src, LOADED)
    if src.root == dst.root and type(src.fs) is type(dst.fs):
        raise DatasetError(f"--out {out}: the results need their own directory, not the loaded dataset's")
    if dst.exists() and dst.listdir():
        read_manifest(dst, RESULTS)
    present = partitions_present(src)
    if not present:
        raise DatasetError(f"{source}: the dataset holds no matches")
    return present


def _prepare(source: str, out: str, rules: RulesSpec | None) -> list[int]:
    """Check both datasets, write the results' manifest (with the ruleset replayed under, when
    not the recorded one), drop results of partitions the source no longer has; the
    partitions to replay."""
    present = check(source, out)
    partitions = read_manifest(Storage.open(source), LOADED)
    dst = Storage.open(out)
    write_manifest(dst, RESULTS, partitions, {"rules": rules} if rules is not None else {})
    for table in RESULT_TABLES:
        for name in dst.listdir(table):
            part = parse_part(name)
            if part is not None and part not in present:
                dst.delete_dir(table, name)
    return present


def _corrections_by_part(source: str, corrections: Sequence[Located]) -> dict[int, tuple[Located, ...]]:
    """The corrections of each partition's matches (sent with its task: a few rows of input).
    Raises InputError, before any task runs, for one naming a match the dataset does not hold
    (only the partitions corrected are read, and only their match ids)."""
    src = Storage.open(source)
    partitions = read_manifest(src, LOADED)
    by_part: dict[int, list[Located]] = {}
    for item in corrections:
        by_part.setdefault(partition_of(item[2].match, partitions), []).append(item)
    stray: list[Problem] = []
    for part, items in sorted(by_part.items()):
        matches = read_partition(src, "matches", part)
        held = set(matches.column("match_id").to_pylist()) if matches is not None else set()
        stray += [
            Problem(f, line, "match", "no_such_stroke", f"match {c.match!r}", "a loaded match being replayed")
            for f, line, c in items
            if c.match not in held
        ]
    if stray:
        raise InputError(stray)
    return {part: tuple(items) for part, items in by_part.items()}


def replay_parquet(
    c: Any,
    source: str,
    out: str,
    progress: Progress | None = None,
    order: list[int] | None = None,
    corrections: Sequence[Located] = (),
    rules: str | Derived | None = None,
) -> list[PartitionOutcome]:
    """Replay every partition of ``source`` on the cluster behind client ``c`` into ``out``.

    One task per partition, submitted in ``order`` (default: partition order; the output
    does not depend on it). Returns every partition's outcome, by partition. A task that
    raises (not a data problem: those come back as outcomes) is reported as a failed
    partition naming it; the others still complete. ``rules`` (an id or a ruleset file's
    derivation) replaces every match's recorded ruleset; it is sent as data.
    """
    # Workers resolve nothing against the client's directory: local paths go out absolute.
    source, out = (u if "://" in u else os.path.abspath(u) for u in (source, out))
    fixes = _corrections_by_part(source, corrections)
    spec = to_spec(rules) if rules is not None else None
    present = _prepare(source, out, spec)
    submitted = order if order is not None else present
    if sorted(submitted) != present:
        raise DatasetError("order: expected every partition of the dataset once")
    calls = {part: (source, out, part, fixes.get(part, ()), spec) for part in submitted}

    def failed(part: int, message: str) -> PartitionOutcome:
        return PartitionOutcome(part, failures=(f"{part_name(part)} of {source}: {message}",))

    return _run_tasks(c, replay_partition, calls, "replay", failed, progress)


def _run_tasks(
    c: Any,
    fn: Callable[..., T],
    calls: dict[int, tuple[Any, ...]],
    what: str,
    failed: Callable[[int, str], T],
    progress: Callable[[T, int, int], None] | None,
) -> list[T]:
    """``fn(*calls[part])`` as one task per partition, submitted in the order of ``calls``;
    the outcomes by partition. A task that raises (not a data problem: those come back as
    outcomes) becomes ``failed(part, message)``; the others still complete."""
    distributed = _dask()
    run = uuid.uuid4().hex[:8]  # task names unique per run: a name already known to Dask means its old result
    futures = {
        c.submit(fn, *args, key=f"cuelog-{what}-{run}-{part_name(part)}", pure=False): part
        for part, args in calls.items()
    }
    outcomes: list[tuple[int, T]] = []
    for future in distributed.as_completed(futures):
        part = futures[future]
        try:
            outcome = future.result()
        except Exception as exc:  # the task's own exception, re-raised here by Dask
            outcome = failed(part, f"{type(exc).__name__}: {exc}")
        outcomes.append((part, outcome))
        if progress is not None:
            progress(outcome, len(outcomes), len(futures))
    return [o for _, o in sorted(outcomes, key=lambda po: po[0])]


def diff_parquet(
    c: Any,
    source: str,
    new: str | Derived,
    old: str | Derived | None = None,
    *,
    ids: Sequence[str] | None = None,
    events: Sequence[str] | None = None,
    progress: Callable[[DiffOutcome, int, int], None] | None = None,
) -> tuple[Selection, list[MatchDiff]]:
    """The rule makers' diff of the dataset at ``source`` on the cluster behind client ``c``:
    what ``cuelog.diff.diff_db`` gives for the same matches loaded in a database. One task
    per partition holding a chosen match; the rulesets go as data. Raises as ``diff_db``
    does, and ReplayFailed naming a partition that could not be read."""
    source = source if "://" in source else os.path.abspath(source)
    selection, by_part = select_diff(source, new, old, ids, events)
    spec_new, spec_old = to_spec(new), (to_spec(old) if old is not None else None)
    calls = {part: (source, part, wanted, spec_new, spec_old) for part, wanted in by_part.items()}

    def failed(part: int, message: str) -> DiffOutcome:
        return DiffOutcome(part, failures=(f"{part_name(part)} of {source}: {message}",))

    outcomes = _run_tasks(c, diff_partition, calls, "diff", failed, progress)
    return selection, collect(outcomes)
