"""``cuelog replay --parquet DIR --scheduler ADDRESS|local[:N] --out DIR``: the replay on Dask.

Kept apart from ``cuelog/cli/replay.py`` (which only dispatches here): Dask is an optional
extra, imported when this mode runs, and its absence is a clear exit 2.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import typer
from rich.markup import escape
from rich.progress import MofNCompleteColumn, Progress, TimeRemainingColumn

from cuelog.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_FINDINGS,
    EXIT_OK,
    err_console,
    fail,
    out_console,
    print_problems,
    replay_refusals,
    stderr_progress,
)
from cuelog.diff import MatchDiff, Selection
from cuelog.distributed.diffs import DiffOutcome
from cuelog.distributed.layout import part_name
from cuelog.distributed.task import PartitionOutcome
from cuelog.errors import InputError
from cuelog.ingest.corrections import read_corrections
from cuelog.replay.derived import Derived
from cuelog.rulesfile import resolve_rules


def _bar(what: str = "replaying partitions") -> Progress:
    """The partitions done out of all, on a terminal's stderr (the callers ask for one only there)."""
    return stderr_progress(what, MofNCompleteColumn(), TimeRemainingColumn())


def _progress(bar: Progress | None) -> Callable[[PartitionOutcome | DiffOutcome, int, int], None]:
    """The callback fed by task completions: a bar on a terminal, one line per partition elsewhere
    (a cluster job's log keeps them)."""
    task = bar.add_task("replay", total=None) if bar is not None else None

    def step(outcome: PartitionOutcome | DiffOutcome, done: int, total: int) -> None:
        if bar is not None and task is not None:
            bar.update(task, completed=done, total=total)
            return
        state = "done" if outcome.ok else "FAILED"
        if isinstance(outcome, PartitionOutcome):
            counts = f"{outcome.matches} match(es), {outcome.strokes} stroke(s)"
        else:
            counts = f"{len(outcome.matches)} match(es) compared"
        err_console.print(
            f"partition {done}/{total} {part_name(outcome.part)} {state}: {counts}", highlight=False, soft_wrap=True
        )

    return step


def _report(outcomes: list[PartitionOutcome], out: str, as_json: bool) -> NoReturn:
    failed = [o for o in outcomes if not o.ok]
    findings = sum(o.findings for o in outcomes)
    matches = sum(o.matches for o in outcomes)
    if as_json:
        doc = {
            "out": out,
            "ok": not failed,
            "matches": matches,
            "strokes": sum(o.strokes for o in outcomes),
            "findings": findings,
            "partitions": [o.to_dict() for o in outcomes],
        }
        sys.stdout.write(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    else:
        for o in failed:
            for message in o.failures:
                err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
            if o.problems:
                print_problems(list(o.problems), as_json=False)
        out_console().print(
            f"replayed {matches} match(es) in {len(outcomes) - len(failed)} of {len(outcomes)} partition(s): "
            f"{findings} finding(s); results in {out}",
            soft_wrap=True,
            markup=False,
        )
    if failed:
        raise typer.Exit(EXIT_BAD_INPUT)
    raise typer.Exit(EXIT_FINDINGS if findings else EXIT_OK)


def replay_parquet(
    parquet: str, scheduler: str, out: str, as_json: bool, corrections: list[Path], rules: str | None = None
) -> NoReturn:
    """Run the replay of a Parquet dataset on a Dask scheduler (under ``rules``, an id or a
    ruleset file, when given) and report it; exits 0/1/2."""
    from cuelog.distributed.driver import Scheduler, check, client
    from cuelog.distributed.driver import replay_parquet as run
    from cuelog.distributed.layout import DatasetError, MissingExtra

    try:
        where = Scheduler.parse(scheduler)
        check(parquet, out)
        fixes = [item for path in corrections for item in read_corrections(path)]
        chosen = resolve_rules(rules) if rules is not None else None
        with client(where) as c:
            bar = _bar() if err_console.is_terminal and not as_json else None
            with bar if bar is not None else contextlib.nullcontext():
                outcomes = run(c, parquet, out, _progress(bar), corrections=fixes, rules=chosen)
    except DatasetError as exc:
        fail(str(exc), "bad_input")
    except MissingExtra as exc:
        fail(str(exc), "missing_extra")
    except InputError as exc:
        print_problems(exc.problems, as_json=as_json)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    except OSError as exc:  # the scheduler or the storage went away mid-run (Dask's CommClosedError too)
        fail(
            f"the replay on {scheduler} stopped: {type(exc).__name__}: {exc}; results in {out} are partial, run it again",
            "replay_failed",
        )
    _report(outcomes, out, as_json)


def diff_dataset(
    dataset: str,
    scheduler: str,
    new: str | Derived,
    old: str | Derived | None,
    matches: list[str],
    events: list[str],
    as_json: bool,
) -> tuple[Selection, list[MatchDiff]]:
    """The rule makers' diff of a Parquet dataset on a Dask scheduler; exits 2 on a bad dataset,
    scheduler or match (as ``cuelog diff --db`` does on a bad database)."""
    from cuelog.distributed.driver import Scheduler, client, diff_parquet
    from cuelog.distributed.layout import DatasetError, MissingExtra

    try:
        where = Scheduler.parse(scheduler)
        with client(where) as c:
            bar = _bar("comparing partitions") if err_console.is_terminal and not as_json else None
            with replay_refusals(), bar if bar is not None else contextlib.nullcontext():
                return diff_parquet(
                    c, dataset, new, old, ids=matches or None, events=events or None, progress=_progress(bar)
                )
    except DatasetError as exc:
        fail(str(exc), "bad_input")
    except MissingExtra as exc:
        fail(str(exc), "missing_extra")
    except OSError as exc:  # the scheduler or the storage went away mid-run (Dask's CommClosedError too)
        fail(f"the diff on {scheduler} stopped: {type(exc).__name__}: {exc}", "replay_failed")
